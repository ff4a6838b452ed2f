// workqueue/ speed, on the workloads of ../shared/PEERS.md so the figures sit beside client-go's.
// Results and the command that produced them: bench/README.md.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "kubesim/sim/loop.h"
#include "kubesim/sim/rng.h"
#include "kubesim/sim/sleep.h"
#include "kubesim/workqueue/delaying_queue.h"
#include "kubesim/workqueue/queue.h"
#include "kubesim/workqueue/rate_limiter.h"
#include "kubesim/workqueue/rate_limiting_queue.h"

namespace kubesim::workqueue {
namespace {

using namespace std::chrono_literals;
using sim::Loop;
using sim::Task;

// `default/obj-0000000` … `default/obj-0999999`, built once, before any timing.
const std::vector<std::string>& keys() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> k;
    k.reserve(1'000'000);
    char buf[32];
    for (int i = 0; i < 1'000'000; ++i) {
      std::snprintf(buf, sizeof buf, "default/obj-%07d", i);
      k.emplace_back(buf);
    }
    return k;
  }();
  return all;
}

// ---- 1 M distinct keys, one producer, N workers ----

// Adds the keys in order, letting the workers run after every `batch` adds.
Task<void> producer(Queue<std::string>* q, const std::vector<std::string>* k, int n, int batch) {
  for (int i = 0; i < n; ++i) {
    q->add((*k)[static_cast<std::size_t>(i)]);
    if ((i + 1) % batch == 0) co_await sim::yield(q->loop());
  }
}

// The worker that completes the n-th done shuts the queue down.
Task<void> worker(Queue<std::string>* q, long* done_count, long n) {
  for (;;) {
    auto item = co_await q->get(sim::Context());
    if (!item) co_return;
    q->done(*item);
    if (++*done_count == n) q->shut_down();
  }
}

void run_producer_workers(benchmark::State& state, int workers) {
  const int n = 1'000'000;
  const auto batch = static_cast<int>(state.range(0));
  const auto& k = keys();
  for (auto _ : state) {
    Loop loop;
    Queue<std::string> q(loop);
    long done_count = 0;
    for (int w = 0; w < workers; ++w) loop.spawn(worker(&q, &done_count, n));
    loop.spawn(producer(&q, &k, n, batch));
    loop.run_until_idle();
    if (done_count != n) state.SkipWithError("not every item was done");
  }
  state.SetItemsProcessed(state.iterations() * n);
}

// Arg: adds between yields of the producer (1: the worker runs after every add).
void BM_QueueOneProducerOneWorker(benchmark::State& state) { run_producer_workers(state, 1); }
BENCHMARK(BM_QueueOneProducerOneWorker)->Arg(1)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void BM_QueueOneProducerFourWorkers(benchmark::State& state) { run_producer_workers(state, 4); }
BENCHMARK(BM_QueueOneProducerFourWorkers)->Arg(1)->Unit(benchmark::kMillisecond);

// ---- dedup: 1 M adds over 1,000 keys, get+done after every 2nd add ----

Task<void> dedup(Queue<std::string>* q, const std::vector<std::string>* k, long* gets) {
  for (int i = 0; i < 1'000'000; ++i) {
    q->add((*k)[static_cast<std::size_t>(i % 1000)]);
    if (i % 2 == 1 && q->len() > 0) {
      auto item = co_await q->get(sim::Context());
      q->done(*item);
      ++*gets;
    }
  }
  while (q->len() > 0) {
    auto item = co_await q->get(sim::Context());
    q->done(*item);
    ++*gets;
  }
}

void BM_QueueDedup(benchmark::State& state) {
  const auto& k = keys();
  long gets = 0;
  for (auto _ : state) {
    Loop loop;
    Queue<std::string> q(loop);
    gets = 0;
    loop.spawn(dedup(&q, &k, &gets));
    loop.run_until_idle();
    if (gets != 500'999) state.SkipWithError("the dedup workload must make exactly 500,999 gets");
  }
  state.counters["gets"] = static_cast<double>(gets);
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_QueueDedup)->Unit(benchmark::kMillisecond);

// ---- add_after 100 k keys, delays uniform in [1 ms, 10 s), advance 11 s, drain ----

template <class Q>
Task<void> drain_all(Q* q, bool forget) {
  while (q->len() > 0) {
    auto item = co_await q->get(sim::Context());
    if constexpr (requires { q->forget(*item); }) {
      if (forget) q->forget(*item);
    }
    q->done(*item);
  }
}

void BM_DelayingAddAfterThenDrain(benchmark::State& state) {
  const int n = 100'000;
  const auto& k = keys();
  for (auto _ : state) {
    Loop loop;
    DelayingQueue<std::string> q(loop);
    sim::Rng rng(42);
    for (int i = 0; i < n; ++i) {
      q.add_after(k[static_cast<std::size_t>(i)], 1ms + rng.uniform_duration(0ms, 10s - 1ms));
    }
    if (q.len() != 0) state.SkipWithError("an item was ready before its time");
    loop.run_until(loop.now() + 11s);
    if (q.len() != static_cast<std::size_t>(n)) state.SkipWithError("not every item became ready");
    loop.spawn(drain_all(&q, false));
    loop.run_until_idle();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_DelayingAddAfterThenDrain)->Unit(benchmark::kMillisecond);

// ---- default controller rate limiter: add_rate_limited 100 k, advance 10,001 s, drain ----

void BM_RateLimitedAddThenDrain(benchmark::State& state) {
  const int n = 100'000;
  const auto& k = keys();
  for (auto _ : state) {
    Loop loop;
    RateLimitingQueue<std::string> q(loop, default_controller_rate_limiter<std::string>(loop.clock()));
    for (int i = 0; i < n; ++i) q.add_rate_limited(k[static_cast<std::size_t>(i)]);
    loop.run_until(loop.now() + 10'001s);
    if (q.len() != static_cast<std::size_t>(n)) state.SkipWithError("not every item became ready");
    loop.spawn(drain_all(&q, true));
    loop.run_until_idle();
    if (q.num_requeues(k[0]) != 0) state.SkipWithError("forget did not reach the limiter");
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_RateLimitedAddThenDrain)->Unit(benchmark::kMillisecond);

// ---- the default controller rate limiter alone: when + forget, 100 k distinct keys ----

// Arg 0: when() for every key, then forget() for every key (100 k keys tracked at the peak).
// Arg 1: when() then forget() key by key.
void BM_DefaultControllerRateLimiterWhenForget(benchmark::State& state) {
  const int n = 100'000;
  const auto& k = keys();
  const bool interleaved = state.range(0) == 1;
  for (auto _ : state) {
    Loop loop;
    auto limiter = default_controller_rate_limiter<std::string>(loop.clock());
    sim::Duration total{};
    if (interleaved) {
      for (int i = 0; i < n; ++i) {
        total += limiter->when(k[static_cast<std::size_t>(i)]);
        limiter->forget(k[static_cast<std::size_t>(i)]);
      }
    } else {
      for (int i = 0; i < n; ++i) total += limiter->when(k[static_cast<std::size_t>(i)]);
      for (int i = 0; i < n; ++i) limiter->forget(k[static_cast<std::size_t>(i)]);
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_DefaultControllerRateLimiterWhenForget)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kubesim::workqueue
