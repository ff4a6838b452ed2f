#include "kubesim/fakeapi/faults.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace kubesim::fakeapi {
namespace {

constexpr std::pair<FaultKind, std::string_view> kKinds[] = {
    {FaultKind::kError, "error"},           {FaultKind::kLatency, "latency"},
    {FaultKind::kDropWatch, "dropWatch"},   {FaultKind::kStallWatch, "stallWatch"},
    {FaultKind::kForceGone, "forceGone"},   {FaultKind::kStaleRead, "staleRead"},
    {FaultKind::kCoalesceWatch, "coalesceWatch"},
};

// FaultKind follows FaultEffect's alternatives.
static_assert(kind_of<ErrorFault>() == FaultKind::kError);
static_assert(kind_of<LatencyFault>() == FaultKind::kLatency);
static_assert(kind_of<DropWatchFault>() == FaultKind::kDropWatch);
static_assert(kind_of<StallWatchFault>() == FaultKind::kStallWatch);
static_assert(kind_of<ForceGoneFault>() == FaultKind::kForceGone);
static_assert(kind_of<StaleReadFault>() == FaultKind::kStaleRead);
static_assert(kind_of<CoalesceWatchFault>() == FaultKind::kCoalesceWatch);
static_assert(std::variant_size_v<FaultEffect> == std::size(kKinds));

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;  // clang before 17 deduces no aggregate's arguments

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

// A rule's JSON fields as read, each checked for its type only.
struct Fields {
  std::optional<std::string> id, kind, resource, subresource, ns, name, process;
  std::optional<double> probability;
  std::optional<std::int64_t> count, from_ms, until_ms, latency_ms, after_events, stale_ms,
      coalesce_ms;
  std::optional<std::vector<std::string>> verbs;

