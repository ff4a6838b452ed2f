// Watch streams over the wire: headers before any event, chunked, one JSON event per line; 410
// as an ERROR event followed by the end of the stream; clean ends on timeout, restart and stop;
// a client going away frees its watch; the watch cap.
#include "kubesim/fakeapi/http/http_server.h"

#include <gtest/gtest.h>

#include "tests/fakeapi_http/test_client.h"

namespace kubesim::fakeapi::http::testing {
namespace {

using nlohmann::json;

json configmap_with(const std::string& name, const std::string& value) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}}, {"data", {{"k", value}}}};
}

json event(Client& w) {
  auto line = w.next_line();
  if (!line) return json();
  return json::parse(*line);
}

TEST(HttpWatchTest, HeadersComeFirstThenOneEventPerLineAsItHappens) {
  TestServer server;
  Client c(server.port());
  Response list = c.get(kCms);
  const std::string rv = list.json()["metadata"]["resourceVersion"];
  Client w(server.port());
  // python3-kubernetes sends watch=True.
  Response head = w.start_watch(std::string(kCms) + "?watch=True&resourceVersion=" + rv);
  ASSERT_EQ(head.code, 200);
  EXPECT_EQ(head.header("transfer-encoding"), "chunked");
  EXPECT_EQ(head.header("content-type"), "application/json");

  ASSERT_EQ(c.post(kCms, configmap_with("a", "1")).code, 201);
  json added = event(w);
  EXPECT_EQ(added["type"], "ADDED");
  EXPECT_EQ(added["object"]["metadata"]["name"], "a");
  ASSERT_EQ(c.request("PATCH", std::string(kCms) + "/a", R"({"data":{"k":"2"}})",
                      {{"content-type", "application/merge-patch+json"}}).code, 200);
  EXPECT_EQ(event(w)["type"], "MODIFIED");
  Response del = c.request("DELETE", std::string(kCms) + "/a");
  ASSERT_EQ(del.code, 200);
  json deleted = event(w);
  EXPECT_EQ(deleted["type"], "DELETED");
  // The DELETED event carries the deletion's revision.
  EXPECT_EQ(std::stoll(deleted["object"]["metadata"]["resourceVersion"].get<std::string>()), server.revision());
}

TEST(HttpWatchTest, WatchWithoutResourceVersionStartsWithTheCurrentState) {
  TestServer server;
  Client c(server.port());
  ASSERT_EQ(c.post(kCms, configmap_with("a", "1")).code, 201);
  Client w(server.port());
  ASSERT_EQ(w.start_watch(std::string(kCms) + "?watch=1").code, 200);
  json first = event(w);
  EXPECT_EQ(first["type"], "ADDED");
  EXPECT_EQ(first["object"]["metadata"]["name"], "a");
}

TEST(HttpWatchTest, TooOldResourceVersionIsAnErrorEventThenTheEnd) {
  TestServer server;
  Client c(server.port());
  ASSERT_EQ(c.post(kCms, configmap_with("a", "1")).code, 201);
  ASSERT_EQ(c.post(kCms, configmap_with("b", "1")).code, 201);
  ASSERT_EQ(c.request("POST", "/kubesim/v1/compact").code, 200);
  Client w(server.port());
  ASSERT_EQ(w.start_watch(std::string(kCms) + "?watch=true&resourceVersion=1").code, 200);
  json error = event(w);
  EXPECT_EQ(error["type"], "ERROR");
  EXPECT_EQ(error["object"]["code"], 410);
  EXPECT_EQ(error["object"]["reason"], "Expired");
  EXPECT_FALSE(w.next_line().has_value());
  EXPECT_TRUE(w.stream_ended());
}

TEST(HttpWatchTest, TimeoutRestartAndStopEndStreamsCleanly) {
  TestServer server;
  Client c(server.port());
  Client timed(server.port());
  ASSERT_EQ(timed.start_watch(std::string(kCms) + "?watch=true&timeoutSeconds=1").code, 200);
  EXPECT_FALSE(timed.next_line().has_value());  // ends with the terminating chunk
  EXPECT_TRUE(timed.stream_ended());

  Client cut(server.port());
  ASSERT_EQ(cut.start_watch(std::string(kCms) + "?watch=true").code, 200);
  ASSERT_EQ(c.request("POST", "/kubesim/v1/restart").code, 200);
  EXPECT_FALSE(cut.next_line().has_value());
  EXPECT_TRUE(cut.stream_ended());

  Client stopped(server.port());
  ASSERT_EQ(stopped.start_watch(std::string(kCms) + "?watch=true").code, 200);
  server.http().stop();
  EXPECT_FALSE(stopped.next_line().has_value());
  EXPECT_TRUE(stopped.stream_ended());
}

