// FaultInjector: the fake API server's fault rules.
//
// A rule matches requests by verb, resource, subresource, namespace, name and client process
// (each empty field is a wildcard; as client-go's reactors match, a rule naming no subresource
// matches the resource's subresources too, and one naming "status" only /status), fires with a
// probability (drawn from the Loop's seeded Rng), at most `count` times, and only inside an
// optional virtual-time window. What it injects is its `effect`, one struct per kind holding only
// that kind's fields:
//   ErrorFault         the request fails with `status` (500, 503, 429 with Retry-After, 409, 504 ...)
//   LatencyFault       the request is slowed by `latency` on top of the link's
//   DropWatchFault     a watch is cut after `after_events` events
//   StallWatchFault    a watch stops delivering (until it times out or the client gives up)
//   ForceGoneFault     the next watch (410 Expired at once) or list continue (410) is refused
//   StaleReadFault     a read with resourceVersion "0" is served from the state `stale_by` ago
//   CoalesceWatchFault while the rule's window lasts, a watch holds each event for `hold`, and a
//                      later event for the same object replaces the waiting one
//                      (watch_delivery.h), so intermediate versions are never seen. It acts on
//                      watches already open when the rule is added; `probability` is drawn once
//                      per watch and `count` counts watches.
// FaultKind names the kinds, in the order of FaultEffect's alternatives; a rule's kind() is its
// effect's index. Every injection is written to the Loop's trace. Rules convert to and from JSON
// for scenario files and the admin endpoint (the kind as "kind", the effect's field beside it).
#ifndef KUBESIM_FAKEAPI_FAULTS_H_
#define KUBESIM_FAKEAPI_FAULTS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/result.h"
#include "kubesim/api/status.h"
#include "kubesim/fakeapi/request.h"
#include "kubesim/sim/loop.h"

namespace kubesim::fakeapi {

// What a rule injects, by kind.
struct ErrorFault {
  api::Status status{};  // a code from 400 to 599
  bool operator==(const ErrorFault&) const = default;
};
struct LatencyFault {
  sim::Duration latency{};  // not negative
  bool operator==(const LatencyFault&) const = default;
};
struct DropWatchFault {
  std::int64_t after_events = 0;  // not negative
  bool operator==(const DropWatchFault&) const = default;
};
struct StallWatchFault {
  bool operator==(const StallWatchFault&) const = default;
};
struct ForceGoneFault {
  bool operator==(const ForceGoneFault&) const = default;
};
struct StaleReadFault {
  sim::Duration stale_by{};  // positive
  bool operator==(const StaleReadFault&) const = default;
};
struct CoalesceWatchFault {
  sim::Duration hold{};  // how long a watch holds each event; positive
  bool operator==(const CoalesceWatchFault&) const = default;
};

using FaultEffect = std::variant<ErrorFault, LatencyFault, DropWatchFault, StallWatchFault,
                                 ForceGoneFault, StaleReadFault, CoalesceWatchFault>;

// The kinds, in the order of FaultEffect's alternatives (faults.cc asserts it).
enum class FaultKind {
  kError,
  kLatency,
  kDropWatch,
  kStallWatch,
  kForceGone,
  kStaleRead,
  kCoalesceWatch
};

// "error", "latency", "dropWatch", "stallWatch", "forceGone", "staleRead", "coalesceWatch".
std::string_view to_string(FaultKind kind);
std::optional<FaultKind> parse_fault_kind(std::string_view text);

// The kind of the effect `Fault` (one of FaultEffect's alternatives).
template <class Fault>
constexpr FaultKind kind_of() {
  constexpr auto index = []<class... Ts>(std::variant<Ts...>*) {
    constexpr bool same[] = {std::is_same_v<Fault, Ts>...};
    std::size_t i = 0;
    while (i < sizeof...(Ts) && !same[i]) ++i;
    return i;
  }(static_cast<FaultEffect*>(nullptr));
  static_assert(index < std::variant_size_v<FaultEffect>, "not a FaultEffect");
  return static_cast<FaultKind>(index);
}

// A rule is an aggregate: FaultRule{.resource = "leases", .effect = ErrorFault{status}}, or a
// factory below and then the fields to match on.
// (Every field has an initialiser, so designated initialisers may leave any out.)
struct FaultRule {
  std::string id{};
  // Match: empty means any.
  std::vector<Verb> verbs{};
  std::string resource{};  // plural resource name, e.g. "leases"
  std::string subresource{};  // "status", "scale"; in JSON also as "resource": "leases/status"
  std::string ns{};
  std::string name{};
  std::string process{};
  // When.
  double probability = 1.0;
  std::optional<std::int64_t> count{};
  std::optional<sim::Time> from{};
  std::optional<sim::Time> until{};
  // What.
  FaultEffect effect{};

