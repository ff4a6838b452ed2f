// The Reflector where client-go 1.36 does something a tidier design would not: each test names
// the client-go function whose behaviour it pins.
#include "kubesim/informer/reflector.h"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cluster.h"
#include "kubesim/informer/delta_fifo.h"
#include "kubesim/informer/indexer.h"
#include "kubesim/informer/real_fifo.h"
#include "kubesim/informer/shared_informer.h"
#include "running_reflector.h"

namespace kubesim::informer {
namespace {

using namespace std::chrono_literals;
using namespace testing;  // kubesim::informer::testing: the cluster and running reflector

// client-go's NewReflector: wait.Backoff{800ms, factor 2, jitter 1, cap 30s}.DelayWithReset(clock,
// 2min), and wait's backoffManager.Step starts the Backoff over when 2 minutes have passed since
// the last start, however busy it was meanwhile. Under an outage that never ends the delay drops
// back to [0.8 s, 1.6 s) every 2 minutes; with client-go 1.35's manager it stayed at the cap.
TEST(ReflectorFidelityTest, BackoffStartsOverEveryTwoMinutesOfAnOutage) {
  Cluster c;
  c.server.faults().add(failing_lists(std::nullopt));
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  ReflectorOptions options = list_then_watch();
  // The reflector asks for its next delay right after the handler has seen the failure.
  std::vector<sim::Time> failed_at;
  const sim::Clock* clock = &c.process.clock();
  options.watch_error_handler = [&](Reflector&, const api::Status&) { failed_at.push_back(clock->now()); };
  sim::Time last_start = clock->now();
  Running run(c, lw, store, options);
  c.loop.run_for(10min);
  std::vector<sim::Time> lists;
  for (const auto& r : lw.requests) {
    if (r.verb == "list") lists.push_back(r.at);
  }
  ASSERT_GE(failed_at.size(), 20u);
  sim::Duration base = 800ms;
  int starts_over = 0;
  bool capped = false;
  for (std::size_t i = 0; i + 1 < lists.size() && i < failed_at.size(); ++i) {
    if (failed_at[i] - last_start > 2min) {
      base = 800ms;
      last_start = failed_at[i];
      ++starts_over;
      EXPECT_TRUE(capped) << "the outage reached the cap before the backoff started over";
    }
    const sim::Duration delay = lists[i + 1] - failed_at[i];
    EXPECT_GE(delay, base) << "delay " << i;
    EXPECT_LT(delay, 2 * base) << "delay " << i;
    capped = capped || base == 30s;
    base = std::min<sim::Duration>(2 * base, 30s);
  }
  EXPECT_GE(starts_over, 4) << "10 minutes of outage start the backoff over every 2 minutes";
  EXPECT_EQ(store.replaces, 0);
}

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

// Counts its calls in the object: a transform that is not idempotent.
api::ObjectPtr count_transforms(api::ObjectPtr object) {
  const auto seen = object->annotation("transforms");
  const int count = seen ? std::stoi(std::string(*seen)) : 0;
  return object->edited(
      [&](nlohmann::json& j) { j["metadata"]["annotations"]["transforms"] = std::to_string(count + 1); });
}

struct TransformCase {
  std::string name;
  bool use_watch_list;
  FifoKind fifo;
  bool atomic;
  // How often a listed object went through the transform when it reaches the consumer.
  std::string listed_transforms;
};

void PrintTo(const TransformCase& tc, std::ostream* os) { *os << tc.name; }

class StreamingTransformTest : public ::testing::TestWithParam<TransformCase> {};

// What the consumer pops: the listed objects' transform counts, then a created one's.
std::vector<std::string> popped_transforms(Queue& fifo) {
  std::vector<std::string> out;
  auto note = [&](const api::ObjectPtr& o) { out.emplace_back(o->annotation("transforms").value_or("none")); };
  while (fifo.try_pop([&](std::span<const Delta> deltas, bool) {
    for (const Delta& d : deltas) {
      if (const ReplacedAllInfo* all = d.replaced_all()) {
        for (const api::ObjectPtr& o : all->objects) note(o);
      } else if (d.object()) {
        note(d.object());
      }
    }
  })) {
  }
  return out;
}

// client-go's Reflector.watchList collects the initial events in a temporary store built
// WithTransformer(the FIFO's Transformer()), whose Add transforms each object, then hands them to
// the FIFO's Replace, which transforms them again (RealFIFO.addReplaceToItemsLocked,
// RealFIFO.addToItems_locked, DeltaFIFO.queueActionInternalLocked). A listed object (Reflector.list,
// syncWith) and a watch event are transformed once.
TEST_P(StreamingTransformTest, ListedObjectsAreTransformedAsClientGoDoes) {
  const TransformCase& tc = GetParam();
  Cluster c;
  c.create("default", "a");
  c.create("default", "b");
  Indexer known;
  std::unique_ptr<Queue> fifo;
  if (tc.fifo == FifoKind::kDeltaFIFO) {
    DeltaFIFOOptions options;
    options.known_objects = &known;
    options.emit_delta_type_replaced = true;
    options.transform = count_transforms;
    fifo = std::make_unique<DeltaFIFO>(c.loop, options);
  } else {
    RealFIFOOptions options;
    options.atomic_events = tc.atomic;
    options.known_objects = tc.atomic ? nullptr : &known;
    options.transform = count_transforms;
    fifo = std::make_unique<RealFIFO>(c.loop, options);
  }
  RecordingListerWatcher lw(c, kConfigMaps);
  ReflectorOptions options;
  options.use_watch_list = tc.use_watch_list;
  Running run(c, lw, *fifo, options);
  c.loop.run_for(1s);
  EXPECT_EQ(lw.count("list"), tc.use_watch_list ? 0 : 1);
  EXPECT_EQ(popped_transforms(*fifo), (std::vector<std::string>{tc.listed_transforms, tc.listed_transforms}));
  c.create("default", "c");
  c.loop.run_for(1s);
  EXPECT_EQ(popped_transforms(*fifo), (std::vector<std::string>{"1"})) << "a watch event is transformed once";
}

INSTANTIATE_TEST_SUITE_P(
    Fifos, StreamingTransformTest,
    ::testing::Values(TransformCase{"StreamedAtomicRealFIFO", true, FifoKind::kRealFIFO, true, "2"},
                      TransformCase{"StreamedRealFIFO", true, FifoKind::kRealFIFO, false, "2"},
                      TransformCase{"StreamedDeltaFIFO", true, FifoKind::kDeltaFIFO, false, "2"},
                      TransformCase{"ListedAtomicRealFIFO", false, FifoKind::kRealFIFO, true, "1"},
                      TransformCase{"ListedDeltaFIFO", false, FifoKind::kDeltaFIFO, false, "1"}),
    [](const ::testing::TestParamInfo<TransformCase>& info) { return info.param.name; });

}  // namespace
}  // namespace kubesim::informer
