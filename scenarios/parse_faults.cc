// A timeline `faults:` list: each entry becomes a fakeapi::FaultRule (kubesim/fakeapi/faults.h).
// An `error: CODE` entry gets the Status kube-apiserver sends for that code (reason, message and
// details as apimachinery's errors.New* build them). The keys that choose a rule's requests are
// read as a `calls:` budget reads them (read_request_match).
#include <algorithm>

#include "kubesim/api/go_duration.h"
#include "scenarios/internal/parse_context.h"

namespace kubesim::scenarios::internal {

namespace {

// `resource: plural`, `plural/subresource`, `group/version/plural[/subresource]`.
bool read_request_resource(ParseContext& ctx, const Field& field, RequestMatch& match) {
  auto text = ctx.reader.string(field);
  if (!text) return false;
  const std::size_t slashes = static_cast<std::size_t>(std::count(text->begin(), text->end(), '/'));
  std::string resource = *text;
  if (slashes == 1 || slashes == 3) {
    const auto last = text->rfind('/');
    match.subresource = text->substr(last + 1);
    resource = text->substr(0, last);
    if (match.subresource.empty()) {
      ctx.reader.error(field, "\"" + *text + "\" names no subresource after '/'");
      return false;
    }
  }
  std::string problem;
  match.resource = ctx.lookup(resource, problem);
  if (!match.resource) {
    ctx.reader.error(field, problem);
    return false;
  }
  return true;
}

// `verb: update` or `verb: [get, list]`.
bool read_request_verbs(ParseContext& ctx, const Field& verbs, RequestMatch& match) {
  if (!verbs) return true;
  if (!verbs.is_list() && !verbs.is_scalar()) {
    ctx.reader.error(verbs, "expected a verb or a list of verbs, got " + describe(verbs.value));
    return false;
  }
  bool ok = true;
  for (const Field& item : verbs.is_list() ? items(verbs) : std::vector<Field>{verbs}) {
    auto text = ctx.reader.string(item);
    auto verb = text ? api::parse_verb(*text) : std::nullopt;
    if (verb) {
      match.verbs.push_back(*verb);
    } else if (text) {
      ctx.reader.error(item, "unknown verb \"" + *text +
                                 "\" (get, list, watch, create, update, patch, delete, "
                                 "deletecollection)");
    }
    ok = ok && verb.has_value();
  }
  return ok;
}

// `process: ctl-0`, or with `whole_process` also `process: ctl`.
bool read_request_process(ParseContext& ctx, const Field& field, bool whole_process, RequestMatch& match) {
  if (whole_process) {
    auto text = ctx.reader.string(field);
    if (!text) return false;
    std::vector<std::string> processes;
    bool a_replica = false;  // it reads as a replica of some process: replica() says what is wrong
    for (const ProcessSpec& p : ctx.scenario.processes) {
      if (p.name == *text) {
        match.process = *text;
        match.whole_process = true;
        return true;
      }
      a_replica = a_replica || text->starts_with(p.name + "-");
      processes.push_back(p.name + " (" + replica_names(p) + ")");
    }
    if (!a_replica) {
      ctx.reader.error(field, "\"" + *text + "\" is neither a process nor a replica" +
                                  (processes.empty() ? std::string(": the scenario has no processes")
                                                     : " (processes: " + join(processes) + ")"));
      return false;
    }
  }
  auto replica = ctx.replica(field);
  if (replica) match.process = *replica;
  return replica.has_value();
}

}  // namespace

const std::vector<std::string> kRequestKeys = {"verb", "resource", "namespace", "name", "process"};

bool read_request_match(ParseContext& ctx, const MapFields& f, bool whole_process, RequestMatch& match) {
  bool ok = read_request_verbs(ctx, f.get("verb"), match);
  if (const Field resource = f.get("resource")) ok = read_request_resource(ctx, resource, match) && ok;
  if (auto ns = ctx.reader.string(f.get("namespace"))) match.ns = *ns;
  if (auto name = ctx.reader.string(f.get("name"))) match.name = *name;
  if (const Field process = f.get("process")) ok = read_request_process(ctx, process, whole_process, match) && ok;
  return ok;
}

namespace {

const std::vector<std::string> kKinds = {"error", "latency", "drop",    "stall",
                                         "gone",  "staleBy", "coalesce"};
const std::vector<std::string> kFaultKeys = [] {
  std::vector<std::string> keys = kRequestKeys;
  keys.insert(keys.end(), {"probability", "count", "for", "error", "message", "retryAfter", "latency", "drop", "events",
                           "stall", "gone", "staleBy", "coalesce"});
  return keys;
}();

// The kinds whose value is a positive duration, and the effect it makes.
struct DurationKind {
  std::string_view label;
  fakeapi::FaultEffect (*effect)(sim::Duration);
};
constexpr DurationKind kDurationKinds[] = {
    {"latency", [](sim::Duration d) -> fakeapi::FaultEffect { return fakeapi::LatencyFault{d}; }},
    {"staleBy", [](sim::Duration d) -> fakeapi::FaultEffect { return fakeapi::StaleReadFault{d}; }},
    {"coalesce", [](sim::Duration d) -> fakeapi::FaultEffect { return fakeapi::CoalesceWatchFault{d}; }},
};

constexpr std::string_view kDefaultMessage = "fault injected by the scenario";

// The reason Kubernetes gives each code (apimachinery's reasonForCode and errors.New*).
constexpr std::pair<int, api::StatusReason> kReasons[] = {
    {400, api::StatusReason::kBadRequest},
    {401, api::StatusReason::kUnauthorized},
    {403, api::StatusReason::kForbidden},
    {404, api::StatusReason::kNotFound},
    {405, api::StatusReason::kMethodNotAllowed},
    {406, api::StatusReason::kNotAcceptable},
    {409, api::StatusReason::kConflict},
    {410, api::StatusReason::kGone},
    {413, api::StatusReason::kRequestEntityTooLarge},
    {415, api::StatusReason::kUnsupportedMediaType},
    {422, api::StatusReason::kInvalid},
    {429, api::StatusReason::kTooManyRequests},
    {500, api::StatusReason::kInternalError},
    {503, api::StatusReason::kServiceUnavailable},
    {504, api::StatusReason::kTimeout},
};

api::StatusReason reason_for(int code) {
  for (const auto& [c, reason] : kReasons) {
    if (c == code) return reason;
  }
  return api::StatusReason::kUnknown;
}

// The Status an `error: CODE` fault answers with.
api::Status status_for(int code, const std::optional<std::string>& message,
                       const api::GroupResource& resource, const std::string& name,
                       int retry_after) {
  const std::string text = message.value_or(std::string(kDefaultMessage));
  api::Status s;
  switch (code) {
    case 400:
      s = api::new_bad_request(text);
      break;
    case 401:
      s = api::new_unauthorized(text);
      break;
    case 403:
      s = api::new_forbidden(resource, name, text);
      break;
    case 404:
      s = api::new_not_found(resource, name);
      if (message) s.message = *message;
      break;
    case 409:
      s = api::new_conflict(resource, name,
                            message.value_or(std::string(api::kOptimisticLockErrorMsg)));
      break;
    case 410:
      s = api::new_resource_expired(
          message.value_or("The resourceVersion for the provided watch is too old."));
      break;
    case 429:
      s = api::new_too_many_requests(message.value_or("Too many requests, please try again later."),
                                     retry_after);
      break;
    case 500:
      s = api::new_internal_error(text);
      break;
    case 503:
      s = api::new_service_unavailable(
          message.value_or("the server is currently unable to handle the request"));
      if (retry_after > 0) {
        if (!s.details) s.details = api::StatusDetails{};
        s.details->retry_after_seconds = retry_after;
      }
      break;
    case 504:
      s = api::new_timeout(message.value_or("request did not complete within the allotted timeout"),
                           retry_after);
      break;
    default:
      s.code = code;
      s.reason = reason_for(code);
      s.message = text;
  }
  return s;
}

// The verbs a kind of fault can act on; empty: any.
std::vector<fakeapi::Verb> verbs_of(fakeapi::FaultKind kind) {
  using fakeapi::Verb;
  switch (kind) {
    case fakeapi::FaultKind::kDropWatch:
    case fakeapi::FaultKind::kStallWatch:
    case fakeapi::FaultKind::kCoalesceWatch:
      return {Verb::kWatch};
    case fakeapi::FaultKind::kForceGone:
      return {Verb::kWatch, Verb::kList};
    case fakeapi::FaultKind::kStaleRead:
      return {Verb::kGet, Verb::kList};
    default:
      return {};
  }
}

// `stall: true`, `gone: true`.
bool read_true(ParseContext& ctx, const Field& field) {
  auto b = ctx.reader.boolean(field);
  if (b && !*b) ctx.reader.error(field, "only true turns it on; leave the key out instead");
  return b.value_or(false);
}

// `error: CODE` with its `message` and `retryAfter`.
bool read_error(ParseContext& ctx, const MapFields& f, const Field& kind, fakeapi::FaultRule& rule,
                const std::optional<ResolvedResource>& resource) {
  rule.effect = fakeapi::ErrorFault{};
  auto code = ctx.reader.integer(kind);
  if (!code) return false;
  if (*code < 400 || *code > 599) {
    ctx.reader.error(kind,
                     "must be an HTTP error code from 400 to 599, got " + std::to_string(*code));
    return false;
  }
  auto message = ctx.reader.string(f.get("message"));
  if (f.has("message") && !message) return false;
  int retry_after = 0;
  if (const Field retry = f.get("retryAfter")) {
    if (*code != 429 && *code != 503 && *code != 504) {
      ctx.reader.error(retry.key_mark,
                       "retryAfter: only 429, 503 and 504 errors carry a Retry-After");
      return false;
    }
    auto d = ctx.reader.positive_duration(retry);
    if (!d) return false;
    if (*d % std::chrono::seconds(1) != sim::Duration::zero() || *d > std::chrono::hours(24)) {
      ctx.reader.error(retry,
                       "must be whole seconds, at most 24h (Retry-After counts seconds), got " +
                           api::format_go_duration(*d));
      return false;
    }
    retry_after = static_cast<int>(std::chrono::duration_cast<std::chrono::seconds>(*d).count());
  }
  const api::GroupResource gr =
      resource ? resource->ref.gvr.group_resource() : api::GroupResource{"", rule.resource};
  rule.effect = fakeapi::ErrorFault{status_for(static_cast<int>(*code), message, gr, rule.name, retry_after)};
  return true;
}

// Reads the kind-specific keys into `rule`; false when something was wrong (reported).
bool read_kind(ParseContext& ctx, const MapFields& f, const Field& kind, fakeapi::FaultRule& rule,
               const std::optional<ResolvedResource>& resource) {
  for (const char* key : {"message", "retryAfter"}) {
    if (kind.label != "error" && f.has(key)) {
      ctx.reader.error(f.get(key).key_mark, std::string(key) + ": only an error fault takes it");
      return false;
    }
  }
  if (kind.label != "drop" && f.has("events")) {
    ctx.reader.error(f.get("events").key_mark, "events: only a drop fault takes it");
    return false;
  }
  for (const auto& [label, effect] : kDurationKinds) {
    if (kind.label != label) continue;
    auto d = ctx.reader.positive_duration(kind);
    rule.effect = effect(d.value_or(sim::Duration::zero()));
    return d.has_value();
  }
  if (kind.label == "stall" || kind.label == "gone") {
    if (kind.label == "stall") {
      rule.effect = fakeapi::StallWatchFault{};
    } else {
      rule.effect = fakeapi::ForceGoneFault{};
    }
    return read_true(ctx, kind);
  }
  if (kind.label == "drop") {
    auto what = ctx.reader.string(kind);
    if (what && *what != "afterEvents") {
      ctx.reader.error(kind, "\"" + *what + "\" is not supported: the only value is afterEvents");
      what.reset();
    }
    auto events =
        ctx.reader.integer_at_least(f.require("events", "drop the watch after N events"), 0);
    rule.effect = fakeapi::DropWatchFault{events.value_or(0)};
    return what && events;
  }
  return read_error(ctx, f, kind, rule, resource);
}

std::optional<FaultEntry> parse_fault(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a fault", kFaultKeys);
  if (!f.ok()) return std::nullopt;
  FaultEntry entry;
  entry.mark = field.mark();
  fakeapi::FaultRule& rule = entry.rule;
  RequestMatch match;
  bool ok = read_request_match(ctx, f, /*whole_process=*/false, match);
  const std::optional<ResolvedResource>& resolved = match.resource;
  rule.verbs = match.verbs;
  if (resolved) rule.resource = resolved->ref.gvr.resource;
  rule.subresource = match.subresource;
  rule.ns = match.ns;
  rule.name = match.name;
  rule.process = match.process;
  if (auto p = ctx.reader.number(f.get("probability"))) {
    if (*p < 0 || *p > 1) {
      ctx.reader.error(f.get("probability"),
                       "must be in [0, 1], got " + f.get("probability").value.Scalar());
      ok = false;
    }
    rule.probability = *p;
  }
  if (auto n = ctx.reader.integer_at_least(f.get("count"), 1)) rule.count = *n;
  if (const Field length = f.get("for")) {
    entry.length = ctx.reader.positive_duration(length);
    ok = ok && entry.length.has_value();
  }
  const auto kinds = f.present(kKinds);
  if (kinds.size() != 1) {
    ctx.reader.error(kinds.empty() ? f.mark() : kinds[1].key_mark,
                     kinds.empty() ? "a fault needs one of " + join(kKinds)
                                   : "a fault injects one thing, not " + kinds[0].label + " and " +
                                         kinds[1].label + "; write two faults");
    return std::nullopt;
  }
  ok = read_kind(ctx, f, kinds[0], rule, resolved) && ok;
  const auto allowed = verbs_of(rule.kind());
  for (fakeapi::Verb v : rule.verbs) {
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
      std::vector<std::string> names;
      for (fakeapi::Verb a : allowed) names.emplace_back(api::to_string(a));
      ctx.reader.error(f.get("verb"), kinds[0].label + " acts on " + join(names, " and ") +
                                          " requests only, not " +
                                          std::string(api::to_string(v)));
      ok = false;
      break;
    }
  }
  if (!ok) return std::nullopt;
  return entry;
}

}  // namespace

std::optional<FaultsEvent> parse_faults(ParseContext& ctx, const Field& field) {
  if (!ctx.reader.expect_list(field)) return std::nullopt;
  FaultsEvent event;
  bool ok = true;
  const auto list = items(field);
  if (list.empty()) {
    ctx.reader.error(field, "needs at least one fault");
    return std::nullopt;
  }
  for (const Field& item : list) {
    auto entry = parse_fault(ctx, item);
    if (entry) {
      event.rules.push_back(std::move(*entry));
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return event;
}

}  // namespace kubesim::scenarios::internal
