// informer/ speed and memory, on PEERS.md's cache/informer workloads. Results: bench/README.md.
#include <malloc.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/informer/delta_fifo.h"
#include "kubesim/informer/indexer.h"
#include "kubesim/informer/lister_watcher.h"
#include "kubesim/informer/shared_informer.h"
#include "kubesim/sim/loop.h"

namespace kubesim::informer {
namespace {

using api::kConfigMaps;
using api::kNamespaces;
constexpr int kNamespaceCount = 100;

std::string ns_name(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "ns-%03d", i % kNamespaceCount);
  return buf;
}

// The PEERS.md ConfigMap: 1,024 bytes of compact JSON, its own payload string. `rv` is set for
// cache-only benchmarks (the server sets it otherwise). Writes to the server leave the uid out:
// the server assigns its own on create, and an update naming another uid is a Conflict.
api::ObjectPtr bench_object(int i, int gen, const std::string& rv = "", bool with_uid = true) {
  char name[16];
  std::snprintf(name, sizeof name, "cm-%06d", i);
  char uid[40];
  std::snprintf(uid, sizeof uid, "00000000-0000-0000-0000-%012d", i);
  nlohmann::json meta = {{"name", name},
                         {"namespace", ns_name(i)},
                         {"labels", {{"app", "bench"}, {"shard", "s" + std::to_string(i % 10)}}}};
  if (!rv.empty()) meta["resourceVersion"] = rv;
  if (with_uid) meta["uid"] = uid;
  return api::make_object({{"apiVersion", "v1"},
                           {"kind", "ConfigMap"},
                           {"metadata", std::move(meta)},
                           {"data", {{"gen", std::to_string(gen)}, {"payload", std::string(796, 'x')}}}});
}

std::vector<api::ObjectPtr> bench_objects(int n, int gen) {
  std::vector<api::ObjectPtr> out;
  out.reserve(n);
  for (int i = 0; i < n; ++i) out.push_back(bench_object(i, gen, std::to_string(gen * n + i)));
  return out;
}

// CPU time of the process, as Google Benchmark counts it.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

Indexers namespace_index() { return Indexers{{kNamespaceIndex, meta_namespace_index_func}}; }

// --- Indexer ------------------------------------------------------------------------------------

void BM_IndexerAdd(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto objects = bench_objects(n, 1);
  for (auto _ : state) {
    state.PauseTiming();
    auto indexer = std::make_unique<Indexer>(namespace_index());
    state.ResumeTiming();
    for (const auto& o : objects) indexer->add(o);
    state.PauseTiming();
    indexer.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_IndexerAdd)->Arg(100'000)->Unit(benchmark::kMillisecond);

void BM_IndexerUpdate(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto first = bench_objects(n, 1);
  auto second = bench_objects(n, 2);
  Indexer indexer(namespace_index());
  for (const auto& o : first) indexer.add(o);
  bool flip = false;
  for (auto _ : state) {
    flip = !flip;
    for (const auto& o : flip ? second : first) indexer.update(o);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_IndexerUpdate)->Arg(100'000)->Unit(benchmark::kMillisecond);

void BM_IndexerGetByKey(benchmark::State& state) {
  auto objects = bench_objects(100'000, 1);
  Indexer indexer(namespace_index());
  std::vector<std::string> keys;
  for (const auto& o : objects) {
    indexer.add(o);
    keys.push_back(o->key().str());
  }
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(indexer.get_by_key(keys[i]));
    if (++i == keys.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_IndexerGetByKey);

// by_index("namespace", ns) over 100 namespaces of 1,000 objects each; one item = one call.
void BM_IndexerByIndex(benchmark::State& state) {
  auto objects = bench_objects(100'000, 1);
  Indexer indexer(namespace_index());
  for (const auto& o : objects) indexer.add(o);
  std::vector<std::string> namespaces;
  for (int i = 0; i < kNamespaceCount; ++i) namespaces.push_back(ns_name(i));
  std::size_t i = 0;
  for (auto _ : state) {
    auto got = indexer.by_index(kNamespaceIndex, namespaces[i]);
    if (got->size() != 1000) std::abort();
    benchmark::DoNotOptimize(got);
    if (++i == namespaces.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_IndexerByIndex)->Unit(benchmark::kMicrosecond);

// --- DeltaFIFO ----------------------------------------------------------------------------------

// add 100 k then update the same 100 k; one item = one add or update.
void BM_DeltaFIFOAddUpdate(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto first = bench_objects(n, 1);
  auto second = bench_objects(n, 2);
  sim::Loop loop;
  for (auto _ : state) {
    state.PauseTiming();
    auto fifo = std::make_unique<DeltaFIFO>(loop);
    state.ResumeTiming();
    for (const auto& o : first) fifo->add(o);
    for (const auto& o : second) fifo->update(o);
    state.PauseTiming();
    fifo.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * 2 * n);
}
BENCHMARK(BM_DeltaFIFOAddUpdate)->Arg(100'000)->Unit(benchmark::kMillisecond);

// pop 100 k keys, each with [Added, Updated]; one item = one pop.
void BM_DeltaFIFOPop(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto first = bench_objects(n, 1);
  auto second = bench_objects(n, 2);
  sim::Loop loop;
  std::size_t deltas = 0;
  const PopProcessFunc process = [&deltas](std::span<const Delta> ds, bool) { deltas += ds.size(); };
  for (auto _ : state) {
    state.PauseTiming();
    auto fifo = std::make_unique<DeltaFIFO>(loop);
    for (const auto& o : first) fifo->add(o);
    for (const auto& o : second) fifo->update(o);
    deltas = 0;
    state.ResumeTiming();
    while (fifo->try_pop(process)) {
    }
    state.PauseTiming();
    if (deltas != 2u * n) std::abort();
    fifo.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_DeltaFIFOPop)->Arg(100'000)->Unit(benchmark::kMillisecond);

// --- SharedIndexInformer fed by the in-process server ---------------------------------------------

class CountingHandler final : public ResourceEventHandler {
 public:
  void on_add(const api::ObjectPtr&, bool) override { ++adds; }
  void on_update(const api::ObjectPtr&, const api::ObjectPtr&) override { ++updates; }
  void on_delete(const DeletedObject&) override { ++deletes; }
  std::int64_t adds = 0, updates = 0, deletes = 0;
};

sim::Task<void> run_informer(SharedIndexInformer* informer, sim::Context ctx) { co_await informer->run(ctx); }

// A server holding `n` bench objects and an informer (not yet running) with one counting handler.
struct Fixture {
  explicit Fixture(int n, FifoKind fifo = FifoKind::kRealFIFO) : server(loop), client(server, "informer") {
    for (int i = 0; i < kNamespaceCount; ++i) {
      auto ns = api::make_object({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns_name(i)}}}});
      if (!server.create(kNamespaces, "", ns, api::CreateOptions()).ok()) std::abort();
    }
    for (int i = 0; i < n; ++i) {
      auto o = bench_object(i, 0);
      if (!server.create(kConfigMaps, o->namespace_(), o, api::CreateOptions()).ok()) std::abort();
    }
    SharedIndexInformerOptions options;
    options.indexers = namespace_index();
    options.fifo = fifo;
    options.use_watch_list = std::getenv("NOWL") == nullptr;
    informer = std::make_unique<SharedIndexInformer>(loop.clock(), std::make_unique<ListWatch>(client, kConfigMaps),
                                                     std::move(options));
    handler = std::make_shared<CountingHandler>();
    if (!informer->add_event_handler(handler).ok()) std::abort();
  }
  void start() { loop.spawn(run_informer(informer.get(), cancel.ctx)); }
  void run_until(const std::int64_t* count, std::int64_t want) {
    const sim::Time deadline = loop.now() + std::chrono::hours(1);
    while (*count < want) {
      if (!loop.step() || loop.now() > deadline) {
        std::fprintf(stderr, "stuck: %lld of %lld (adds %lld updates %lld deletes %lld)\n",
                     static_cast<long long>(*count), static_cast<long long>(want),
                     static_cast<long long>(handler->adds), static_cast<long long>(handler->updates),
                     static_cast<long long>(handler->deletes));
        std::abort();
      }
    }
  }
  ~Fixture() {
    cancel.cancel();
    loop.run_for(std::chrono::seconds(1));
  }

  sim::Loop loop;
  fakeapi::ApiServer server;
  fakeapi::InProcessClient client;
  sim::ContextWithCancel cancel = sim::with_cancel(sim::Context());
  std::unique_ptr<SharedIndexInformer> informer;
  std::shared_ptr<CountingHandler> handler;
};

// 10 k objects exist; from start to the handler's 10,000th add. One item = one object.
void BM_InformerInitialList(benchmark::State& state) {
  constexpr int kObjects = 10'000;
  const auto fifo = static_cast<FifoKind>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    auto f = std::make_unique<Fixture>(kObjects, fifo);
    state.ResumeTiming();
    f->start();
    f->run_until(&f->handler->adds, kObjects);
    state.PauseTiming();
    f.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kObjects);
}
BENCHMARK(BM_InformerInitialList)->Arg(static_cast<int>(FifoKind::kRealFIFO))
    ->Arg(static_cast<int>(FifoKind::kDeltaFIFO))->Unit(benchmark::kMillisecond);

// After the initial sync, 100 k modifications (i rewrites object i mod 10 k with gen = 1 + i/10 k)
// written to the server in chunks of 1,000, each taken by the informer to the handler before the
// next is written, to the handler's 100,000th update. One item = one modification taken from the
// server's watch to the handler: the informer's rate, which the floor is set on. The server's
// writes run with the timing paused and are counted apart (`server_writes_per_s`), as is the whole
// (`end_to_end_per_s`, writes included).
void BM_InformerModifications(benchmark::State& state) {
  constexpr int kObjects = 10'000;
  constexpr int kModifications = 100'000;
  constexpr int kChunk = 1'000;
  const auto fifo = static_cast<FifoKind>(state.range(0));
  double write_seconds = 0;
  double deliver_seconds = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto f = std::make_unique<Fixture>(kObjects, fifo);
    std::vector<api::ObjectPtr> writes;
    writes.reserve(kModifications);
    for (int i = 0; i < kModifications; ++i) {
      writes.push_back(bench_object(i % kObjects, 1 + i / kObjects, "", false));
    }
    f->start();
    f->run_until(&f->handler->adds, kObjects);
    for (int done = 0; done < kModifications; done += kChunk) {
      const auto t0 = cpu_seconds();
      for (int i = done; i < done + kChunk; ++i) {
        const api::ObjectPtr& o = writes[i];
        auto updated = f->server.update(kConfigMaps, o->namespace_(), o, api::UpdateOptions());
        if (!updated.ok()) {
          std::fprintf(stderr, "update failed: %s\n", updated.status().message.c_str());
          std::abort();
        }
      }
      const auto t1 = cpu_seconds();
      state.ResumeTiming();
      f->run_until(&f->handler->updates, done + kChunk);
      state.PauseTiming();
      write_seconds += t1 - t0;
      deliver_seconds += cpu_seconds() - t1;
    }
    f.reset();
    // Freed untimed, buffer included: freeing a large buffer makes malloc consolidate the chunks
    // freed before it.
    std::vector<api::ObjectPtr>().swap(writes);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kModifications);
  const double events = static_cast<double>(state.iterations()) * kModifications;
  state.counters["server_writes_per_s"] = events / write_seconds;
  state.counters["end_to_end_per_s"] = events / (write_seconds + deliver_seconds);
}
BENCHMARK(BM_InformerModifications)->Arg(static_cast<int>(FifoKind::kRealFIFO))
    ->Arg(static_cast<int>(FifoKind::kDeltaFIFO))->Unit(benchmark::kMillisecond);

std::int64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::int64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * 4096;
}

// Resident memory of the whole process (server store + informer cache, sharing the objects) for
// 100 k synced objects with one counting handler and the namespace index, after malloc_trim.
void BM_InformerMemory(benchmark::State& state) {
  constexpr int kObjects = 100'000;
  for (auto _ : state) {
    malloc_trim(0);
    const std::int64_t before = resident_bytes();
    auto f = std::make_unique<Fixture>(kObjects);
    malloc_trim(0);
    const std::int64_t server_only = resident_bytes();
    f->start();
    f->run_until(&f->handler->adds, kObjects);
    malloc_trim(0);
    const std::int64_t after = resident_bytes();
    state.counters["bytes_per_object"] = static_cast<double>(after - before) / kObjects;
    state.counters["server_bytes_per_object"] = static_cast<double>(server_only - before) / kObjects;
    state.counters["informer_bytes_per_object"] = static_cast<double>(after - server_only) / kObjects;
    state.counters["resident_MB"] = static_cast<double>(after) / 1e6;
    f.reset();
  }
}
BENCHMARK(BM_InformerMemory)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kubesim::informer
