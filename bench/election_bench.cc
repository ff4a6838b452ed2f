// election/ speed: a day of leader election in virtual time. Results: bench/README.md.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "kubesim/election/lease_lock.h"
#include "kubesim/election/leader_elector.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/process.h"

namespace kubesim::election {
namespace {

using namespace std::chrono_literals;

struct Candidate {
  std::unique_ptr<sim::Process> process;
  std::shared_ptr<sim::NetworkLink> link;
  std::unique_ptr<fakeapi::InProcessClient> client;
  bool leading = false;
};

struct Day {
  sim::Loop loop;
  fakeapi::ApiServer server{loop};
  std::vector<Candidate> candidates;
  std::int64_t leaderships = 0;
};

sim::Task<void> lead(Day* day, int i, sim::Context ctx) {
  sim::Event never(day->loop);
  co_await never.wait(ctx);
  day->candidates[static_cast<std::size_t>(i)].leading = false;
}

// A candidate process: elects forever (a new election after each lost leadership).
sim::Task<void> candidate(Day* day, int i, sim::Context ctx) {
  Candidate& c = day->candidates[static_cast<std::size_t>(i)];
  const std::string id = c.process->name();
  while (!ctx.done()) {
    LeaderElectionConfig config;
    config.lock = std::make_shared<LeaseLock>(*c.client, "kube-system", "controller", ResourceLockConfig(id));
    config.callbacks.on_started_leading = [day, i](sim::Context lctx) {
      ++day->leaderships;
      day->candidates[static_cast<std::size_t>(i)].leading = true;
      return lead(day, i, lctx);
    };
    config.callbacks.on_stopped_leading = [] {};
    LeaderElector elector(config, *c.process);
    co_await elector.run(ctx);
  }
}

// Five candidates with client-go's default timings (15 s / 10 s / 2 s), 1–3 ms one-way latency,
// electing on a Lease for 24 virtual hours; every 10 virtual minutes the current leader's link
// is partitioned for 30 s, so leadership changes hands 144 times a day.
void BM_ElectionDay(benchmark::State& state) {
  constexpr int kCandidates = 5;
  constexpr sim::Duration kDay = 24h;
  std::int64_t leaderships = 0;
  for (auto _ : state) {
    Day day;
    for (int i = 0; i < kCandidates; ++i) {
      Candidate c;
      c.process = std::make_unique<sim::Process>(day.loop, "candidate-" + std::to_string(i));
      c.link = std::make_shared<sim::NetworkLink>(day.loop, 1ms, 2ms);
      c.process->set_link(c.link);
      c.client = std::make_unique<fakeapi::InProcessClient>(day.server, *c.process);
      day.candidates.push_back(std::move(c));
    }
    for (int i = 0; i < kCandidates; ++i) {
      Day* d = &day;
      day.candidates[static_cast<std::size_t>(i)].process->start(
          [d, i](sim::Context ctx) { return candidate(d, i, ctx); });
    }
    for (sim::Time t = sim::Time{} + 10min; t < sim::Time{} + kDay; t += 10min) {
      Day* d = &day;
      day.loop.add_timer(t, [d] {
        for (auto& c : d->candidates) {
          if (!c.leading) continue;
          c.link->partition();
          d->loop.add_timer(d->loop.now() + 30s, [link = c.link] { link->heal(); });
        }
      });
    }
    day.loop.run_until(sim::Time{} + kDay);
    leaderships += day.leaderships;
    state.PauseTiming();
    for (auto& c : day.candidates) c.process->crash();
    day.loop.run_for(1min);
    state.ResumeTiming();
  }
  const double virtual_seconds = static_cast<double>(state.iterations()) * 86400.0;
  state.counters["speedup"] = benchmark::Counter(virtual_seconds, benchmark::Counter::kIsRate);
  state.counters["leaderships_per_day"] =
      static_cast<double>(leaderships) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_ElectionDay)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace kubesim::election