TEST(HttpWatchTest, AWatchThatEndsCleanlyLeavesTheConnectionUsable) {
  TestServer server;
  Client c(server.port());
  ASSERT_EQ(c.post(kCms, configmap_with("a", "1")).code, 201);
  ASSERT_EQ(c.post(kCms, configmap_with("b", "1")).code, 201);
  ASSERT_EQ(c.request("POST", "/kubesim/v1/compact").code, 200);
  Client w(server.port());
  // A 410 ends the stream at once; the same connection then serves more requests.
  Response head = w.start_watch(std::string(kCms) + "?watch=true&resourceVersion=1");
  ASSERT_EQ(head.code, 200);
  EXPECT_EQ(head.header("connection"), "");
  EXPECT_EQ(event(w)["type"], "ERROR");
  EXPECT_FALSE(w.next_line().has_value());
  EXPECT_EQ(w.get(std::string(kCms) + "/a").code, 200);
  // A second watch on it, cut by a restart, then a write on it.
  ASSERT_EQ(w.start_watch(std::string(kCms) + "?watch=true&resourceVersion=" + std::to_string(server.revision())).code, 200);
  ASSERT_EQ(c.request("POST", "/kubesim/v1/restart").code, 200);
  EXPECT_FALSE(w.next_line().has_value());
  EXPECT_TRUE(w.stream_ended());
  EXPECT_EQ(w.post(kCms, configmap_with("c", "1")).code, 201);
  EXPECT_TRUE(w.open());
}

TEST(HttpWatchTest, AWatchAskedToCloseClosesAfterItsEnd) {
  TestServer server;
  Client c(server.port());
  Client w(server.port());
  Response head = w.start_watch(std::string(kCms) + "?watch=true", {{"connection", "close"}});
  ASSERT_EQ(head.code, 200);
  EXPECT_EQ(head.header("connection"), "close");
  ASSERT_EQ(c.request("POST", "/kubesim/v1/restart").code, 200);
  EXPECT_FALSE(w.next_line().has_value());
  EXPECT_TRUE(w.stream_ended());
  bool open = true;
  for (int i = 0; i < 200 && open; ++i) {
    open = w.open();
    if (open) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_FALSE(open);
}

TEST(HttpWatchTest, AClientGoingAwayFreesItsWatch) {
  TestServer server;
  Client c(server.port());
  {
    Client w(server.port());
    ASSERT_EQ(w.start_watch(std::string(kCms) + "?watch=true").code, 200);
    EXPECT_EQ(http_watches(c), 1u);
  }
  // The server notices the closed connection and ends the watch; poll the admin stats for it.
  std::size_t left = 1;
  for (int i = 0; i < 200 && left != 0; ++i) {
    left = http_watches(c);
    if (left != 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(left, 0u);
}

TEST(HttpWatchTest, WatchesBeyondTheCapGet429) {
  HttpServerOptions options = plain_options();
  options.max_watches = 1;
  TestServer server(options);
  Client w1(server.port());
  ASSERT_EQ(w1.start_watch(std::string(kCms) + "?watch=true").code, 200);
  Client w2(server.port());
  Response refused = w2.start_watch(std::string(kCms) + "?watch=true");
  EXPECT_EQ(refused.code, 429);
  EXPECT_EQ(refused.header("retry-after"), "1");
}

TEST(HttpWatchTest, FaultRuleDropsAWatchAbruptly) {
  TestServer server;
  Client c(server.port());
  ASSERT_EQ(c.request("POST", "/kubesim/v1/faults", R"({"kind":"dropWatch","verbs":["watch"],"afterEvents":1})",
                      {{"content-type", "application/json"}}).code, 201);
  Client w(server.port());
  ASSERT_EQ(w.start_watch(std::string(kCms) + "?watch=true").code, 200);
  ASSERT_EQ(c.post(kCms, configmap_with("a", "1")).code, 201);
  ASSERT_EQ(c.post(kCms, configmap_with("b", "1")).code, 201);
  EXPECT_EQ(event(w)["type"], "ADDED");
  EXPECT_ANY_THROW(w.next_line());  // cut without the terminating chunk
  EXPECT_FALSE(w.stream_ended());
}

// A coalesceWatch rule holds a watch's events over HTTP as in process (the front door's filter):
// a create and two patches inside the hold time reach the client as one ADDED with the newest
// object. The loop follows the real clock here, so the hold time is real time.
TEST(HttpWatchTest, ACoalesceRuleMergesTheEventsOfAnObjectOnTheWire) {
  TestServer server;
  Client c(server.port());
  Response bad = c.request("POST", "/kubesim/v1/faults", R"({"kind":"coalesceWatch","coalesceMs":0})",
                           {{"content-type", "application/json"}});
  EXPECT_EQ(bad.code, 400);
  EXPECT_EQ(bad.json()["message"], "fault rule: coalesceMs: required, positive");
  ASSERT_EQ(c.request("POST", "/kubesim/v1/faults", R"({"kind":"coalesceWatch","verbs":["watch"],"coalesceMs":1500})",
                      {{"content-type", "application/json"}}).code, 201);
  const std::string rv = c.get(kCms).json()["metadata"]["resourceVersion"];
  Client w(server.port());
  ASSERT_EQ(w.start_watch(std::string(kCms) + "?watch=true&resourceVersion=" + rv).code, 200);
  ASSERT_EQ(c.post(kCms, configmap_with("a", "1")).code, 201);
  for (const char* value : {"2", "3"}) {
    ASSERT_EQ(c.request("PATCH", std::string(kCms) + "/a", std::string(R"({"data":{"k":")") + value + "\"}}",
                        {{"content-type", "application/merge-patch+json"}}).code, 200);
  }
  json merged = event(w);
  EXPECT_EQ(merged["type"], "ADDED");
  EXPECT_EQ(merged["object"]["data"]["k"], "3");
  EXPECT_EQ(std::stoll(merged["object"]["metadata"]["resourceVersion"].get<std::string>()), server.revision());
}

}  // namespace
}  // namespace kubesim::fakeapi::http::testing
