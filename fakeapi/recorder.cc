#include "kubesim/fakeapi/recorder.h"

namespace kubesim::fakeapi {

nlohmann::json RecordedCall::to_json() const {
  nlohmann::json j = {
      {"seq", seq},
      {"receivedNs", received.time_since_epoch().count()},
      {"answeredNs", answered.time_since_epoch().count()},
      {"process", process},
      {"verb", to_string(verb)},
      {"group", resource.group},
      {"version", resource.version},
      {"resource", resource.resource},
      {"namespace", ns},
      {"name", name},
      {"code", code},
      {"revision", revision},
  };
  if (!subresource.empty()) j["subresource"] = subresource;
  if (reason != api::StatusReason::kUnknown) j["reason"] = api::to_string(reason);
  if (!fault.empty()) j["fault"] = fault;
  return j;
}

Recorder::Recorder(sim::Loop& loop, std::size_t capacity) : loop_(&loop), capacity_(capacity) {}

void Recorder::complete(const Request& request, Response& response) {
  if (!enabled_ || capacity_ == 0) return;
  RecordedCall call;
  call.seq = next_seq_++;
  call.received = request.received;
  call.answered = loop_->now();
  call.process = request.process;
  call.verb = request.verb;
  call.resource = request.resource;
  call.ns = request.ns;
  call.name = request.name;
  if (call.name.empty() && request.verb == Verb::kCreate && response.object) {
    call.name = std::string(response.object->name());
  }
  call.subresource = request.subresource;
  call.code = response.code;
  if (response.error) call.reason = response.error->reason;
  call.revision = response.revision;
  call.fault = response.fault_rule;
  if (calls_.size() == capacity_) {
    calls_.pop_front();
    ++dropped_;
  }
  calls_.push_back(std::move(call));
}

void Recorder::clear() {
  calls_.clear();
  dropped_ = 0;
}

std::size_t Recorder::count(const std::function<bool(const RecordedCall&)>& pred) const {
  std::size_t n = 0;
  for (const RecordedCall& c : calls_) {
    if (pred(c)) ++n;
  }
  return n;
}

void Recorder::write_jsonl(std::ostream& out) const {
  for (const RecordedCall& c : calls_) out << c.to_json().dump() << '\n';
}

}  // namespace kubesim::fakeapi
