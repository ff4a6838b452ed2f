#include "tools/demo.h"

#include <memory>
#include <string>
#include <vector>

#include "kubesim/sim/channel.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::tools {
namespace {

using namespace std::chrono_literals;

struct Shared {
  sim::Loop* loop;
  sim::Channel<int>* work;
  std::vector<int> handled;
};

// A producer process: one work item every 30 virtual seconds.
sim::Task<void> produce(Shared* s, sim::Context ctx) {
  for (int item = 0;; ++item) {
    const bool slept = co_await sim::sleep_for(ctx, *s->loop, 30s);
    if (!slept) co_return;
    s->work->try_send(item);
  }
}

// A worker process: takes items and spends a random 1–20 s on each.
sim::Task<void> work(Shared* s, sim::Process* self, int index, sim::Context ctx) {
  for (;;) {
    auto item = co_await s->work->recv(ctx);
    if (!item) co_return;
    const auto cost = s->loop->rng().uniform_duration(1s, 20s);
    const bool finished = co_await sim::sleep_for(ctx, self->clock(), cost);
    if (!finished) co_return;  // crashed mid-item: the item is lost, as in a real crash
    ++s->handled[index];
    s->loop->trace().record(s->loop->now(), self->name(), "handled", {{"item", *item}});
  }
}

}  // namespace

std::string run_demo(const DemoOptions& options, std::ostream& out, std::ostream* trace) {
  sim::Loop loop(sim::LoopOptions{.seed = options.seed, .shuffle = options.shuffle});
  loop.trace().enable(trace);
  sim::Channel<int> queue(loop);
  Shared shared{&loop, &queue, std::vector<int>(options.workers, 0)};

  sim::Process producer(loop, "producer");
  producer.start([&shared](sim::Context ctx) { return produce(&shared, ctx); });
  std::vector<std::unique_ptr<sim::Process>> workers;
  for (int i = 0; i < options.workers; ++i) {
    auto p = std::make_unique<sim::Process>(loop, "worker-" + std::to_string(i));
    sim::Process* self = p.get();
    p->start([&shared, self, i](sim::Context ctx) { return work(&shared, self, i, ctx); });
    workers.push_back(std::move(p));
  }
  // Every virtual hour one worker crashes and comes back ten minutes later.
  for (int h = 1; h < options.hours; ++h) {
    sim::Process* victim = workers[loop.rng().uniform(workers.size())].get();
    loop.add_timer(sim::Time{} + std::chrono::hours(h), [victim] { victim->crash(); });
    loop.add_timer(sim::Time{} + std::chrono::hours(h) + 10min, [victim] { victim->restart(); });
  }
  loop.run_until(sim::Time{} + std::chrono::hours(options.hours));

  out << "simulated " << options.hours << " h with " << options.workers << " workers (seed "
      << options.seed << (options.shuffle ? ", shuffle" : "") << ")\n";
  int total = 0;
  for (int i = 0; i < options.workers; ++i) {
    out << "  worker-" << i << " handled " << shared.handled[i] << " items, restarted "
        << workers[i]->incarnation() << " times\n";
    total += shared.handled[i];
  }
  out << "  total " << total << " items, " << queue.size() << " waiting\n";
  out << "trace: " << loop.trace().count() << " events, hash " << loop.trace().hash_hex() << "\n";
  return loop.trace().hash_hex();
}

}  // namespace kubesim::tools
