#include "live/internal/live_filter.h"

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/api/watch.h"
#include "kubesim/sim/loop.h"

namespace kubesim::live {
namespace {

using namespace std::chrono_literals;
using Kind = fakeapi::Filter::Step::Kind;

fakeapi::Request request_of(const std::string& process, fakeapi::Verb verb = fakeapi::Verb::kGet) {
  fakeapi::Request r;
  r.process = process;
  r.verb = verb;
  r.resource = api::kConfigMaps;
  return r;
}

struct FilterTest : ::testing::Test {
  sim::Loop loop;
  std::shared_ptr<sim::NetworkLink> shadow = std::make_shared<sim::NetworkLink>(loop, 0ms, 0ms);
  LiveFilter filter{sim::Rng(7)};
};

TEST_F(FilterTest, OtherCallersPassUntouched) {
  filter.add("mirror-0", scenarios::LatencySpec{5ms, 20ms}, shadow.get());
  shadow->partition();
  auto r = request_of("workload");
  EXPECT_EQ(filter.admit(r).kind, Kind::kPass);
  EXPECT_EQ(filter.find("workload"), nullptr);
}

TEST_F(FilterTest, NotesTheFirstRequestAndDelaysByTheLinkLatency) {
  filter.add("mirror-0", scenarios::LatencySpec{5ms, 20ms}, shadow.get());
  filter.add("mirror-1", scenarios::LatencySpec{}, nullptr);
  EXPECT_FALSE(filter.find("mirror-0")->requested);
  for (int i = 0; i < 50; ++i) {
    auto r = request_of("mirror-0");
    const auto step = filter.admit(r);
    ASSERT_EQ(step.kind, Kind::kDelay);
    EXPECT_GE(step.delay, 5ms);
    EXPECT_LE(step.delay, 20ms);
  }
  EXPECT_TRUE(filter.find("mirror-0")->requested);
  auto r = request_of("mirror-1");
  EXPECT_EQ(filter.admit(r).kind, Kind::kPass);
}

TEST_F(FilterTest, APartitionedReplicaIsAnswered503) {
  filter.add("mirror-0", scenarios::LatencySpec{}, shadow.get());
  shadow->partition();
  auto r = request_of("mirror-0");
  auto step = filter.admit(r);
  ASSERT_EQ(step.kind, Kind::kAnswer);
  EXPECT_EQ(step.answer->code, 503);
  EXPECT_EQ(step.answer->error->message,
            "kubesim: the network between mirror-0 and the API server is partitioned");
  EXPECT_EQ(partition_message("op-2"), "kubesim: the network between op-2 and the API server is partitioned");
  shadow->heal();
  auto again = request_of("mirror-0");
  EXPECT_EQ(filter.admit(again).kind, Kind::kPass);
}

TEST_F(FilterTest, APartitionCutsTheReplicasOpenWatches) {
  filter.add("mirror-0", scenarios::LatencySpec{}, shadow.get());
  auto [stream, feed] = api::make_watch_pipe(loop);
  fakeapi::Response response;
  response.watch = std::move(stream);
  filter.complete(request_of("mirror-0", fakeapi::Verb::kWatch), response);
  ASSERT_TRUE(response.watch);
  ASSERT_EQ(filter.find("mirror-0")->watches.size(), 1u);
  // Another process's watch is left alone.
  auto [other, other_feed] = api::make_watch_pipe(loop);
  fakeapi::Response other_response;
  other_response.watch = std::move(other);
  api::WatchStream* other_raw = other_response.watch.get();
  filter.complete(request_of("workload", fakeapi::Verb::kWatch), other_response);
  EXPECT_EQ(other_response.watch.get(), other_raw);

  filter.set_partitioned("mirror-0", true);
  EXPECT_TRUE(filter.find("mirror-0")->watches.empty());
  auto next = loop.run_until_complete(response.watch->next(sim::Context()));
  EXPECT_FALSE(next.has_value());  // the stream ended
  // A watch that is gone by the time of the partition is simply skipped.
  auto [late, late_feed] = api::make_watch_pipe(loop);
  fakeapi::Response late_response;
  late_response.watch = std::move(late);
  filter.complete(request_of("mirror-0", fakeapi::Verb::kWatch), late_response);
  late_response.watch.reset();
  filter.set_partitioned("mirror-0", true);
  EXPECT_TRUE(filter.find("mirror-0")->watches.empty());
}

}  // namespace
}  // namespace kubesim::live
