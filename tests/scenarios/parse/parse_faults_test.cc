// Timeline faults become fakeapi::FaultRules: matching keys, kinds, and for `error: CODE` the
// Status kube-apiserver sends for that code.
#include <gtest/gtest.h>

#include "kubesim/scenarios/parse.h"

namespace kubesim::scenarios {
namespace {

using namespace std::chrono_literals;

// The rules of one `faults:` event holding `entries` (flow mappings, one per line).
std::vector<FaultEntry> faults_of(const std::string& entries) {
  const std::string yaml =
      "name: f\nduration: 1h\nprocesses:\n  - {name: ctl, replicas: 2}\n"
      "timeline:\n  - at: 1m\n    faults:\n" +
      entries;
  auto registry = Registry::with_builtins();
  auto r = parse_scenario(yaml, "f.yaml", registry);
  for (const auto& e : r.errors) ADD_FAILURE() << e.text();
  if (!r.scenario) return {};
  return std::get<FaultsEvent>(r.scenario->timeline.at(0).action).rules;
}

struct StatusCase {
  std::string entry;
  int code;
  api::StatusReason reason;
  std::string message;
  int retry_after;
};

class ErrorFault : public ::testing::TestWithParam<StatusCase> {};

TEST_P(ErrorFault, CarriesTheStatusKubernetesSends) {
  const auto& c = GetParam();
  auto rules = faults_of("      - " + c.entry + "\n");
  ASSERT_EQ(rules.size(), 1u);
  const fakeapi::FaultRule& rule = rules[0].rule;
  EXPECT_EQ(rule.kind(), fakeapi::FaultKind::kError);
  EXPECT_EQ(rule.as<fakeapi::ErrorFault>()->status.code, c.code);
  EXPECT_EQ(rule.as<fakeapi::ErrorFault>()->status.reason, c.reason);
  EXPECT_EQ(rule.as<fakeapi::ErrorFault>()->status.message, c.message);
  EXPECT_EQ(api::retry_after_seconds(rule.as<fakeapi::ErrorFault>()->status).value_or(0), c.retry_after);
  // The injector's own form takes it back unchanged.
  auto back = fakeapi::FaultRule::from_json(rule.to_json());
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->effect == rule.effect);
}

using api::StatusReason;
INSTANTIATE_TEST_SUITE_P(
    Codes, ErrorFault,
    ::testing::Values(
        StatusCase{"{error: 400}", 400, StatusReason::kBadRequest, "fault injected by the scenario",
                   0},
        StatusCase{"{error: 401, message: who}", 401, StatusReason::kUnauthorized, "who", 0},
        StatusCase{"{resource: configmaps, name: x, error: 403}", 403, StatusReason::kForbidden,
                   "configmaps \"x\" is forbidden: fault injected by the scenario", 0},
        StatusCase{"{resource: configmaps, name: x, error: 404}", 404, StatusReason::kNotFound,
                   "configmaps \"x\" not found", 0},
        StatusCase{"{resource: leases, name: l, error: 409}", 409, StatusReason::kConflict,
                   "Operation cannot be fulfilled on leases.coordination.k8s.io \"l\": the object "
                   "has been modified; please apply your changes to the latest version and try "
                   "again",
                   0},
        StatusCase{"{verb: watch, error: 410}", 410, StatusReason::kExpired,
                   "The resourceVersion for the provided watch is too old.", 0},
        StatusCase{"{error: 429, retryAfter: 2s}", 429, StatusReason::kTooManyRequests,
                   "Too many requests, please try again later.", 2},
        StatusCase{"{error: 500}", 500, StatusReason::kInternalError,
                   "Internal error occurred: fault injected by the scenario", 0},
        StatusCase{"{error: 503, retryAfter: 5s}", 503, StatusReason::kServiceUnavailable,
                   "the server is currently unable to handle the request", 5},
        StatusCase{"{error: 504, message: slow}", 504, StatusReason::kTimeout, "Timeout: slow", 0},
        StatusCase{"{error: 422}", 422, StatusReason::kInvalid, "fault injected by the scenario",
                   0},
        StatusCase{"{error: 418}", 418, StatusReason::kUnknown, "fault injected by the scenario",
                   0}));

TEST(Faults, MatchingKeysAndWindow) {
  auto rules = faults_of(
      "      - {verb: [get, list], resource: configmaps/status, namespace: a, name: x, process: "
      "ctl-1, probability: 0.25, count: 7, for: 30s, latency: 150ms}\n"
      "      - {resource: coordination.k8s.io/v1/leases, gone: true}\n");
  ASSERT_EQ(rules.size(), 2u);
  const fakeapi::FaultRule& slow = rules[0].rule;
  EXPECT_EQ(slow.kind(), fakeapi::FaultKind::kLatency);
  EXPECT_EQ(slow.as<fakeapi::LatencyFault>()->latency, 150ms);
  EXPECT_EQ(slow.verbs, (std::vector<fakeapi::Verb>{fakeapi::Verb::kGet, fakeapi::Verb::kList}));
  EXPECT_EQ(slow.resource, "configmaps");
  EXPECT_EQ(slow.subresource, "status");
  EXPECT_EQ(slow.ns, "a");
  EXPECT_EQ(slow.name, "x");
  EXPECT_EQ(slow.process, "ctl-1");
  EXPECT_DOUBLE_EQ(slow.probability, 0.25);
  EXPECT_EQ(slow.count, std::optional<std::int64_t>(7));
  EXPECT_EQ(rules[0].length, std::optional<sim::Duration>(30s));
  // The runner places the window; the parser leaves it open.
  EXPECT_FALSE(slow.from.has_value());
  EXPECT_FALSE(slow.until.has_value());

  const fakeapi::FaultRule& gone = rules[1].rule;
  EXPECT_EQ(gone.kind(), fakeapi::FaultKind::kForceGone);
  EXPECT_EQ(gone.resource, "leases");
  EXPECT_TRUE(gone.verbs.empty());
  EXPECT_DOUBLE_EQ(gone.probability, 1.0);
  EXPECT_FALSE(gone.count.has_value());
  EXPECT_FALSE(rules[1].length.has_value());
}

TEST(Faults, WatchKinds) {
  auto rules = faults_of(
      "      - {verb: watch, drop: afterEvents, events: 0}\n"
      "      - {stall: true}\n"
      "      - {verb: [get, list], staleBy: 1m}\n");
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0].rule.kind(), fakeapi::FaultKind::kDropWatch);
  EXPECT_EQ(rules[0].rule.as<fakeapi::DropWatchFault>()->after_events, 0);
  EXPECT_EQ(rules[1].rule.kind(), fakeapi::FaultKind::kStallWatch);
  EXPECT_EQ(rules[2].rule.kind(), fakeapi::FaultKind::kStaleRead);
  EXPECT_EQ(rules[2].rule.as<fakeapi::StaleReadFault>()->stale_by, 1min);
  EXPECT_EQ(rules[2].mark.line, 10);
  EXPECT_EQ(rules[2].mark.column, 9);
}

