// RestClient against canned answers: watch streams (split events, ERROR, 410, cut, flow
// control), Status and non-Status errors, slow responses and cancellation, kept-alive and
// server-closed connections, and an unreachable server.
#include "kubesim/api/resources.h"
#include "kubesim/api/rest/rest_client.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/rest_client/canned_server.h"
#include "tests/rest_client/real_loop.h"

namespace kubesim::api::rest::testing {
namespace {

using namespace std::chrono_literals;


std::string event(const std::string& type, const std::string& name, const std::string& rv) {
  return nlohmann::json{{"type", type},
                        {"object",
                         {{"apiVersion", "v1"},
                          {"kind", "ConfigMap"},
                          {"metadata", {{"name", name}, {"namespace", "ns"}, {"resourceVersion", rv}}}}}}
             .dump();
}

// Events of a watch, until the stream ends (or the guard gives up).
sim::Task<std::vector<WatchEvent>> drain(WatchPtr w, sim::Context ctx) {
  std::vector<WatchEvent> out;
  for (;;) {
    auto e = co_await w->next(ctx);
    if (!e) break;
    out.push_back(std::move(*e));
  }
  co_return out;
}

class RestClientCannedTest : public ::testing::Test {
 protected:
  void start(CannedServer::Handler handler, RestConfig config = {}) {
    server_ = std::make_unique<CannedServer>(std::move(handler));
    config.server = server_->url();
    client_ = std::make_unique<RestClient>(loop_, config);
  }
  Result<WatchPtr> watch(ListOptions o = {}) {
    auto g = guard(loop_);
    return run_real(loop_, client_->watch(g.ctx, kConfigMaps, "ns", o));
  }
  std::vector<WatchEvent> events(WatchPtr w) {
    auto g = guard(loop_);
    return run_real(loop_, drain(std::move(w), g.ctx));
  }
  Result<ObjectPtr> get(std::string name = "a", sim::Duration timeout = 20s) {
    auto ctx = sim::with_timeout(sim::Context(), loop_, timeout);
    return run_real(loop_, client_->get(ctx.ctx, kConfigMaps, "ns", name, GetOptions()));
  }

  sim::Loop loop_{real_mode()};
  std::unique_ptr<CannedServer> server_;
  std::unique_ptr<RestClient> client_;
};

TEST_F(RestClientCannedTest, WatchEventsSplitAcrossChunksThenACleanEnd) {
  const std::string body = event("ADDED", "a", "1") + "\n" + event("MODIFIED", "a", "2") + "\n" +
                           event("DELETED", "a", "3") + "\n";
  start([body](const RecordedRequest& req) {
    if (req.target.find("watch=true") == std::string::npos) {
      return Reply::json(200, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}})");
    }
    Reply r;
    r.stream = true;
    for (std::size_t i = 0; i < body.size(); i += 7) r.chunks.push_back(body.substr(i, 7));
    return r;
  });
  auto w = watch();
  ASSERT_TRUE(w.ok()) << w.status();
  auto got = events(std::move(w).value());
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].type, EventType::kAdded);
  EXPECT_EQ(got[1].type, EventType::kModified);
  EXPECT_EQ(got[2].type, EventType::kDeleted);
  EXPECT_EQ(got[2].object->resource_version(), "3");
  // The cleanly ended stream left its connection for reuse.
  EXPECT_TRUE(get().ok());
  EXPECT_EQ(server_->connections(), 1);
}

TEST_F(RestClientCannedTest, ErrorEventIsAStatusAndTheLastEvent) {
  const Status expired = new_resource_expired("too old resource version: 1 (5)");
  start([expired](const RecordedRequest&) {
    Reply r;
    r.stream = true;
    r.chunks = {event("ADDED", "a", "6") + "\n",
                R"({"type":"ERROR","object":)" + expired.to_json_string() + "}\n",
                event("ADDED", "never", "7") + "\n"};
    r.end = Reply::End::kHang;  // the client must end it itself
    return r;
  });
  auto w = watch();
  ASSERT_TRUE(w.ok());
  auto got = events(std::move(w).value());
  ASSERT_EQ(got.size(), 2u);
  ASSERT_EQ(got[1].type, EventType::kError);
  EXPECT_EQ(*got[1].status(), expired);
  EXPECT_TRUE(is_resource_expired(*got[1].status()));
}

TEST_F(RestClientCannedTest, WatchRefusedWithA410StatusFailsToStart) {
  const Status expired = new_resource_expired("too old resource version: 1 (5)");
  start([expired](const RecordedRequest&) { return Reply::json(410, expired.to_json_string()); });
  auto w = watch();
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status(), expired);
}

TEST_F(RestClientCannedTest, CutStreamEndsAfterTheEventsThatArrived) {
  start([](const RecordedRequest& req) {
    if (req.target.find("watch=true") == std::string::npos) {
      return Reply::json(200, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}})");
    }
    Reply r;
    r.stream = true;
    r.chunks = {event("ADDED", "a", "1") + "\n" + event("ADDED", "b", "2").substr(0, 20)};
    r.end = Reply::End::kCut;
    return r;
  });
  auto w = watch();
  ASSERT_TRUE(w.ok());
  auto got = events(std::move(w).value());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].object->name(), "a");
  // The broken connection was not kept; the next call dials again.
  EXPECT_TRUE(get().ok());
  EXPECT_EQ(server_->connections(), 2);
}

