// fakeapi/ speed and memory, on PEERS.md's fake API workload. Results: bench/README.md.
#include <malloc.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::fakeapi {
namespace {

using api::kConfigMaps;
using api::kNamespaces;
constexpr int kObjects = 10'000;
constexpr int kRounds = 10;
constexpr int kNamespaceCount = 10;

std::string ns_name(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "ns-%03d", i % kNamespaceCount);
  return buf;
}

// The PEERS.md ConfigMap: 1,024 bytes of compact JSON, its own payload string.
api::ObjectPtr bench_object(int i) {
  char name[16];
  std::snprintf(name, sizeof name, "cm-%06d", i);
  char uid[40];
  std::snprintf(uid, sizeof uid, "00000000-0000-0000-0000-%012d", i);
  nlohmann::json j = {
      {"apiVersion", "v1"},
      {"kind", "ConfigMap"},
      {"metadata",
       {{"name", name},
        {"namespace", ns_name(i)},
        {"uid", uid},
        {"labels", {{"app", "bench"}, {"shard", "s" + std::to_string(i % 10)}}}}},
      {"data", {{"gen", "0"}, {"payload", std::string(796, 'x')}}}};
  return api::make_object(std::move(j));
}

std::vector<api::ObjectPtr> bench_objects(int n) {
  std::vector<api::ObjectPtr> out;
  out.reserve(n);
  for (int i = 0; i < n; ++i) out.push_back(bench_object(i));
  return out;
}

void create_namespaces(ApiServer& server) {
  for (int i = 0; i < kNamespaceCount; ++i) {
    auto ns = api::make_object({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns_name(i)}}}});
    if (!server.create(kNamespaces, "", ns, api::CreateOptions()).ok()) std::abort();
  }
}

// The copy with data.gen set: the server's objects are compact, so this splices their text.
api::ObjectPtr with_gen(const api::ObjectPtr& obj, int gen) {
  return obj->with_value_at("data.gen", std::to_string(gen));
}

// get of existing objects by namespace/name.
void BM_ServerGet(benchmark::State& state) {
  sim::Loop loop;
  ApiServer server(loop);
  create_namespaces(server);
  auto objects = bench_objects(kObjects);
  for (const auto& o : objects) (void)server.create(kConfigMaps, o->namespace_(), o, api::CreateOptions());
  std::vector<std::pair<std::string, std::string>> keys;
  for (const auto& o : objects) keys.emplace_back(o->namespace_(), o->name());
  const api::GetOptions options;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [ns, name] = keys[i++ % keys.size()];
    auto got = server.get(kConfigMaps, ns, name, options);
    benchmark::DoNotOptimize(got);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ServerGet);

// A list of one namespace's 1,000 objects (of 10 k), whole, after every object was updated once
// within the compaction window: at the latest revision (arg 0), or with resourceVersionMatch=Exact
// at the revision before the updates (arg 1), where each object is one write back in history.
void BM_ServerList(benchmark::State& state) {
  sim::Loop loop;
  ApiServer server(loop);
  create_namespaces(server);
  auto objects = bench_objects(kObjects);
  for (auto& o : objects) o = server.create(kConfigMaps, o->namespace_(), o, api::CreateOptions()).value();
  const std::string before_updates = std::to_string(server.revision());
  for (const auto& o : objects) {
    (void)server.update(kConfigMaps, o->namespace_(), with_gen(o, 1), api::UpdateOptions()).value();
  }
  api::ListOptions options;
  if (state.range(0) == 1) {
    options.resource_version = before_updates;
    options.resource_version_match = api::ResourceVersionMatch::kExact;
  }
  std::int64_t items = 0;
  for (auto _ : state) {
    auto got = server.list(kConfigMaps, "ns-004", options);
    items += static_cast<std::int64_t>(got.value().items.size());
    benchmark::DoNotOptimize(got);
  }
  if (items != state.iterations() * kObjects / kNamespaceCount) std::abort();
  state.SetItemsProcessed(items);
}
BENCHMARK(BM_ServerList)->Arg(0)->Arg(1);

// 10 k creates then 10 rounds of updates of every object, on the server's API.
void BM_ServerWritesNoWatcher(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    sim::Loop loop;
    auto server = std::make_unique<ApiServer>(loop);
    create_namespaces(*server);
    auto objects = bench_objects(kObjects);
    state.ResumeTiming();
    std::vector<api::ObjectPtr> last(kObjects);
    for (int i = 0; i < kObjects; ++i) {
      last[i] = server->create(kConfigMaps, objects[i]->namespace_(), objects[i], api::CreateOptions()).value();
    }
    for (int round = 1; round <= kRounds; ++round) {
      for (int i = 0; i < kObjects; ++i) {
        last[i] = server->update(kConfigMaps, last[i]->namespace_(), with_gen(last[i], round),
                                 api::UpdateOptions()).value();
      }
    }
    state.PauseTiming();
    server.reset();
    // The prebuilt objects and both vectors' buffers are freed untimed: freeing a large buffer
    // makes malloc consolidate the chunks freed before it.
    std::vector<api::ObjectPtr>().swap(last);
    std::vector<api::ObjectPtr>().swap(objects);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kObjects * (kRounds + 1));
}
BENCHMARK(BM_ServerWritesNoWatcher)->Unit(benchmark::kMillisecond);

