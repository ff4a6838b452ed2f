// Call patterns against hand-built recorded calls: each field a pattern gives, the subresource
// rule, the version ignored; the CallLog's counts and lines; and CallCount's failure text.
#include "kubesim/testing/calls.h"

#include <string>
#include <vector>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "tests/testing/matchers/matchers_util.h"

namespace kubesim::testing {
namespace {

using namespace std::chrono_literals;
using fakeapi::RecordedCall;
using fakeapi::Verb;
using testutil::describe;
using testutil::describe_negation;
using testutil::explain;

const api::GroupVersionResource kWidgets{"example.com", "v1", "widgets"};
const api::GroupVersionResource kWidgetsV2{"example.com", "v2", "widgets"};
const api::GroupVersionResource kOtherWidgets{"other.com", "v1", "widgets"};

RecordedCall call(Verb verb, const api::GroupVersionResource& resource, std::string ns, std::string name,
                  std::string subresource = {}, std::string process = "widgets-0", int code = 200) {
  RecordedCall c;
  c.verb = verb;
  c.resource = resource;
  c.ns = std::move(ns);
  c.name = std::move(name);
  c.subresource = std::move(subresource);
  c.process = std::move(process);
  c.code = code;
  return c;
}

TEST(CallPatternTest, MatchesEveryFieldItGives) {
  const RecordedCall update_status = call(Verb::kUpdate, kWidgets, "default", "w1", "status");
  const RecordedCall update = call(Verb::kUpdate, kWidgets, "default", "w1");
  const RecordedCall conflict = call(Verb::kUpdate, kWidgets, "default", "w1", "", "widgets-1", 409);
  const RecordedCall scale = call(Verb::kPatch, kWidgets, "default", "w1", "scale");
  const struct {
    const char* name;
    CallPattern pattern;
    RecordedCall call;
    bool matches;
  } cases[] = {
      {"the verb and resource", Update(kWidgets), update, true},
      {"another verb", Patch(kWidgets), update, false},
      {"the version is ignored", Update(kWidgetsV2), update, true},
      {"another group", Update(kOtherWidgets), update, false},
      {"another resource", Update(api::kConfigMaps), update, false},
      {"no subresource given: the resource", Update(kWidgets), update, true},
      {"no subresource given: its subresources too", Update(kWidgets), update_status, true},
      {".status(): /status", Update(kWidgets).status(), update_status, true},
      {".status(): not the resource", Update(kWidgets).status(), update, false},
      {".status(): not /scale", Patch(kWidgets).status(), scale, false},
      {".scale()", Patch(kWidgets).scale(), scale, true},
      {"the namespace", Update(kWidgets).in("default"), update, true},
      {"another namespace", Update(kWidgets).in("kube-system"), update, false},
      {"the name", Update(kWidgets).named("w1"), update, true},
      {"another name", Update(kWidgets).named("w2"), update, false},
      {"the process", Update(kWidgets).by("widgets-0"), update, true},
      {"another process", Update(kWidgets).by("widgets-0"), conflict, false},
      {"a replica of the group", Update(kWidgets).by_group("widgets"), conflict, true},
      {"not another group's replica", Update(kWidgets).by_group("widget"), conflict, false},
      {"not the group's name alone", Update(kWidgets).by_group("widgets"),
       call(Verb::kUpdate, kWidgets, "default", "w1", "", "widgets"), false},
      {"by() replaces by_group()", Update(kWidgets).by_group("widgets").by("widgets-0"), conflict, false},
      {"by_group() replaces by()", Update(kWidgets).by("widgets-0").by_group("widgets"), conflict, true},
      {"ok: a 2xx", Update(kWidgets).ok(), update, true},
      {"ok: not a 409", Update(kWidgets).ok(), conflict, false},
      {"failed: a 409", Update(kWidgets).failed(), conflict, true},
      {"failed: not a 2xx", Update(kWidgets).failed(), update, false},
      {"failed: no answer", Update(kWidgets).failed(),
       call(Verb::kUpdate, kWidgets, "default", "w1", "", "p", 0), true},
      {"writes: update", Writes(kWidgets), update, true},
      {"writes: not a get", Writes(kWidgets), call(Verb::kGet, kWidgets, "default", "w1"), false},
      {"any verb", AnyCall(kWidgets), call(Verb::kWatch, kWidgets, "default", ""), true},
      {"any call at all", AnyCall(), call(Verb::kList, api::kConfigMaps, "", ""), true},
      {"any resource's /status", AnyCall().status(), update_status, true},
      {"any resource's /status, not the resource", AnyCall().status(), update, false},
  };
  for (const auto& c : cases) EXPECT_EQ(c.pattern.matches(c.call), c.matches) << c.name;
}

TEST(CallPatternTest, EachVerbHelperNamesItsVerb) {
  const struct {
    CallPattern pattern;
    std::vector<Verb> verbs;
  } cases[] = {
      {Get(kWidgets), {Verb::kGet}},
      {List(kWidgets), {Verb::kList}},
      {Watch(kWidgets), {Verb::kWatch}},
      {Create(kWidgets), {Verb::kCreate}},
      {Update(kWidgets), {Verb::kUpdate}},
      {Patch(kWidgets), {Verb::kPatch}},
      {Delete(kWidgets), {Verb::kDelete}},
      {DeleteCollection(kWidgets), {Verb::kDeleteCollection}},
      {Writes(kWidgets),
       {Verb::kCreate, Verb::kUpdate, Verb::kPatch, Verb::kDelete, Verb::kDeleteCollection}},
      {AnyCall(kWidgets), {}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.pattern.verbs(), c.verbs) << c.pattern.describe();
    EXPECT_EQ(c.pattern.resource(), kWidgets);
    EXPECT_FALSE(c.pattern.any_resource());
  }
  EXPECT_TRUE(AnyCall().any_resource());
  const CallPattern p = Update(kWidgets).status().in("ns").named("w1").by("p-0");
  EXPECT_EQ(p.subresource_name(), "status");
  EXPECT_EQ(p.ns(), "ns");
  EXPECT_EQ(p.name(), "w1");
  EXPECT_EQ(p.process(), "p-0");
}

TEST(CallPatternTest, DescribesItself) {
  const struct {
    CallPattern pattern;
    const char* text;
  } cases[] = {
      {Update(kWidgets).status().in("default").by("widgets-0"),
       "update widgets.example.com/status in default by widgets-0"},
      {Create(api::kConfigMaps), "create configmaps"},
      {Get(api::kConfigMaps).named("x").ok(), "get configmaps named x answered ok"},
      {Patch(api::kLeases).failed(), "patch leases.coordination.k8s.io answered with a failure"},
      {CallPattern({Verb::kGet, Verb::kList}, api::kConfigMaps), "get|list configmaps"},
      {Writes(api::kConfigMaps), "any write on configmaps"},
      {AnyCall(api::kConfigMaps), "any call on configmaps"},
      {AnyCall(), "any call"},
      {AnyCall().status().by("p"), "any call on */status by p"},
      {Delete(api::kConfigMaps).by_group("ctl"), "delete configmaps by any replica of ctl"},
      {CallPattern({Verb::kUpdate}), "update"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.pattern.describe(), c.text);
    EXPECT_EQ(::testing::PrintToString(c.pattern), c.text);
  }
}

std::vector<RecordedCall> sample_log() {
  std::vector<RecordedCall> calls = {
      call(Verb::kList, api::kConfigMaps, "default", ""),
      call(Verb::kCreate, api::kConfigMaps, "default", "w1-0", "", "widgets-0", 201),
      call(Verb::kCreate, api::kConfigMaps, "default", "w1-1", "", "widgets-0", 201),
      call(Verb::kUpdate, kWidgets, "default", "w1", "status", "widgets-1", 409),
      call(Verb::kGet, api::kNamespaces, "", "kube-system", "", ""),
      call(Verb::kPatch, kWidgets, "default", "w1", "", "widgets-0", 0),
  };
  for (std::size_t i = 0; i < calls.size(); ++i) {
    calls[i].seq = i + 1;
    calls[i].answered = sim::Time{} + std::chrono::milliseconds(1500 * i + 7);
  }
  calls[3].reason = api::StatusReason::kConflict;
  calls[3].fault = "conflicts";
  return calls;
}

TEST(CallLogTest, CountsListsAndFormatsCalls) {
  const CallLog log(sample_log());
  EXPECT_EQ(log.size(), 6u);
  EXPECT_EQ(log.count(Create(api::kConfigMaps)), 2u);
  EXPECT_EQ(log.count(AnyCall()), 6u);
  EXPECT_EQ(log.count(Writes(kWidgets)), 2u);
  const auto created = log.matching(Create(api::kConfigMaps));
  ASSERT_EQ(created.size(), 2u);
  EXPECT_EQ(created[0].name, "w1-0");
  EXPECT_EQ(created[1].name, "w1-1");
  std::vector<std::string> names;
  for (const RecordedCall& c : log) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"", "w1-0", "w1-1", "w1", "kube-system", "w1"}));

  EXPECT_EQ(log.format(),
            "0.007s widgets-0 list configmaps in default → 200\n"
            "1.507s widgets-0 create configmaps default/w1-0 → 201\n"
            "3.007s widgets-0 create configmaps default/w1-1 → 201\n"
            "4.507s widgets-1 update widgets.example.com/status default/w1 → 409 Conflict (fault conflicts)\n"
            "6.007s (unnamed) get namespaces kube-system → 200\n"
            "7.507s widgets-0 patch widgets.example.com default/w1 → no answer");
  EXPECT_EQ(log.format(2),
            "… 4 earlier calls\n"
            "6.007s (unnamed) get namespaces kube-system → 200\n"
            "7.507s widgets-0 patch widgets.example.com default/w1 → no answer");
  EXPECT_EQ(log.format(0), "… 6 earlier calls");
  EXPECT_EQ(CallLog(std::vector<RecordedCall>()).format(), "");
  EXPECT_EQ(::testing::PrintToString(log), "a log of 6 calls");
  EXPECT_EQ(::testing::PrintToString(log[1]), "1.507s widgets-0 create configmaps default/w1-0 → 201");
}

