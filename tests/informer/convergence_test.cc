// The informer's central property: whatever the faults, once they stop and the informer has had
// time to recover, its cache equals the server's state exactly, and every handler's notifications,
// replayed, give that same state, with never an add for a key the handler already has.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "cluster.h"
#include "handlers.h"
#include "kubesim/informer/shared_informer.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::informer {
namespace {

using namespace std::chrono_literals;
using testing::Cluster;
using testing::FifoVariant;
using testing::RecordingHandler;
using State = std::vector<std::pair<std::string, std::string>>;

constexpr int kKeys = 12;
const char* const kNamespaces[] = {"default", "kube-public"};

fakeapi::ServerOptions server_options() {
  fakeapi::ServerOptions options;
  options.compaction_interval = 1min;
  options.watch.max_backlog = 10;  // bursts close the informer's watch now and then
  return options;
}

// One random write straight to the server: create, update or delete one of a few keys.
void random_cluster_write(Cluster* c) {
  sim::Rng& rng = c->loop.rng();
  const std::string ns = kNamespaces[rng.uniform(2)];
  const std::string name = "k" + std::to_string(rng.uniform(kKeys));
  auto current = c->server.get(testing::kConfigMaps, ns, name, api::GetOptions());
  if (!current.ok()) {
    (void)c->create(ns, name, {{"shard", std::to_string(rng.uniform(3))}});
  } else if (rng.bernoulli(0.6)) {
    (void)c->touch(current.value(), std::to_string(rng.next_u64() % 1000));
  } else {
    c->remove(ns, name);
  }
}

sim::Task<void> convergence_workload(Cluster* c, sim::Context ctx, int ops) {
  for (int i = 0; i < ops; ++i) {
    const bool slept = co_await sim::sleep_for(ctx, c->loop, c->loop.rng().uniform_duration(0ms, 2s));
    if (!slept) co_return;
    const int burst = c->loop.rng().bernoulli(0.06) ? static_cast<int>(c->loop.rng().uniform_int(5, 20)) : 1;
    for (int b = 0; b < burst; ++b) random_cluster_write(c);
  }
}

fakeapi::FaultRule rule(fakeapi::FaultEffect effect, std::vector<fakeapi::Verb> verbs) {
  return fakeapi::FaultRule{
      .verbs = std::move(verbs), .process = "informer", .count = 1, .effect = std::move(effect)};
}

// Injects one random fault now.
void inject(Cluster* c, std::vector<std::string>* log) {
  using fakeapi::Verb;
  sim::Rng& rng = c->loop.rng();
  switch (rng.uniform(9)) {
    case 0: {
      const auto after_events = static_cast<std::int64_t>(rng.uniform(6));
      c->server.faults().add(rule(fakeapi::DropWatchFault{after_events}, {Verb::kWatch}));
      log->push_back("drop-watch");
      break;
    }
    case 1:
      c->server.faults().add(rule(fakeapi::ForceGoneFault{}, {Verb::kWatch, Verb::kList}));
      log->push_back("force-410");
      break;
    case 2:
      c->server.restart();
      log->push_back("restart");
      break;
    case 3:
      c->server.compact_now();
      log->push_back("compact");
      break;
    case 4: {
      auto r = rule(fakeapi::LatencyFault{rng.uniform_duration(100ms, 3s)}, {});
      r.count.reset();
      r.until = c->loop.now() + 30s;
      c->server.faults().add(r);
      log->push_back("latency");
      break;
    }
    case 5:
      if (!c->link->partitioned()) c->link->partition();
      log->push_back("partition");
      break;
    case 6: {
      c->server.faults().add(rule(fakeapi::StaleReadFault{rng.uniform_duration(1s, 60s)}, {Verb::kList, Verb::kGet}));
      log->push_back("stale-read");
      break;
    }
    case 7: {
      const auto count = static_cast<std::int64_t>(rng.uniform_int(1, 3));
      auto r = rule(fakeapi::ErrorFault{rng.bernoulli(0.5) ? api::new_internal_error("injected")
                                                            : api::new_too_many_requests("injected", 1)},
                    {Verb::kList, Verb::kWatch});
      r.count = count;
      c->server.faults().add(r);
      log->push_back("error");
      break;
    }
    default:
      c->server.faults().add(rule(fakeapi::StallWatchFault{}, {Verb::kWatch}));
      log->push_back("stall-watch");
      break;
  }
}

sim::Task<void> faults(Cluster* c, sim::Context ctx, sim::Time until, std::vector<std::string>* log) {
  while (c->loop.now() < until) {
    const bool slept = co_await sim::sleep_for(ctx, c->loop, c->loop.rng().uniform_duration(1s, 15s));
    if (!slept) co_return;
    if (c->link->partitioned() && c->loop.rng().bernoulli(0.5)) c->link->heal();
    inject(c, log);
  }
  if (c->link->partitioned()) c->link->heal();
  c->server.faults().clear();
}

sim::Task<void> run_informer(SharedIndexInformer* informer, sim::Context ctx, bool* done) {
  co_await informer->run(ctx);
  *done = true;
}

struct Outcome {
  State server;
  State cache;
  std::vector<State> views;
  std::vector<std::string> duplicate_adds;
  std::vector<std::string> updates_of_unknown;
  bool stopped = false;
  std::vector<std::string> faults;
};

Outcome run_scenario(std::uint64_t seed, const FifoVariant& variant, bool watch_list) {
  Cluster c(seed, server_options());
  c.link->set_latency(1ms, 5ms);
  for (int i = 0; i < 5; ++i) random_cluster_write(&c);
  SharedIndexInformerOptions options;
  options.fifo = variant.fifo;
  options.atomic_fifo = variant.atomic;
  options.use_watch_list = watch_list;
  options.resync_period = 45s;
  SharedIndexInformer informer(c.process.clock(), std::make_unique<ListWatch>(c.client, testing::kConfigMaps),
                               std::move(options));
  auto fast = std::make_shared<RecordingHandler>();
  auto slow = std::make_shared<testing::SlowHandler>(c.loop, 50ms);
  auto late = std::make_shared<RecordingHandler>();
  (void)informer.add_event_handler(fast);
  (void)informer.add_event_handler(slow);

  Outcome out;
  auto cancel = sim::with_cancel(c.process.context());
  bool done = false;
  c.loop.spawn(run_informer(&informer, cancel.ctx, &done));
  c.loop.spawn(convergence_workload(&c, cancel.ctx, 50));
  c.loop.spawn(faults(&c, cancel.ctx, c.loop.now() + 100s, &out.faults));
  c.loop.run_for(40s);
  HandlerOptions never;
  never.resync_period = sim::Duration::zero();
  (void)informer.add_event_handler(late, never);
  // Faults end at 100 s, the workload at most at 100 s; a stalled watch may take up to its
  // 10-minute timeout to notice, so give it 15 minutes.
  c.loop.run_for(1min + 15min);

  out.server = c.server_state();
  out.cache = testing::cache_state(informer);
  for (const RecordingHandler* h : {fast.get(), &slow->inner, late.get()}) {
    out.views.push_back(h->view_state());
    out.duplicate_adds.insert(out.duplicate_adds.end(), h->duplicate_adds.begin(), h->duplicate_adds.end());
    out.updates_of_unknown.insert(out.updates_of_unknown.end(), h->updates_of_unknown.begin(),
                                  h->updates_of_unknown.end());
  }
  cancel.cancel();
  c.loop.run_for(1min);
  out.stopped = done;
  return out;
}

std::string show(const State& s) {
  std::string out;
  for (const auto& [k, rv] : s) out += k + "@" + rv + " ";
  return out;
}

void check_converges(const FifoVariant& variant) {
  const auto seed = *rc::gen::inRange<std::uint64_t>(1, 1'000'000'000);
  const bool watch_list = *rc::gen::arbitrary<bool>();
  const Outcome out = run_scenario(seed, variant, watch_list);
  std::string faults;
  for (const auto& f : out.faults) faults += f + " ";
  RC_LOG() << "seed " << seed << " watch_list " << watch_list << " faults: " << faults << "\n";
  RC_ASSERT(out.cache == out.server);
  for (const State& view : out.views) RC_ASSERT(view == out.cache);
  RC_ASSERT(out.duplicate_adds.empty());
  RC_ASSERT(out.updates_of_unknown.empty());
  RC_ASSERT(out.stopped);
  (void)show;
}

RC_GTEST_PROP(InformerConvergenceTest, RealFIFOAtomicConvergesUnderFaults, ()) {
  check_converges(testing::kFifoVariants[0]);
}

RC_GTEST_PROP(InformerConvergenceTest, RealFIFOPerObjectConvergesUnderFaults, ()) {
  check_converges(testing::kFifoVariants[1]);
}

RC_GTEST_PROP(InformerConvergenceTest, DeltaFIFOConvergesUnderFaults, ()) {
  check_converges(testing::kFifoVariants[2]);
}

}  // namespace
}  // namespace kubesim::informer