  api::Result<void> read_all(const nlohmann::json& j) {
    api::Status error;
    if (!read(j, "id", id, error) || !read(j, "kind", kind, error) ||
        !read(j, "resource", resource, error) || !read(j, "subresource", subresource, error) ||
        !read(j, "namespace", ns, error) || !read(j, "name", name, error) ||
        !read(j, "process", process, error) || !read(j, "probability", probability, error) ||
        !read(j, "count", count, error) || !read(j, "fromMs", from_ms, error) ||
        !read(j, "untilMs", until_ms, error) || !read(j, "latencyMs", latency_ms, error) ||
        !read(j, "afterEvents", after_events, error) || !read(j, "staleByMs", stale_ms, error) ||
        !read(j, "coalesceMs", coalesce_ms, error) || !read(j, "verbs", verbs, error)) {
      return error;
    }
    return {};
  }
};

// The match and when parts of a rule.
api::Result<void> read_match(const Fields& f, FaultRule& rule) {
  rule.id = f.id.value_or("");
  for (const auto& v : f.verbs.value_or(std::vector<std::string>{})) {
    auto verb = api::parse_verb(v);
    if (!verb) return bad_rule("verbs", "unknown verb \"" + v + "\"");
    rule.verbs.push_back(*verb);
  }
  rule.resource = f.resource.value_or("");
  rule.subresource = f.subresource.value_or("");
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
  rule.ns = f.ns.value_or("");
  rule.name = f.name.value_or("");
  rule.process = f.process.value_or("");
  rule.probability = f.probability.value_or(1.0);
  if (rule.probability < 0 || rule.probability > 1) return bad_rule("probability", "must be in [0, 1]");
  if (f.count && *f.count < 0) return bad_rule("count", "must not be negative");
  rule.count = f.count;
  if (f.from_ms) rule.from = sim::Time{std::chrono::milliseconds(*f.from_ms)};
  if (f.until_ms) rule.until = sim::Time{std::chrono::milliseconds(*f.until_ms)};
  if (rule.from && rule.until && *rule.until < *rule.from) return bad_rule("untilMs", "before fromMs");
  return {};
}

// The effect of `kind` with its default fields.
template <std::size_t... I>
FaultEffect effect_of(FaultKind kind, std::index_sequence<I...>) {
  FaultEffect effect;
  (void)((static_cast<std::size_t>(kind) == I ? (effect.emplace<I>(), true) : false) || ...);
  return effect;
}

// Fills in the fields of `effect` (of the rule's kind) from the JSON.
api::Result<void> read_effect(const nlohmann::json& j, const Fields& f, FaultEffect& effect) {
  return std::visit(
      Overloaded{
          [&](ErrorFault& e) -> api::Result<void> {
            auto it = j.find("status");
            if (it == j.end()) return bad_rule("status", "required for kind error");
            auto status = api::Status::from_json(*it);
            if (!status || status->code < 400 || status->code > 599) {
              return bad_rule("status", "must be a Status with a code from 400 to 599");
            }
            e.status = *status;
            return {};
          },
          [&](LatencyFault& e) -> api::Result<void> {
            if (!f.latency_ms || *f.latency_ms < 0) return bad_rule("latencyMs", "required, not negative");
            e.latency = std::chrono::milliseconds(*f.latency_ms);
            return {};
          },
          [&](DropWatchFault& e) -> api::Result<void> {
            if (!f.after_events || *f.after_events < 0) {
              return bad_rule("afterEvents", "required, not negative");
            }
            e.after_events = *f.after_events;
            return {};
          },
          [&](StaleReadFault& e) -> api::Result<void> {
            if (!f.stale_ms || *f.stale_ms <= 0) return bad_rule("staleByMs", "required, positive");
            e.stale_by = std::chrono::milliseconds(*f.stale_ms);
            return {};
          },
          [&](CoalesceWatchFault& e) -> api::Result<void> {
            if (!f.coalesce_ms || *f.coalesce_ms <= 0) return bad_rule("coalesceMs", "required, positive");
            e.hold = std::chrono::milliseconds(*f.coalesce_ms);
            return {};
          },
          [](StallWatchFault&) -> api::Result<void> { return {}; },
          [](ForceGoneFault&) -> api::Result<void> { return {}; },
      },
      effect);
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
  nlohmann::json j = {{"id", id}, {"kind", to_string(kind())}, {"probability", probability}};
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
  std::visit(Overloaded{
                 [&](const ErrorFault& e) { j["status"] = e.status.to_json(); },
                 [&](const LatencyFault& e) { j["latencyMs"] = to_ms(e.latency); },
                 [&](const DropWatchFault& e) { j["afterEvents"] = e.after_events; },
                 [&](const StaleReadFault& e) { j["staleByMs"] = to_ms(e.stale_by); },
                 [&](const CoalesceWatchFault& e) { j["coalesceMs"] = to_ms(e.hold); },
                 [](const StallWatchFault&) {},
                 [](const ForceGoneFault&) {},
             },
             effect);
  return j;
}

api::Result<FaultRule> FaultRule::from_json(const nlohmann::json& j) {
  if (!j.is_object()) return api::new_bad_request("fault rule: must be a JSON object");
  Fields f;
  if (auto read = f.read_all(j); !read) return std::move(read).status();
  if (!f.kind) return bad_rule("kind", "required");
  const auto kind = parse_fault_kind(*f.kind);
  if (!kind) {
    return bad_rule("kind", "unknown kind \"" + *f.kind +
                                "\" (error, latency, dropWatch, stallWatch, forceGone, staleRead, "
                                "coalesceWatch)");
  }
  FaultRule rule;
  if (auto match = read_match(f, rule); !match) return std::move(match).status();
  rule.effect = effect_of(*kind, std::make_index_sequence<std::variant_size_v<FaultEffect>>());
  if (auto effect = read_effect(j, f, rule.effect); !effect) return std::move(effect).status();
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

std::optional<sim::Time> FaultInjector::last_fired(std::string_view id) const {
  auto it = firings_.find(id);
  if (it == firings_.end()) return std::nullopt;
  return it->second.last;
}

bool FaultInjector::matches(const FaultRule& rule, const Request& request) const {
  if (!rule.verbs.empty() &&
      std::find(rule.verbs.begin(), rule.verbs.end(), request.verb) == rule.verbs.end()) {
    return false;
  }
  if (!rule.resource.empty() && rule.resource != request.resource.resource) return false;
  if (!rule.subresource.empty() && rule.subresource != api::to_string(request.subresource)) return false;
  if (!rule.ns.empty() && rule.ns != request.ns) return false;
  if (!rule.name.empty() && rule.name != request.name) return false;
  if (!rule.process.empty() && rule.process != request.process) return false;
  const sim::Time now = loop_->now();
  if (rule.from && now < *rule.from) return false;
  if (rule.until && now >= *rule.until) return false;
  if (rule.count && *rule.count <= 0) return false;
  return true;
}

const FaultRule* FaultInjector::fire(FaultKind kind, const Request& request) {
  for (auto& rule : rules_) {
    if (rule.kind() == kind && matches(rule, request) && try_fire(rule, request)) return &rule;
  }
  return nullptr;
}

bool FaultInjector::fire_rule(std::string_view id, const Request& request) {
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

bool FaultInjector::try_fire(FaultRule& rule, const Request& request) {
  // Draw only for rules that could fire, so adding an unrelated rule does not shift the stream.
  if (rule.probability < 1.0 && !loop_->rng().bernoulli(rule.probability)) return false;
  if (rule.count) --*rule.count;
  auto [firing, first] = firings_.try_emplace(rule.id);
  if (first) firing->second.first = loop_->now();
  firing->second.last = loop_->now();
  ++firing->second.count;
  if (loop_->trace().enabled()) {
    nlohmann::json fields = {{"rule", rule.id},
                             {"kind", to_string(rule.kind())},
                             {"verb", to_string(request.verb)},
                             {"resource", request.resource.resource},
                             {"namespace", request.ns},
                             {"name", request.name}};
    if (request.subresource != Subresource::kNone) fields["subresource"] = api::to_string(request.subresource);
    loop_->trace().record(loop_->now(), request.process, "fault", fields);
  }
  return true;
}

}  // namespace kubesim::fakeapi
