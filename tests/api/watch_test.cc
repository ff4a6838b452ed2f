#include "kubesim/api/watch.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::api {
namespace {

using namespace std::chrono_literals;

ObjectPtr config_map_at(const std::string& name, const std::string& rv) {
  return make_object({{"apiVersion", "v1"},
                      {"kind", "ConfigMap"},
                      {"metadata", {{"name", name}, {"namespace", "default"}, {"resourceVersion", rv}}}});
}

TEST(WatchTest, EventTypesRoundTrip) {
  for (auto t : {EventType::kAdded, EventType::kModified, EventType::kDeleted, EventType::kBookmark,
                 EventType::kError}) {
    EXPECT_EQ(parse_event_type(to_string(t)), t);
  }
  EXPECT_FALSE(parse_event_type("added").has_value());
}

TEST(WatchTest, ErrorEventsCarryTheirStatus) {
  const Status gone = new_gone("too old resource version: 1 (5)");
  WatchEvent e = WatchEvent::error(gone);
  EXPECT_EQ(e.type, EventType::kError);
  EXPECT_EQ(e.object->kind(), "Status");
  auto s = e.status();
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(is_gone(*s));
  EXPECT_EQ(s->code, 410);
  EXPECT_EQ(s->message, "too old resource version: 1 (5)");
  const WatchEvent added{EventType::kAdded, config_map_at("a", "1")};
  EXPECT_FALSE(added.status().has_value());
}

struct Seen {
  std::vector<std::string> names;
  bool ended = false;
  sim::Time ended_at{};
};

sim::Task<void> consume(sim::Loop* loop, WatchStream* stream, sim::Context ctx, Seen* seen) {
  for (;;) {
    auto event = co_await stream->next(ctx);
    if (!event) break;
    seen->names.push_back(std::string(to_string(event->type)) + ":" + std::string(event->object->name()));
  }
  seen->ended = true;
  seen->ended_at = loop->now();
}

sim::Task<void> produce(sim::Loop* loop, WatchFeed feed) {
  feed.send({EventType::kAdded, config_map_at("a", "1")});
  (void)co_await sim::sleep_for(sim::Context(), *loop, 1s);
  feed.send({EventType::kModified, config_map_at("a", "2")});
  feed.send({EventType::kDeleted, config_map_at("a", "3")});
  (void)co_await sim::sleep_for(sim::Context(), *loop, 1s);
  feed.close();
}

TEST(WatchTest, PipeDeliversInOrderAndEndsWhenTheProducerCloses) {
  sim::Loop loop;
  auto [stream, feed] = make_watch_pipe(loop);
  Seen seen;
  loop.spawn(consume(&loop, stream.get(), sim::Context(), &seen));
  loop.spawn(produce(&loop, feed));
  loop.run_until_idle();
  EXPECT_EQ(seen.names, (std::vector<std::string>{"ADDED:a", "MODIFIED:a", "DELETED:a"}));
  EXPECT_TRUE(seen.ended);
  EXPECT_EQ(seen.ended_at, sim::Time{} + 2s);
}

TEST(WatchTest, ConsumerStopIsSeenByTheProducer) {
  sim::Loop loop;
  auto [stream, feed] = make_watch_pipe(loop);
  int stops = 0;
  feed.on_stop([&] { ++stops; });
  EXPECT_TRUE(feed.send({EventType::kAdded, config_map_at("a", "1")}));
  EXPECT_EQ(feed.backlog(), 1u);
  stream->stop();
  stream->stop();
  EXPECT_EQ(stops, 1);
  EXPECT_TRUE(feed.stopped());
  EXPECT_EQ(feed.backlog(), 0u);
  EXPECT_FALSE(feed.send({EventType::kAdded, config_map_at("b", "2")}));
}

TEST(WatchTest, DestroyingTheStreamStopsIt) {
  sim::Loop loop;
  auto pipe = make_watch_pipe(loop);
  WatchFeed feed = pipe.second;
  pipe.first.reset();
  EXPECT_TRUE(feed.stopped());
  EXPECT_FALSE(feed.send({EventType::kAdded, config_map_at("a", "1")}));
}

TEST(WatchTest, NextReturnsNulloptWhenTheContextIsDone) {
  sim::Loop loop;
  auto [stream, feed] = make_watch_pipe(loop);
  auto timeout = sim::with_timeout(sim::Context(), loop, 3s);
  Seen seen;
  loop.spawn(consume(&loop, stream.get(), timeout.ctx, &seen));
  loop.run_until_idle();
  EXPECT_TRUE(seen.ended);
  EXPECT_EQ(seen.ended_at, sim::Time{} + 3s);
  EXPECT_FALSE(feed.stopped());
}

// try_next gives what next would give at once, and nothing where next would wait or end.
TEST(WatchTest, TryNextTakesWhatIsQueued) {
  sim::Loop loop;
  auto [stream, feed] = make_watch_pipe(loop);
  EXPECT_FALSE(stream->try_next(sim::Context()).has_value());  // nothing queued: next would wait
  feed.send({EventType::kAdded, config_map_at("a", "1")});
  feed.send({EventType::kModified, config_map_at("a", "2")});
  auto cancel = sim::with_cancel(sim::Context());
  cancel.cancel();
  EXPECT_FALSE(stream->try_next(cancel.ctx).has_value());  // a done context: next ends
  EXPECT_EQ(feed.backlog(), 2u);
  auto first = stream->try_next(sim::Context());
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->object->resource_version(), "1");
  feed.close();
  auto second = stream->try_next(sim::Context());  // drained after the producer closed
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->type, EventType::kModified);
  EXPECT_FALSE(stream->try_next(sim::Context()).has_value());
  // next agrees: the stream has ended.
  Seen seen;
  loop.spawn(consume(&loop, stream.get(), sim::Context(), &seen));
  loop.run_until_idle();
  EXPECT_TRUE(seen.ended);
  EXPECT_TRUE(seen.names.empty());
}

}  // namespace
}  // namespace kubesim::api
