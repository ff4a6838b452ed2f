// metav1.Time and MicroTime members of built-in kinds: the server refuses what Go's decoder
// refuses (400, changing nothing) and stores the rest as kube-apiserver does, in UTC and
// truncated, on the fast and the general write paths alike.
#include "kubesim/api/resources.h"
#include "fakeapi/internal/fastpath/fast_paths.h"
#include "kubesim/fakeapi/server.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace testutil;
using nlohmann::json;

using api::kEvents;

json lease_json(const json& renew_time) {
  return {{"apiVersion", "coordination.k8s.io/v1"},
          {"kind", "Lease"},
          {"metadata", {{"name", "lock"}, {"namespace", "default"}}},
          {"spec",
           {{"holderIdentity", "a"}, {"leaseDurationSeconds", 15}, {"renewTime", renew_time}}}};
}

class ServerTimeTest : public ::testing::TestWithParam<bool> {
 protected:
  ServerTimeTest() : server_(loop_) { internal::FastPaths::set_enabled(server_, GetParam()); }

  api::Result<api::ObjectPtr> create(const api::GroupVersionResource& gvr, const json& j) {
    return server_.create(gvr, "default", api::make_object(j), api::CreateOptions());
  }

  sim::Loop loop_;
  ApiServer server_;
};

TEST_P(ServerTimeTest, AMicroTimeIsStoredInUtc) {
  auto created = create(kLeases, lease_json("2025-01-01T02:00:00.123456+02:00"));
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ((*created)->json()["spec"]["renewTime"], "2025-01-01T00:00:00.123456Z");
}

TEST_P(ServerTimeTest, AMicroTimeWithoutItsSixDigitsIsRefused) {
  const Revision before = server_.revision();
  auto created = create(kLeases, lease_json("2025-01-01T00:00:00Z"));
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().code, 400);
  EXPECT_EQ(created.status().message,
            "Lease in version \"v1\" cannot be handled as a Lease: parsing time "
            "\"2025-01-01T00:00:00Z\" as \"2006-01-02T15:04:05.000000Z07:00\": cannot parse "
            "\"Z\" as \".000000\"");
  EXPECT_EQ(server_.revision(), before);
}

// The zero time reads as absent: left out behind a pointer (omitempty), null in a value field
// without omitempty's effect (a struct is never empty to encoding/json).
TEST_P(ServerTimeTest, TheZeroTimeReadsAsAbsent) {
  auto created = create(kLeases, lease_json("0001-01-01T00:00:00.000000Z"));
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_FALSE((*created)->json()["spec"].contains("renewTime"));
  const json event = {{"apiVersion", "v1"},
                      {"kind", "Event"},
                      {"metadata", {{"name", "e"}, {"namespace", "default"}}},
                      {"involvedObject", {{"kind", "Pod"}, {"name", "p"}}},
                      {"reason", "Started"},
                      {"firstTimestamp", "0001-01-01T00:00:00Z"},
                      {"lastTimestamp", "2025-01-01T03:00:00+03:00"}};
  auto e = create(kEvents, event);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ((*e)->json()["firstTimestamp"], nullptr);
  EXPECT_EQ((*e)->json()["lastTimestamp"], "2025-01-01T00:00:00Z");
}

// A zero time is gone from the stored object, so a later write that keeps the rest of the text
// (the fast way) and one that renders it again (the general way) store the same object.
TEST_P(ServerTimeTest, AZeroTimeStaysAbsentAcrossWrites) {
  json lease = lease_json("0001-01-01T00:00:00.000000Z");
  lease["spec"]["acquireTime"] = "2025-01-01T00:00:00.000000Z";
  auto created = create(kLeases, lease);
  ASSERT_TRUE(created.ok()) << created.status();
  auto renewed = server_.update(
      kLeases, "default",
      (*created)->with_value_at("spec.acquireTime", json("2025-01-01T00:00:02.000000Z")),
      api::UpdateOptions());
  ASSERT_TRUE(renewed.ok()) << renewed.status();
  EXPECT_EQ((*renewed)->json()["spec"],
            json({{"acquireTime", "2025-01-01T00:00:02.000000Z"},
                  {"holderIdentity", "a"},
                  {"leaseDurationSeconds", 15}}));
}

