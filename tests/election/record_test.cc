#include "kubesim/election/record.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kubesim::election {
namespace {

using namespace std::chrono_literals;
constexpr std::int64_t kEpoch = sim::kDefaultEpochUnixSeconds;

LeaderElectionRecord sample() {
  LeaderElectionRecord r;
  r.holder_identity = "a";
  r.lease_duration_seconds = 15;
  r.acquire_time = sim::Time{} + 7s + 250ms;
  r.renew_time = sim::Time{} + 9s + 999ms;
  r.leader_transitions = 3;
  return r;
}

TEST(RecordTest, RawFormIsClientGosJsonWithSecondPrecision) {
  EXPECT_EQ(to_raw(sample(), kEpoch),
            R"({"holderIdentity":"a","leaseDurationSeconds":15,"acquireTime":"2025-01-01T00:00:07Z",)"
            R"("renewTime":"2025-01-01T00:00:09Z","leaderTransitions":3,"strategy":"","preferredHolder":""})");
  LeaderElectionRecord empty;
  EXPECT_EQ(to_raw(empty, kEpoch),
            R"({"holderIdentity":"","leaseDurationSeconds":0,"acquireTime":null,"renewTime":null,)"
            R"("leaderTransitions":0,"strategy":"","preferredHolder":""})");
}

// The raw form as a JSON tree serializes it: the members in client-go's order, strings escaped
// as encoding/json and nlohmann escape them alike for these records.
std::string raw_from_tree(const LeaderElectionRecord& r) {
  const auto time = [](const std::optional<sim::Time>& t) -> nlohmann::ordered_json {
    if (!t) return nullptr;
    return sim::format_rfc3339(*t, kEpoch);
  };
  nlohmann::ordered_json j;
  j["holderIdentity"] = r.holder_identity;
  j["leaseDurationSeconds"] = r.lease_duration_seconds;
  j["acquireTime"] = time(r.acquire_time);
  j["renewTime"] = time(r.renew_time);
  j["leaderTransitions"] = r.leader_transitions;
  j["strategy"] = r.strategy;
  j["preferredHolder"] = r.preferred_holder;
  return j.dump();
}

TEST(RecordTest, RawFormIsTheJsonSerializersBytes) {
  const std::vector<std::string> strings = {
      "", "a", "replica-0_x", "quote\"d", "back\\slash", "line\nbreak", "tab\t", "\x01\x1f",
      "del\x7f", "\u00e9\u4e2d", "/path", std::string(300, 'h')};
  for (const std::string& s : strings) {
    SCOPED_TRACE(s);
    LeaderElectionRecord r = sample();
    r.holder_identity = s;
    r.strategy = s;
    r.preferred_holder = s;
    EXPECT_EQ(to_raw(r, kEpoch), raw_from_tree(r));
  }
  LeaderElectionRecord r = sample();
  r.lease_duration_seconds = -5;
  r.leader_transitions = 2147483647;
  r.acquire_time.reset();
  EXPECT_EQ(to_raw(r, kEpoch), raw_from_tree(r));
  // Bytes that are not UTF-8 cannot be written, as the serializer refuses them.
  r.holder_identity = "bad\xff";
  EXPECT_THROW((void)to_raw(r, kEpoch), nlohmann::json::type_error);
  EXPECT_THROW((void)raw_from_tree(r), nlohmann::json::type_error);
}

TEST(RecordTest, RenewalsASecondApartHaveDifferentRawForms) {
  LeaderElectionRecord a = sample(), b = sample();
  b.renew_time = *a.renew_time + 1s;
  EXPECT_NE(to_raw(a, kEpoch), to_raw(b, kEpoch));
  b.renew_time = *a.renew_time - 500ms;  // same second: indistinguishable, as in client-go
  EXPECT_EQ(to_raw(a, kEpoch), to_raw(b, kEpoch));
}

TEST(RecordTest, ParseRoundTripsAtSecondPrecisionAndAcceptsOldRecords) {
  auto parsed = parse_raw(to_raw(sample(), kEpoch), kEpoch);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->holder_identity, "a");
  EXPECT_EQ(parsed->acquire_time, sim::Time{} + 7s);
  EXPECT_EQ(parsed->renew_time, sim::Time{} + 9s);
  EXPECT_EQ(parsed->leader_transitions, 3);
  // A record written before strategy and preferredHolder existed.
  auto old = parse_raw(R"({"holderIdentity":"x","leaseDurationSeconds":10,"leaderTransitions":1})", kEpoch);
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->holder_identity, "x");
  EXPECT_FALSE(old->renew_time.has_value());
}