TEST(CallCountTest, ItsFailureListsTheMatchingCalls) {
  const CallLog log(sample_log());
  const struct {
    const char* name;
    ::testing::Matcher<const CallLog&> matcher;
    bool matched;
    std::string why;
  } cases[] = {
      {"the count", CallCount(Create(api::kConfigMaps), 2), true,
       "2 calls match:\n"
       "  1.507s widgets-0 create configmaps default/w1-0 → 201\n"
       "  3.007s widgets-0 create configmaps default/w1-1 → 201"},
      {"another count", CallCount(Update(kWidgets).status(), 0), false,
       "1 call matches:\n"
       "  4.507s widgets-1 update widgets.example.com/status default/w1 → 409 Conflict (fault conflicts)"},
      {"a matcher", CallCount(Writes(kWidgets), ::testing::Le(1u)), false,
       "2 calls match:\n"
       "  4.507s widgets-1 update widgets.example.com/status default/w1 → 409 Conflict (fault conflicts)\n"
       "  7.507s widgets-0 patch widgets.example.com default/w1 → no answer"},
      {"none: the log's last calls", CallCount(Delete(api::kConfigMaps), 1), false,
       "no call matches; the last calls of the log:\n"
       "  0.007s widgets-0 list configmaps in default → 200\n"
       "  1.507s widgets-0 create configmaps default/w1-0 → 201\n"
       "  3.007s widgets-0 create configmaps default/w1-1 → 201\n"
       "  4.507s widgets-1 update widgets.example.com/status default/w1 → 409 Conflict (fault conflicts)\n"
       "  6.007s (unnamed) get namespaces kube-system → 200\n"
       "  7.507s widgets-0 patch widgets.example.com default/w1 → no answer"},
  };
  for (const auto& c : cases) {
    const auto got = explain<CallLog>(c.matcher, log);
    EXPECT_EQ(got.matched, c.matched) << c.name;
    EXPECT_EQ(got.why, c.why) << c.name;
  }
  const auto empty = explain<CallLog>(CallCount(AnyCall(), 1), CallLog(std::vector<RecordedCall>()));
  EXPECT_EQ(empty.why, "no call matches; the log is empty");
  EXPECT_EQ(describe<CallLog>(CallCount(Create(api::kConfigMaps), 2)),
            "the count of create configmaps calls is equal to 2");
  EXPECT_EQ(describe_negation<CallLog>(CallCount(Create(api::kConfigMaps), 2)),
            "the count of create configmaps calls isn't equal to 2");
}

