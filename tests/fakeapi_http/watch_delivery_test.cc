// The front door's watch delivery (watch_delivery.h) is the same for both transports: a client
// that falls more than max_backlog live events behind, a watch whose initial events go unread,
// and a dropWatch rule give the same events and the same cut through the in-process client and
// over HTTP (the socket-free request path, whose session takes nothing from its watch until the
// loop is idle: a client that does not read).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fakeapi/http/internal/offline.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/sim/process.h"
#include "tests/fakeapi/testing_util.h"
#include "tests/fakeapi_http/fuzz/answer_checks.h"

namespace kubesim::fakeapi::http::testing {
namespace {

using namespace std::chrono_literals;
using internal::OfflineServer;

struct DeliveryCase {
  std::string name{};
  int existing = 0;      // ConfigMaps before the watch
  bool from_now = true;  // resourceVersion: the current one; otherwise none (initial events)
  int writes = 0;        // ConfigMaps created 1 ms apart once the watch is open
  std::optional<FaultRule> rule{};
  std::size_t events = 0;  // what the client gets
  bool cut = false;        // and whether its watch was cut
};

class Cluster {
 public:
  explicit Cluster(const DeliveryCase& c) : server_(loop_, options()) {
    for (int i = 0; i < c.existing; ++i) create("old-" + std::to_string(i));
    if (c.rule) server_.faults().add(*c.rule);
    revision_ = server_.revision();
  }

  // The case's writes, 1 ms apart from 1 ms on; the watch must be open before the first.
  void write_later(const DeliveryCase& c) {
    for (int i = 0; i < c.writes; ++i) {
      loop_.add_timer(loop_.now() + (i + 1) * 1ms, [this, i] { create("new-" + std::to_string(i)); });
    }
  }

  sim::Loop& loop() { return loop_; }
  ApiServer& server() { return server_; }
  Revision revision() const { return revision_; }

 private:
  static ServerOptions options() {
    ServerOptions o;
    o.watch.max_backlog = 5;
    return o;
  }
  void create(const std::string& name) {
    ASSERT_TRUE(server_.create(api::kConfigMaps, "default", testutil::config_map("default", name), {}).ok());
  }

  sim::Loop loop_;
  ApiServer server_;
  Revision revision_ = 0;
};

struct Watched {
  std::vector<std::string> events;  // "ADDED default/new-0@5"
  bool ended = false;
};

// Through the in-process client, read only once the writes are over.
Watched in_process(const DeliveryCase& c) {
  Cluster cluster(c);
  sim::Process process(cluster.loop(), "slow");
  process.set_link(std::make_shared<sim::NetworkLink>(cluster.loop(), 1ms));
  InProcessClient client(cluster.server(), process);
  api::ListOptions options;
  if (c.from_now) options.resource_version = std::to_string(cluster.revision());
  auto watch = cluster.loop().run_until_complete(
      client.watch(sim::Context(), api::kConfigMaps, "default", options));
  EXPECT_TRUE(watch.ok()) << watch.status();
  if (!watch.ok()) return {};
  cluster.write_later(c);
  cluster.loop().run_for(1s);
  testutil::EventLog log(cluster.loop(), std::move(watch.value()));
  testutil::settle(cluster.loop());
  return Watched{testutil::describe(log.events()), log.ended()};
}

// Over HTTP: the session takes the events once the loop is idle. The watch is served at once,
// before the writes.
Watched over_http(const DeliveryCase& c) {
  Cluster cluster(c);
  cluster.write_later(c);
  OfflineServer offline(cluster.loop(), cluster.server(), fuzz_options());
  std::string query = "watch=true";
  if (c.from_now) query += "&resourceVersion=" + std::to_string(cluster.revision());
  const auto answers = offline.serve("GET /api/v1/namespaces/default/configmaps?" + query +
                                     " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer fuzz\r\n\r\n");
  EXPECT_EQ(answers.size(), 1u);
  if (answers.size() != 1) return {};
  EXPECT_TRUE(answers[0].watch);
  Watched out;
  for (const std::string& line : answers[0].events) {
    const auto j = nlohmann::json::parse(line);
    const auto& meta = j["object"]["metadata"];
    out.events.push_back(j["type"].get<std::string>() + " " + meta["namespace"].get<std::string>() + "/" +
                         meta["name"].get<std::string>() + "@" + meta["resourceVersion"].get<std::string>());
  }
  return out;
}

TEST(WatchDeliveryTransportsTest, BothCutTheSameWatchesAfterTheSameEvents) {
  const std::vector<DeliveryCase> cases = {
      {.name = "a client max_backlog behind", .writes = 5, .events = 5},
      {.name = "a client more than max_backlog behind", .writes = 20, .events = 6, .cut = true},
      {.name = "unread initial events do not count",
       .existing = 12,
       .from_now = false,
       .writes = 20,
       .events = 18,
       .cut = true},
      {.name = "only initial events", .existing = 12, .from_now = false, .events = 12},
      {.name = "a dropWatch rule", .writes = 5, .rule = FaultRule::drop_watch(2), .events = 2, .cut = true},
  };
  for (const DeliveryCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Watched local = in_process(c);
    const Watched remote = over_http(c);
    EXPECT_EQ(local.events.size(), c.events);
    EXPECT_EQ(local.ended, c.cut);
    EXPECT_EQ(remote.events, local.events);
  }
}

}  // namespace
}  // namespace kubesim::fakeapi::http::testing
