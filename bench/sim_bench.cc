// sim/ speed: timer throughput and coroutine switch cost. Results: bench/README.md.
#include <benchmark/benchmark.h>

#include "kubesim/sim/channel.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;

void noop(void*) {}

// Timers scheduled and fired per second: N timers at spread deadlines, then run to idle.
void BM_TimerScheduleAndFire(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  for (auto _ : state) {
    Loop loop;
    for (int i = 0; i < n; ++i) loop.add_timer(Time{} + std::chrono::microseconds((i * 7919) % n), &noop, nullptr);
    loop.run_until_idle();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_TimerScheduleAndFire)->Arg(10'000)->Arg(1'000'000);

Task<void> sleeper(Loop* loop, int n) {
  for (int i = 0; i < n; ++i) (void)co_await sleep_for(Context(), *loop, 1s);
}

// A coroutine sleeping 1 s at a time: one timer, one suspend and one resume per iteration.
// This is also the "ten virtual hours of a 1 s ticker" figure (36,000 ticks).
void BM_SleepLoop(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  for (auto _ : state) {
    Loop loop;
    loop.spawn(sleeper(&loop, n));
    loop.run_until_idle();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_SleepLoop)->Arg(36'000)->Arg(1'000'000);

Task<void> ping(Loop* loop, int n) {
  for (int i = 0; i < n; ++i) co_await yield(*loop);
}

// Coroutine switch cost: one suspend + one resume through the ready queue per item.
void BM_CoroutineResume(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  for (auto _ : state) {
    Loop loop;
    loop.spawn(ping(&loop, n));
    loop.run_until_idle();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_CoroutineResume)->Arg(1'000'000);

Task<int> ready_value(int i) { co_return i; }

Task<void> await_ready_tasks(int n, long* sum) {
  for (int i = 0; i < n; ++i) {
    int v = co_await ready_value(i);
    *sum += v;
  }
}

// Creating and awaiting a Task that completes without suspending (frame allocation included).
void BM_AwaitReadyTask(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  long sum = 0;
  for (auto _ : state) {
    Loop loop;
    loop.spawn(await_ready_tasks(n, &sum));
    loop.run_until_idle();
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_AwaitReadyTask)->Arg(1'000'000);

Task<void> producer(Channel<int>* ch, int n) {
  for (int i = 0; i < n; ++i) (void)co_await ch->send(Context(), i);
  ch->close();
}

Task<void> consumer(Channel<int>* ch, long* sum) {
  for (;;) {
    auto v = co_await ch->recv(Context());
    if (!v) co_return;
    *sum += *v;
  }
}

// Ping-pong through a bounded channel of capacity 1: every item costs a producer and a
// consumer switch.
void BM_ChannelPingPong(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  long sum = 0;
  for (auto _ : state) {
    Loop loop;
    Channel<int> ch(loop, 1);
    loop.spawn(producer(&ch, n));
    loop.spawn(consumer(&ch, &sum));
    loop.run_until_idle();
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_ChannelPingPong)->Arg(1'000'000);

}  // namespace
}  // namespace kubesim::sim
