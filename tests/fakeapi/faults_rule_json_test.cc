// FaultRule's JSON form (scenario files and the admin endpoint): every kind round-trips, and a bad
// rule is refused with a 400 naming its field.
#include "kubesim/fakeapi/faults.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using sim::Time;

FaultRule json_error_rule(int code, api::StatusReason reason, std::string message) {
  api::Status status;
  status.code = code;
  status.reason = reason;
  status.message = std::move(message);
  return FaultRule::error(std::move(status));
}

TEST(FaultRuleJsonTest, EveryKindRoundTrips) {
  std::vector<FaultRule> rules;
  {
    FaultRule r = json_error_rule(429, api::StatusReason::kTooManyRequests, "slow down");
    r.as<ErrorFault>()->status.details.emplace();
    r.as<ErrorFault>()->status.details->retry_after_seconds = 3;
    r.id = "e";
    r.verbs = {Verb::kGet, Verb::kList, Verb::kDeleteCollection};
    r.resource = "leases";
    r.ns = "kube-system";
    r.name = "lock";
    r.process = "candidate-1";
    r.probability = 0.5;
    r.count = 3;
    r.from = Time{} + 1500ms;
    r.until = Time{} + 9s;
    rules.push_back(r);
  }
  rules.push_back(FaultRule{.id = "l", .effect = LatencyFault{250ms}});
  rules.push_back(FaultRule{.id = "d", .verbs = {Verb::kWatch}, .effect = DropWatchFault{4}});
  rules.push_back(FaultRule{.id = "stallWatch", .effect = StallWatchFault{}});
  rules.push_back(FaultRule{.id = "forceGone", .effect = ForceGoneFault{}});
  rules.push_back(FaultRule{.id = "s", .effect = StaleReadFault{30s}});
  rules.push_back(FaultRule{
      .id = "c", .verbs = {Verb::kWatch}, .process = "ctl-0", .effect = CoalesceWatchFault{3s}});
  for (const auto& rule : rules) {
    SCOPED_TRACE(rule.id);
    const nlohmann::json j = rule.to_json();
    auto back = FaultRule::from_json(j);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->to_json(), j);
    EXPECT_EQ(back->kind(), rule.kind());
    EXPECT_EQ(back->verbs, rule.verbs);
    EXPECT_EQ(back->count, rule.count);
    EXPECT_EQ(back->from, rule.from);
    EXPECT_EQ(back->until, rule.until);
    EXPECT_TRUE(back->effect == rule.effect);
  }
  // The documented field names.
  const nlohmann::json e = rules[0].to_json();
  EXPECT_EQ(e["kind"], "error");
  EXPECT_EQ(e["verbs"], nlohmann::json::array({"get", "list", "deletecollection"}));
  EXPECT_EQ(e["namespace"], "kube-system");
  EXPECT_EQ(e["fromMs"], 1500);
  EXPECT_EQ(e["untilMs"], 9000);
  EXPECT_EQ(rules[1].to_json()["latencyMs"], 250);
  EXPECT_EQ(rules[3].to_json()["kind"], "stallWatch");
  EXPECT_EQ(rules.back().to_json()["kind"], "coalesceWatch");
  EXPECT_EQ(rules.back().to_json()["coalesceMs"], 3000);
}

TEST(FaultRuleJsonTest, ACoalesceRuleNeedsAPositiveHoldTime) {
  const std::vector<std::pair<nlohmann::json, std::string>> cases = {
      {{{"kind", "coalesceWatch"}}, "fault rule: coalesceMs: required, positive"},
      {{{"kind", "coalesceWatch"}, {"coalesceMs", 0}}, "fault rule: coalesceMs: required, positive"},
      {{{"kind", "coalesceWatch"}, {"coalesceMs", -3}}, "fault rule: coalesceMs: required, positive"},
      {{{"kind", "coalesceWatch"}, {"coalesceMs", "3s"}}, "fault rule: coalesceMs: wrong type"},
      {{{"kind", "coalesce"}},
       "fault rule: kind: unknown kind \"coalesce\" (error, latency, dropWatch, stallWatch, "
       "forceGone, staleRead, coalesceWatch)"},
  };
  for (const auto& [j, message] : cases) {
    auto r = FaultRule::from_json(j);
    ASSERT_FALSE(r.ok()) << j;
    EXPECT_EQ(r.status().code, 400) << j;
    EXPECT_EQ(r.status().message, message) << j;
  }
}

