#include "kubesim/informer/real_fifo.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "kubesim/informer/indexer.h"
#include "kubesim/sim/loop.h"
#include "test_util.h"

namespace kubesim::informer {
namespace {

using testing::config_map;

std::string describe_delta(const Delta& d) {
  std::string out(to_string(d.type()));
  if (const ReplacedAllInfo* info = d.replaced_all()) {
    out += ":" + info->resource_version + "[";
    for (const auto& o : info->objects) out += o->key().str() + "@" + std::string(o->resource_version()) + ";";
    return out + "]";
  }
  if (const BookmarkInfo* info = d.bookmark()) return out + ":" + info->resource_version;
  if (d.type() == DeltaType::kSyncAll) return out;
  out += ":" + d.key()->str();
  const api::ObjectPtr& obj = d.object();
  out += obj ? "@" + std::string(obj->resource_version()) : std::string("@nil");
  if (d.tombstone() != nullptr) out += "!";
  return out;
}

// Pops everything, applying it to `cache` when given (per-object form only).
std::vector<std::string> drain(RealFIFO& fifo, Indexer* cache = nullptr, std::vector<bool>* initial = nullptr) {
  std::vector<std::string> out;
  while (fifo.try_pop([&](std::span<const Delta> ds, bool is_initial) {
    EXPECT_EQ(ds.size(), 1u) << "RealFIFO pops one delta at a time";
    if (initial != nullptr) initial->push_back(is_initial);
    for (const Delta& d : ds) {
      out.push_back(describe_delta(d));
      if (cache == nullptr || !d.key()) continue;
      if (d.type() == DeltaType::kDeleted) {
        cache->delete_key(d.key()->view());
      } else {
        cache->update(d.object());
      }
    }
  })) {
  }
  return out;
}

RealFIFOOptions per_object(const Indexer* cache) {
  RealFIFOOptions options;
  options.known_objects = cache;
  return options;
}

RealFIFOOptions atomic() {
  RealFIFOOptions options;
  options.atomic_events = true;
  options.emit_delta_type_bookmark = true;
  return options;
}

TEST(RealFIFOTest, KeepsEveryChangeInArrivalOrderWithoutMerging) {
  sim::Loop loop;
  Indexer cache;
  RealFIFO fifo(loop, per_object(&cache));
  fifo.add(config_map("ns", "a", "1"));
  fifo.add(config_map("ns", "b", "2"));
  fifo.update(config_map("ns", "a", "3"));
  fifo.delete_(config_map("ns", "ghost", "4"));  // queued even though nobody knows it
  EXPECT_EQ(fifo.size(), 4u);
  EXPECT_EQ(drain(fifo), (std::vector<std::string>{"Added:ns/a@1", "Added:ns/b@2", "Updated:ns/a@3",
                                                   "Deleted:ns/ghost@4"}));
}

TEST(RealFIFOTest, ReplaceTombstonesQueuedAndKnownKeysMissingFromTheList) {
  sim::Loop loop;
  Indexer cache;
  cache.add(config_map("ns", "known-gone", "1"));
  cache.add(config_map("ns", "known-kept", "1"));
  RealFIFO fifo(loop, per_object(&cache));
  fifo.add(config_map("ns", "queued-gone", "2"));
  fifo.add(config_map("ns", "deleted", "3"));
  fifo.delete_(config_map("ns", "deleted", "4"));
  fifo.replace({config_map("ns", "known-kept", "5")}, "5");
  EXPECT_EQ(drain(fifo), (std::vector<std::string>{
                             "Added:ns/queued-gone@2", "Added:ns/deleted@3", "Deleted:ns/deleted@4",
                             "Deleted:ns/queued-gone@2!", "Deleted:ns/known-gone@1!",
                             "Replaced:ns/known-kept@5"}));
}

TEST(RealFIFOTest, ResyncQueuesKnownObjectsWithNothingQueued) {
  sim::Loop loop;
  Indexer cache;
  cache.add(config_map("ns", "a", "1"));
  cache.add(config_map("ns", "b", "1"));
  RealFIFO fifo(loop, per_object(&cache));
  fifo.update(config_map("ns", "a", "2"));
  fifo.resync();
  EXPECT_EQ(drain(fifo), (std::vector<std::string>{"Updated:ns/a@2", "Sync:ns/b@1"}));
}

TEST(RealFIFOTest, AtomicFormQueuesOneReplacedAllOneSyncAllAndBookmarks) {
  sim::Loop loop;
  RealFIFO fifo(loop, atomic());
  fifo.replace({config_map("ns", "a", "1"), config_map("ns", "b", "2")}, "7");
  fifo.bookmark("9");
  fifo.resync();
  EXPECT_EQ(drain(fifo), (std::vector<std::string>{"ReplacedAll:7[ns/a@1;ns/b@2;]", "Bookmark:9", "SyncAll"}));
}

TEST(RealFIFOTest, BookmarksAreDroppedUnlessAsked) {
  sim::Loop loop;
  RealFIFOOptions options;
  options.atomic_events = true;
  RealFIFO fifo(loop, options);
  fifo.bookmark("9");
  EXPECT_EQ(fifo.size(), 0u);
}

TEST(RealFIFOTest, ContradictoryOptionsAreRefused) {
  sim::Loop loop;
  Indexer cache;
  RealFIFOOptions both = per_object(&cache);
  both.atomic_events = true;
  EXPECT_THROW(RealFIFO(loop, both), std::invalid_argument);
  EXPECT_THROW(RealFIFO(loop, RealFIFOOptions()), std::invalid_argument);
  RealFIFOOptions bookmarks = per_object(&cache);
  bookmarks.emit_delta_type_bookmark = true;
  EXPECT_THROW(RealFIFO(loop, bookmarks), std::invalid_argument);
}

api::ObjectPtr without_labels(api::ObjectPtr obj) { return obj->with_labels({}); }

TEST(RealFIFOTest, TransformAppliesToEveryListedObjectOfAReplacedAll) {
  sim::Loop loop;
  RealFIFOOptions options = atomic();
  options.transform = without_labels;
  RealFIFO fifo(loop, options);
  fifo.replace({config_map("ns", "a", "1", {{"x", "y"}})}, "1");
  fifo.add(config_map("ns", "b", "2", {{"x", "y"}}));
  std::vector<std::size_t> label_counts;
  while (fifo.try_pop([&](std::span<const Delta> ds, bool) {
    for (const Delta& d : ds) {
      if (const auto* info = d.replaced_all()) {
        for (const auto& o : info->objects) label_counts.push_back(o->labels().size());
      } else {
        label_counts.push_back(d.object()->labels().size());
      }
    }
  })) {
  }
  EXPECT_EQ(label_counts, (std::vector<std::size_t>{0, 0}));
}

TEST(RealFIFOTest, HasSyncedOnlyAfterTheInitialEntriesWereProcessed) {
  sim::Loop loop;
  Indexer cache;
  RealFIFO fifo(loop, per_object(&cache));
  fifo.replace({config_map("ns", "a"), config_map("ns", "b")}, "1");
  fifo.add(config_map("ns", "c"));
  bool synced_while_processing_last = true;
  int popped = 0;
  std::vector<bool> initial;
  while (fifo.try_pop([&](std::span<const Delta>, bool is_initial) {
    initial.push_back(is_initial);
    if (++popped == 2) synced_while_processing_last = fifo.has_synced();
  })) {
  }
  EXPECT_FALSE(synced_while_processing_last);
  EXPECT_EQ(initial, (std::vector<bool>{true, true, false}));
  EXPECT_TRUE(fifo.has_synced());
}

// --- Model test: per-object form against a plain log ----------------------------------------

RC_GTEST_PROP(RealFIFOModelTest, PerObjectFormBehavesLikeAnOrderedLog, ()) {
  sim::Loop loop;
  Indexer cache;
  RealFIFO fifo(loop, per_object(&cache));
  std::vector<std::string> model;  // the log
  // Last queued description of each key, and the order keys first appear in the log.
  auto last_of = [&](const std::string& key) -> std::string {
    std::string last;
    for (const auto& d : model) {
      if (d.find(":" + key + "@") != std::string::npos) last = d;
    }
    return last;
  };
  const int steps = *rc::gen::inRange(1, 60);
  for (int rv = 1; rv <= steps; ++rv) {
    const int op = *rc::gen::inRange(0, 10);
    const std::string name = "o" + std::to_string(*rc::gen::inRange(0, 5));
    const std::string key = "ns/" + name;
    const std::string srv = std::to_string(rv);
    if (op < 3) {
      fifo.add(config_map("ns", name, srv));
      model.push_back("Added:" + key + "@" + srv);
    } else if (op < 5) {
      fifo.delete_(config_map("ns", name, srv));
      model.push_back("Deleted:" + key + "@" + srv);
    } else if (op < 6) {
      std::vector<api::ObjectPtr> list;
      std::vector<std::string> listed;
      for (int i = 0; i < 5; ++i) {
        if (*rc::gen::inRange(0, 2) == 0) continue;
        list.push_back(config_map("ns", "o" + std::to_string(i), srv));
        listed.push_back("ns/o" + std::to_string(i));
      }
      auto is_listed = [&](const std::string& k) { return std::find(listed.begin(), listed.end(), k) != listed.end(); };
      std::vector<std::string> queued_keys;
      for (const auto& d : model) {
        const std::string k = d.substr(d.find(':') + 1, d.find('@') - d.find(':') - 1);
        if (std::find(queued_keys.begin(), queued_keys.end(), k) == queued_keys.end()) queued_keys.push_back(k);
      }
      std::vector<std::string> added;
      for (const auto& k : queued_keys) {
        const std::string last = last_of(k);
        if (is_listed(k) || last.rfind("Deleted:", 0) == 0) continue;
        std::string rv_part = last.substr(last.find('@'));
        added.push_back("Deleted:" + k + rv_part + "!");
      }
      for (const auto& k : cache.list_keys()) {
        if (is_listed(k.str()) || std::find(queued_keys.begin(), queued_keys.end(), k.str()) != queued_keys.end()) continue;
        added.push_back("Deleted:" + k.str() + "@" + std::string(cache.get_by_key(k.view())->resource_version()) + "!");
      }
      for (const auto& k : listed) added.push_back("Replaced:" + k + "@" + srv);
      model.insert(model.end(), added.begin(), added.end());
      fifo.replace(list, srv);
    } else {
      std::vector<std::string> got;
      const bool popped = fifo.try_pop([&](std::span<const Delta> ds, bool) {
        for (const Delta& d : ds) {
          got.push_back(describe_delta(d));
          if (d.type() == DeltaType::kDeleted) {
            cache.delete_key(d.key()->view());
          } else {
            cache.update(d.object());
          }
        }
      });
      RC_ASSERT(popped == !model.empty());
      if (popped) {
        RC_ASSERT(got.front() == model.front());
        model.erase(model.begin());
      }
    }
    RC_ASSERT(fifo.size() == model.size());
  }
  RC_ASSERT(drain(fifo, &cache) == model);
}

}  // namespace
}  // namespace kubesim::informer
