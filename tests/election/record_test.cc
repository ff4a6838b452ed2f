#include "kubesim/election/record.h"

#include <gtest/gtest.h>

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
