#include "kubesim/fakeapi/internal/filters.h"

namespace kubesim::fakeapi::internal {

Filter::Step LatencyFaults::admit(Request& request) {
  const LatencyFault* fault = faults_->fire<LatencyFault>(RequestInfo::of(request));
  if (fault == nullptr || fault->latency <= sim::Duration::zero()) return Step::pass();
  return Step::delay_by(fault->latency);
}

Filter::Step ErrorFaults::admit(Request& request) {
  const FaultRule* rule = faults_->fire(FaultKind::kError, RequestInfo::of(request));
  if (rule == nullptr) return Step::pass();
  Response answer = Response::failure(rule->as<ErrorFault>()->status);
  answer.fault_rule = rule->id;
  return Step::answer_with(std::move(answer));
}

Filter::Step RevisionWait::admit(Request& request) {
  const Revision wanted = request.read_revision();
  if (wanted <= store_->revision()) return Step::pass();
  return Step::wait_for_revision(wanted);
}

}  // namespace kubesim::fakeapi::internal
