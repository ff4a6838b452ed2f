// RestClient: the watch decoders' throughput, and GETs and watch events against the fakeapi HTTP
// front end on loopback, all in one process (server, client and one real-mode loop).
#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include "kubesim/api/resources.h"
#include "api/rest/internal/chunked_decoder.h"
#include "api/rest/internal/watch_decoder.h"
#include "kubesim/api/rest/rest_client.h"
#include "kubesim/fakeapi/http/http_server.h"
#include "kubesim/fakeapi/server.h"

namespace kubesim::api::rest {
namespace {


// A ConfigMap as a server sends it (with a resourceVersion), or, with `stored` false, as a
// client creates it (a create may not carry one: the server answers 500, as kube-apiserver does).
nlohmann::json config_map(const std::string& name, std::size_t bytes, bool stored = true) {
  nlohmann::json meta = {{"name", name}, {"namespace", "default"}};
  if (stored) meta["resourceVersion"] = "12345";
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", meta},
          {"data", {{"payload", std::string(bytes, 'x')}}}};
}

// One JSON event per line, ~1 KB each, through the event decoder.
void BM_WatchDecoder(benchmark::State& state) {
  std::string body;
  for (int i = 0; i < 1000; ++i) {
    body += nlohmann::json{{"type", "MODIFIED"}, {"object", config_map("cm" + std::to_string(i), 900)}}.dump();
    body += "\n";
  }
  for (auto _ : state) {
    internal::WatchDecoder d;
    std::vector<WatchEvent> out;
    for (std::size_t at = 0; at < body.size(); at += 16384) {
      d.feed(std::string_view(body).substr(at, 16384), out);
    }
    benchmark::DoNotOptimize(out.data());
    if (out.size() != 1000) state.SkipWithError("lost events");
  }
  state.SetItemsProcessed(state.iterations() * 1000);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(body.size()));
}
BENCHMARK(BM_WatchDecoder);

void BM_ChunkedDecoder(benchmark::State& state) {
  std::string raw;
  const std::string chunk(1000, 'y');
  for (int i = 0; i < 1000; ++i) raw += "3e8\r\n" + chunk + "\r\n";
  raw += "0\r\n\r\n";
  for (auto _ : state) {
    internal::ChunkedDecoder d;
    std::string out;
    for (std::size_t at = 0; at < raw.size(); at += 16384) d.feed(std::string_view(raw).substr(at, 16384), out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(raw.size()));
}
BENCHMARK(BM_ChunkedDecoder);

sim::LoopOptions real_mode() {
  sim::LoopOptions o;
  o.mode = sim::ClockMode::kReal;
  return o;
}

// The fake API server, its HTTP front end and a RestClient on one loop, driven by this thread.
struct Rig {
  Rig() {
    fakeapi::http::HttpServerOptions o;
    o.anonymous = true;
    http.emplace(loop, api, o);
    RestConfig c;
    c.server = http->url();
    c.qps = -1;
    client.emplace(loop, c);
  }
  ~Rig() {
    client.reset();
    http->stop(std::chrono::seconds(1));
  }
  template <class T>
  T run(sim::Task<T> task) {
    std::optional<T> out;
    loop.spawn(finish(std::move(task), &out, &loop));
    loop.run();
    return std::move(*out);
  }
  template <class T>
  static sim::Task<void> finish(sim::Task<T> task, std::optional<T>* out, sim::Loop* loop) {
    T v = co_await std::move(task);
    out->emplace(std::move(v));
    loop->stop();
  }

  sim::Loop loop{real_mode()};
  fakeapi::ApiServer api{loop};
  std::optional<fakeapi::http::HttpServer> http;
  std::optional<RestClient> client;
};

sim::Task<int> get_many(RestClient* client, int n) {
  int ok = 0;
  for (int i = 0; i < n; ++i) {
    auto r = co_await client->get(sim::Context(), kConfigMaps, "default", "cm", GetOptions());
    if (r.ok()) ++ok;
  }
  co_return ok;
}

// GET of a 1 KB ConfigMap over a kept-alive connection, one request at a time.
void BM_RestGet1KB(benchmark::State& state) {
  Rig rig;
  if (!rig.api.create(kConfigMaps, "default", make_object(config_map("cm", 900, /*stored=*/false)), CreateOptions()).ok()) {
    state.SkipWithError("create failed");
    return;
  }
  for (auto _ : state) {
    if (rig.run(get_many(&*rig.client, 100)) != 100) state.SkipWithError("get failed");
  }
  state.SetItemsProcessed(state.iterations() * 100);
  state.counters["connections"] = static_cast<double>(rig.client->stats().connections_opened);
}
BENCHMARK(BM_RestGet1KB)->Unit(benchmark::kMillisecond)->UseRealTime();

sim::Task<int> read_events(WatchStream* w, int n) {
  int got = 0;
  while (got < n) {
    auto e = co_await w->next(sim::Context());
    if (!e) break;
    ++got;
  }
  co_return got;
}

// Watch events of a 1 KB ConfigMap: the server writes 1,000 updates, the client decodes them.
void BM_RestWatchEvents(benchmark::State& state) {
  Rig rig;
  auto obj = rig.api.create(kConfigMaps, "default", make_object(config_map("cm", 900, /*stored=*/false)), CreateOptions());
  auto w = rig.run(rig.client->watch(sim::Context(), kConfigMaps, "default", ListOptions()));
  if (!obj.ok() || !w.ok()) {
    state.SkipWithError("setup failed");
    return;
  }
  ObjectPtr current = obj.value();
  rig.run(read_events(w.value().get(), 1));  // the ADDED of the initial state
  int version = 0;
  for (auto _ : state) {
    for (int i = 0; i < 1000; ++i) {
      auto next = current->edited([&](nlohmann::json& j) { j["data"]["v"] = std::to_string(++version); });
      auto r = rig.api.update(kConfigMaps, "default", next, UpdateOptions());
      if (!r.ok()) {
        state.SkipWithError("update failed");
        return;
      }
      current = r.value();
    }
    if (rig.run(read_events(w.value().get(), 1000)) != 1000) state.SkipWithError("lost events");
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_RestWatchEvents)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace kubesim::api::rest
