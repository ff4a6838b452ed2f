// run_seed (kubesim/runner/runner.h): builds the World, drives it to the scenario's end,
// judges the checks, tears everything down in a safe order and reports.
#include "kubesim/runner/runner.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <string>

#include "kubesim/cluster/trace_tail.h"
#include "kubesim/runner/checks.h"
#include "kubesim/runner/world.h"
#include "kubesim/sim/trace.h"

namespace kubesim::runner {

namespace {

std::string describe(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

// The names the server makes from generateName, as objects are created.
void capture_generated_names(runner::World& world, RunCapture& capture) {
  world.server.add_write_listener([&capture](const fakeapi::CommittedWrite& write) {
    if (write.type != fakeapi::ChangeType::kAdded || !write.object) return;
    if (write.object->generate_name().empty()) return;
    capture.generated_names.emplace_back(std::string(write.object->name()),
                                         std::string(write.object->generate_name()));
  });
}

// The calls and every object on the server, at the end of the run.
void capture_end(runner::World& world, RunCapture& capture) {
  const auto& recorder = world.server.recorder();
  capture.calls.assign(recorder.calls().begin(), recorder.calls().end());
  capture.calls_dropped = recorder.dropped();
  std::vector<const fakeapi::ResourceInfo*> infos = world.server.registry().all();
  std::sort(infos.begin(), infos.end(), [](const auto* a, const auto* b) { return a->gvr < b->gvr; });
  for (const fakeapi::ResourceInfo* info : infos) {
    if (!info->storage) continue;
    auto list = world.server.list(info->gvr, "", api::ListOptions());
    if (!list.ok()) continue;
    for (const api::ObjectPtr& object : list.value().items) {
      capture.objects.push_back(RunCapture::Object{info->gvr, object->to_json()});
    }
  }
}

}  // namespace

SeedResult run_seed(const scenarios::Scenario& scenario, const scenarios::Registry& registry, const RunOptions& options) {
  SeedResult result;
  result.seed = options.seed;
  cluster::TraceTail tail(options.trace_tail);
  tail.add_sink(options.trace);
  std::unique_ptr<runner::World> world;
  try {
    world = std::make_unique<runner::World>(scenario, registry, options, tail.stream());
    world->setup();
    if (options.capture != nullptr) capture_generated_names(*world, *options.capture);
    world->checker->set_first_failure_hook([&tail] { tail.freeze(); });
    world->start();
    world->run_until(world->end);
    world->checker->finish();
  } catch (...) {
    result.error = describe(std::current_exception());
    tail.freeze();
    if (world) world->trace("runner", "run.error", {{"error", result.error}});
  }
  if (!world) {
    result.trace_hash = sim::Trace().hash_hex();
    if (options.trace != nullptr) *options.trace << "{\"traceHash\":\"" << result.trace_hash << "\"}\n";
    return result;
  }
  const sim::Time stopped = world->loop.now();
  if (world->checker) {
    result.failures = world->checker->take_failures();
    result.vacuous = world->checker->take_vacuous();
  }
  result.trace_tail = tail.lines();
  result.trace_hash = world->loop.trace().hash_hex();
  result.trace_events = world->loop.trace().count();
  const auto& recorder = world->server.recorder();
  result.requests = recorder.calls().size() + recorder.dropped();
  if (world->workload != nullptr) result.writes = world->workload->writes;
  if (options.capture != nullptr && world->checker) capture_end(*world, *options.capture);
  if (options.timeline) result.timeline = world->finish_picture(stopped);
  if (options.trace != nullptr) *options.trace << "{\"traceHash\":\"" << result.trace_hash << "\"}\n";
  if (!world->teardown()) {
    // Something of the run is still suspended and may touch the World when the Loop destroys
    // it: keep the World rather than free what it may touch.
    if (result.error.empty()) result.error = "teardown: some of the run's coroutines did not finish";
    (void)world.release();
  }
  return result;
}

}  // namespace kubesim::runner
