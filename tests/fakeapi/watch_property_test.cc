// The watch property: for any history of writes and any start revision still retained, the events
// a watcher started there sees, applied to the list at that revision, give exactly the current
// state (keys and resourceVersions); with a label selector or a namespace, exactly the current
// selected state. Events arrive in increasing revision order and each is consistent with the
// state it applies to (ADDED for an absent key, MODIFIED and DELETED for a present one).
#include "kubesim/fakeapi/server.h"

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace testutil;

const std::vector<std::string> kNamespaceNames = {"default", "other"};
const std::vector<std::string> kColors = {"", "red", "blue", "green"};
const std::vector<std::string> kWatchScopes = {"", "default"};
const std::vector<std::string> kSelectors = {"", "color=red", "color in (red,blue)", "color!=red"};

using KeyVersions = std::map<std::string, std::string>;

// One random write to ConfigMaps cm-0 … cm-5 in two namespaces: create, change data, change the
// color label, delete (which only marks objects that carry a finalizer) or release a finalizer.
void random_write(ApiServer& server) {
  const std::string ns = *rc::gen::elementOf(kNamespaceNames);
  const std::string name = "cm-" + std::to_string(*rc::gen::inRange(0, 6));
  auto current = server.get(kConfigMaps, ns, name, api::GetOptions());
  if (!current.ok()) {
    const std::string color = *rc::gen::elementOf(kColors);
    auto obj = config_map(ns, name, {{"k", std::to_string(*rc::gen::inRange(0, 100))}},
                          color.empty() ? StringMap() : StringMap{{"color", color}});
    if (*rc::gen::inRange(0, 4) == 0) obj = obj->with_finalizers({"example.com/hold"});
    RC_ASSERT(server.create(kConfigMaps, ns, obj, api::CreateOptions()).ok());
    return;
  }
  const api::ObjectPtr& obj = current.value();
  switch (*rc::gen::inRange(0, 4)) {
    case 0: {
      const std::string value = std::to_string(*rc::gen::inRange(0, 100));
      auto next = obj->edited([&](nlohmann::json& j) { j["data"]["k"] = value; });
      RC_ASSERT(server.update(kConfigMaps, ns, next, api::UpdateOptions()).ok());
      break;
    }
    case 1: {
      const std::string color = *rc::gen::elementOf(kColors);
      auto next = obj->with_labels(color.empty() ? std::map<std::string, std::string, std::less<>>()
                                                 : std::map<std::string, std::string, std::less<>>{{"color", color}});
      RC_ASSERT(server.update(kConfigMaps, ns, next, api::UpdateOptions()).ok());
      break;
    }
    case 2:
      RC_ASSERT(server.delete_(kConfigMaps, ns, name, api::DeleteOptions()).ok());
      break;
    default:
      RC_ASSERT(server.update(kConfigMaps, ns, obj->with_finalizers({}), api::UpdateOptions()).ok());
      break;
  }
}

KeyVersions key_versions(const api::ObjectList& list) {
  KeyVersions out;
  for (const auto& item : list.items) out[item->key().str()] = std::string(item->resource_version());
  return out;
}

// Applies the events to `state`, checking each against it and their order.
void apply(KeyVersions& state, const std::vector<api::WatchEvent>& events, Revision after) {
  Revision last = after;
  for (const auto& e : events) {
    RC_ASSERT(e.type != api::EventType::kError);
    if (e.type == api::EventType::kBookmark) continue;
    const std::string key = e.object->key().str();
    const Revision rv = std::stoll(std::string(e.object->resource_version()));
    RC_ASSERT(rv > last);
    last = rv;
    switch (e.type) {
      case api::EventType::kAdded:
        RC_ASSERT(state.count(key) == 0u);
        state[key] = std::string(e.object->resource_version());
        break;
      case api::EventType::kModified:
        RC_ASSERT(state.count(key) == 1u);
        state[key] = std::string(e.object->resource_version());
        break;
      default:
        RC_ASSERT(state.count(key) == 1u);
        state.erase(key);
        break;
    }
  }
}

