// configmap-mirror against the fake API server: it converges from what it finds, follows every
// change in the source, deletes strays in the target, retries through injected errors and
// conflicts, survives a crash, runs again on a fresh context, and is deterministic.
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "fixture.h"
#include "kubesim/fakeapi/faults.h"
#include "kubesim/sim/sleep.h"
#include "kubesim/sim/task_group.h"

namespace kubesim::scenarios {
namespace {

using namespace std::chrono_literals;
using testing::Fixture;
using testing::FixtureOptions;

FixtureOptions mirror_options(std::uint64_t seed = 1) {
  FixtureOptions options;
  options.seed = seed;
  options.type = "configmap-mirror";
  options.params = {{"source", "src"}, {"target", "dst"}};
  return options;
}

class MirrorTest : public ::testing::Test {
 protected:
  explicit MirrorTest(FixtureOptions options = mirror_options()) : f_(std::move(options)) {
    f_.create_namespace("src");
    f_.create_namespace("dst");
  }
  void converge(sim::Duration d = 30s) { f_.loop.run_for(d); }
  void expect_mirrored() { EXPECT_EQ(f_.contents("dst"), f_.contents("src")); }

  Fixture f_;
};

TEST_F(MirrorTest, ConvergesFromTheInitialState) {
  f_.put_config_map("src", "a", {{"k", "v"}});
  f_.put_config_map("src", "b", {});
  f_.put_config_map("src", "same", {{"x", "1"}});
  f_.put_config_map("dst", "same", {{"x", "1"}});
  f_.put_config_map("dst", "stale", {{"x", "old"}});
  f_.put_config_map("dst", "a", {{"k", "other"}});
  f_.put_config_map("default", "elsewhere", {{"k", "v"}});
  f_.start();
  converge();
  expect_mirrored();
  EXPECT_EQ(f_.contents("dst").size(), 3u);
  // Nothing to do for "same"; one create, one update, one delete.
  EXPECT_EQ(f_.served(fakeapi::Verb::kCreate, "configmaps", "", 201), 1u);
  EXPECT_EQ(f_.served(fakeapi::Verb::kUpdate, "configmaps", "", 200), 1u);
  EXPECT_EQ(f_.served(fakeapi::Verb::kDelete, "configmaps", "", 200), 1u);
  EXPECT_NE(f_.get(api::kConfigMaps, "default", "elsewhere"), nullptr);
  ASSERT_NE(f_.controller, nullptr);
  EXPECT_EQ(f_.controller->queue_depth(), 0u);
}

TEST_F(MirrorTest, FollowsCreatesUpdatesAndDeletesInTheSource) {
  f_.start();
  converge();
  f_.put_config_map("src", "a", {{"k", "1"}});
  converge(5s);
  expect_mirrored();
  f_.put_config_map("src", "a", {{"k", "2"}, {"j", "3"}});
  converge(5s);
  expect_mirrored();
  f_.put_config_map("src", "a", {});
  converge(5s);
  expect_mirrored();
  EXPECT_TRUE(f_.get(api::kConfigMaps, "dst", "a")->member_value("data").is_null());
  f_.delete_config_map("src", "a");
  converge(5s);
  expect_mirrored();
  EXPECT_EQ(f_.get(api::kConfigMaps, "dst", "a"), nullptr);
}

TEST_F(MirrorTest, CopiesBinaryData) {
  auto made = f_.server.create(api::kConfigMaps, "src",
                               api::make_object({{"apiVersion", "v1"},
                                                 {"kind", "ConfigMap"},
                                                 {"metadata", {{"name", "bin"}, {"namespace", "src"}}},
                                                 {"data", {{"t", "text"}}},
                                                 {"binaryData", {{"b", "AAEC"}}}}),
                               api::CreateOptions());
  ASSERT_TRUE(made.ok()) << made.status().message;
  f_.start();
  converge();
  expect_mirrored();
  EXPECT_EQ(f_.get(api::kConfigMaps, "dst", "bin")->value_at("binaryData.b"), "AAEC");
}

TEST_F(MirrorTest, DeletesStraysAndUndoesEditsInTheTarget) {
  f_.put_config_map("src", "a", {{"k", "v"}});
  f_.start();
  converge();
  f_.put_config_map("dst", "stray", {{"x", "y"}});
  f_.put_config_map("dst", "a", {{"k", "tampered"}});
  converge(5s);
  expect_mirrored();
  f_.delete_config_map("dst", "a");
  converge(5s);
  expect_mirrored();
}

TEST_F(MirrorTest, RetriesCreatesThatFailWith500) {
  fakeapi::FaultRule rule;
  rule.verbs = {fakeapi::Verb::kCreate};
  rule.resource = "configmaps";
  rule.effect = fakeapi::ErrorFault{api::new_internal_error("injected")};
  rule.count = 3;
  f_.server.faults().add(rule);
  f_.put_config_map("src", "a", {{"k", "v"}});
  f_.start();
  converge();
  expect_mirrored();
  EXPECT_EQ(f_.served(fakeapi::Verb::kCreate, "configmaps", "", 500), 3u);
  EXPECT_EQ(f_.served(fakeapi::Verb::kCreate, "configmaps", "", 201), 1u);
}

TEST_F(MirrorTest, RetriesUpdatesThatConflict) {
  f_.put_config_map("src", "a", {{"k", "1"}});
  f_.start();
  converge();
  fakeapi::FaultRule rule;
  rule.verbs = {fakeapi::Verb::kUpdate};
  rule.resource = "configmaps";
  rule.effect = fakeapi::ErrorFault{api::new_conflict({"", "configmaps"}, "a", "injected")};
  rule.count = 4;
  f_.server.faults().add(rule);
  f_.put_config_map("src", "a", {{"k", "2"}});
  converge();
  expect_mirrored();
  EXPECT_EQ(f_.served(fakeapi::Verb::kUpdate, "configmaps", "", 409), 4u);
  EXPECT_EQ(f_.served(fakeapi::Verb::kUpdate, "configmaps", "", 200), 1u);
}

// A real conflict: the target changes between the cache's view and the update (the update carries
// the cached resourceVersion), and the retry reads the newer state.
TEST_F(MirrorTest, AStaleCacheCostsAConflictNotALostWrite) {
  f_.put_config_map("src", "a", {{"k", "1"}});
  f_.start();
  converge();
  fakeapi::FaultRule slow;
  slow.verbs = {fakeapi::Verb::kUpdate};
  slow.resource = "configmaps";
  slow.effect = fakeapi::LatencyFault{2s};
  slow.count = 1;
  f_.server.faults().add(slow);
  f_.put_config_map("src", "a", {{"k", "2"}});
  f_.loop.run_for(500ms);  // the controller's update is on its way, slowed
  f_.put_config_map("dst", "a", {{"k", "meddled"}});
  converge();
  expect_mirrored();
  EXPECT_GE(f_.served(fakeapi::Verb::kUpdate, "configmaps", "", 409), 1u);
}

TEST_F(MirrorTest, KeepsWorkingThroughACrashAndRestart) {
  f_.put_config_map("src", "a", {{"k", "1"}});
  f_.start();
  converge();
  f_.process.crash();
  f_.loop.run_for(1s);
  EXPECT_EQ(f_.finished_runs, 1);
  // Changes while it is down are caught up by the next incarnation's first list.
  f_.put_config_map("src", "a", {{"k", "2"}});
  f_.put_config_map("src", "b", {{"k", "3"}});
  f_.put_config_map("dst", "stray", {});
  f_.process.restart();
  converge();
  expect_mirrored();
  EXPECT_EQ(f_.process.incarnation(), 1);
  f_.put_config_map("src", "c", {});
  converge(5s);
  expect_mirrored();
}

sim::Task<void> run_twice(Fixture* f, sim::Context ctx, sim::Duration first) {
  informer::SharedInformerFactory factory(f->client, f->process.clock());
  ControllerEnv env{f->process, f->client, factory, f->options().params, 1};
  auto controller = f->type().make(env);
  factory.start(ctx);
  auto lead = sim::with_timeout(ctx, f->loop, first);
  co_await controller->run(lead.ctx);
  ++f->finished_runs;
  f->put_config_map("src", "later", {{"k", "v"}});
  co_await sim::sleep_for(ctx, f->loop, 10s);
  EXPECT_EQ(f->get(api::kConfigMaps, "dst", "later"), nullptr);  // nobody runs
  co_await controller->run(ctx);
  ++f->finished_runs;
  co_await factory.shutdown();
}

// As a replica that leads, loses the lease and leads again: run() twice on one controller.
TEST_F(MirrorTest, RunsAgainOnAFreshContext) {
  f_.put_config_map("src", "a", {{"k", "1"}});
  f_.process.start([this](sim::Context ctx) { return run_twice(&f_, ctx, 20s); });
  f_.loop.run_for(19s);
  expect_mirrored();
  EXPECT_EQ(f_.finished_runs, 0);
  f_.loop.run_for(21s);  // the first run ends at 20 s, the second starts at 30 s
  EXPECT_EQ(f_.finished_runs, 1);
  expect_mirrored();
  EXPECT_EQ(f_.contents("dst").count("later"), 1u);
}

sim::Task<void> run_controller(Controller* controller, sim::Context ctx, int* finished) {
  co_await controller->run(ctx);
  ++*finished;
}

sim::Task<void> overlapping_runs(Fixture* f, sim::Context ctx) {
  informer::SharedInformerFactory factory(f->client, f->process.clock());
  ControllerEnv env{f->process, f->client, factory, f->options().params, 2};
  auto controller = f->type().make(env);
  factory.start(ctx);
  sim::TaskGroup runs(f->loop);
  auto first = sim::with_cancel(ctx);
  runs.spawn(run_controller(controller.get(), first.ctx, &f->finished_runs));
  co_await sim::sleep_for(ctx, f->loop, 10s);
  // The next term starts before the last one has unwound.
  first.cancel();
  runs.spawn(run_controller(controller.get(), ctx, &f->finished_runs));
  co_await runs.wait(sim::Context());
  co_await factory.shutdown();
}

TEST_F(MirrorTest, ARunThatStartsBeforeTheLastOneEndsTakesOver) {
  f_.put_config_map("src", "a", {{"k", "1"}});
  f_.process.start([this](sim::Context ctx) { return overlapping_runs(&f_, ctx); });
  f_.loop.run_for(11s);
  EXPECT_EQ(f_.finished_runs, 1);
  f_.put_config_map("src", "b", {{"k", "2"}});
  f_.put_config_map("src", "a", {{"k", "3"}});
  f_.loop.run_for(10s);
  expect_mirrored();
  EXPECT_EQ(f_.contents("dst").size(), 2u);
}

TEST_F(MirrorTest, QueueDepthCountsWaitingKeys) {
  for (int i = 0; i < 20; ++i) f_.put_config_map("src", "cm-" + std::to_string(i), {{"i", std::to_string(i)}});
  f_.link->partition();
  f_.start();
  f_.loop.run_for(1s);
  ASSERT_NE(f_.controller, nullptr);
  EXPECT_EQ(f_.controller->queue_depth(), 0u);  // not synced: nothing queued yet
  f_.link->heal();
  converge();
  expect_mirrored();
  EXPECT_EQ(f_.controller->queue_depth(), 0u);
}

}  // namespace
}  // namespace kubesim::scenarios
