// A tombstone handed to an informer's handlers is traced and told to on_tombstone (the
// informer's, and the factory's with the resource); a delete the watch delivered is not.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cluster.h"
#include "handlers.h"
#include "kubesim/informer/factory.h"
#include "kubesim/informer/shared_informer.h"

namespace kubesim::informer {
namespace {

using namespace std::chrono_literals;
using testing::Cluster;
using testing::FifoVariant;
using testing::kConfigMaps;

sim::Task<void> stop_factory(SharedInformerFactory* factory) { co_await factory->shutdown(); }

class TombstoneTest : public ::testing::TestWithParam<FifoVariant> {};

INSTANTIATE_TEST_SUITE_P(Fifos, TombstoneTest, ::testing::ValuesIn(testing::kFifoVariants),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_P(TombstoneTest, AMissedDeleteIsTracedAndToldWithItsResource) {
  Cluster c;
  std::ostringstream trace;
  c.loop.trace().enable(&trace);
  c.create("default", "a");
  c.create("default", "b");
  std::vector<std::string> told;     // by the informer's own option
  std::vector<std::string> by_kind;  // by the factory's, with the resource
  SharedInformerFactoryOptions options;
  options.informer.fifo = GetParam().fifo;
  options.informer.atomic_fifo = GetParam().atomic;
  options.informer.process = c.process.name();  // "informer": the trace names the process
  options.informer.on_tombstone = [&](const DeletedFinalStateUnknown& t) { told.push_back(t.key.str()); };
  options.on_tombstone = [&](const api::GroupVersionResource& resource, const DeletedFinalStateUnknown& t) {
    by_kind.push_back(resource.resource + " " + t.key.str());
  };
  SharedInformerFactory factory(c.client, c.process.clock(), options);
  (void)factory.informer_for(kConfigMaps);
  auto cancel = sim::with_cancel(c.process.context());
  factory.start(cancel.ctx);
  c.loop.run_for(1s);
  c.remove("default", "b");  // seen by the watch: a delete with its final state
  c.loop.run_for(1s);
  EXPECT_TRUE(told.empty());
  c.link->partition();
  c.remove("default", "a");  // missed: found at the relist after the partition
  c.loop.run_for(2min);
  c.link->heal();
  c.loop.run_for(2min);
  EXPECT_EQ(told, std::vector<std::string>{"default/a"});
  EXPECT_EQ(by_kind, std::vector<std::string>{"configmaps default/a"});
  // The process is the events' process; the informer's and reflector's name a field.
  const std::string traced = R"({"f":{"event":"tombstone","informer":"/v1, Resource=configmaps","key":"default/a"},)"
                             R"("k":"informer","p":"informer")";
  EXPECT_NE(trace.str().find(traced), std::string::npos) << trace.str();
  const std::string listed = R"({"f":{"event":"watch-listed","items":2,"reflector":"/v1, Resource=configmaps",)"
                             R"("resourceVersion":"6"},"k":"reflector","p":"informer")";
  EXPECT_NE(trace.str().find(listed), std::string::npos) << trace.str();
  cancel.cancel();
  c.loop.spawn(stop_factory(&factory));
  c.loop.run_for(1s);
}

}  // namespace
}  // namespace kubesim::informer
