// The Reflector where client-go 1.36 does something a tidier design would not: each test names
// the client-go function whose behaviour it pins.
#include "informer/reflector.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cluster.h"
#include "running_reflector.h"

namespace kubesim::informer {
namespace {

using namespace std::chrono_literals;
using namespace testing;  // kubesim::informer::testing: the cluster and running reflector

sim::Task<api::Result<api::ObjectList>> refuse(api::Status status) { co_return status; }

// A server without a watch cache (lists at "0" are paginated) whose first continue token is
// refused with a 410 of reason Gone, as servers before 1.18 answered an expired one.
class GoneOnContinue final : public ListerWatcher {
 public:
  explicit GoneOnContinue(Cluster& cluster) : inner_(cluster, kConfigMaps) {}

  sim::Task<api::Result<api::ObjectList>> list(sim::Context ctx, api::ListOptions options) override {
    requests.push_back(options);
    if (!options.continue_token.empty() && !refused_) {
      refused_ = true;
      return refuse(api::new_gone("the continue token is too old"));
    }
    if (options.resource_version == "0") options.resource_version.clear();
    return inner_.list(std::move(ctx), std::move(options));
  }
  sim::Task<api::Result<api::WatchPtr>> watch(sim::Context ctx, api::ListOptions options) override {
    return inner_.watch(std::move(ctx), std::move(options));
  }

  std::vector<api::ListOptions> requests;

 private:
  RecordingListerWatcher inner_;
  bool refused_ = false;
};

// client-go's ListPager.list falls back to a full list only when the continue fails with
// IsResourceExpired; a Gone goes back to Reflector.list, whose isExpiredError takes Gone too: it
// marks the resourceVersion unavailable and lists again from "" with the same pager (pages of 500).
TEST(ReflectorFidelityTest, AGoneContinueIsRelistedFromTheLatestStateInPages) {
  Cluster c;
  for (int i = 0; i < 1200; ++i) c.create("default", "cm-" + std::to_string(i));
  GoneOnContinue lw(c);
  CountingStore store;
  Running run(c, lw, store, list_then_watch());
  c.loop.run_for(1s);
  ASSERT_EQ(lw.requests.size(), 5u) << "a page, the refused continue, then three pages of 1200";
  EXPECT_EQ(lw.requests[0].resource_version, "0");
  EXPECT_EQ(lw.requests[0].limit, 500);
  EXPECT_FALSE(lw.requests[1].continue_token.empty());
  const api::ListOptions& relist = lw.requests[2];
  EXPECT_TRUE(relist.continue_token.empty());
  EXPECT_EQ(relist.resource_version, "") << "not the pager's fallback at the resourceVersion first asked for";
  EXPECT_EQ(relist.limit, 500) << "not the pager's fallback to one unlimited list";
  EXPECT_FALSE(lw.requests[3].continue_token.empty());
  EXPECT_EQ(store.replaced_sizes, (std::vector<std::size_t>{1200}));
  EXPECT_EQ(store.state(), c.server_state());
}

}  // namespace
}  // namespace kubesim::informer
