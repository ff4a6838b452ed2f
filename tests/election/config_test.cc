#include "kubesim/election/config.h"

#include <gtest/gtest.h>

#include "kubesim/election/lease_lock.h"
#include "kubesim/election/leader_elector.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/sim/loop.h"

namespace kubesim::election {
namespace {

using namespace std::chrono_literals;

sim::Task<void> idle(sim::Context) { co_return; }

struct Fixture {
  sim::Loop loop;
  fakeapi::ApiServer server{loop};
  fakeapi::InProcessClient client{server};

  LeaderElectionConfig valid(std::string identity = "a") {
    LeaderElectionConfig c;
    c.lock = std::make_shared<LeaseLock>(client, "default", "l", ResourceLockConfig{std::move(identity)});
    c.callbacks.on_started_leading = [](sim::Context ctx) { return idle(ctx); };
    c.callbacks.on_stopped_leading = [] {};
    return c;
  }
};

TEST(ConfigTest, ValidConfigPasses) {
  Fixture f;
  EXPECT_EQ(validate(f.valid()), std::nullopt);
}

TEST(ConfigTest, EachRuleHasClientGosMessage) {
  Fixture f;
  struct Case {
    std::function<void(LeaderElectionConfig&)> change;
    const char* message;
  } cases[] = {
      {[](auto& c) { c.lease_duration = 10s; }, "leaseDuration must be greater than renewDeadline"},
      {[](auto& c) { c.renew_deadline = 2400ms; }, "renewDeadline must be greater than retryPeriod*JitterFactor"},
      {[](auto& c) { c.retry_period = 9s; }, "renewDeadline must be greater than retryPeriod*JitterFactor"},
      {[](auto& c) { c.lease_duration = -1s; c.renew_deadline = -2s; c.retry_period = -10s; },
       "leaseDuration must be greater than zero"},
      {[](auto& c) { c.lease_duration = 1s; c.renew_deadline = 0s; c.retry_period = -1s; },
       "renewDeadline must be greater than zero"},
      {[](auto& c) { c.retry_period = 0s; }, "retryPeriod must be greater than zero"},
      {[](auto& c) { c.callbacks.on_started_leading = nullptr; }, "OnStartedLeading callback must not be nil"},
      {[](auto& c) { c.callbacks.on_stopped_leading = nullptr; }, "OnStoppedLeading callback must not be nil"},
      {[](auto& c) { c.lock = nullptr; }, "Lock must not be nil."},
  };
  for (const auto& c : cases) {
    LeaderElectionConfig config = f.valid();
    c.change(config);
    EXPECT_EQ(validate(config), c.message);
  }
  EXPECT_EQ(validate(f.valid("")), "Lock identity is empty");
}

TEST(ConfigTest, ElectorRefusesAnInvalidConfigWithTheReason) {
  Fixture f;
  LeaderElectionConfig config = f.valid();
  config.retry_period = 0s;
  try {
    LeaderElector elector(config, f.loop.clock());
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "invalid leader election config: retryPeriod must be greater than zero");
  }
  EXPECT_THROW(f.loop.run_until_complete(run_or_die(sim::Context(), config, &f.loop.clock())),
               std::invalid_argument);
}

TEST(ConfigTest, NewLockKnowsClientGosLockTypes) {
  Fixture f;
  for (const char* type : {"leases", "configmaps", "endpoints", "configmapsleases", "endpointsleases"}) {
    auto lock = new_lock(type, f.client, "default", "l", ResourceLockConfig{"a"});
    ASSERT_TRUE(lock.ok()) << type;
    EXPECT_EQ(lock.value()->identity(), "a");
    EXPECT_EQ(lock.value()->describe(), "default/l");
  }
  auto bad = new_lock("lease", f.client, "default", "l", ResourceLockConfig{"a"});
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(api::is_bad_request(bad.status()));
  EXPECT_NE(bad.status().message.find("must be one of leases"), std::string::npos);
  EXPECT_FALSE(new_lock("leases", f.client, "default", "l", ResourceLockConfig{""}).ok());
  EXPECT_FALSE(new_lock("leases", f.client, "", "l", ResourceLockConfig{"a"}).ok());
}

}  // namespace
}  // namespace kubesim::election
