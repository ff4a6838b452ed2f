// How often each fault rule fired and when it first did (FaultInjector::fired, first_fired), and
// ApiServer::close_watches, which ends the open watches of one resource.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/fakeapi/faults.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/sim/process.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;
using sim::Time;

class FaultCountsTest : public ::testing::Test {
 protected:
  FaultCountsTest() {
    process_.set_link(link_);
    for (const char* name : {"a", "b"}) {
      EXPECT_TRUE(server_.create(kConfigMaps, "default", config_map("default", name), api::CreateOptions()).ok());
    }
  }

  bool get_ok(const std::string& name) {
    return loop_
        .run_until_complete(client_.get(sim::Context(), kConfigMaps, "default", name, api::GetOptions()))
        .ok();
  }
  std::unique_ptr<EventLog> watch(const api::GroupVersionResource& resource) {
    auto w = loop_.run_until_complete(client_.watch(sim::Context(), resource, "default", api::ListOptions()));
    EXPECT_TRUE(w.ok()) << w.status();
    if (!w.ok()) return nullptr;
    return std::make_unique<EventLog>(loop_, std::move(w.value()));
  }
  static FaultRule failing(std::string id, std::string name) {
    return FaultRule{.id = std::move(id),
                     .name = std::move(name),
                     .effect = ErrorFault{api::new_service_unavailable("busy")}};
  }

  sim::Loop loop_;
  ApiServer server_{loop_};
  sim::Process process_{loop_, "replica-1"};
  std::shared_ptr<sim::NetworkLink> link_ = std::make_shared<sim::NetworkLink>(loop_, 5ms);
  InProcessClient client_{server_, process_};
};

TEST_F(FaultCountsTest, CountsEachRulesFiringsAndTheFirstTime) {
  FaultInjector& f = server_.faults();
  f.add(failing("on-a", "a"));
  FaultRule twice = failing("on-b", "b");
  twice.count = 2;
  f.add(twice);
  f.add(failing("never", "z"));
  loop_.run_for(1s);
  EXPECT_FALSE(get_ok("a"));  // sent at 1 s, reaches the server at 1.005 s
  EXPECT_FALSE(get_ok("b"));
  EXPECT_FALSE(get_ok("b"));
  EXPECT_TRUE(get_ok("b"));
  EXPECT_FALSE(get_ok("a"));
  EXPECT_EQ(f.fired("on-a"), 2);
  EXPECT_EQ(f.fired("on-b"), 2);  // its count ran out: the third get was not faulted
  EXPECT_EQ(f.fired("never"), 0);
  EXPECT_EQ(f.fired("unknown"), 0);
  EXPECT_EQ(f.first_fired("on-a"), Time{} + 1005ms);
  EXPECT_EQ(f.first_fired("on-b"), Time{} + 1015ms);
  EXPECT_EQ(f.first_fired("never"), std::nullopt);
}

TEST_F(FaultCountsTest, ARemovedRuleKeepsItsCountAReplacedOrClearedOneStartsAgain) {
  FaultInjector& f = server_.faults();
  f.add(failing("r", "a"));
  EXPECT_FALSE(get_ok("a"));
  EXPECT_TRUE(f.remove("r"));
  EXPECT_TRUE(get_ok("a"));
  EXPECT_EQ(f.fired("r"), 1);
  f.add(failing("r", "a"));
  EXPECT_EQ(f.fired("r"), 0);
  EXPECT_EQ(f.first_fired("r"), std::nullopt);
  EXPECT_FALSE(get_ok("a"));
  EXPECT_EQ(f.fired("r"), 1);
  f.clear();
  EXPECT_EQ(f.fired("r"), 0);
}

TEST_F(FaultCountsTest, CloseWatchesEndsTheOpenWatchesOfOneResource) {
  auto cm1 = watch(kConfigMaps);
  auto cm2 = watch(kConfigMaps);
  auto secrets = watch(kSecrets);
  loop_.run_for(1s);
  EXPECT_EQ(server_.close_watches(kConfigMaps), 2u);
  loop_.run_for(1s);
  EXPECT_TRUE(cm1->ended());
  EXPECT_TRUE(cm2->ended());
  EXPECT_FALSE(secrets->ended());
  EXPECT_EQ(server_.watches().watcher_count(), 1u);
  EXPECT_EQ(server_.close_watches(kConfigMaps), 0u);
  EXPECT_EQ(server_.close_watches(api::GroupVersionResource{"example.com", "v1", "nothings"}), 0u);
}

}  // namespace
}  // namespace kubesim::fakeapi
