// InProcessClient: requests and watch events cross the process's simulated link (latency both
// ways, exact virtual instants), partitions make requests wait for healing or fail, cancelled
// contexts fail without touching the server, and watches stall and close across a partition.
#include "kubesim/fakeapi/inprocess_client.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/sim/context.h"
#include "kubesim/sim/process.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;
using sim::Time;

template <class T>
struct Outcome {
  bool done = false;
  Time at{};
  std::optional<api::Result<T>> result;
};

template <class T>
sim::Task<void> capture(sim::Task<api::Result<T>> call, sim::Loop* loop, Outcome<T>* out) {
  auto r = co_await std::move(call);
  out->at = loop->now();
  out->result.emplace(std::move(r));
  out->done = true;
}

class InProcessClientTest : public ::testing::Test {
 protected:
  InProcessClientTest() {
    process_.set_link(link_);
  }

  template <class T>
  std::unique_ptr<Outcome<T>> start(sim::Task<api::Result<T>> call) {
    auto out = std::make_unique<Outcome<T>>();
    loop_.spawn(capture(std::move(call), &loop_, out.get()), "call");
    return out;
  }
  bool exists(const std::string& name) {
    return server_.get(kConfigMaps, "default", name, api::GetOptions()).ok();
  }

  sim::Loop loop_;
  ApiServer server_{loop_};
  sim::Process process_{loop_, "replica-1"};
  std::shared_ptr<sim::NetworkLink> link_ = std::make_shared<sim::NetworkLink>(loop_, 5ms);
  InProcessClient client_{server_, process_};
};

TEST_F(InProcessClientTest, ARequestCrossesTheLinkThereAndBack) {
  auto out = start(client_.create(sim::Context(), kConfigMaps, "default", config_map("default", "a"),
                                  api::CreateOptions()));
  loop_.run_until(Time{} + 5ms - 1ns);
  EXPECT_FALSE(exists("a"));
  loop_.run_until(Time{} + 5ms);
  EXPECT_TRUE(exists("a"));  // the server did the work on arrival
  EXPECT_FALSE(out->done);
  loop_.run_until(Time{} + 10ms);
  ASSERT_TRUE(out->done);
  EXPECT_EQ(out->at, Time{} + 10ms);
  ASSERT_TRUE(out->result->ok());
  EXPECT_EQ(out->result->value()->name(), "a");
}

TEST_F(InProcessClientTest, EveryVerbGoesThroughTheServer) {
  sim::Context ctx;
  auto created = loop_.run_until_complete(
      client_.create(ctx, kConfigMaps, "default", config_map("default", "a", {{"k", "1"}}), api::CreateOptions()));
  ASSERT_TRUE(created.ok());
  auto got = loop_.run_until_complete(client_.get(ctx, kConfigMaps, "default", "a", api::GetOptions()));
  ASSERT_TRUE(got.ok());
  auto updated = loop_.run_until_complete(client_.update(
      ctx, kConfigMaps, "default", got.value()->edited([](nlohmann::json& j) { j["data"]["k"] = "2"; }),
      api::UpdateOptions()));
  ASSERT_TRUE(updated.ok());
  EXPECT_EQ(data_of(updated.value(), "k"), "2");
  auto patched = loop_.run_until_complete(client_.patch(ctx, kConfigMaps, "default", "a", api::PatchType::kMergePatch,
                                                        R"({"data":{"k":"3"}})", api::PatchOptions()));
  ASSERT_TRUE(patched.ok());
  EXPECT_EQ(data_of(patched.value(), "k"), "3");
  auto listed = loop_.run_until_complete(client_.list(ctx, kConfigMaps, "default", api::ListOptions()));
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->items.size(), 1u);
  auto stale = loop_.run_until_complete(client_.update(ctx, kConfigMaps, "default", got.value(), api::UpdateOptions()));
  ASSERT_FALSE(stale.ok());
  EXPECT_TRUE(api::is_conflict(stale.status()));
  auto deleted = loop_.run_until_complete(client_.delete_(ctx, kConfigMaps, "default", "a", api::DeleteOptions()));
  ASSERT_TRUE(deleted.ok());
  auto collection = loop_.run_until_complete(
      client_.delete_collection(ctx, kConfigMaps, "default", api::DeleteOptions(), api::ListOptions()));
  EXPECT_TRUE(collection.ok());
  EXPECT_FALSE(exists("a"));
  // Eight round trips of 10 ms each.
  EXPECT_EQ(loop_.now(), Time{} + 80ms);
}