// What leader election writes on each renewal goes the fast way; a renewal written otherwise is
// rewritten or refused as a create would be, and a refused one changes nothing.
TEST_P(ServerTimeTest, RenewalsAreCheckedAndRewritten) {
  auto created = create(kLeases, lease_json("2025-01-01T00:00:00.000000Z"));
  ASSERT_TRUE(created.ok()) << created.status();
  api::ObjectPtr lease = *created;
  const auto renew = [&](const json& value) {
    return server_.update(kLeases, "default", lease->with_value_at("spec.renewTime", value),
                          api::UpdateOptions());
  };
  auto renewed = renew("2025-01-01T00:00:02.000000Z");
  ASSERT_TRUE(renewed.ok()) << renewed.status();
  EXPECT_EQ((*renewed)->json()["spec"]["renewTime"], "2025-01-01T00:00:02.000000Z");
  lease = *renewed;
  renewed = renew("2025-01-01T01:00:04.000001+01:00");
  ASSERT_TRUE(renewed.ok()) << renewed.status();
  EXPECT_EQ((*renewed)->json()["spec"]["renewTime"], "2025-01-01T00:00:04.000001Z");
  lease = *renewed;
  const Revision before = server_.revision();
  auto refused = renew("2025-01-01T00:00:06Z");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code, 400);
  EXPECT_NE(refused.status().message.find("cannot parse \"Z\" as \".000000\""), std::string::npos)
      << refused.status().message;
  EXPECT_EQ(server_.revision(), before);
  // A renewal to the instant already stored, written otherwise, is no change at all.
  auto same = renew("2025-01-01T01:00:04.000001+01:00");
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(server_.revision(), before);
}

TEST_P(ServerTimeTest, ATimeThatIsNotAStringIsATypeError) {
  auto created = create(kLeases, lease_json(5));
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().message,
            "Lease in version \"v1\" cannot be handled as a Lease: json: cannot unmarshal number "
            "into Go struct field LeaseSpec.spec.renewTime of type string");
}

// A Time error ends Go's decode, so it is reported over a type error met before it.
TEST_P(ServerTimeTest, ATimeErrorComesBeforeATypeError) {
  json cm = config_map_json("default", "cm", {});
  cm["data"] = 5;
  cm["metadata"]["creationTimestamp"] = "yesterday";
  auto created = create(kConfigMaps, cm);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().message,
            "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: parsing time "
            "\"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as "
            "\"2006\"");
}

// Errors inside lists name the struct holding the field and the path without indices.
TEST_P(ServerTimeTest, ATimeInAListIsChecked) {
  const json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", "p"}, {"namespace", "default"}}},
      {"spec", {{"containers", {{{"name", "c"}, {"image", "i"}}}}}},
      {"status",
       {{"conditions",
         {{{"type", "Ready"}, {"status", "True"}, {"lastTransitionTime", "2025-01-01T00:00:00Z"}},
          {{"type", "Other"}, {"status", "True"}, {"lastTransitionTime", true}}}}}}};
  auto created = create(kPods, pod);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().message,
            "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal bool into "
            "Go struct field PodCondition.status.conditions.lastTransitionTime of type string");
}

// A client that sends back creationTimestamp with a numeric offset (Python's isoformat) updates
// as if it had sent the stored one.
TEST_P(ServerTimeTest, ACreationTimestampWithAnOffsetIsTheStoredOne) {
  auto created = create(kConfigMaps, config_map_json("default", "cm", {{"k", "v"}}));
  ASSERT_TRUE(created.ok()) << created.status();
  const std::string stored((*created)->creation_timestamp());
  json j = (*created)->to_json();
  j["metadata"]["creationTimestamp"] = stored.substr(0, stored.size() - 1) + "+00:00";
  j["data"]["k"] = "w";
  auto updated = server_.update(kConfigMaps, "default", api::make_object(j), api::UpdateOptions());
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_EQ((*updated)->creation_timestamp(), stored);
  EXPECT_EQ((*updated)->json()["data"]["k"], "w");
}

INSTANTIATE_TEST_SUITE_P(Paths, ServerTimeTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Fast" : "General"; });

}  // namespace
}  // namespace kubesim::fakeapi
