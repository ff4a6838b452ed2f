#include "live/internal/record_leadership.h"

#include <gtest/gtest.h>

#include "kubesim/api/object.h"
#include "kubesim/election/record.h"

namespace kubesim::live {
namespace {

using namespace std::chrono_literals;

api::ObjectPtr object(nlohmann::json j) { return api::Object::from_json(std::move(j)).value(); }

TEST(RecordView, ALeaseNamesItsHolderAndDuration) {
  auto lease = object({{"apiVersion", "coordination.k8s.io/v1"}, {"kind", "Lease"},
                       {"metadata", {{"name", "m"}, {"namespace", "kube-system"}}},
                       {"spec", {{"holderIdentity", "mirror-1"}, {"leaseDurationSeconds", 6}}}});
  auto view = read_record("leases", *lease, 0);
  ASSERT_TRUE(view);
  EXPECT_EQ(view->holder, "mirror-1");
  EXPECT_EQ(view->lease, 6s);
  auto released = object({{"apiVersion", "coordination.k8s.io/v1"}, {"kind", "Lease"},
                          {"metadata", {{"name", "m"}, {"namespace", "kube-system"}}}, {"spec", nlohmann::json::object()}});
  view = read_record("leases", *released, 0);
  ASSERT_TRUE(view);
  EXPECT_EQ(view->holder, "");
}

TEST(RecordView, AConfigMapLockKeepsItsRecordInAnAnnotation) {
  election::LeaderElectionRecord record;
  record.holder_identity = "op-0";
  record.lease_duration_seconds = 15;
  const std::string raw = election::to_raw(record, 1'700'000'000);
  auto cm = object({{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                    {"metadata", {{"name", "m"}, {"namespace", "a"},
                                  {"annotations", {{std::string(election::kLeaderElectionRecordAnnotationKey), raw}}}}}});
  auto view = read_record("configmaps", *cm, 1'700'000'000);
  ASSERT_TRUE(view);
  EXPECT_EQ(view->holder, "op-0");
  EXPECT_EQ(view->lease, 15s);
  auto bare = object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "m"}, {"namespace", "a"}}}});
  EXPECT_FALSE(read_record("configmaps", *bare, 0));
}

}  // namespace
}  // namespace kubesim::live