TEST(Faults, CoalesceHoldsWatchEventsForADuration) {
  auto rules = faults_of(
      "      - {verb: watch, resource: configmaps, process: ctl-0, coalesce: 3s, for: 20s}\n"
      "      - {coalesce: 250ms, count: 2, probability: 0.5}\n");
  ASSERT_EQ(rules.size(), 2u);
  const fakeapi::FaultRule& rule = rules[0].rule;
  EXPECT_EQ(rule.kind(), fakeapi::FaultKind::kCoalesceWatch);
  EXPECT_EQ(rule.as<fakeapi::CoalesceWatchFault>()->hold, 3s);
  EXPECT_EQ(rule.verbs, std::vector<fakeapi::Verb>{fakeapi::Verb::kWatch});
  EXPECT_EQ(rule.resource, "configmaps");
  EXPECT_EQ(rule.process, "ctl-0");
  EXPECT_EQ(rules[0].length, std::optional<sim::Duration>(20s));
  EXPECT_EQ(rules[1].rule.as<fakeapi::CoalesceWatchFault>()->hold, 250ms);
  EXPECT_EQ(rules[1].rule.count, std::optional<std::int64_t>(2));
  // The injector's own form takes it back unchanged.
  auto back = fakeapi::FaultRule::from_json(rule.to_json());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->to_json(), rule.to_json());
}

}  // namespace
}  // namespace kubesim::scenarios
