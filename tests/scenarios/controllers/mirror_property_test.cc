// configmap-mirror over many seeds: random changes to the source and the target, injected 500s
// and conflicts on the mirror's writes, a server restart and a crash of the controller's process;
// once the faults end, the target must equal the source. And the same seed gives the same trace.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "fixture.h"
#include "kubesim/fakeapi/faults.h"

namespace kubesim::scenarios {
namespace {

using namespace std::chrono_literals;
using testing::Fixture;
using testing::FixtureOptions;

enum class OpKind { kPutSource, kDeleteSource, kPutTarget, kDeleteTarget, kCrash, kRestartServer };

struct Op {
  OpKind kind = OpKind::kPutSource;
  int name = 0;     // cm-NAME
  int value = 0;    // data {v: VALUE}; 0 puts no data
  int wait_ms = 0;  // before the op
};

std::string describe(const std::vector<Op>& ops) {
  std::string out;
  for (const Op& op : ops) {
    out += std::to_string(static_cast<int>(op.kind)) + ":" + std::to_string(op.name) + "=" +
           std::to_string(op.value) + "+" + std::to_string(op.wait_ms) + "ms ";
  }
  return out;
}

fakeapi::FaultRule error_rule(fakeapi::Verb verb, api::Status status, double probability, sim::Time until) {
  fakeapi::FaultRule rule;
  rule.verbs = {verb};
  rule.resource = "configmaps";
  rule.ns = "dst";
  rule.effect = fakeapi::ErrorFault{std::move(status)};
  rule.probability = probability;
  rule.until = until;
  return rule;
}

void apply(Fixture& f, const Op& op) {
  const std::string name = "cm-" + std::to_string(op.name);
  std::map<std::string, std::string> data;
  if (op.value != 0) data["v"] = std::to_string(op.value);
  const bool in_source = f.get(api::kConfigMaps, "src", name) != nullptr;
  const bool in_target = f.get(api::kConfigMaps, "dst", name) != nullptr;
  switch (op.kind) {
    case OpKind::kPutSource: f.put_config_map("src", name, data); break;
    case OpKind::kDeleteSource:
      if (in_source) f.delete_config_map("src", name);
      break;
    case OpKind::kPutTarget: f.put_config_map("dst", name, data); break;
    case OpKind::kDeleteTarget:
      if (in_target) f.delete_config_map("dst", name);
      break;
    case OpKind::kCrash:
      if (f.process.alive()) {
        f.process.crash();
      } else {
        f.process.restart();
      }
      break;
    case OpKind::kRestartServer: f.server.restart(); break;
  }
}

struct Outcome {
  std::map<std::string, nlohmann::json> source;
  std::map<std::string, nlohmann::json> target;
  std::uint64_t trace_hash = 0;
  std::uint64_t trace_events = 0;
  std::size_t injected = 0;       // requests a fault rule answered
  std::size_t mirror_writes = 0;  // the controller's writes that succeeded
};

Outcome run_mirror(std::uint64_t seed, const std::vector<Op>& ops, int workers) {
  FixtureOptions options;
  options.seed = seed;
  options.params = {{"source", "src"}, {"target", "dst"}};
  options.workers = workers;
  options.trace = true;
  Fixture f(options);
  f.create_namespace("src");
  f.create_namespace("dst");
  for (int i = 0; i < 3; ++i) f.put_config_map("src", "cm-" + std::to_string(i), {{"v", "seed"}});
  f.put_config_map("dst", "cm-9", {});
  const sim::Time faults_end = f.loop.now() + 90s;
  f.server.faults().add(error_rule(fakeapi::Verb::kCreate, api::new_internal_error("injected"), 0.3, faults_end));
  f.server.faults().add(error_rule(fakeapi::Verb::kUpdate, api::new_conflict({"", "configmaps"}, "cm", "injected"),
                                   0.3, faults_end));
  f.server.faults().add(error_rule(fakeapi::Verb::kDelete, api::new_internal_error("injected"), 0.3, faults_end));
  f.start();
  for (const Op& op : ops) {
    f.loop.run_for(std::chrono::milliseconds(op.wait_ms));
    apply(f, op);
  }
  if (!f.process.alive()) f.process.restart();
  f.loop.run_until(faults_end);
  // The longest a key can be held back: the 1000 s cap is far, but 0.3³⁰ is not going to
  // happen; five minutes covers every backoff a run like this reaches.
  f.loop.run_for(5min);
  Outcome out{f.contents("src"), f.contents("dst"), f.loop.trace().hash(), f.loop.trace().count()};
  out.injected = f.server.recorder().count([](const fakeapi::RecordedCall& call) { return !call.fault.empty(); });
  out.mirror_writes = f.server.recorder().count([](const fakeapi::RecordedCall& call) {
    return call.ok() && api::is_write(call.verb);
  });
  return out;
}

rc::Gen<Op> gen_op() {
  return rc::gen::build<Op>(
      rc::gen::set(&Op::kind, rc::gen::weightedElement<OpKind>({{30, OpKind::kPutSource},
                                                                {12, OpKind::kDeleteSource},
                                                                {8, OpKind::kPutTarget},
                                                                {6, OpKind::kDeleteTarget},
                                                                {2, OpKind::kCrash},
                                                                {1, OpKind::kRestartServer}})),
      rc::gen::set(&Op::name, rc::gen::inRange(0, 10)), rc::gen::set(&Op::value, rc::gen::inRange(0, 4)),
      rc::gen::set(&Op::wait_ms, rc::gen::inRange(0, 3000)));
}

RC_GTEST_PROP(MirrorPropertyTest, TargetEventuallyEqualsSource, ()) {
  const auto seed = *rc::gen::inRange<std::uint64_t>(1, 1'000'000'000);
  const auto ops = *rc::gen::container<std::vector<Op>>(gen_op());
  const int workers = *rc::gen::inRange(1, 4);
  RC_LOG() << "seed " << seed << " workers " << workers << " ops " << describe(ops) << "\n";
  const Outcome out = run_mirror(seed, ops, workers);
  RC_ASSERT(out.target == out.source);
}

TEST(MirrorDeterminismTest, SameSeedSameTrace) {
  const std::vector<Op> ops = {{OpKind::kPutSource, 1, 1, 500},  {OpKind::kPutTarget, 2, 2, 300},
                               {OpKind::kCrash, 0, 0, 2000},     {OpKind::kPutSource, 3, 0, 100},
                               {OpKind::kCrash, 0, 0, 1000},     {OpKind::kDeleteSource, 0, 0, 700},
                               {OpKind::kRestartServer, 0, 0, 50}, {OpKind::kPutSource, 1, 3, 10}};
  const Outcome first = run_mirror(42, ops, 2);
  const Outcome second = run_mirror(42, ops, 2);
  EXPECT_EQ(first.trace_hash, second.trace_hash);
  EXPECT_EQ(first.trace_events, second.trace_events);
  EXPECT_GT(first.trace_events, 20u);
  EXPECT_GT(first.injected, 0u);
  EXPECT_GT(first.mirror_writes, 3u);
  EXPECT_EQ(first.target, first.source);
  const Outcome other = run_mirror(43, ops, 2);
  EXPECT_EQ(other.target, other.source);
  EXPECT_NE(other.trace_hash, first.trace_hash);
}

}  // namespace
}  // namespace kubesim::scenarios