TEST(FaultRuleJsonTest, BadRulesAreRejectedNamingTheField) {
  const std::vector<std::pair<nlohmann::json, std::string>> cases = {
      {nlohmann::json::array(), "fault rule: must be a JSON object"},
      {{{"probability", 1}}, "fault rule: kind"},
      {{{"kind", "explode"}}, "fault rule: kind"},
      {{{"kind", 3}}, "fault rule: kind"},
      {{{"kind", "forceGone"}, {"verbs", {"get", "fly"}}}, "fault rule: verbs"},
      {{{"kind", "forceGone"}, {"verbs", "get"}}, "fault rule: verbs"},
      {{{"kind", "forceGone"}, {"probability", 1.5}}, "fault rule: probability"},
      {{{"kind", "forceGone"}, {"probability", -0.1}}, "fault rule: probability"},
      {{{"kind", "forceGone"}, {"count", -1}}, "fault rule: count"},
      {{{"kind", "forceGone"}, {"count", "x"}}, "fault rule: count"},
      {{{"kind", "forceGone"}, {"fromMs", 10}, {"untilMs", 5}}, "fault rule: untilMs"},
      {{{"kind", "error"}}, "fault rule: status"},
      {{{"kind", "error"}, {"status", {{"code", 200}}}}, "fault rule: status"},
      {{{"kind", "error"}, {"status", "500"}}, "fault rule: status"},
      {{{"kind", "latency"}}, "fault rule: latencyMs"},
      {{{"kind", "latency"}, {"latencyMs", -5}}, "fault rule: latencyMs"},
      {{{"kind", "dropWatch"}}, "fault rule: afterEvents"},
      {{{"kind", "staleRead"}, {"staleByMs", 0}}, "fault rule: staleByMs"},
      {{{"kind", "staleRead"}}, "fault rule: staleByMs"},
  };
  for (const auto& [j, prefix] : cases) {
    auto r = FaultRule::from_json(j);
    ASSERT_FALSE(r.ok()) << j;
    EXPECT_TRUE(api::is_bad_request(r.status())) << j;
    EXPECT_EQ(r.status().message.rfind(prefix, 0), 0u) << j << " -> " << r.status().message;
  }
}

TEST(FaultRuleJsonTest, AFieldOfAnotherKindIsCheckedForItsTypeAndOtherwiseIgnored) {
  auto r = FaultRule::from_json({{"kind", "latency"}, {"latencyMs", 5}, {"afterEvents", 3}, {"staleByMs", 9}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->effect == FaultEffect(LatencyFault{5ms}));
  EXPECT_FALSE(r->to_json().contains("afterEvents"));
  EXPECT_FALSE(r->to_json().contains("staleByMs"));
  auto wrong = FaultRule::from_json({{"kind", "latency"}, {"latencyMs", 5}, {"afterEvents", "3"}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().message, "fault rule: afterEvents: wrong type");
}

TEST(FaultRuleTest, TheKindIsTheEffects) {
  const std::vector<std::pair<FaultRule, FaultKind>> cases = {
      {FaultRule::error(api::new_internal_error("x")), FaultKind::kError},
      {FaultRule::latency(1s), FaultKind::kLatency},
      {FaultRule::drop_watch(2), FaultKind::kDropWatch},
      {FaultRule::stall_watch(), FaultKind::kStallWatch},
      {FaultRule::force_gone(), FaultKind::kForceGone},
      {FaultRule::stale_read(3s), FaultKind::kStaleRead},
      {FaultRule::coalesce_watch(4s), FaultKind::kCoalesceWatch},
      {FaultRule{}, FaultKind::kError},
  };
  for (const auto& [rule, kind] : cases) {
    EXPECT_EQ(rule.kind(), kind) << rule.to_json();
  }
  static_assert(kind_of<StaleReadFault>() == FaultKind::kStaleRead);
  EXPECT_EQ(FaultRule::drop_watch(2).as<DropWatchFault>()->after_events, 2);
  EXPECT_EQ(FaultRule::coalesce_watch(4s).as<CoalesceWatchFault>()->hold, 4s);
  EXPECT_EQ(FaultRule::coalesce_watch(4s).as<LatencyFault>(), nullptr);
  EXPECT_EQ(FaultRule{}.as<ErrorFault>()->status.code, 0);
}

TEST(FaultRuleJsonTest, DefaultsOfAMinimalRule) {
  auto r = FaultRule::from_json({{"kind", "stallWatch"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->probability, 1.0);
  EXPECT_FALSE(r->count.has_value());
  EXPECT_TRUE(r->verbs.empty());
  EXPECT_TRUE(r->id.empty());
}

TEST(FaultNamesTest, VerbsAndKindsParseBack) {
  for (Verb v : {Verb::kGet, Verb::kList, Verb::kWatch, Verb::kCreate, Verb::kUpdate, Verb::kPatch,
                 Verb::kDelete, Verb::kDeleteCollection}) {
    EXPECT_EQ(api::parse_verb(to_string(v)), v);
  }
  for (FaultKind k : {FaultKind::kError, FaultKind::kLatency, FaultKind::kDropWatch, FaultKind::kStallWatch,
                      FaultKind::kForceGone, FaultKind::kStaleRead, FaultKind::kCoalesceWatch}) {
    EXPECT_EQ(parse_fault_kind(to_string(k)), k);
  }
  EXPECT_FALSE(api::parse_verb("GET").has_value());
  EXPECT_FALSE(parse_fault_kind("").has_value());
}

}  // namespace
}  // namespace kubesim::fakeapi