  static FaultRule error(api::Status status) {
    return FaultRule{.effect = ErrorFault{std::move(status)}};
  }
  static FaultRule latency(sim::Duration latency) { return FaultRule{.effect = LatencyFault{latency}}; }
  static FaultRule drop_watch(std::int64_t after_events = 0) {
    return FaultRule{.effect = DropWatchFault{after_events}};
  }
  static FaultRule stall_watch() { return FaultRule{.effect = StallWatchFault{}}; }
  static FaultRule force_gone() { return FaultRule{.effect = ForceGoneFault{}}; }
  static FaultRule stale_read(sim::Duration by) { return FaultRule{.effect = StaleReadFault{by}}; }
  static FaultRule coalesce_watch(sim::Duration hold) {
    return FaultRule{.effect = CoalesceWatchFault{hold}};
  }

  FaultKind kind() const { return static_cast<FaultKind>(effect.index()); }
  // The effect as a `Fault`; null when the rule is of another kind.
  template <class Fault>
  const Fault* as() const {
    return std::get_if<Fault>(&effect);
  }
  template <class Fault>
  Fault* as() {
    return std::get_if<Fault>(&effect);
  }

  nlohmann::json to_json() const;
  // Parses and validates a rule; a bad rule is a 400 Status naming the field. Fields of other
  // kinds are checked for their type and otherwise ignored.
  static api::Result<FaultRule> from_json(const nlohmann::json& j);
};

class FaultInjector {
 public:
  explicit FaultInjector(sim::Loop& loop) : loop_(&loop) {}

  // Adds a rule (an empty id gets "rule-N"); returns its id. A rule replacing one of the same id
  // starts with no firings.
  std::string add(FaultRule rule);
  // Removes the rule; its firings stay counted.
  bool remove(std::string_view id);
  // Removes every rule and forgets every firing.
  void clear();
  const std::vector<FaultRule>& rules() const { return rules_; }
  // The Loop whose clock the rules' windows are on.
  sim::Loop& loop() const { return *loop_; }

  // How often the rule with `id` fired (0 for an unknown id), and when it first did.
  std::int64_t fired(std::string_view id) const;
  std::optional<sim::Time> first_fired(std::string_view id) const;
  std::optional<sim::Time> last_fired(std::string_view id) const;

  // The first rule of `kind` that matches `request` and fires now; its count is consumed and the
  // injection traced. Null when none fires.
  const FaultRule* fire(FaultKind kind, const Request& request);
  // The same for the rules whose effect is a `Fault`; the effect of the rule that fired, or null.
  template <class Fault>
  const Fault* fire(const Request& request) {
    const FaultRule* rule = fire(kind_of<Fault>(), request);
    return rule != nullptr ? rule->as<Fault>() : nullptr;
  }

  // Whether `rule` matches `request` now: its keys, its window and a count not used up. Draws
  // nothing.
  bool matches(const FaultRule& rule, const Request& request) const;
  // The rule with `id`, if it matches `request` now, fires as fire() would fire it (the
  // probability drawn, the count consumed, the injection traced). False when it does not.
  bool fire_rule(std::string_view id, const Request& request);
  // The rule with `id`, or null.
  const FaultRule* find(std::string_view id) const;

 private:
  // Draws for `rule` (which matches) and, when it fires, consumes its count and traces it.
  bool try_fire(FaultRule& rule, const Request& request);

  struct Firings {
    std::int64_t count = 0;
    sim::Time first{};
    sim::Time last{};
  };

  sim::Loop* loop_;
  std::vector<FaultRule> rules_;
  std::map<std::string, Firings, std::less<>> firings_;  // by rule id; only rules that fired
  std::uint64_t next_id_ = 1;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_FAULTS_H_