TEST_F(InProcessClientTest, UpdateStatusGoesToTheStatusSubresource) {
  sim::Context ctx;
  ASSERT_TRUE(server_.create(kDeployments, "default", deployment("default", "web", 1), api::CreateOptions()).ok());
  auto d = server_.get(kDeployments, "default", "web", api::GetOptions());
  ASSERT_TRUE(d.ok());
  auto r = loop_.run_until_complete(client_.update_status(
      ctx, kDeployments, "default", d.value()->edited([](nlohmann::json& j) { j["status"] = {{"replicas", 1}}; }),
      api::UpdateOptions()));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r.value()->json()["status"]["replicas"], 1);
}

TEST_F(InProcessClientTest, AClientWithoutAProcessHasNoLatency) {
  InProcessClient direct(server_, "tool");
  EXPECT_EQ(direct.name(), "tool");
  auto r = loop_.run_until_complete(direct.create(sim::Context(), kConfigMaps, "default",
                                                  config_map("default", "a"), api::CreateOptions()));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(loop_.now(), Time{});
}

TEST_F(InProcessClientTest, RequestsOfDifferentProcessesInterleaveByLatency) {
  sim::Process far(loop_, "far");
  far.set_link(std::make_shared<sim::NetworkLink>(loop_, 50ms));
  InProcessClient far_client(server_, far);
  // The far process asks first but the near one's write lands first.
  auto slow = start(far_client.create(sim::Context(), kConfigMaps, "default",
                                      config_map("default", "x", {{"by", "far"}}), api::CreateOptions()));
  auto fast = start(client_.create(sim::Context(), kConfigMaps, "default",
                                   config_map("default", "x", {{"by", "near"}}), api::CreateOptions()));
  loop_.run_until(Time{} + 100ms);
  ASSERT_TRUE(slow->done && fast->done);
  EXPECT_TRUE(fast->result->ok());
  ASSERT_FALSE(slow->result->ok());
  EXPECT_TRUE(api::is_already_exists(slow->result->status()));
  EXPECT_EQ(fast->at, Time{} + 10ms);
  EXPECT_EQ(slow->at, Time{} + 100ms);
}

TEST_F(InProcessClientTest, APartitionedRequestWaitsForHealing) {
  link_->partition();
  auto out = start(client_.create(sim::Context(), kConfigMaps, "default", config_map("default", "a"),
                                  api::CreateOptions()));
  loop_.run_until(Time{} + 3s);
  EXPECT_FALSE(exists("a"));
  EXPECT_FALSE(out->done);
  link_->heal();
  loop_.run_until(Time{} + 3s + 10ms);
  ASSERT_TRUE(out->done);
  EXPECT_TRUE(out->result->ok());
  EXPECT_EQ(out->at, Time{} + 3s + 5ms);
  EXPECT_TRUE(exists("a"));
}

TEST_F(InProcessClientTest, APartitionThatOutlastsTheTimeoutFailsWithCodeZero) {
  link_->partition();
  auto out = start(client_.create(sim::Context(), kConfigMaps, "default", config_map("default", "a"),
                                  api::CreateOptions()));
  loop_.run_until(Time{} + 5ms + 10s - 1ns);
  EXPECT_FALSE(out->done);
  loop_.run_until(Time{} + 5ms + 10s);
  ASSERT_TRUE(out->done);
  EXPECT_EQ(out->at, Time{} + 5ms + 10s);
  ASSERT_FALSE(out->result->ok());
  EXPECT_EQ(out->result->status().code, 0);
  EXPECT_FALSE(exists("a"));
  EXPECT_EQ(server_.revision(), 4);
  // Healing restores the link for the next request.
  link_->heal();
  auto again = loop_.run_until_complete(client_.create(sim::Context(), kConfigMaps, "default",
                                                       config_map("default", "a"), api::CreateOptions()));
  EXPECT_TRUE(again.ok());
}

