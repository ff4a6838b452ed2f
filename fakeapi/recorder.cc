#include "kubesim/fakeapi/recorder.h"

#include <algorithm>
#include <cassert>

#include <nlohmann/json.hpp>

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
  if (initial_events) j["sendInitialEvents"] = true;
  return j;
}

Recorder::Recorder(sim::Loop& loop, std::size_t capacity) : loop_(&loop), capacity_(capacity) {
  texts_.push_back(&text_numbers_.emplace("", 0).first->first);
}

std::uint32_t Recorder::text_number(std::string_view text, std::uint32_t& hint) {
  if (text.empty()) return 0;
  if (*texts_[hint] != text) {
    auto it = text_numbers_.find(text);
    if (it == text_numbers_.end()) {
      it = text_numbers_.emplace(std::string(text), static_cast<std::uint32_t>(texts_.size())).first;
      texts_.push_back(&it->first);
    }
    hint = it->second;
  }
  return hint;
}

std::uint32_t Recorder::resource_number(const api::GroupVersionResource& resource) {
  if (resources_.empty() || *resources_[resource_hint_] != resource) {
    auto it = resource_numbers_.find(resource);
    if (it == resource_numbers_.end()) {
      it = resource_numbers_.emplace(resource, static_cast<std::uint32_t>(resources_.size())).first;
      resources_.push_back(&it->first);
    }
    resource_hint_ = it->second;
  }
  return resource_hint_;
}

void Recorder::complete(const Request& request, Response& response) {
  if (!enabled_ || capacity_ == 0) return;
  std::size_t p = 0;
  if (size_ == capacity_) {
    // Full: the oldest record's slot takes the new one.
    p = head_;
    head_ = (head_ + 1) % capacity_;
    ++dropped_;
  } else {
    p = (head_ + size_) % capacity_;
    if (p / kBlockSize == blocks_.size()) {
      blocks_.push_back(std::make_unique<Kept[]>(std::min(kBlockSize, capacity_ - p)));
    }
    ++size_;
  }
  ++next_seq_;
  Kept& k = slot(p);
  k.received = request.received;
  k.answered = loop_->now();
  k.revision = response.revision;
  k.ns = request.ns;
  if (request.name.empty() && request.verb == Verb::kCreate && response.object) {
    k.name = response.object->name();
  } else {
    k.name = request.name;
  }
  k.process = text_number(request.process, process_hint_);
  k.resource = resource_number(request.resource);
  k.subresource = text_number(api::to_string(request.subresource), subresource_hint_);
  k.fault = text_number(response.fault_rule, fault_hint_);
  k.code = response.code;
  k.verb = request.verb;
  k.reason = response.error ? response.error->reason : api::StatusReason::kUnknown;
  k.initial_events =
      request.verb == Verb::kWatch && request.list_options().send_initial_events.value_or(false);
  if (listeners_.empty()) return;
  const RecordedCall call = at(size_ - 1);
  for (const Listener& listener : listeners_) listener(call);
}

RecordedCall Recorder::at(std::size_t i) const {
  assert(i < size_);
  const Kept& k = kept(i);
  RecordedCall call;
  // The kept records are the last size_ recorded, numbered up to next_seq_ - 1.
  call.seq = next_seq_ - size_ + i;
  call.received = k.received;
  call.answered = k.answered;
  call.process = *texts_[k.process];
  call.verb = k.verb;
  call.resource = *resources_[k.resource];
  call.ns = k.ns;
  call.name = k.name;
  call.subresource = *texts_[k.subresource];
  call.code = k.code;
  call.reason = k.reason;
  call.revision = k.revision;
  call.fault = *texts_[k.fault];
  call.initial_events = k.initial_events;
  return call;
}

void Recorder::clear() {
  head_ = 0;
  size_ = 0;
  dropped_ = 0;
}

std::size_t Recorder::count(const std::function<bool(const RecordedCall&)>& pred) const {
  std::size_t n = 0;
  for (const RecordedCall& c : calls()) {
    if (pred(c)) ++n;
  }
  return n;
}

void Recorder::write_jsonl(std::ostream& out) const {
  for (const RecordedCall& c : calls()) out << c.to_json().dump() << '\n';
}

}  // namespace kubesim::fakeapi
