// The server's time and size limits on connections: an idle keep-alive connection, a request
// header or body that never completes, and a watch whose client stops reading (cut by the
// buffer cap, or by the write timeout). Limits are set small so the tests wait briefly; they
// poll for the outcome instead of asserting on time.
#include "kubesim/fakeapi/http/http_server.h"

#include <chrono>
#include <gtest/gtest.h>
#include <string>
#include <thread>

#include "tests/fakeapi_http/test_client.h"

namespace kubesim::fakeapi::http::testing {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// Polls until the server has closed `c`'s connection; false if it is still open after 10 s.
bool closed_by_server(Client& c) {
  for (int i = 0; i < 1000; ++i) {
    if (!c.open()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

// Polls the admin stats until no watch is open; false if one still is after 10 s.
bool no_watches_left(Client& c) {
  for (int i = 0; i < 1000; ++i) {
    if (http_watches(c) == 0) return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

std::string request_head(const std::string& method, const std::string& target, std::size_t length) {
  return method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + kToken +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(length) + "\r\n\r\n";
}

TEST(HttpLimitsTest, AnIdleKeepAliveConnectionIsClosed) {
  HttpServerOptions o = plain_options();
  o.idle_timeout = 200ms;
  TestServer server(o);
  Client c(server.port());
  ASSERT_EQ(c.get(kCms).code, 200);
  EXPECT_TRUE(closed_by_server(c));
}

TEST(HttpLimitsTest, ARequestHeaderThatNeverCompletesIsCut) {
  HttpServerOptions o = plain_options();
  o.header_timeout = 200ms;
  TestServer server(o);
  Client c(server.port());
  c.send("GET /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\n");  // no blank line, ever
  EXPECT_TRUE(closed_by_server(c));
}

// kube-apiserver's http.Server: ReadHeaderTimeout 32 s, IdleTimeout 90 s.
TEST(HttpLimitsTest, TheTimeoutsAreKubeApiserversByDefault) {
  const HttpServerOptions o;
  EXPECT_EQ(o.header_timeout, 32s);
  EXPECT_EQ(o.idle_timeout, 90s);
}

TEST(HttpLimitsTest, AnIdleConnectionWaitsForItsNextRequestLongerThanForAHeader) {
  HttpServerOptions o = plain_options();
  o.header_timeout = 300ms;
  o.idle_timeout = 3s;
  TestServer server(o);
  Client c(server.port());
  ASSERT_EQ(c.get(kCms).code, 200);
  std::this_thread::sleep_for(600ms);  // idle past the header timeout, not the idle one
  EXPECT_EQ(c.get(kCms).code, 200);
  // A header begun and never finished is cut after the header timeout.
  c.send("GET /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\n");
  EXPECT_TRUE(closed_by_server(c));
}

TEST(HttpLimitsTest, AConnectionsFirstHeaderMustArriveWithinTheHeaderTimeout) {
  HttpServerOptions o = plain_options();
  o.header_timeout = 200ms;
  o.idle_timeout = 60s;
  TestServer server(o);
  Client c(server.port());  // connects and sends nothing
  EXPECT_TRUE(closed_by_server(c));
}

TEST(HttpLimitsTest, ABodyThatNeverArrivesIsCutAndChangesNothing) {
  HttpServerOptions o = plain_options();
  o.read_timeout = 200ms;
  TestServer server(o);
  const std::int64_t before = server.revision();
  Client c(server.port());
  const std::string body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"never"}})";
  c.send(request_head("POST", kCms, body.size() + 100) + body);  // 100 bytes short
  EXPECT_TRUE(closed_by_server(c));
  EXPECT_EQ(server.revision(), before);
  Client check(server.port());
  EXPECT_EQ(check.get(std::string(kCms) + "/never").code, 404);
}

// Writes ConfigMaps of ~900 KB until `count` are written: many times what loopback socket
// buffers hold, so a watcher that reads nothing stalls the server's writes to it.
void write_large_configmaps(Client& c, int count) {
  const std::string payload(900 * 1024, 'x');
  for (int i = 0; i < count; ++i) {
    const json cm = {{"apiVersion", "v1"},
                     {"kind", "ConfigMap"},
                     {"metadata", {{"name", "big-" + std::to_string(i)}}},
                     {"data", {{"payload", payload}}}};
    ASSERT_EQ(c.post(kCms, cm).code, 201) << i;
  }
}

TEST(HttpLimitsTest, AWatcherThatStopsReadingIsCutAtTheBufferCap) {
  HttpServerOptions o = plain_options();
  o.max_watch_buffer_bytes = 1024 * 1024;
  TestServer server(o);
  Client c(server.port());
  Client stalled(server.port());
  ASSERT_EQ(stalled.start_watch(std::string(kCms) + "?watch=true").code, 200);
  ASSERT_EQ(http_watches(c), 1u);
  write_large_configmaps(c, 20);  // 18 MB of events, never read
  // (Client::open() cannot tell here: the stalled client has unread data.)
  EXPECT_TRUE(no_watches_left(c));
  // The writer was never held up: every object is there, and the server still serves.
  Response list = c.get(kCms);
  ASSERT_EQ(list.code, 200);
  EXPECT_EQ(list.json()["items"].size(), 20u);
}

TEST(HttpLimitsTest, AWatcherThatStopsReadingIsCutByTheWriteTimeout) {
  HttpServerOptions o = plain_options();
  o.write_timeout = 300ms;  // the buffer cap (16 MiB by default) is not reached first
  TestServer server(o);
  Client c(server.port());
  Client stalled(server.port());
  ASSERT_EQ(stalled.start_watch(std::string(kCms) + "?watch=true").code, 200);
  write_large_configmaps(c, 16);  // ~14 MB: more than the socket buffers take, less than the cap
  EXPECT_TRUE(no_watches_left(c));
}

}  // namespace
}  // namespace kubesim::fakeapi::http::testing