TEST_F(InProcessClientTest, APartitionDuringTheAnswerLosesTheAnswerButNotTheWrite) {
  auto out = start(client_.create(sim::Context(), kConfigMaps, "default", config_map("default", "a"),
                                  api::CreateOptions()));
  loop_.run_until(Time{} + 7ms);
  EXPECT_TRUE(exists("a"));
  link_->partition();
  loop_.run_until(Time{} + 10ms + 10s);
  ASSERT_TRUE(out->done);
  ASSERT_FALSE(out->result->ok());
  EXPECT_EQ(out->result->status().code, 0);
  EXPECT_TRUE(exists("a"));
}

TEST_F(InProcessClientTest, WarningsComeBackWithTheAnswer) {
  std::vector<std::string> seen;
  std::vector<Time> when;
  client_.set_warning_handler([&](int code, std::string_view agent, std::string_view text) {
    seen.push_back(std::to_string(code) + " " + std::string(agent) + " " + std::string(text));
    when.push_back(loop_.now());
  });
  const auto typo = [](const std::string& name) {
    return config_map("default", name)->edited([](nlohmann::json& j) { j["dta"] = {{"k", "v"}}; });
  };
  auto created = start(client_.create(sim::Context(), kConfigMaps, "default", typo("a"),
                                      api::CreateOptions()));
  loop_.run_until(Time{} + 9ms);
  EXPECT_TRUE(seen.empty());  // the answer is still on its way
  loop_.run_until(Time{} + 10ms);
  ASSERT_TRUE(created->done && created->result->ok());
  EXPECT_EQ(seen, std::vector<std::string>{"299 - unknown field \"dta\""});
  EXPECT_EQ(when, std::vector<Time>{Time{} + 10ms});
  seen.clear();
  auto updated = start(client_.update(sim::Context(), kConfigMaps, "default",
                                      typo("a")->with_resource_version(std::string(
                                          created->result->value()->resource_version())),
                                      api::UpdateOptions()));
  auto patched = start(client_.patch(sim::Context(), kConfigMaps, "default", "a",
                                     api::PatchType::kMergePatch, R"({"other": 1})",
                                     api::PatchOptions()));
  api::CreateOptions ignore;
  ignore.field_validation = api::FieldValidation::kIgnore;
  auto ignored = start(client_.create(sim::Context(), kConfigMaps, "default", typo("b"), ignore));
  loop_.run_until(Time{} + 30ms);
  ASSERT_TRUE(updated->done && updated->result->ok()) << updated->result->status();
  ASSERT_TRUE(patched->done && patched->result->ok()) << patched->result->status();
  ASSERT_TRUE(ignored->done && ignored->result->ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"299 - unknown field \"dta\"",
                                            "299 - unknown field \"other\""}));
  // An answer lost to a partition loses its warnings too.
  seen.clear();
  auto lost = start(client_.create(sim::Context(), kConfigMaps, "default", typo("c"),
                                   api::CreateOptions()));
  loop_.run_until(loop_.now() + 7ms);
  link_->partition();
  loop_.run_until(loop_.now() + 20s);
  ASSERT_TRUE(lost->done);
  EXPECT_EQ(lost->result->status().code, 0);
  EXPECT_TRUE(seen.empty());
}

TEST_F(InProcessClientTest, AContextDoneFirstFailsTheCallWithCodeZero) {
  auto timeout = sim::with_timeout(sim::Context(), loop_, 3ms);
  auto out = start(client_.create(timeout.ctx, kConfigMaps, "default", config_map("default", "a"),
                                  api::CreateOptions()));
  loop_.run_until(Time{} + 20ms);
  ASSERT_TRUE(out->done);
  EXPECT_EQ(out->at, Time{} + 3ms);
  ASSERT_FALSE(out->result->ok());
  EXPECT_EQ(out->result->status().code, 0);
  EXPECT_EQ(out->result->status().message, "context deadline exceeded");
  EXPECT_FALSE(exists("a"));
}

