// The coalescing property: for any history of creates, updates, deletes and recreates of a few
// ConfigMaps, and any coalesceWatch window and hold time, a coalesced watch (through the front
// door) applied to the list at its start revision gives the same final state as a plain watch
// and as the server; its events are each consistent with the state they apply to, their
// resourceVersions strictly increase, no version comes twice, and no bookmark goes back.
#include "kubesim/fakeapi/watch_delivery.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/process.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;
using sim::Time;

// key -> (resourceVersion, data.v): what a client's cache holds.
using Cache = std::map<std::string, std::pair<Revision, std::string>>;

Revision revision_of_object(const api::Object& o) { return std::stoll(std::string(o.resource_version())); }
std::string value_of_object(const api::Object& o) { return o.json()["data"].value("v", ""); }

Cache cache_of(const api::ObjectList& list) {
  Cache out;
  for (const auto& item : list.items) out[item->key().str()] = {revision_of_object(*item), value_of_object(*item)};
  return out;
}

// Applies `events` to `cache`, checking each event against it and the order of versions.
void apply_to_cache(Cache& cache, const std::vector<api::WatchEvent>& events, Revision start) {
  Revision last = start;
  for (const auto& e : events) {
    RC_ASSERT(e.type != api::EventType::kError);
    const Revision rv = revision_of_object(*e.object);
    if (e.type == api::EventType::kBookmark) {
      RC_ASSERT(rv >= last);
      last = rv;
      continue;
    }
    RC_ASSERT(rv > last);  // strictly increasing: no version twice, none behind a bookmark
    last = rv;
    const std::string key = e.object->key().str();
    switch (e.type) {
      case api::EventType::kAdded:
        RC_ASSERT(cache.count(key) == 0u);
        cache[key] = {rv, value_of_object(*e.object)};
        break;
      case api::EventType::kModified:
        RC_ASSERT(cache.count(key) == 1u);
        cache[key] = {rv, value_of_object(*e.object)};
        break;
      default:
        RC_ASSERT(cache.count(key) == 1u);
        cache.erase(key);
        break;
    }
  }
}

std::size_t object_events(const std::vector<api::WatchEvent>& events) {
  return static_cast<std::size_t>(std::count_if(events.begin(), events.end(), [](const api::WatchEvent& e) {
    return e.type != api::EventType::kBookmark;
  }));
}

// A write of cm-0 … cm-2: creates it when absent, else updates or deletes it.
void write(ApiServer& server, int name, bool remove, int value) {
  const std::string n = "cm-" + std::to_string(name);
  auto current = server.get(kConfigMaps, "default", n, api::GetOptions());
  if (!current.ok()) {
    (void)server.create(kConfigMaps, "default",
                        config_map("default", n, {{"v", std::to_string(value)}}),
                        api::CreateOptions());
  } else if (remove) {
    (void)server.delete_(kConfigMaps, "default", n, api::DeleteOptions());
  } else {
    auto next = current.value()->edited([&](nlohmann::json& j) { j["data"]["v"] = std::to_string(value); });
    (void)server.update(kConfigMaps, "default", next, api::UpdateOptions());
  }
}

std::unique_ptr<EventLog> watch_from(sim::Loop& loop, InProcessClient& client, Revision rv) {
  api::ListOptions o;
  o.resource_version = std::to_string(rv);
  o.allow_watch_bookmarks = true;
  auto w = loop.run_until_complete(client.watch(sim::Context(), kConfigMaps, "default", o));
  RC_ASSERT(w.ok());
  return std::make_unique<EventLog>(loop, std::move(w.value()));
}

RC_GTEST_PROP(CoalesceProperty, ACoalescedWatchEndsInTheSameStateAsAPlainOne, ()) {
  sim::Loop loop;
  ServerOptions options;
  options.watch.bookmark_interval = 1s;
  ApiServer server(loop, options);
  const int before = *rc::gen::inRange(0, 6);
  for (int i = 0; i < before; ++i) {
    write(server, *rc::gen::inRange(0, 3), *rc::gen::arbitrary<bool>(), *rc::gen::inRange(0, 9));
  }
  const Revision start = server.revision();
  auto listed = server.list(kConfigMaps, "default", api::ListOptions());
  RC_ASSERT(listed.ok());

  sim::Process coalesced(loop, "ctl-0"), plain(loop, "ctl-1");
  coalesced.set_link(std::make_shared<sim::NetworkLink>(loop, 5ms));
  plain.set_link(std::make_shared<sim::NetworkLink>(loop, 5ms));
  InProcessClient coalesced_client(server, coalesced), plain_client(server, plain);
  auto held = watch_from(loop, coalesced_client, start);
  auto seen = watch_from(loop, plain_client, start);

  const sim::Duration hold = std::chrono::milliseconds(*rc::gen::inRange(1, 5000));
  FaultRule rule{.process = "ctl-0", .effect = CoalesceWatchFault{hold}};
  const Time from = Time{} + std::chrono::milliseconds(*rc::gen::inRange(0, 8000));
  rule.from = from;
  rule.until = from + std::chrono::milliseconds(*rc::gen::inRange(1, 10000));
  loop.add_timer(from, [&server, rule] { server.faults().add(rule); });

  Time at = loop.now();
  const int writes = *rc::gen::inRange(0, 40);
  for (int i = 0; i < writes; ++i) {
    at += std::chrono::milliseconds(*rc::gen::inRange(0, 1500));
    const int name = *rc::gen::inRange(0, 3);
    const bool remove = *rc::gen::inRange(0, 3) == 0;
    const int value = *rc::gen::inRange(0, 9);
    loop.add_timer(at, [&server, name, remove, value] { write(server, name, remove, value); });
  }
  loop.run_until(std::max(at, *rule.until) + hold + 1s);
  RC_ASSERT(!held->ended());
  RC_ASSERT(!seen->ended());

  Cache with_coalescing = cache_of(listed.value());
  Cache without = with_coalescing;
  apply_to_cache(with_coalescing, held->events(), start);
  apply_to_cache(without, seen->events(), start);
  auto now = server.list(kConfigMaps, "default", api::ListOptions());
  RC_ASSERT(now.ok());
  RC_ASSERT(with_coalescing == cache_of(now.value()));
  RC_ASSERT(without == cache_of(now.value()));
  RC_ASSERT(object_events(held->events()) <= object_events(seen->events()));
}

}  // namespace
}  // namespace kubesim::fakeapi