sim::Task<void> count_events(api::WatchPtr stream, std::int64_t* count) {
  for (;;) {
    auto event = co_await stream->next(sim::Context());
    if (!event) co_return;
    ++*count;
  }
}

sim::Task<void> write_all(sim::Loop* loop, ApiServer* server, std::vector<api::ObjectPtr>* objects) {
  std::vector<api::ObjectPtr> last(objects->size());
  for (std::size_t i = 0; i < objects->size(); ++i) {
    last[i] = server->create(kConfigMaps, (*objects)[i]->namespace_(), (*objects)[i], api::CreateOptions()).value();
    if (i % 64 == 0) co_await sim::yield(*loop);
  }
  for (int round = 1; round <= kRounds; ++round) {
    for (std::size_t i = 0; i < last.size(); ++i) {
      last[i] = server->update(kConfigMaps, last[i]->namespace_(), with_gen(last[i], round),
                               api::UpdateOptions()).value();
      if (i % 64 == 0) co_await sim::yield(*loop);
    }
  }
  server->restart();  // ends the watch
}

// The same writes with one all-namespace watcher, opened before the first write, consuming every
// event; the writer yields every 64 writes so the watcher keeps up (as PEERS.md paces client-go).
void BM_ServerWritesOneWatcher(benchmark::State& state) {
  std::int64_t events = 0;
  for (auto _ : state) {
    state.PauseTiming();
    sim::Loop loop;
    auto server = std::make_unique<ApiServer>(loop);
    create_namespaces(*server);
    auto objects = bench_objects(kObjects);
    api::ListOptions from_now;
    from_now.resource_version = std::to_string(server->revision());
    auto stream = server->watch(kConfigMaps, "", from_now);
    events = 0;
    loop.spawn(count_events(std::move(stream.value()), &events));
    state.ResumeTiming();
    loop.spawn(write_all(&loop, server.get(), &objects));
    loop.run_until(loop.now());  // no virtual time passes
    state.PauseTiming();
    if (events != kObjects * (kRounds + 1)) std::abort();
    server.reset();
    std::vector<api::ObjectPtr>().swap(objects);  // freed untimed, buffer included
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kObjects * (kRounds + 1));
  state.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_ServerWritesOneWatcher)->Unit(benchmark::kMillisecond);

sim::Task<void> write_all_through(sim::Loop* loop, InProcessClient* client, ApiServer* server,
                                  std::vector<api::ObjectPtr>* objects) {
  std::vector<api::ObjectPtr> last(objects->size());
  for (std::size_t i = 0; i < objects->size(); ++i) {
    api::ObjectPtr obj = (*objects)[i];
    std::string ns(obj->namespace_());
    auto created = co_await client->create(sim::Context(), kConfigMaps, ns, obj, api::CreateOptions());
    last[i] = created.value();
    if (i % 64 == 0) co_await sim::yield(*loop);
  }
  for (int round = 1; round <= kRounds; ++round) {
    for (std::size_t i = 0; i < last.size(); ++i) {
      api::ObjectPtr next = with_gen(last[i], round);
      std::string ns(next->namespace_());
      auto updated = co_await client->update(sim::Context(), kConfigMaps, ns, next, api::UpdateOptions());
      last[i] = updated.value();
      if (i % 64 == 0) co_await sim::yield(*loop);
    }
  }
  server->restart();
}

// The same writes through the in-process client with zero latency (a client with no process has
// no link), with one watcher (state.range(0) == 1) or none.
void BM_ClientWrites(benchmark::State& state) {
  const bool watched = state.range(0) != 0;
  std::int64_t events = 0;
  for (auto _ : state) {
    state.PauseTiming();
    sim::Loop loop;
    auto server = std::make_unique<ApiServer>(loop);
    InProcessClient client(*server);
    create_namespaces(*server);
    auto objects = bench_objects(kObjects);
    events = 0;
    if (watched) {
      api::ListOptions from_now;
      from_now.resource_version = std::to_string(server->revision());
      auto stream = loop.run_until_complete(client.watch(sim::Context(), kConfigMaps, "", from_now));
      loop.spawn(count_events(std::move(stream.value()), &events));
    }
    state.ResumeTiming();
    loop.spawn(write_all_through(&loop, &client, server.get(), &objects));
    loop.run_until(loop.now());  // no virtual time passes
    state.PauseTiming();
    if (watched && events != kObjects * (kRounds + 1)) std::abort();
    server.reset();
    std::vector<api::ObjectPtr>().swap(objects);  // freed untimed, buffer included
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kObjects * (kRounds + 1));
  state.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_ClientWrites)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The writes of BM_ServerWritesNoWatcher with one watcher that never reads: the server closes it
