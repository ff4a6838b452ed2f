// Scenario runs per second: one seed of a parsed scenario, run to its end, per iteration.
#include <sys/resource.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include <benchmark/benchmark.h>

#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/scenarios/registry.h"

namespace {

using kubesim::scenarios::Registry;
using kubesim::scenarios::Scenario;

const Registry& registry() {
  static const Registry r = Registry::with_builtins();
  return r;
}

Scenario load(const std::string& name) {
  const std::string path = std::string(KUBESIM_BENCH_DIR) + "/scenarios/" + name;
  auto parsed = kubesim::scenarios::load_scenario(path, registry());
  if (!parsed.scenario) {
    for (const auto& e : parsed.errors) std::cerr << e.text() << "\n";
    std::abort();
  }
  return *parsed.scenario;
}

long max_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

void run_seeds(benchmark::State& state, const Scenario& scenario) {
  std::uint64_t seed = 1;
  std::uint64_t broken = 0;
  for (auto _ : state) {
    kubesim::runner::RunOptions options;
    options.seed = seed++;
    auto result = kubesim::runner::run_seed(scenario, registry(), options);
    if (!result.error.empty()) {
      state.SkipWithError(result.error.c_str());
      return;
    }
    broken += result.failures.empty() ? 0 : 1;
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());  // items = seeds
  state.counters["broken_seeds"] = static_cast<double>(broken);
  state.counters["max_rss_MiB"] = static_cast<double>(max_rss_kib()) / 1024.0;
}

// 3 replicas on a Lease, 10 virtual minutes, a partition every minute.
void BM_ElectionScenario(benchmark::State& state) {
  static const Scenario scenario = load("election.yaml");
  run_seeds(state, scenario);
}
BENCHMARK(BM_ElectionScenario)->Unit(benchmark::kMillisecond);

// configmap-mirror, 3 replicas under Lease election, 10 virtual minutes, ~5 writes/s, faults.
void BM_MirrorScenario(benchmark::State& state) {
  static const Scenario scenario = load("mirror.yaml");
  run_seeds(state, scenario);
}
BENCHMARK(BM_MirrorScenario)->Unit(benchmark::kMillisecond);

}  // namespace