RC_GTEST_PROP(WatchProperty, EventsFromARetainedRevisionRebuildTheCurrentState, ()) {
  sim::Loop loop;
  ApiServer server(loop);
  RC_ASSERT(server.create(kNamespaces, "", namespace_object("other"), api::CreateOptions()).ok());
  const int before = *rc::gen::inRange(0, 40);
  const int compact_after = *rc::gen::inRange(-1, before);  // -1: never
  for (int i = 0; i < before; ++i) {
    random_write(server);
    if (i == compact_after) server.compact_now();
  }
  const Revision start = *rc::gen::inRange<Revision>(std::max<Revision>(1, server.store().compacted()),
                                                     server.revision() + 1);
  const std::string ns = *rc::gen::elementOf(kWatchScopes);
  const std::string selector = *rc::gen::elementOf(kSelectors);
  RC_LOG() << "start=" << start << " compacted=" << server.store().compacted() << " ns=" << ns
           << " selector=" << selector << "\n";

  api::ListOptions at_start;
  at_start.resource_version = std::to_string(start);
  at_start.resource_version_match = api::ResourceVersionMatch::kExact;
  at_start.label_selector = selector;
  auto base = server.list(kConfigMaps, ns, at_start);
  RC_ASSERT(base.ok());
  KeyVersions state = key_versions(base.value());

  api::ListOptions from;
  from.resource_version = std::to_string(start);
  from.label_selector = selector;
  auto watch = server.watch(kConfigMaps, ns, from);
  RC_ASSERT(watch.ok());
  EventLog log(loop, std::move(watch.value()));

  const int after = *rc::gen::inRange(0, 40);
  for (int i = 0; i < after; ++i) {
    random_write(server);
    if (*rc::gen::inRange(0, 3) == 0) settle(loop);
  }
  settle(loop);
  RC_ASSERT(!log.ended());
  apply(state, log.events(), start);

  api::ListOptions now;
  now.label_selector = selector;
  auto current = server.list(kConfigMaps, ns, now);
  RC_ASSERT(current.ok());
  RC_ASSERT(state == key_versions(current.value()));
}

// A watch without a resourceVersion (or a streaming list) starts with the state as ADDED events;
// those and the live events after them, applied to nothing, give the current state.
RC_GTEST_PROP(WatchProperty, InitialEventsAndLiveEventsRebuildTheCurrentState, ()) {
  sim::Loop loop;
  ApiServer server(loop);
  RC_ASSERT(server.create(kNamespaces, "", namespace_object("other"), api::CreateOptions()).ok());
  const int before = *rc::gen::inRange(0, 30);
  for (int i = 0; i < before; ++i) random_write(server);
  const bool streaming = *rc::gen::arbitrary<bool>();
  const std::string selector = *rc::gen::elementOf(kSelectors);
  api::ListOptions options;
  options.label_selector = selector;
  if (streaming) {
    options.send_initial_events = true;
    options.resource_version_match = api::ResourceVersionMatch::kNotOlderThan;
    options.allow_watch_bookmarks = true;
  }
  const Revision started = server.revision();
  auto watch = server.watch(kConfigMaps, "", options);
  RC_ASSERT(watch.ok());
  EventLog log(loop, std::move(watch.value()));
  settle(loop);
  const std::size_t initial = log.size();
  const int after = *rc::gen::inRange(0, 30);
  for (int i = 0; i < after; ++i) random_write(server);
  settle(loop);

  KeyVersions state;
  const auto& events = log.events();
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    if (i < initial) {
      // The state first: ADDED only, then (streaming) the bookmark that ends it.
      if (streaming && i + 1 == initial) {
        RC_ASSERT(e.type == api::EventType::kBookmark);
        RC_ASSERT(e.object->annotation("k8s.io/initial-events-end") == "true");
        RC_ASSERT(e.object->resource_version() == std::to_string(started));
        continue;
      }
      RC_ASSERT(e.type == api::EventType::kAdded);
      RC_ASSERT(std::stoll(std::string(e.object->resource_version())) <= started);
      state[e.object->key().str()] = std::string(e.object->resource_version());
    }
  }
  const std::vector<api::WatchEvent> live(events.begin() + static_cast<std::ptrdiff_t>(initial), events.end());
  apply(state, live, started);

  api::ListOptions now;
  now.label_selector = selector;
  auto current = server.list(kConfigMaps, "", now);
  RC_ASSERT(current.ok());
  RC_ASSERT(state == key_versions(current.value()));
}

// Many watchers started at different revisions all converge on the same state.
RC_GTEST_PROP(WatchProperty, WatchersStartedAnywhereConverge, ()) {
  sim::Loop loop;
  ApiServer server(loop);
  RC_ASSERT(server.create(kNamespaces, "", namespace_object("other"), api::CreateOptions()).ok());
  struct Started {
    Revision at;
    KeyVersions base;
    std::unique_ptr<EventLog> log;
  };
  std::vector<Started> watchers;
  const int writes = *rc::gen::inRange(1, 40);
  for (int i = 0; i < writes; ++i) {
    random_write(server);
    if (*rc::gen::inRange(0, 4) == 0) {
      Started s;
      s.at = server.revision();
      auto list = server.list(kConfigMaps, "", api::ListOptions());
      RC_ASSERT(list.ok());
      s.base = key_versions(list.value());
      api::ListOptions from;
      from.resource_version = std::to_string(s.at);
      auto w = server.watch(kConfigMaps, "", from);
      RC_ASSERT(w.ok());
      s.log = std::make_unique<EventLog>(loop, std::move(w.value()));
      watchers.push_back(std::move(s));
    }
  }
  settle(loop);
  auto current = server.list(kConfigMaps, "", api::ListOptions());
  RC_ASSERT(current.ok());
  const KeyVersions want = key_versions(current.value());
  for (auto& s : watchers) {
    apply(s.base, s.log->events(), s.at);
    RC_ASSERT(s.base == want);
  }
}

}  // namespace
}  // namespace kubesim::fakeapi