// once its backlog passes max_backlog, and the writer goes on at full speed.
void BM_ServerWritesStalledWatcher(benchmark::State& state) {
  std::uint64_t closed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    sim::Loop loop;
    auto server = std::make_unique<ApiServer>(loop);
    create_namespaces(*server);
    auto objects = bench_objects(kObjects);
    api::ListOptions from_now;
    from_now.resource_version = std::to_string(server->revision());
    auto stream = server->watch(kConfigMaps, "", from_now).value();
    state.ResumeTiming();
    std::vector<api::ObjectPtr> last(kObjects);
    for (int i = 0; i < kObjects; ++i) {
      last[i] = server->create(kConfigMaps, objects[i]->namespace_(), objects[i], api::CreateOptions()).value();
    }
    for (int round = 1; round <= kRounds; ++round) {
      for (int i = 0; i < kObjects; ++i) {
        last[i] = server->update(kConfigMaps, last[i]->namespace_(), with_gen(last[i], round),
                                 api::UpdateOptions()).value();
      }
    }
    state.PauseTiming();
    closed = server->watches().closed_for_backlog();
    if (closed != 1) std::abort();
    stream.reset();
    server.reset();
    // The prebuilt objects and both vectors' buffers are freed untimed: freeing a large buffer
    // makes malloc consolidate the chunks freed before it.
    std::vector<api::ObjectPtr>().swap(last);
    std::vector<api::ObjectPtr>().swap(objects);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kObjects * (kRounds + 1));
  state.counters["closed"] = static_cast<double>(closed);
}
BENCHMARK(BM_ServerWritesStalledWatcher)->Unit(benchmark::kMillisecond);

sim::Task<void> fan_out_writer(sim::Loop* loop, ApiServer* server, api::ObjectPtr obj, int updates) {
  for (int u = 1; u <= updates; ++u) {
    obj = server->update(kConfigMaps, obj->namespace_(), with_gen(obj, u), api::UpdateOptions()).value();
    co_await sim::yield(*loop);
  }
  server->restart();
}

// One update fanned out to 1,000 watchers, each consuming its events.
void BM_WatchFanOut(benchmark::State& state) {
  constexpr int kWatchers = 1000;
  constexpr int kUpdates = 200;
  std::vector<std::int64_t> counts(kWatchers);
  for (auto _ : state) {
    state.PauseTiming();
    sim::Loop loop;
    auto server = std::make_unique<ApiServer>(loop);
    create_namespaces(*server);
    api::ObjectPtr obj = server->create(kConfigMaps, "ns-000", bench_object(0), api::CreateOptions()).value();
    api::ListOptions from_now;
    from_now.resource_version = std::to_string(server->revision());
    std::fill(counts.begin(), counts.end(), 0);
    for (int w = 0; w < kWatchers; ++w) {
      loop.spawn(count_events(std::move(server->watch(kConfigMaps, "", from_now).value()), &counts[w]));
    }
    loop.run_until(loop.now());  // no virtual time passes
    state.ResumeTiming();
    loop.spawn(fan_out_writer(&loop, server.get(), obj, kUpdates));
    loop.run_until(loop.now());  // no virtual time passes
    state.PauseTiming();
    for (auto c : counts) {
      if (c != kUpdates) { std::fprintf(stderr, "watcher saw %lld events\n", static_cast<long long>(c)); std::abort(); }
    }
    server.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kWatchers * kUpdates);
}
BENCHMARK(BM_WatchFanOut)->Unit(benchmark::kMillisecond);

// Heap bytes the server holds per stored object: after 10 k creates (arg 0); after one update of
// each, compacted, so each key has one version again (arg 1); and after one update of each within
// the compaction window, so each key holds two versions and the watch log two entries (arg 2).
// The objects are built, and dropped by the caller, inside the measurement, so only what the
// server keeps is counted.
void BM_MemoryPerObject(benchmark::State& state) {
  const auto mode = state.range(0);
  double per_object = 0;
  double object_bytes = 0;
  for (auto _ : state) {
    sim::Loop loop;
    auto server = std::make_unique<ApiServer>(loop);
    create_namespaces(*server);
    const auto before = mallinfo2().uordblks;
    {
      auto objects = bench_objects(kObjects);
      std::vector<api::ObjectPtr> last(kObjects);
      for (int i = 0; i < kObjects; ++i) {
        last[i] = server->create(kConfigMaps, objects[i]->namespace_(), objects[i], api::CreateOptions()).value();
      }
      if (mode != 0) {
        for (int i = 0; i < kObjects; ++i) {
          last[i] = server->update(kConfigMaps, last[i]->namespace_(), with_gen(last[i], 2), api::UpdateOptions()).value();
        }
      }
      if (mode == 1) server->compact_now();
      object_bytes = static_cast<double>(last[0]->serialized_size());
    }
    const auto after = mallinfo2().uordblks;
    per_object = static_cast<double>(after - before) / kObjects;
  }
  state.counters["bytes_per_object"] = per_object;
  state.counters["json_bytes"] = object_bytes;
}
BENCHMARK(BM_MemoryPerObject)->Arg(0)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kubesim::fakeapi