TEST(CallCountTest, ListsAtMostTenCalls) {
  std::vector<RecordedCall> calls;
  for (int i = 0; i < 12; ++i) {
    calls.push_back(call(Verb::kGet, api::kConfigMaps, "default", "c" + std::to_string(i)));
    calls.back().answered = sim::Time{} + std::chrono::seconds(i);
  }
  const auto got = explain<CallLog>(CallCount(Get(api::kConfigMaps), 0), CallLog(calls));
  EXPECT_EQ(got.why.substr(0, got.why.find('\n', got.why.find('\n') + 1)),
            "12 calls match:\n  … 2 earlier calls");
  EXPECT_EQ(got.why.substr(got.why.rfind('\n') + 1), "  11.000s widgets-0 get configmaps default/c11 → 200");
}

TEST(CallCountTest, AFailureShowsTheExpectationAndTheCalls) {
  const CallLog log(sample_log());
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(log, CallCount(Create(api::kConfigMaps), 3)),
                          "Expected: the count of create configmaps calls is equal to 3\n"
                          "  Actual: a log of 6 calls (of type kubesim::cluster::CallLog), 2 calls match:\n"
                          "  1.507s widgets-0 create configmaps default/w1-0 → 201\n");
}

}  // namespace
}  // namespace kubesim::testing
