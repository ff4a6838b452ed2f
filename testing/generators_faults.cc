// Generators of fault rules (kubesim/testing/generators.h).
#include "kubesim/testing/generators.h"

#include <chrono>
#include <utility>

#include <rapidcheck.h>

#include "kubesim/testing/fault_plan.h"
#include "testing/internal/generators.h"

namespace kubesim::testing::gen {
namespace {

using fakeapi::FaultKind;
using fakeapi::Verb;

std::int64_t millis(sim::Duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); }

// The verbs a rule of `kind` is given: those the kind acts on (empty: any verb).
std::vector<Verb> verbs_for(FaultKind kind) {
  using V = std::vector<Verb>;
  switch (kind) {
    case FaultKind::kDropWatch:
    case FaultKind::kStallWatch:
      return {Verb::kWatch};
    case FaultKind::kForceGone:
      return *internal::pick(std::vector<V>{{Verb::kWatch}, {Verb::kList}, {}});
    case FaultKind::kStaleRead:
      return *internal::pick(std::vector<V>{{Verb::kList}, {Verb::kGet, Verb::kList}, {}});
    default:
      return *internal::pick(std::vector<V>{{},
                                                {Verb::kGet},
                                                {Verb::kList},
                                                {Verb::kCreate},
                                                {Verb::kUpdate},
                                                {Verb::kPatch},
                                                {Verb::kDelete},
                                                {Verb::kCreate, Verb::kUpdate, Verb::kPatch, Verb::kDelete}});
  }
}

// Only inside rc::gen::exec: what a rule of `kind` does.
fakeapi::FaultEffect effect_for(FaultKind kind, const FaultSpace& space) {
  switch (kind) {
    case FaultKind::kError:
      return fakeapi::ErrorFault{*internal::pick(std::vector<api::Status>{
          InternalError(), Conflict(), ServiceUnavailable(), TooManyRequests(1), ServerTimeout()})};
    case FaultKind::kLatency:
      return fakeapi::LatencyFault{
          std::chrono::milliseconds(*rc::gen::inRange<std::int64_t>(1, millis(space.max_latency) + 1))};
    case FaultKind::kDropWatch:
      return fakeapi::DropWatchFault{*rc::gen::inRange<std::int64_t>(0, 6)};
    case FaultKind::kStallWatch:
      return fakeapi::StallWatchFault{};
    case FaultKind::kForceGone:
      return fakeapi::ForceGoneFault{};
    case FaultKind::kStaleRead:
      return fakeapi::StaleReadFault{
          std::chrono::milliseconds(*rc::gen::inRange<std::int64_t>(1, millis(space.horizon) + 1))};
    case FaultKind::kCoalesceWatch:
      break;  // not drawn by fault_rule()
  }
  return fakeapi::CoalesceWatchFault{};
}

}  // namespace

rc::Gen<fakeapi::FaultRule> fault_rule(FaultSpace space) {
  return rc::gen::exec([space] {
    fakeapi::FaultRule rule;
    const FaultKind kind = *internal::pick(std::vector<FaultKind>{FaultKind::kError, FaultKind::kLatency,
                                                                  FaultKind::kDropWatch, FaultKind::kStallWatch,
                                                                  FaultKind::kForceGone, FaultKind::kStaleRead});
    rule.verbs = verbs_for(kind);
    if (!space.resources.empty()) rule.resource = *internal::pick(space.resources);
    if (!space.processes.empty() && *rc::gen::arbitrary<bool>()) rule.process = *internal::pick(space.processes);
    rule.probability = *internal::pick(std::vector<double>{1.0, 0.5, 0.25, 0.1});
    rule.count = *rc::gen::inRange<std::int64_t>(1, std::max<std::int64_t>(space.max_count, 1) + 1);
    if (*rc::gen::arbitrary<bool>()) {
      const std::int64_t horizon = std::max<std::int64_t>(millis(space.horizon), 2);
      const auto from = *rc::gen::inRange<std::int64_t>(0, horizon - 1);
      const auto until = *rc::gen::inRange<std::int64_t>(from + 1, horizon + 1);
      rule.from = space.start + std::chrono::milliseconds(from);
      rule.until = space.start + std::chrono::milliseconds(until);
    }
    rule.effect = effect_for(kind, space);
    return rule;
  });
}

rc::Gen<std::vector<fakeapi::FaultRule>> fault_plan(FaultSpace space, std::size_t max_rules) {
  const auto rules = rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, max_rules + 1), [space](std::size_t n) {
    return rc::gen::container<std::vector<fakeapi::FaultRule>>(n, fault_rule(space));
  });
  return rc::gen::map(rules, [](std::vector<fakeapi::FaultRule> plan) {
    for (std::size_t i = 0; i < plan.size(); ++i) plan[i].id = "gen-" + std::to_string(i);
    return plan;
  });
}

}  // namespace kubesim::testing::gen

namespace kubesim::fakeapi {

std::ostream& operator<<(std::ostream& os, const FaultRule& rule) { return os << rule.to_json().dump(); }

}  // namespace kubesim::fakeapi
