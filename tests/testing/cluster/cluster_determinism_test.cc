// A seed replays a SimCluster exactly: any sequence of test steps (writes, time, crashes,
// restarts, partitions, pauses, waits) run twice on the same seed gives the same trace.
#include "kubesim/testing/cluster.h"

#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/api/resources.h"

namespace kubesim::testing {
namespace {

enum class Op { kApply, kRemove, kRun, kCrash, kRestart, kPartition, kPause, kWaitFor, kCount };

struct Step {
  Op op;
  int target;  // an object or a replica
  int amount;  // tenths of a second
};

std::ostream& operator<<(std::ostream& os, const Step& s) {
  return os << "{op " << static_cast<int>(s.op) << ", target " << s.target << ", amount " << s.amount << "}";
}

nlohmann::json numbered_config_map(int i) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c" + std::to_string(i)}}}};
}

void run_step(SimCluster& c, const Step& s) {
  const std::string replica = "lease-" + std::to_string(s.target % 2);
  const sim::Duration d = std::chrono::milliseconds(100) * s.amount;
  switch (s.op) {
    case Op::kApply: c.apply(numbered_config_map(s.target)); break;
    case Op::kRemove: (void)c.remove(api::kConfigMaps, "default", "c" + std::to_string(s.target)); break;
    case Op::kRun: c.run_for(d); break;
    case Op::kCrash: c.crash(replica, d); break;
    case Op::kRestart: c.restart(replica); break;
    case Op::kPartition: c.partition(replica, d); break;
    case Op::kPause: c.pause(replica, d); break;
    case Op::kWaitFor: (void)c.run_until(Exists(api::kConfigMaps, "default", "c" + std::to_string(s.target)), d); break;
    case Op::kCount: break;
  }
}

// The trace hash, the clock and the leaders after the steps and 10 s more.
std::string run_steps(std::uint64_t seed, bool shuffle, const std::vector<Step>& steps) {
  SimCluster c(ClusterOptions().seed(seed).shuffle(shuffle).latency(1ms, 20ms));
  c.run_controller("lease", [](Manager&) {}, Replicas(2), LeaderElection("kube-system"));
  for (const Step& s : steps) run_step(c, s);
  c.run_for(10s);
  std::string out = c.trace_hash() + "@" + std::to_string(c.now().time_since_epoch().count());
  for (const std::string& leader : c.leaders()) out += " " + leader;
  return out;
}

rc::Gen<Step> gen_step() {
  return rc::gen::apply([](int op, int target, int amount) { return Step{static_cast<Op>(op), target, amount}; },
                        rc::gen::inRange(0, static_cast<int>(Op::kCount)), rc::gen::inRange(0, 4),
                        rc::gen::inRange(1, 300));
}

RC_GTEST_PROP(ClusterDeterminismTest, TheSameStepsOnTheSameSeedGiveTheSameTrace, ()) {
  const auto steps = *rc::gen::resize(20, rc::gen::container<std::vector<Step>>(gen_step()));
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1'000'000);
  const bool shuffle = *rc::gen::arbitrary<bool>();
  RC_ASSERT(run_steps(seed, shuffle, steps) == run_steps(seed, shuffle, steps));
}

}  // namespace
}  // namespace kubesim::testing