TEST_F(InProcessClientTest, ACancelledContextFailsEvenWithoutLatency) {
  InProcessClient direct(server_, "tool");
  auto cancelled = sim::with_cancel(sim::Context());
  cancelled.cancel();
  auto r = loop_.run_until_complete(direct.create(cancelled.ctx, kConfigMaps, "default",
                                                  config_map("default", "a"), api::CreateOptions()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 0);
  EXPECT_EQ(r.status().message, "context canceled");
  EXPECT_FALSE(exists("a"));
}

TEST_F(InProcessClientTest, ACrashedProcessFailsItsCalls) {
  process_.crash();
  auto r = loop_.run_until_complete(client_.create(process_.context(), kConfigMaps, "default",
                                                   config_map("default", "a"), api::CreateOptions()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 0);
  EXPECT_FALSE(exists("a"));
}

class InProcessWatchTest : public InProcessClientTest {
 protected:
  std::unique_ptr<EventLog> watch_from_now() {
    api::ListOptions options;
    options.resource_version = std::to_string(server_.revision());
    auto w = loop_.run_until_complete(client_.watch(sim::Context(), kConfigMaps, "default", options));
    EXPECT_TRUE(w.ok());
    return std::make_unique<EventLog>(loop_, std::move(w.value()));
  }
  void create_at(Time t, const std::string& name) {
    loop_.run_until(t);
    ASSERT_TRUE(server_.create(kConfigMaps, "default", config_map("default", name), api::CreateOptions()).ok());
  }
};

TEST_F(InProcessWatchTest, EventsCrossTheLinkInOrderWithItsLatency) {
  auto log = watch_from_now();
  EXPECT_EQ(loop_.now(), Time{} + 10ms);
  create_at(Time{} + 20ms, "a");
  create_at(Time{} + 21ms, "b");
  loop_.run_until(Time{} + 25ms - 1ns);
  EXPECT_EQ(log->size(), 0u);
  loop_.run_until(Time{} + 25ms);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/a@5"}));
  loop_.run_until(Time{} + 26ms);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/a@5", "ADDED default/b@6"}));
}

TEST_F(InProcessWatchTest, EventsNeverOvertakeEachOtherWithRandomLatency) {
  link_->set_latency(1ms, 50ms);
  auto log = watch_from_now();
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(server_.create(kConfigMaps, "default", config_map("default", "cm-" + std::to_string(i)),
                               api::CreateOptions())
                    .ok());
    loop_.run_for(1ms);
  }
  loop_.run_for(1s);
  ASSERT_EQ(log->size(), 30u);
  for (std::size_t i = 0; i < 30; ++i) {
    EXPECT_EQ((*log)[i].object->resource_version(), std::to_string(5 + i));
  }
}

TEST_F(InProcessWatchTest, APartitionStallsAWatchAndHealingResumesIt) {
  auto log = watch_from_now();
  link_->partition();
  create_at(Time{} + 1s, "a");
  loop_.run_until(Time{} + 20s);
  EXPECT_EQ(log->size(), 0u);
  EXPECT_FALSE(log->ended());
  link_->heal();
  settle(loop_);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/a@5"}));
  EXPECT_FALSE(log->ended());
}

TEST_F(InProcessWatchTest, APartitionOutlastingTheWatchTimeoutEndsTheWatch) {
  auto log = watch_from_now();
  link_->partition();
  create_at(Time{} + 1s, "a");
  // The event reaches the partition at 1 s + 5 ms and waits 30 s for it to heal.
  loop_.run_until(Time{} + 1s + 5ms + 30s - 1ns);
  EXPECT_FALSE(log->ended());
  loop_.run_until(Time{} + 1s + 5ms + 30s);
  EXPECT_TRUE(log->ended());
  EXPECT_EQ(log->size(), 0u);
  EXPECT_EQ(server_.watches().watcher_count(), 0u);
}

TEST_F(InProcessWatchTest, APartitionWithoutTrafficStillEndsTheWatch) {
  auto log = watch_from_now();  // at 10 ms
  link_->partition();
  // Nothing is sent: the pump notices the partition at its next check (5 s) and gives it 30 s.
  loop_.run_until(Time{} + 10ms + 5s + 30s - 1ns);
  EXPECT_FALSE(log->ended());
  loop_.run_until(Time{} + 10ms + 5s + 30s);
  EXPECT_TRUE(log->ended());
  EXPECT_EQ(server_.watches().watcher_count(), 0u);
}

TEST_F(InProcessWatchTest, ReplayedEventsArriveWithTheAnswer) {
  create_at(Time{}, "a");  // 5
  create_at(Time{}, "b");  // 6
  api::ListOptions options;
  options.resource_version = "4";
  auto w = loop_.run_until_complete(client_.watch(sim::Context(), kConfigMaps, "default", options));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(loop_.now(), Time{} + 10ms);  // sent at 5 ms with the answer, here at 10 ms
  EventLog log(loop_, std::move(w.value()));
  settle(loop_);
  EXPECT_EQ(describe(log.events()), (std::vector<std::string>{"ADDED default/a@5", "ADDED default/b@6"}));
}

TEST_F(InProcessWatchTest, StoppingTheClientStreamStopsTheServerWatch) {
  auto log = watch_from_now();
  EXPECT_EQ(server_.watches().watcher_count(), 1u);
  log->stop();
  settle(loop_);
  EXPECT_EQ(server_.watches().watcher_count(), 0u);
}

TEST_F(InProcessWatchTest, ServerSideEndsReachTheClient) {
  auto log = watch_from_now();
  create_at(Time{} + 20ms, "a");
  server_.restart();
  loop_.run_until(Time{} + 40ms);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/a@5"}));
  EXPECT_TRUE(log->ended());
}

TEST(InProcessClientBacklogTest, AClientThatNeverReadsIsCutOffAndTheWriterIsNeverBlocked) {
  sim::Loop loop;
  ServerOptions options;
  options.watch.max_backlog = 5;
  ApiServer server(loop, options);
  sim::Process process(loop, "slow");
  process.set_link(std::make_shared<sim::NetworkLink>(loop, 1ms));
  InProcessClient client(server, process);
  api::ListOptions from;
  from.resource_version = "4";
  auto watch = loop.run_until_complete(client.watch(sim::Context(), kConfigMaps, "default", from));
  ASSERT_TRUE(watch.ok());
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(server.create(kConfigMaps, "default", config_map("default", "cm-" + std::to_string(i)),
                              api::CreateOptions())
                    .ok());
    loop.run_for(1ms);
  }
  EXPECT_EQ(server.revision(), 54);
  // The client's stream was cut off, and with it the server's watch.
  EXPECT_EQ(server.watches().watcher_count(), 0u);
  EventLog log(loop, std::move(watch.value()));
  settle(loop);
  EXPECT_TRUE(log.ended());
  EXPECT_EQ(log.size(), 6u);
}

TEST(InProcessClientBacklogTest, TheInitialListDoesNotCountTowardsTheClientsBacklog) {
  sim::Loop loop;
  ServerOptions options;
  options.watch.max_backlog = 5;
  ApiServer server(loop, options);
  sim::Process process(loop, "lister");
  process.set_link(std::make_shared<sim::NetworkLink>(loop, 1ms));
  InProcessClient client(server, process);
  for (int i = 0; i < 12; ++i) {
    ASSERT_TRUE(server.create(kConfigMaps, "default", config_map("default", "cm-" + std::to_string(i)),
                              api::CreateOptions())
                    .ok());
  }
  auto watch = loop.run_until_complete(client.watch(sim::Context(), kConfigMaps, "default", api::ListOptions()));
  ASSERT_TRUE(watch.ok());
  loop.run_for(10ms);  // the 12 ADDED events wait unread on the client's side
  EXPECT_EQ(server.watches().watcher_count(), 1u);
  EventLog log(loop, std::move(watch.value()));
  settle(loop);
  EXPECT_FALSE(log.ended());
  EXPECT_EQ(log.size(), 12u);
}

}  // namespace
}  // namespace kubesim::fakeapi