TEST(RecordTest, BadRecordsAreBadRequestsNamingTheField) {
  struct Case {
    const char* raw;
    const char* field;
  } cases[] = {
      {"{", "(document)"},
      {"[1]", "(document)"},
      {R"({"holderIdentity":5})", "holderIdentity"},
      {R"({"leaseDurationSeconds":"15"})", "leaseDurationSeconds"},
      {R"({"leaseDurationSeconds":1.5})", "leaseDurationSeconds"},
      {R"({"renewTime":"yesterday"})", "renewTime"},
      {R"({"acquireTime":7})", "acquireTime"},
      {R"({"leaderTransitions":99999999999})", "leaderTransitions"},
  };
  for (const auto& c : cases) {
    auto parsed = parse_raw(c.raw, kEpoch);
    ASSERT_FALSE(parsed.ok()) << c.raw;
    EXPECT_TRUE(api::is_bad_request(parsed.status())) << c.raw;
    EXPECT_NE(parsed.status().message.find(c.field), std::string::npos) << parsed.status().message;
  }
}

// The records real clients write, as their sources build them: client-go's
// (resourcelock.LeaderElectionRecord: numbers, metav1.Time), Python's
// kubernetes.leaderelection (json.dumps of str() values: the lease as a string, times in
// Python's local str(datetime) form, no leaderTransitions) and a Lease's spec (MicroTime).
TEST(RecordTest, HolderOfReadsTheRecordsRealClientsWrite) {
  struct Case {
    const char* who;
    const char* raw;
    std::string holder;
    std::chrono::seconds lease;
  } cases[] = {
      {"client-go", R"({"holderIdentity":"pod-a","leaseDurationSeconds":15,"acquireTime":"2024-05-01T12:34:56Z",)"
                    R"("renewTime":"2024-05-01T12:35:01Z","leaderTransitions":0})",
       "pod-a", 15s},
      {"python", R"({"holderIdentity": "pod-b", "leaseDurationSeconds": "17", "acquireTime": "2024-05-01 12:34:56.789012", )"
                 R"("renewTime": "2024-05-01 12:35:01"})",
       "pod-b", 17s},
      {"lease spec", R"({"holderIdentity":"pod-c","leaseDurationSeconds":15,"acquireTime":"2024-05-01T12:34:56.789012Z",)"
                     R"("renewTime":"2024-05-01T12:35:01.123456Z","leaseTransitions":0})",
       "pod-c", 15s},
      {"released", R"({"holderIdentity":"","leaseDurationSeconds":1})", "", 1s},
      {"odd lease", R"({"holderIdentity":"x","leaseDurationSeconds":"soon"})", "x", 0s},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.who);
    const auto got = holder_of_raw(c.raw);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->holder, c.holder);
    EXPECT_EQ(got->lease, c.lease);
  }
  // What the strict reader refuses (the Python record) is the reason for the lenient one.
  EXPECT_FALSE(parse_raw(cases[1].raw, kEpoch).ok());
  EXPECT_FALSE(holder_of_raw("{").has_value());
  EXPECT_FALSE(holder_of_raw(R"({"holderIdentity":5})").has_value());
  EXPECT_FALSE(holder_of_raw("[]").has_value());
}

TEST(RecordTest, LeaseSpecCarriesMicrosecondTimes) {
  const auto spec = to_lease_spec(sample(), kEpoch);
  EXPECT_EQ(spec["holderIdentity"], "a");
  EXPECT_EQ(spec["leaseDurationSeconds"], 15);
  EXPECT_EQ(spec["acquireTime"], "2025-01-01T00:00:07.250000Z");
  EXPECT_EQ(spec["renewTime"], "2025-01-01T00:00:09.999000Z");
  EXPECT_EQ(spec["leaseTransitions"], 3);
  EXPECT_FALSE(spec.contains("preferredHolder"));
  EXPECT_EQ(from_lease_spec(spec, kEpoch), sample());
  EXPECT_EQ(from_lease_spec(nlohmann::json::object(), kEpoch), LeaderElectionRecord());
}

}  // namespace
}  // namespace kubesim::election
