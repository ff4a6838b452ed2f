#include "kubesim/cluster/calls.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "kubesim/cluster/format.h"
#include "kubesim/fakeapi/recorder.h"

namespace kubesim::cluster {

using fakeapi::RecordedCall;
using fakeapi::Verb;

namespace {

const std::vector<Verb> kWriteVerbs = {Verb::kCreate, Verb::kUpdate, Verb::kPatch, Verb::kDelete,
                                       Verb::kDeleteCollection};

// `process` is "<group>-<index>".
bool replica_of(std::string_view process, std::string_view group) {
  if (process.size() <= group.size() + 1 || !process.starts_with(group) || process[group.size()] != '-') return false;
  const std::string_view index = process.substr(group.size() + 1);
  return std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

CallPattern& CallPattern::subresource(std::string name) {
  subresource_ = std::move(name);
  return *this;
}
CallPattern& CallPattern::in(std::string ns) {
  ns_ = std::move(ns);
  return *this;
}
CallPattern& CallPattern::named(std::string name) {
  name_ = std::move(name);
  return *this;
}
CallPattern& CallPattern::by(std::string process) {
  process_ = std::move(process);
  group_.clear();
  return *this;
}
CallPattern& CallPattern::by_group(std::string group) {
  group_ = std::move(group);
  process_.clear();
  return *this;
}
CallPattern& CallPattern::ok() {
  outcome_ = Outcome::kOk;
  return *this;
}
CallPattern& CallPattern::failed() {
  outcome_ = Outcome::kFailed;
  return *this;
}

bool CallPattern::matches(const RecordedCall& call) const {
  if (!verbs_.empty() && std::find(verbs_.begin(), verbs_.end(), call.verb) == verbs_.end()) return false;
  if (!any_resource_ &&
      (call.resource.group != resource_.group || call.resource.resource != resource_.resource)) {
    return false;
  }
  if (!subresource_.empty() && call.subresource != subresource_) return false;
  if (!ns_.empty() && call.ns != ns_) return false;
  if (!name_.empty() && call.name != name_) return false;
  if (!process_.empty() && call.process != process_) return false;
  if (!group_.empty() && !replica_of(call.process, group_)) return false;
  if (outcome_ == Outcome::kOk && !call.ok()) return false;
  if (outcome_ == Outcome::kFailed && call.ok()) return false;
  return true;
}

std::string CallPattern::describe() const {
  std::string out;
  const bool any_verb = verbs_.empty();
  const bool writes = verbs_ == kWriteVerbs;
  if (any_verb) {
    out = "any call";
  } else if (writes) {
    out = "any write";
  } else {
    for (Verb v : verbs_) out += (out.empty() ? "" : "|") + std::string(api::to_string(v));
  }
  if (!any_resource_ || !subresource_.empty()) {
    out += any_verb || writes ? " on " : " ";
    out += any_resource_ ? "*" : resource_.group_resource().to_string();
    if (!subresource_.empty()) out += "/" + subresource_;
  }
  if (!ns_.empty()) out += " in " + ns_;
  if (!name_.empty()) out += " named " + name_;
  if (!process_.empty()) out += " by " + process_;
  if (!group_.empty()) out += " by any replica of " + group_;
  if (outcome_ == Outcome::kOk) out += " answered ok";
  if (outcome_ == Outcome::kFailed) out += " answered with a failure";
  return out;
}

CallPattern Get(const api::GroupVersionResource& resource) { return CallPattern({Verb::kGet}, resource); }
CallPattern List(const api::GroupVersionResource& resource) { return CallPattern({Verb::kList}, resource); }
CallPattern Watch(const api::GroupVersionResource& resource) { return CallPattern({Verb::kWatch}, resource); }
CallPattern Create(const api::GroupVersionResource& resource) {
  return CallPattern({Verb::kCreate}, resource);
}
CallPattern Update(const api::GroupVersionResource& resource) {
  return CallPattern({Verb::kUpdate}, resource);
}
CallPattern Patch(const api::GroupVersionResource& resource) { return CallPattern({Verb::kPatch}, resource); }
CallPattern Delete(const api::GroupVersionResource& resource) {
  return CallPattern({Verb::kDelete}, resource);
}
CallPattern DeleteCollection(const api::GroupVersionResource& resource) {
  return CallPattern({Verb::kDeleteCollection}, resource);
}
CallPattern Writes(const api::GroupVersionResource& resource) { return CallPattern(kWriteVerbs, resource); }
CallPattern AnyCall(const api::GroupVersionResource& resource) { return CallPattern({}, resource); }
CallPattern AnyCall() { return CallPattern(); }

CallLog::CallLog(std::vector<RecordedCall> calls)
    : fixed_(std::make_shared<const std::vector<RecordedCall>>(std::move(calls))) {}

std::size_t CallLog::size() const {
  return recorder_ != nullptr ? recorder_->calls().size() : fixed_->size();
}

RecordedCall CallLog::operator[](std::size_t i) const {
  return recorder_ != nullptr ? recorder_->calls()[i] : (*fixed_)[i];
}

std::size_t CallLog::count(const CallPattern& pattern) const {
  std::size_t n = 0;
  for (const RecordedCall& call : *this) n += pattern.matches(call);
  return n;
}

std::vector<RecordedCall> CallLog::matching(const CallPattern& pattern) const {
  std::vector<RecordedCall> out;
  for (RecordedCall call : *this) {
    if (pattern.matches(call)) out.push_back(std::move(call));
  }
  return out;
}

std::string CallLog::format(std::size_t limit, std::string_view indent) const {
  const CallLog& log = *this;
  std::ostringstream os;
  const std::size_t n = log.size();
  const std::size_t from = n > limit ? n - limit : 0;
  if (from > 0) os << indent << "… " << from << " earlier call" << (from == 1 ? "" : "s");
  for (std::size_t i = from; i < n; ++i) {
    if (i > 0) os << "\n";
    os << indent;
    fakeapi::PrintTo(log[i], &os);
  }
  return os.str();
}

void PrintTo(const CallLog& log, std::ostream* os) {
  *os << "a log of " << log.size() << " call" << (log.size() == 1 ? "" : "s");
}

void PrintTo(const CallPattern& pattern, std::ostream* os) { *os << pattern.describe(); }

}  // namespace kubesim::cluster

namespace kubesim::fakeapi {

void PrintTo(const RecordedCall& call, std::ostream* os) {
  *os << cluster::format_instant(call.answered) << " " << (call.process.empty() ? "(unnamed)" : call.process) << " " << to_string(call.verb)
      << " " << call.resource.group_resource().to_string()
      << (call.subresource.empty() ? "" : "/" + call.subresource);
  if (!call.name.empty()) {
    *os << " " << (call.ns.empty() ? call.name : call.ns + "/" + call.name);
  } else if (!call.ns.empty()) {
    *os << " in " << call.ns;
  }
  *os << " → ";
  if (call.code == 0) {
    *os << "no answer";
  } else {
    *os << call.code;
    if (call.reason != api::StatusReason::kUnknown) *os << " " << call.reason;
  }
  if (!call.fault.empty()) *os << " (fault " << call.fault << ")";
}

}  // namespace kubesim::fakeapi
