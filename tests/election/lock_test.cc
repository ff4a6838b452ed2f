#include "kubesim/election/lease_lock.h"

#include <gtest/gtest.h>

#include "kubesim/election/annotation_lock.h"
#include "kubesim/election/multi_lock.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/sim/loop.h"

namespace kubesim::election {
namespace {

using namespace std::chrono_literals;

LeaderElectionRecord held_by(const std::string& holder, int transitions = 0) {
  LeaderElectionRecord r;
  r.holder_identity = holder;
  r.lease_duration_seconds = 15;
  r.acquire_time = sim::Time{} + 1s;
  r.renew_time = sim::Time{} + 2s;
  r.leader_transitions = transitions;
  return r;
}

struct LockFixture {
  sim::Loop loop;
  fakeapi::ApiServer server{loop};
  fakeapi::InProcessClient client{server};

  template <class T>
  T run(sim::Task<T> task) { return loop.run_until_complete(std::move(task)); }
  api::ObjectPtr stored(const api::GroupVersionResource& r) {
    auto got = server.get(r, "default", "l", api::GetOptions());
    return got.ok() ? got.value() : nullptr;
  }
};

using LockMaker = std::function<std::shared_ptr<ResourceLock>(api::Client&, const std::string&)>;
struct Kind {
  const char* name;
  LockMaker make;
  api::GroupVersionResource resource;
};

class AnyLockTest : public ::testing::TestWithParam<Kind> {};

TEST_P(AnyLockTest, CreateGetUpdateAndOnlyTheFirstOfRacingWritesWins) {
  LockFixture f;
  auto a = GetParam().make(f.client, "a");
  auto b = GetParam().make(f.client, "b");
  auto missing = f.run(a->get(sim::Context()));
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(api::is_not_found(missing.status()));
  auto early = f.run(a->update(sim::Context(), held_by("a")));
  ASSERT_FALSE(early.ok());
  EXPECT_NE(early.status().message.find("not initialized, call get or create first"), std::string::npos);

  ASSERT_TRUE(f.run(a->create(sim::Context(), held_by("a", 1))).ok());
  auto again = f.run(b->create(sim::Context(), held_by("b")));
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(api::is_already_exists(again.status()));

  auto seen_a = f.run(a->get(sim::Context()));
  auto seen_b = f.run(b->get(sim::Context()));
  ASSERT_TRUE(seen_a.ok() && seen_b.ok());
  EXPECT_EQ(seen_a->record.holder_identity, "a");
  EXPECT_EQ(seen_a->record.leader_transitions, 1);
  EXPECT_EQ(seen_a->record.renew_time, sim::Time{} + 2s);
  EXPECT_EQ(seen_a->raw, seen_b->raw);
  // Both read the same version; the first write wins, the second is a conflict.
  ASSERT_TRUE(f.run(b->update(sim::Context(), held_by("b", 2))).ok());
  auto lost = f.run(a->update(sim::Context(), held_by("a", 2)));
  ASSERT_FALSE(lost.ok());
  EXPECT_TRUE(api::is_conflict(lost.status()));
  auto now = f.run(a->get(sim::Context()));
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(now->record.holder_identity, "b");
  EXPECT_NE(now->raw, seen_a->raw);
}

INSTANTIATE_TEST_SUITE_P(
    Locks, AnyLockTest,
    ::testing::Values(
        Kind{"Lease", [](api::Client& c, const std::string& id) { return std::make_shared<LeaseLock>(c, "default", "l", ResourceLockConfig{id}); }, api::kLeases},
        Kind{"ConfigMap", [](api::Client& c, const std::string& id) { return std::make_shared<ConfigMapLock>(c, "default", "l", ResourceLockConfig{id}); }, api::kConfigMaps},
        Kind{"Endpoints", [](api::Client& c, const std::string& id) { return std::make_shared<EndpointsLock>(c, "default", "l", ResourceLockConfig{id}); }, api::kEndpoints},
        Kind{"MultiLock", [](api::Client& c, const std::string& id) {
               return std::make_shared<MultiLock>(std::make_shared<ConfigMapLock>(c, "default", "l", ResourceLockConfig{id}),
                                                  std::make_shared<LeaseLock>(c, "default", "l", ResourceLockConfig{id}));
             }, api::kLeases}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(LeaseLockTest, WritesCoordinationV1FieldsAndItsLabels) {
  LockFixture f;
  LeaseLock lock(f.client, "default", "l", ResourceLockConfig{"a"}, {{"app", "ctl"}});
  ASSERT_TRUE(f.run(lock.create(sim::Context(), held_by("a", 4))).ok());
  auto lease = f.stored(api::kLeases);
  ASSERT_TRUE(lease);
  EXPECT_EQ(lease->json()["spec"], nlohmann::json::parse(
      R"({"holderIdentity":"a","leaseDurationSeconds":15,"acquireTime":"2025-01-01T00:00:01.000000Z",
          "renewTime":"2025-01-01T00:00:02.000000Z","leaseTransitions":4})"));
  EXPECT_EQ(lease->label("app"), "ctl");
  // A label someone else put on the Lease survives our updates.
  auto labelled = lease->with_labels({{"app", "other"}, {"team", "x"}});
  ASSERT_TRUE(f.server.update(api::kLeases, "default", labelled, api::UpdateOptions()).ok());
  ASSERT_TRUE(f.run(lock.get(sim::Context())).ok());
  ASSERT_TRUE(f.run(lock.update(sim::Context(), held_by("a", 4))).ok());
  EXPECT_EQ(f.stored(api::kLeases)->label("app"), "ctl");
  EXPECT_EQ(f.stored(api::kLeases)->label("team"), "x");
}

TEST(AnnotationLockTest, RecordLivesInTheLeaderAnnotation) {
  LockFixture f;
  ConfigMapLock lock(f.client, "default", "l", ResourceLockConfig{"a"});
  ASSERT_TRUE(f.run(lock.create(sim::Context(), held_by("a"))).ok());
  auto cm = f.stored(api::kConfigMaps);
  EXPECT_EQ(cm->annotation(kLeaderElectionRecordAnnotationKey), to_raw(held_by("a"), sim::kDefaultEpochUnixSeconds));
  auto got = f.run(lock.get(sim::Context()));
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->raw, *cm->annotation(kLeaderElectionRecordAnnotationKey));
}

TEST(AnnotationLockTest, MissingAnnotationIsAnEmptyRecordAndABadOneChangesNothing) {
  LockFixture f;
  nlohmann::json cm = {{"apiVersion", "v1"}, {"kind", "Endpoints"}, {"metadata", {{"name", "l"}, {"namespace", "default"}}}};
  ASSERT_TRUE(f.server.create(api::kEndpoints, "default", api::make_object(cm), api::CreateOptions()).ok());
  EndpointsLock lock(f.client, "default", "l", ResourceLockConfig{"a"});
  auto empty = f.run(lock.get(sim::Context()));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->record, LeaderElectionRecord());
  EXPECT_EQ(empty->raw, "");
  const std::string before(f.stored(api::kEndpoints)->resource_version());

  auto bad = f.stored(api::kEndpoints)->with_annotation(kLeaderElectionRecordAnnotationKey, std::string("{not json"));
  ASSERT_TRUE(f.server.update(api::kEndpoints, "default", bad, api::UpdateOptions()).ok());
  auto broken = f.run(lock.get(sim::Context()));
  ASSERT_FALSE(broken.ok());
  EXPECT_TRUE(api::is_bad_request(broken.status()));
  // The cached object is still the one read before: an update over it is a conflict.
  EXPECT_EQ(lock.object()->resource_version(), before);
  EXPECT_TRUE(api::is_conflict(f.run(lock.update(sim::Context(), held_by("a"))).status()));
}

TEST(MultiLockTest, OldStyleHolderWithoutSecondaryReadsAsThePrimary) {
  LockFixture f;
  ConfigMapLock old(f.client, "default", "l", ResourceLockConfig{"old"});
  ASSERT_TRUE(f.run(old.create(sim::Context(), held_by("old"))).ok());
  auto make = [&](const std::string& id) {
    return MultiLock(std::make_shared<ConfigMapLock>(f.client, "default", "l", ResourceLockConfig{id}),
                     std::make_shared<LeaseLock>(f.client, "default", "l", ResourceLockConfig{id}));
  };
  MultiLock multi = make("new");
  auto got = f.run(multi.get(sim::Context()));
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->record.holder_identity, "old");
  EXPECT_EQ(got->raw, *f.stored(api::kConfigMaps)->annotation(kLeaderElectionRecordAnnotationKey));
  // Its update writes the primary and creates the secondary.
  ASSERT_TRUE(f.run(multi.update(sim::Context(), held_by("new", 1))).ok());
  ASSERT_TRUE(f.stored(api::kLeases));
  EXPECT_EQ(f.stored(api::kLeases)->json()["spec"]["holderIdentity"], "new");
  // A MultiLock that holds the primary but finds no secondary reports NotFound (and creates it).
  ASSERT_TRUE(f.server.delete_(api::kLeases, "default", "l", api::DeleteOptions()).ok());
  auto self = f.run(multi.get(sim::Context()));
  ASSERT_FALSE(self.ok());
  EXPECT_TRUE(api::is_not_found(self.status()));
}

TEST(MultiLockTest, DisagreeingHoldersReadAsUnknownAndEitherRenewalIsAChange) {
  LockFixture f;
  ConfigMapLock cm(f.client, "default", "l", ResourceLockConfig{"x"});
  LeaseLock lease(f.client, "default", "l", ResourceLockConfig{"y"});
  ASSERT_TRUE(f.run(cm.create(sim::Context(), held_by("x"))).ok());
  ASSERT_TRUE(f.run(lease.create(sim::Context(), held_by("y"))).ok());
  MultiLock multi(std::make_shared<ConfigMapLock>(f.client, "default", "l", ResourceLockConfig{"m"}),
                  std::make_shared<LeaseLock>(f.client, "default", "l", ResourceLockConfig{"m"}));
  auto first = f.run(multi.get(sim::Context()));
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->record.holder_identity, kUnknownLeader);
  LeaderElectionRecord renewed = held_by("y");
  renewed.renew_time = sim::Time{} + 5s;
  ASSERT_TRUE(f.run(lease.update(sim::Context(), renewed)).ok());
  auto second = f.run(multi.get(sim::Context()));
  ASSERT_TRUE(second.ok());
  EXPECT_NE(second->raw, first->raw);
}