TEST_F(RestClientCannedTest, StopEndsAnOpenStream) {
  start([](const RecordedRequest&) {
    Reply r;
    r.stream = true;
    r.chunks = {event("ADDED", "a", "1") + "\n"};
    r.end = Reply::End::kHang;
    return r;
  });
  auto w = watch();
  ASSERT_TRUE(w.ok());
  auto g = guard(loop_);
  auto first = run_real(loop_, w.value()->next(g.ctx));
  ASSERT_TRUE(first);
  w.value()->stop();
  EXPECT_FALSE(run_real(loop_, w.value()->next(g.ctx)));
  // A quiet stream: next() with a short context returns nullopt with the context done.
  auto w2 = watch();
  ASSERT_TRUE(w2.ok());
  auto short_ctx = sim::with_timeout(sim::Context(), loop_, 50ms);
  ASSERT_TRUE(run_real(loop_, w2.value()->next(short_ctx.ctx)));  // the first event is there
  EXPECT_FALSE(run_real(loop_, w2.value()->next(short_ctx.ctx)));
  EXPECT_TRUE(short_ctx.ctx.done());
}

TEST_F(RestClientCannedTest, SlowConsumerGetsEveryEventInOrderThroughASmallWindow) {
  constexpr int kEvents = 3000;
  std::string body;
  for (int i = 1; i <= kEvents; ++i) body += event("MODIFIED", "a", std::to_string(i)) + "\n";
  RestConfig config;
  config.watch_window = 8;
  start(
      [body](const RecordedRequest&) {
        Reply r;
        r.stream = true;
        for (std::size_t i = 0; i < body.size(); i += 4096) r.chunks.push_back(body.substr(i, 4096));
        return r;
      },
      config);
  auto w = watch();
  ASSERT_TRUE(w.ok());
  auto got = events(std::move(w).value());
  ASSERT_EQ(got.size(), static_cast<std::size_t>(kEvents));
  for (int i = 0; i < kEvents; ++i) {
    ASSERT_EQ(got[i].object->resource_version(), std::to_string(i + 1));
  }
}

TEST_F(RestClientCannedTest, ConflictStatusIsTheServersStatus) {
  const Status conflict = new_conflict(GroupResource("", "configmaps"), "a", kOptimisticLockErrorMsg);
  start([conflict](const RecordedRequest&) { return Reply::json(409, conflict.to_json_string()); });
  auto r = get();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status(), conflict);
  EXPECT_TRUE(is_conflict(r.status()));
}

TEST_F(RestClientCannedTest, HtmlErrorPageBecomesAnInternalErrorStatus) {
  start([](const RecordedRequest&) {
    Reply r;
    r.status = 500;
    r.content_type = "text/html; charset=utf-8";
    r.body = "<html><h1>502 Bad Gateway</h1></html>\n";
    return r;
  });
  auto r = get();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 500);
  EXPECT_TRUE(is_internal_error(r.status()));
  EXPECT_EQ(r.status().message,
            "an error on the server (\"<html><h1>502 Bad Gateway</h1></html>\") has prevented the "
            "request from succeeding (get configmaps a)");
}

TEST_F(RestClientCannedTest, SlowResponseTimesOutWithTheContextAndTheClientCarriesOn) {
  start([](const RecordedRequest& req) {
    if (req.target.find("/slow") != std::string::npos) {
      Reply r;
      r.hang = true;
      return r;
    }
    return Reply::json(200, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}})");
  });
  auto r = get("slow", 200ms);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 0);
  EXPECT_EQ(r.status().message, "context deadline exceeded");
  // A watch that never gets its headers times out the same way.
  auto ctx = sim::with_timeout(sim::Context(), loop_, 200ms);
  ListOptions o;
  o.label_selector = "slow";
  auto w = run_real(loop_, client_->watch(ctx.ctx, GroupVersionResource("", "v1", "slow"), "ns", o));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message, "context deadline exceeded");
  // The aborted requests' connections are gone; a new call works on a new one.
  auto ok = get();
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(server_->connections(), 3);
}

TEST_F(RestClientCannedTest, CancelledCallReturnsAtOnce) {
  start([](const RecordedRequest&) {
    Reply r;
    r.hang = true;
    return r;
  });
  auto ctx = sim::with_cancel(sim::Context());
  loop_.post([cancel = ctx.cancel] { cancel(); });
  auto r = run_real(loop_, client_->get(ctx.ctx, kConfigMaps, "ns", "a", GetOptions()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message, "context canceled");
}

TEST_F(RestClientCannedTest, ServerThatClosesEveryConnectionStillWorks) {
  start([](const RecordedRequest&) {
    Reply r = Reply::json(200, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}})");
    r.close = true;
    return r;
  });
  for (int i = 0; i < 3; ++i) {
    auto r = get();
    ASSERT_TRUE(r.ok()) << r.status();
  }
  EXPECT_EQ(server_->connections(), 3);
  EXPECT_EQ(client_->stats().idle_connections, 0u);
}

TEST_F(RestClientCannedTest, UnreachableServerIsAClientError) {
  std::string url;
  {
    CannedServer gone([](const RecordedRequest&) { return Reply(); });
    url = gone.url();
  }
  RestConfig config;
  config.server = url;
  RestClient client(loop_, config);
  auto g = guard(loop_);
  auto r = run_real(loop_, client.get(g.ctx, kConfigMaps, "ns", "a", GetOptions()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 0);
  EXPECT_EQ(r.status().message.rfind("Get \"" + url + "/api/v1/namespaces/ns/configmaps/a\": dial tcp", 0), 0u)
      << r.status().message;
  EXPECT_NE(r.status().message.find("refused"), std::string::npos) << r.status().message;
}

}  // namespace
}  // namespace kubesim::api::rest::testing
