#include "fakeapi/internal/filters.h"

#include "kubesim/fakeapi/server.h"

namespace kubesim::fakeapi::internal {

Filter::Step LatencyFaults::admit(Request& request) {
  const LatencyFault* fault = faults_->fire<LatencyFault>(request);
  if (fault == nullptr || fault->latency <= sim::Duration::zero()) return Step::pass();
  return Step::delay_by(fault->latency);
}

Filter::Step ErrorFaults::admit(Request& request) {
  const FaultRule* rule = faults_->fire(FaultKind::kError, request);
  if (rule == nullptr) return Step::pass();
  Response answer = Response::failure(rule->as<ErrorFault>()->status);
  answer.fault_rule = rule->id;
  return Step::answer_with(std::move(answer));
}

Filter::Step RevisionWait::admit(Request& request) {
  const Revision wanted = read_revision(request);
  if (wanted <= store_->revision()) return Step::pass();
  return Step::wait_for_revision(wanted);
}

Filter::Step StaleReads::admit(Request& request) {
  if (request.verb != Verb::kGet && request.verb != Verb::kList) return Step::pass();
  auto answer = server_->stale_read(request, [&] { return faults_->fire<StaleReadFault>(request); });
  if (!answer) return Step::pass();
  return Step::answer_with(std::move(*answer));
}

Filter::Step ForcedGone::admit(Request& request) {
  if (request.verb != Verb::kWatch && request.verb != Verb::kList) return Step::pass();
  auto answer = server_->expired(request, [&] { return faults_->fire<ForceGoneFault>(request) != nullptr; });
  if (!answer) return Step::pass();
  return Step::answer_with(std::move(*answer));
}

}  // namespace kubesim::fakeapi::internal