// A MultiLock candidate reads both locks; a Lease-only candidate then takes the Lease; the
// MultiLock renews. Returns the result of that renewal.
api::Result<void> renewal_over_a_taken_secondary(LockFixture& f, bool keep_precondition) {
  MultiLock multi(std::make_shared<ConfigMapLock>(f.client, "default", "l", ResourceLockConfig{"m"}),
                  std::make_shared<LeaseLock>(f.client, "default", "l", ResourceLockConfig{"m"}));
  multi.set_keep_secondary_precondition(keep_precondition);
  EXPECT_TRUE(f.run(multi.create(sim::Context(), held_by("m"))).ok());
  EXPECT_TRUE(f.run(multi.get(sim::Context())).ok());
  LeaseLock other(f.client, "default", "l", ResourceLockConfig{"z"});
  EXPECT_TRUE(f.run(other.get(sim::Context())).ok());
  EXPECT_TRUE(f.run(other.update(sim::Context(), held_by("z", 1))).ok());
  return f.run(multi.update(sim::Context(), held_by("m", 1)));
}

TEST(MultiLockTest, SecondaryIsReReadAndOverwrittenAsInClientGo) {
  // client-go's MultiLock.Update: after the primary it gets the secondary afresh and updates
  // over that read, so the Lease-only candidate's acquisition is overwritten: both lead.
  LockFixture f;
  EXPECT_TRUE(renewal_over_a_taken_secondary(f, false).ok());
  EXPECT_EQ(f.stored(api::kLeases)->json()["spec"]["holderIdentity"], "m");
}

TEST(MultiLockTest, KeepingTheSecondaryPreconditionRefusesTheOverwrite) {
  LockFixture f;
  auto overwrite = renewal_over_a_taken_secondary(f, true);
  ASSERT_FALSE(overwrite.ok());
  EXPECT_TRUE(api::is_conflict(overwrite.status()));
  EXPECT_EQ(f.stored(api::kLeases)->json()["spec"]["holderIdentity"], "z");
}

}  // namespace
}  // namespace kubesim::election
