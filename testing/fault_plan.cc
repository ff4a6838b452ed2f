// FaultPlan's builders: the statuses fail() takes, RequestFault and WatchFault (validated as they
// are called, added when their statement ends), stale reads and compaction. The report is in
// fault_plan_report.cc.
#include "kubesim/testing/fault_plan.h"

#include <memory>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <gtest/gtest.h>

#include "internal/cluster_impl.h"
#include "kubesim/api/go_duration.h"
#include "kubesim/fakeapi/faults.h"
#include "kubesim/fakeapi/server.h"

namespace kubesim::testing {
namespace {

using fakeapi::FaultKind;
using fakeapi::FaultRule;

// A builder whose setter refused its value is abandoned: its destructor, which runs while the
// exception leaves the statement, adds nothing.
[[noreturn]] void refuse(FaultPlan*& plan, const std::string& what) {
  plan = nullptr;
  throw std::invalid_argument("FaultPlan: " + what);
}

// "409 Conflict"
std::string status_text(const api::Status& status) {
  std::string text = std::to_string(status.code);
  if (status.reason != api::StatusReason::kUnknown) text += " " + std::string(api::to_string(status.reason));
  return text;
}

// The Statuses below that name a resource and an object leave both empty; a rule fills in its own.
const api::GroupResource kUnnamed{};

void set_times(FaultPlan*& plan, FaultRule& rule, std::int64_t n) {
  if (n < 1) refuse(plan, "times(" + std::to_string(n) + "): must be at least 1");
  rule.count = n;
}

void set_window(FaultPlan*& plan, FaultRule& rule, sim::Duration from, sim::Duration to) {
  const std::string call = "during(" + api::format_go_duration(from) + ", " + api::format_go_duration(to) + "): ";
  if (from < sim::Duration::zero()) refuse(plan, call + "the window cannot start in the past");
  if (to <= from) refuse(plan, call + "the window must end after it starts");
  const sim::Time now = plan->server().loop().now();
  rule.from = now + from;
  rule.until = now + to;
}

// What the rule matches, in the words of the call patterns: "update widgets/status in default".
std::string target(const FaultRule& rule) {
  if (rule.resource.empty() && rule.verbs.empty() && rule.subresource.empty()) {
    CallPattern any;
    any.in(rule.ns).named(rule.name).by(rule.process);
    return any.describe();
  }
  CallPattern pattern(rule.verbs, api::GroupVersionResource{"", "", rule.resource});
  pattern.subresource(rule.subresource).in(rule.ns).named(rule.name).by(rule.process);
  return pattern.describe();
}

// ", p=0.5, ≤6 times, 10.000s–40.000s"
std::string limits(const FaultRule& rule) {
  std::ostringstream text;
  if (rule.probability < 1.0) text << ", p=" << rule.probability;
  if (rule.count) text << ", ≤" << *rule.count << (*rule.count == 1 ? " time" : " times");
  if (rule.until) text << ", " << cluster::format_instant(rule.from.value_or(sim::Time{})) << "–" << cluster::format_instant(*rule.until);
  return text.str();
}

std::string describe_request_fault(const FaultRule& rule) {
  const auto* error = rule.as<fakeapi::ErrorFault>();
  std::string what = error != nullptr ? status_text(error->status)
                                      : "+" + api::format_go_duration(rule.as<fakeapi::LatencyFault>()->latency) + " delay";
  return target(rule) + ": " + what + limits(rule);
}

std::string describe_watch_fault(const FaultRule& rule, bool compact) {
  const auto* drop = rule.as<fakeapi::DropWatchFault>();
  const auto* coalesce = rule.as<fakeapi::CoalesceWatchFault>();
  std::string text = drop != nullptr                          ? "drop watches of "
                     : rule.kind() == FaultKind::kStallWatch ? "stall watches of "
                                                             : "coalesce watches of ";
  text += rule.resource;
  if (drop != nullptr && drop->after_events > 0) text += " after " + std::to_string(drop->after_events) + " events";
  if (coalesce != nullptr) text += " (each event held " + api::format_go_duration(coalesce->hold) + ")";
  if (!rule.process.empty()) text += " by " + rule.process;
  text += limits(rule);
  if (compact) text += ", compact";
  return text;
}

// The Status a rule answers: Conflict() and NotFoundError() name the rule's resource and object.
api::Status completed(const api::Status& status, const FaultRule& rule, const std::string& group) {
  const api::GroupResource resource{group, rule.resource};
  if (status == Conflict()) return api::new_conflict(resource, rule.name, api::kOptimisticLockErrorMsg);
  if (status == NotFoundError()) return api::new_not_found(resource, rule.name);
  return status;
}

}  // namespace

// --- Statuses, as kube-apiserver answers them -----------------------------------------------

api::Status Conflict() { return api::new_conflict(kUnnamed, "", api::kOptimisticLockErrorMsg); }

api::Status InternalError() { return api::new_internal_error("fault injected by the test"); }

// The generic registry's answer when etcd cannot be reached.
api::Status ServiceUnavailable() {
  return api::new_service_unavailable("the server is currently unable to handle the request");
}

// The max-in-flight filter's answer.
api::Status TooManyRequests(int retry_after_seconds) {
  return api::new_too_many_requests("Too many requests, please try again later.", retry_after_seconds);
}

// The timeout filter's answer to a request that ran past its deadline.
api::Status ServerTimeout() {
  return api::new_timeout("request did not complete within requested timeout - context deadline exceeded", 0);
}

api::Status NotFoundError() { return api::new_not_found(kUnnamed, ""); }

// --- RequestFault ---------------------------------------------------------------------------

RequestFault::RequestFault(FaultPlan& plan, fakeapi::FaultRule rule, std::string group)
    : plan_(&plan), rule_(std::make_unique<fakeapi::FaultRule>(std::move(rule))), group_(std::move(group)) {}

RequestFault::~RequestFault() {
  if (plan_ == nullptr) return;
  auto* error = rule_->as<fakeapi::ErrorFault>();
  const bool failing = error != nullptr && error->status.code != 0;
  if (!failing && rule_->kind() != FaultKind::kLatency) {
    ADD_FAILURE() << "FaultPlan: on(" << target(*rule_)
                  << ") needs fail(status) or delay(latency); the rule was not added";
    return;
  }
  if (failing) error->status = completed(error->status, *rule_, group_);
  plan_->add(*rule_, describe_request_fault(*rule_));
}

RequestFault& RequestFault::fail(api::Status status) {
  if (rule_->kind() == FaultKind::kLatency) refuse(plan_, "a rule takes fail() or delay(), not both; add one rule for each");
  if (status.code < 400 || status.code > 599) {
    refuse(plan_, "fail(" + status_text(status) + "): the status must have a code from 400 to 599");
  }
  rule_->effect = fakeapi::ErrorFault{std::move(status)};
  return *this;
}

RequestFault& RequestFault::delay(sim::Duration latency) {
  if (const auto* error = rule_->as<fakeapi::ErrorFault>(); error != nullptr && error->status.code != 0) {
    refuse(plan_, "a rule takes fail() or delay(), not both; add one rule for each");
  }
  if (latency <= sim::Duration::zero()) refuse(plan_, "delay(" + api::format_go_duration(latency) + "): must be positive");
  rule_->effect = fakeapi::LatencyFault{latency};
  return *this;
}

RequestFault& RequestFault::probability(double p) {
  if (!(p > 0.0 && p <= 1.0)) {
    std::ostringstream text;
    text << "probability(" << p << "): must be in (0, 1]";
    refuse(plan_, text.str());
  }
  rule_->probability = p;
  return *this;
}

RequestFault& RequestFault::times(std::int64_t n) {
  set_times(plan_, *rule_, n);
  return *this;
}

RequestFault& RequestFault::during(sim::Duration from, sim::Duration to) {
  set_window(plan_, *rule_, from, to);
  return *this;
}

RequestFault& RequestFault::id(std::string id) {
  if (id.empty()) refuse(plan_, "id(\"\"): must not be empty");
  rule_->id = std::move(id);
  return *this;
}

// --- WatchFault -----------------------------------------------------------------------------

WatchFault::WatchFault(FaultPlan& plan, fakeapi::FaultRule rule, api::GroupVersionResource resource)
    : plan_(&plan), rule_(std::make_unique<fakeapi::FaultRule>(std::move(rule))), resource_(std::move(resource)) {}

WatchFault::~WatchFault() {
  if (plan_ == nullptr) return;
  // A drop or a stall acts on one watch unless told otherwise; coalescing, on every watch.
  if (!rule_->count && !rule_->until && rule_->kind() != FaultKind::kCoalesceWatch) rule_->count = 1;
  const sim::Time now = plan_->server().loop().now();
  const bool starts_now = !rule_->from || *rule_->from <= now;
  if (compact_) plan_->compact_now();
  const std::string id = plan_->add(*rule_, describe_watch_fault(*rule_, compact_));
  if (rule_->kind() == FaultKind::kDropWatch && starts_now && rule_->process.empty()) {
    plan_->note_cut(id, plan_->server().close_watches(resource_));
  }
}

WatchFault& WatchFault::after_events(std::int64_t n) {
  auto* drop = rule_->as<fakeapi::DropWatchFault>();
  if (drop == nullptr) {
    refuse(plan_, "after_events(" + std::to_string(n) + "): only drop_watches cuts a watch after events");
  }
  if (n < 0) refuse(plan_, "after_events(" + std::to_string(n) + "): must not be negative");
  drop->after_events = n;
  return *this;
}

WatchFault& WatchFault::times(std::int64_t n) {
  set_times(plan_, *rule_, n);
  return *this;
}

WatchFault& WatchFault::by(std::string process) {
  if (process.empty()) refuse(plan_, "by(\"\"): must name a process");
  rule_->process = std::move(process);
  return *this;
}

WatchFault& WatchFault::during(sim::Duration from, sim::Duration to) {
  set_window(plan_, *rule_, from, to);
  return *this;
}

WatchFault& WatchFault::compact() {
  compact_ = true;
  return *this;
}

// --- FaultPlan: builders --------------------------------------------------------------------

RequestFault FaultPlan::on(const CallPattern& pattern) {
  // A call like the pattern's, answered ok and failed: a pattern that takes only one of them
  // (ok(), failed()) depends on the answer, which the fault is to decide.
  fakeapi::RecordedCall call;
  call.verb = pattern.verbs().empty() ? fakeapi::Verb::kGet : pattern.verbs().front();
  call.resource = pattern.resource();
  call.subresource = pattern.subresource_name();
  call.ns = pattern.ns();
  call.name = pattern.name();
  call.process = pattern.process();
  call.code = 200;
  const bool takes_ok = pattern.matches(call);
  call.code = 500;
  if (takes_ok != pattern.matches(call)) {
    throw std::invalid_argument("FaultPlan: on(" + pattern.describe() +
                                "): a fault cannot depend on the answer (ok(), failed()); it decides the answer");
  }
  FaultRule rule;
  rule.verbs = pattern.verbs();
  if (!pattern.any_resource()) rule.resource = pattern.resource().resource;
  rule.subresource = pattern.subresource_name();
  rule.ns = pattern.ns();
  rule.name = pattern.name();
  rule.process = pattern.process();
  return RequestFault(*this, std::move(rule), pattern.any_resource() ? "" : pattern.resource().group);
}

namespace {

FaultRule watch_rule(fakeapi::FaultEffect effect, const api::GroupVersionResource& resource) {
  return FaultRule{.verbs = {fakeapi::Verb::kWatch}, .resource = resource.resource, .effect = std::move(effect)};
}

}  // namespace

WatchFault FaultPlan::drop_watches(const api::GroupVersionResource& resource) {
  return WatchFault(*this, watch_rule(fakeapi::DropWatchFault{}, resource), resource);
}

WatchFault FaultPlan::stall_watches(const api::GroupVersionResource& resource) {
  return WatchFault(*this, watch_rule(fakeapi::StallWatchFault{}, resource), resource);
}

WatchFault FaultPlan::coalesce_watches(const api::GroupVersionResource& resource, sim::Duration hold) {
  if (hold <= sim::Duration::zero()) {
    throw std::invalid_argument("FaultPlan: coalesce_watches(" + resource.resource + ", " + api::format_go_duration(hold) +
                                "): the hold time must be positive");
  }
  return WatchFault(*this, watch_rule(fakeapi::CoalesceWatchFault{hold}, resource), resource);
}

void FaultPlan::stale_reads(const api::GroupVersionResource& resource, sim::Duration by) {
  if (by <= sim::Duration::zero()) {
    throw std::invalid_argument("FaultPlan: stale_reads(" + resource.resource + ", " + api::format_go_duration(by) +
                                "): the lag must be positive");
  }
  add(FaultRule{.resource = resource.resource, .effect = fakeapi::StaleReadFault{by}},
      "stale reads of " + resource.resource + " (resourceVersion \"0\" served " + api::format_go_duration(by) + " behind)");
}

void FaultPlan::compact_now() {
  server_->compact_now();
  compactions_.push_back(Compaction{server_->loop().now(), server_->revision()});
}

}  // namespace kubesim::testing
