#include "kubesim/fakeapi/faults.h"

#include <algorithm>

namespace kubesim::fakeapi {
namespace {

constexpr std::pair<FaultKind, std::string_view> kKinds[] = {
    {FaultKind::kError, "error"},           {FaultKind::kLatency, "latency"},
    {FaultKind::kDropWatch, "dropWatch"},   {FaultKind::kStallWatch, "stallWatch"},
    {FaultKind::kForceGone, "forceGone"},   {FaultKind::kStaleRead, "staleRead"},
    {FaultKind::kCoalesceWatch, "coalesceWatch"},
};

std::int64_t to_ms(sim::Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

api::Status bad_rule(const std::string& field, const std::string& problem) {
  return api::new_bad_request("fault rule: " + field + ": " + problem);
}

// Reads an optional field of type T; false (with `error` set) when present with another type.
template <class T>
bool read(const nlohmann::json& j, const char* field, std::optional<T>& out, api::Status& error) {
  auto it = j.find(field);
  if (it == j.end() || it->is_null()) return true;
  try {
    out = it->get<T>();
    return true;
  } catch (const nlohmann::json::exception&) {
    error = bad_rule(field, "wrong type");
    return false;
  }
}

}  // namespace

std::string_view to_string(FaultKind kind) {
  for (const auto& [k, name] : kKinds) {
    if (k == kind) return name;
  }
  return "";
}

std::optional<FaultKind> parse_fault_kind(std::string_view text) {
  for (const auto& [k, name] : kKinds) {
    if (name == text) return k;
  }
  return std::nullopt;
}

nlohmann::json FaultRule::to_json() const {
  nlohmann::json j = {{"id", id}, {"kind", to_string(kind)}, {"probability", probability}};
  if (!verbs.empty()) {
    j["verbs"] = nlohmann::json::array();
    for (Verb v : verbs) j["verbs"].push_back(to_string(v));
  }
  if (!resource.empty()) j["resource"] = resource;
  if (!subresource.empty()) j["subresource"] = subresource;
  if (!ns.empty()) j["namespace"] = ns;
  if (!name.empty()) j["name"] = name;
  if (!process.empty()) j["process"] = process;
  if (count) j["count"] = *count;
  if (from) j["fromMs"] = to_ms(from->time_since_epoch());
  if (until) j["untilMs"] = to_ms(until->time_since_epoch());
  switch (kind) {
    case FaultKind::kError:
      j["status"] = status.to_json();
      break;
    case FaultKind::kLatency:
      j["latencyMs"] = to_ms(latency);
      break;
    case FaultKind::kDropWatch:
      j["afterEvents"] = after_events;
      break;
    case FaultKind::kStaleRead:
      j["staleByMs"] = to_ms(stale_by);
      break;
    case FaultKind::kCoalesceWatch:
      j["coalesceMs"] = to_ms(coalesce);
      break;
    case FaultKind::kStallWatch:
    case FaultKind::kForceGone:
      break;
  }
  return j;
}

api::Result<FaultRule> FaultRule::from_json(const nlohmann::json& j) {
  if (!j.is_object()) return api::new_bad_request("fault rule: must be a JSON object");
  FaultRule rule;
  api::Status error;
  std::optional<std::string> id, kind, resource, subresource, ns, name, process;
  std::optional<double> probability;
  std::optional<std::int64_t> count, from_ms, until_ms, latency_ms, after_events, stale_ms,
      coalesce_ms;
  std::optional<std::vector<std::string>> verbs;
  if (!read(j, "id", id, error) || !read(j, "kind", kind, error) ||
      !read(j, "resource", resource, error) || !read(j, "subresource", subresource, error) ||
      !read(j, "namespace", ns, error) ||
      !read(j, "name", name, error) || !read(j, "process", process, error) ||
      !read(j, "probability", probability, error) || !read(j, "count", count, error) ||
      !read(j, "fromMs", from_ms, error) || !read(j, "untilMs", until_ms, error) ||
      !read(j, "latencyMs", latency_ms, error) || !read(j, "afterEvents", after_events, error) ||
      !read(j, "staleByMs", stale_ms, error) || !read(j, "coalesceMs", coalesce_ms, error) ||
      !read(j, "verbs", verbs, error)) {
    return error;
  }
  if (!kind) return bad_rule("kind", "required");
  auto parsed_kind = parse_fault_kind(*kind);
  if (!parsed_kind) {
    return bad_rule("kind", "unknown kind \"" + *kind +
                                "\" (error, latency, dropWatch, stallWatch, forceGone, staleRead, "
                                "coalesceWatch)");
  }
  rule.kind = *parsed_kind;
  rule.id = id.value_or("");
  for (const auto& v : verbs.value_or(std::vector<std::string>{})) {
    auto verb = parse_verb(v);
    if (!verb) return bad_rule("verbs", "unknown verb \"" + v + "\"");
    rule.verbs.push_back(*verb);
  }
  rule.resource = resource.value_or("");
  rule.subresource = subresource.value_or("");
  if (const auto slash = rule.resource.find('/'); slash != std::string::npos) {
    // "leases/status", as kubectl and RBAC name a subresource.
    if (!rule.subresource.empty()) return bad_rule("subresource", "given twice (also in resource)");
    rule.subresource = rule.resource.substr(slash + 1);
    rule.resource.resize(slash);
    if (rule.resource.empty() || rule.subresource.empty() ||
        rule.subresource.find('/') != std::string::npos) {
      return bad_rule("resource", "must be RESOURCE or RESOURCE/SUBRESOURCE");
    }
  }
  rule.ns = ns.value_or("");
  rule.name = name.value_or("");
  rule.process = process.value_or("");
  rule.probability = probability.value_or(1.0);
  if (rule.probability < 0 || rule.probability > 1) return bad_rule("probability", "must be in [0, 1]");
  if (count && *count < 0) return bad_rule("count", "must not be negative");
  rule.count = count;
  if (from_ms) rule.from = sim::Time{std::chrono::milliseconds(*from_ms)};
  if (until_ms) rule.until = sim::Time{std::chrono::milliseconds(*until_ms)};
  if (rule.from && rule.until && *rule.until < *rule.from) return bad_rule("untilMs", "before fromMs");
  switch (rule.kind) {
    case FaultKind::kError: {
      auto it = j.find("status");
      if (it == j.end()) return bad_rule("status", "required for kind error");
      auto status = api::Status::from_json(*it);
      if (!status || status->code < 400 || status->code > 599) {
        return bad_rule("status", "must be a Status with a code from 400 to 599");
      }
      rule.status = *status;
      break;
    }
    case FaultKind::kLatency:
      if (!latency_ms || *latency_ms < 0) return bad_rule("latencyMs", "required, not negative");
      rule.latency = std::chrono::milliseconds(*latency_ms);
      break;
    case FaultKind::kDropWatch:
      if (!after_events || *after_events < 0) return bad_rule("afterEvents", "required, not negative");
      rule.after_events = *after_events;
      break;
    case FaultKind::kStaleRead:
      if (!stale_ms || *stale_ms <= 0) return bad_rule("staleByMs", "required, positive");
      rule.stale_by = std::chrono::milliseconds(*stale_ms);
      break;
    case FaultKind::kCoalesceWatch:
      if (!coalesce_ms || *coalesce_ms <= 0) return bad_rule("coalesceMs", "required, positive");
      rule.coalesce = std::chrono::milliseconds(*coalesce_ms);
      break;
    case FaultKind::kStallWatch:
    case FaultKind::kForceGone:
      break;
  }
  return rule;
}

std::string FaultInjector::add(FaultRule rule) {
  if (rule.id.empty()) rule.id = "rule-" + std::to_string(next_id_++);
  remove(rule.id);
  if (auto it = firings_.find(rule.id); it != firings_.end()) firings_.erase(it);
  rules_.push_back(std::move(rule));
  return rules_.back().id;
}

bool FaultInjector::remove(std::string_view id) {
  return std::erase_if(rules_, [&](const FaultRule& r) { return r.id == id; }) > 0;
}

void FaultInjector::clear() {
  rules_.clear();
  firings_.clear();
}

std::int64_t FaultInjector::fired(std::string_view id) const {
  auto it = firings_.find(id);
  return it == firings_.end() ? 0 : it->second.count;
}

std::optional<sim::Time> FaultInjector::first_fired(std::string_view id) const {
  auto it = firings_.find(id);
  if (it == firings_.end()) return std::nullopt;
  return it->second.first;
}

bool FaultInjector::matches(const FaultRule& rule, const RequestInfo& request) const {
  if (!rule.verbs.empty() &&
      std::find(rule.verbs.begin(), rule.verbs.end(), request.verb) == rule.verbs.end()) {
    return false;
  }
  if (!rule.resource.empty() && rule.resource != request.resource) return false;
  if (!rule.subresource.empty() && rule.subresource != request.subresource) return false;
  if (!rule.ns.empty() && rule.ns != request.ns) return false;
  if (!rule.name.empty() && rule.name != request.name) return false;
  if (!rule.process.empty() && rule.process != request.process) return false;
  const sim::Time now = loop_->now();
  if (rule.from && now < *rule.from) return false;
  if (rule.until && now >= *rule.until) return false;
  if (rule.count && *rule.count <= 0) return false;
  return true;
}

const FaultRule* FaultInjector::fire(FaultKind kind, const RequestInfo& request) {
  for (auto& rule : rules_) {
    if (rule.kind == kind && matches(rule, request) && try_fire(rule, request)) return &rule;
  }
  return nullptr;
}

bool FaultInjector::fire_rule(std::string_view id, const RequestInfo& request) {
  for (auto& rule : rules_) {
    if (rule.id == id) return matches(rule, request) && try_fire(rule, request);
  }
  return false;
}

const FaultRule* FaultInjector::find(std::string_view id) const {
  for (const auto& rule : rules_) {
    if (rule.id == id) return &rule;
  }
  return nullptr;
}

bool FaultInjector::try_fire(FaultRule& rule, const RequestInfo& request) {
  // Draw only for rules that could fire, so adding an unrelated rule does not shift the stream.
  if (rule.probability < 1.0 && !loop_->rng().bernoulli(rule.probability)) return false;
  if (rule.count) --*rule.count;
  auto [firing, first] = firings_.try_emplace(rule.id);
  if (first) firing->second.first = loop_->now();
  ++firing->second.count;
  if (loop_->trace().enabled()) {
    nlohmann::json fields = {{"rule", rule.id},
                             {"kind", to_string(rule.kind)},
                             {"verb", to_string(request.verb)},
                             {"resource", request.resource},
                             {"namespace", request.ns},
                             {"name", request.name}};
    if (!request.subresource.empty()) fields["subresource"] = request.subresource;
    loop_->trace().record(loop_->now(), request.process, "fault", fields);
  }
  return true;
}

}  // namespace kubesim::fakeapi
