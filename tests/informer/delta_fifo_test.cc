#include "kubesim/informer/delta_fifo.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "kubesim/informer/indexer.h"
#include "kubesim/sim/loop.h"
#include "test_util.h"

namespace kubesim::informer {
namespace {

using testing::config_map;

// Odd names are longer than a FIFO entry keeps inline.
std::string object_name(int i) {
  return i % 2 == 0 ? "o" + std::to_string(i) : std::string(50, 'o') + std::to_string(i);
}

// "Added:ns/a@3"; a tombstone is "Deleted:ns/a@3!" ("@nil" without a last state).
std::string describe(const Delta& d) {
  std::string out(to_string(d.type()));
  out += ":";
  if (const auto key = d.key()) out += key->str();
  const api::ObjectPtr& obj = d.object();
  out += obj ? "@" + std::string(obj->resource_version()) : std::string("@nil");
  if (d.tombstone() != nullptr) out += "!";
  return out;
}

struct Popped {
  std::vector<std::string> deltas;
  bool initial = false;
};

// Pops one item, or returns nullopt when the FIFO is empty.
std::optional<Popped> pop_one(DeltaFIFO& fifo, Indexer* cache = nullptr) {
  Popped out;
  const bool popped = fifo.try_pop([&](std::span<const Delta> deltas, bool initial) {
    out.initial = initial;
    for (const Delta& d : deltas) {
      out.deltas.push_back(describe(d));
      if (cache == nullptr) continue;
      if (d.type() == DeltaType::kDeleted) {
        cache->delete_key(d.key()->view());
      } else {
        cache->update(d.object());
      }
    }
  });
  if (!popped) return std::nullopt;
  return out;
}

TEST(DeltaFIFOTest, MergesChangesPerKeyInFirstChangeOrder) {
  sim::Loop loop;
  DeltaFIFO fifo(loop);
  fifo.add(config_map("ns", "a", "1"));
  fifo.add(config_map("ns", "b", "2"));
  fifo.update(config_map("ns", "a", "3"));
  EXPECT_EQ(fifo.size(), 2u);
  auto first = pop_one(fifo);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->deltas, (std::vector<std::string>{"Added:ns/a@1", "Updated:ns/a@3"}));
  EXPECT_EQ(pop_one(fifo)->deltas, (std::vector<std::string>{"Added:ns/b@2"}));
  EXPECT_FALSE(pop_one(fifo));
}

TEST(DeltaFIFOTest, DeleteOfAnUnknownKeyIsDropped) {
  sim::Loop loop;
  Indexer cache;
  DeltaFIFOOptions options;
  options.known_objects = &cache;
  DeltaFIFO fifo(loop, options);
  fifo.delete_(config_map("ns", "ghost", "5"));
  EXPECT_EQ(fifo.size(), 0u);
  cache.add(config_map("ns", "known", "1"));
  fifo.delete_(config_map("ns", "known", "6"));
  EXPECT_EQ(pop_one(fifo)->deltas, (std::vector<std::string>{"Deleted:ns/known@6"}));
}

TEST(DeltaFIFOTest, ConsecutiveDeletesCollapseAndARealDeleteBeatsATombstone) {
  sim::Loop loop;
  DeltaFIFO fifo(loop);
  fifo.add(config_map("ns", "a", "1"));
  fifo.replace({}, "7");  // tombstone for the queued a
  fifo.delete_(config_map("ns", "a", "8"));
  EXPECT_EQ(pop_one(fifo)->deltas, (std::vector<std::string>{"Added:ns/a@1", "Deleted:ns/a@8"}));

  fifo.add(config_map("ns", "b", "1"));
  fifo.delete_(config_map("ns", "b", "2"));
  fifo.replace({}, "9");  // tombstone after a real delete: the real one stays
  EXPECT_EQ(pop_one(fifo)->deltas, (std::vector<std::string>{"Added:ns/b@1", "Deleted:ns/b@2"}));
}

TEST(DeltaFIFOTest, ReplaceTombstonesKnownObjectsMissingFromTheListWithTheirLastState) {
  sim::Loop loop;
  Indexer cache;
  cache.add(config_map("ns", "gone", "3"));
  cache.add(config_map("ns", "kept", "4"));
  DeltaFIFOOptions options;
  options.known_objects = &cache;
  options.emit_delta_type_replaced = true;
  DeltaFIFO fifo(loop, options);
  fifo.replace({config_map("ns", "kept", "5")}, "10");
  EXPECT_EQ(pop_one(fifo)->deltas, (std::vector<std::string>{"Replaced:ns/kept@5"}));
  EXPECT_EQ(pop_one(fifo)->deltas, (std::vector<std::string>{"Deleted:ns/gone@3!"}));
}

TEST(DeltaFIFOTest, ReplaceWithoutEmitReplacedQueuesSync) {
  sim::Loop loop;
  DeltaFIFO fifo(loop);
  fifo.replace({config_map("ns", "a", "5")}, "10");
  EXPECT_EQ(pop_one(fifo)->deltas, (std::vector<std::string>{"Sync:ns/a@5"}));
}

TEST(DeltaFIFOTest, HasSyncedAfterTheFirstReplaceIsPoppedInFull) {
  sim::Loop loop;
  DeltaFIFO fifo(loop);
  EXPECT_FALSE(fifo.has_synced());
  fifo.replace({config_map("ns", "a"), config_map("ns", "b")}, "1");
  EXPECT_FALSE(fifo.has_synced());
  fifo.add(config_map("ns", "c"));  // after the replace: not part of the initial list
  auto first = pop_one(fifo);
  EXPECT_TRUE(first->initial);
  EXPECT_FALSE(fifo.has_synced());
  auto second = pop_one(fifo);
  EXPECT_TRUE(second->initial);
  EXPECT_TRUE(fifo.has_synced());
  EXPECT_FALSE(pop_one(fifo)->initial);
}

TEST(DeltaFIFOTest, AnAddBeforeAnyReplaceMeansSynced) {
  sim::Loop loop;
  DeltaFIFO fifo(loop);
  fifo.add(config_map("ns", "a"));
  EXPECT_TRUE(fifo.has_synced());
  DeltaFIFO empty(loop);
  empty.replace({}, "1");
  EXPECT_TRUE(empty.has_synced()) << "an empty first list is synced at once";
}

TEST(DeltaFIFOTest, ResyncQueuesKnownObjectsWithNothingQueued) {
  sim::Loop loop;
  Indexer cache;
  cache.add(config_map("ns", "a", "1"));
  cache.add(config_map("ns", "b", "1"));
  DeltaFIFOOptions options;
  options.known_objects = &cache;
  DeltaFIFO fifo(loop, options);
  fifo.update(config_map("ns", "b", "2"));
  fifo.resync();
  EXPECT_EQ(pop_one(fifo)->deltas, (std::vector<std::string>{"Updated:ns/b@2"}));
  EXPECT_EQ(pop_one(fifo)->deltas, (std::vector<std::string>{"Sync:ns/a@1"}));
  EXPECT_FALSE(pop_one(fifo));
}

api::ObjectPtr strip_labels(api::ObjectPtr obj) { return obj->with_labels({}); }

TEST(DeltaFIFOTest, TransformAppliesToQueuedObjectsButNotToResyncs) {
  sim::Loop loop;
  Indexer cache;
  cache.add(config_map("ns", "cached", "1", {{"keep", "me"}}));
  DeltaFIFOOptions options;
  options.known_objects = &cache;
  options.transform = strip_labels;
  DeltaFIFO fifo(loop, options);
  fifo.add(config_map("ns", "a", "1", {{"drop", "me"}}));
  fifo.resync();
  std::vector<std::size_t> label_counts;
  while (fifo.try_pop([&](std::span<const Delta> ds, bool) {
    for (const Delta& d : ds) label_counts.push_back(d.object()->labels().size());
  })) {
  }
  EXPECT_EQ(label_counts, (std::vector<std::size_t>{0, 1}));
}

sim::Task<void> pop_all(DeltaFIFO* fifo, sim::Context ctx, std::vector<std::string>* out) {
  PopProcessFunc process = [out](std::span<const Delta> ds, bool) {
    for (const Delta& d : ds) out->push_back(describe(d));
  };
  for (;;) {
    const bool popped = co_await fifo->pop(ctx, process);
    if (!popped) co_return;
  }
}

TEST(DeltaFIFOTest, PopWaitsForItemsAndDrainsAfterClose) {
  sim::Loop loop;
  DeltaFIFO fifo(loop);
  std::vector<std::string> got;
  loop.spawn(pop_all(&fifo, {}, &got));
  loop.run_until_idle();
  EXPECT_TRUE(got.empty());
  fifo.add(config_map("ns", "a", "1"));
  loop.run_until_idle();
  EXPECT_EQ(got, (std::vector<std::string>{"Added:ns/a@1"}));
  fifo.add(config_map("ns", "b", "2"));
  fifo.close();
  loop.run_until_idle();
  EXPECT_EQ(got, (std::vector<std::string>{"Added:ns/a@1", "Added:ns/b@2"}));
  EXPECT_EQ(loop.live_tasks(), 0u);
}

TEST(DeltaFIFOTest, PopReturnsWhenItsContextIsCancelled) {
  sim::Loop loop;
  DeltaFIFO fifo(loop);
  auto cancel = sim::with_cancel({});
  std::vector<std::string> got;
  loop.spawn(pop_all(&fifo, cancel.ctx, &got));
  loop.run_until_idle();
  cancel.cancel();
  loop.run_until_idle();
  EXPECT_EQ(loop.live_tasks(), 0u);
}

TEST(DeltaFIFOTest, ProcessMayWriteToTheFIFOItPopsFrom) {
  sim::Loop loop;
  DeltaFIFO fifo(loop);
  fifo.add(config_map("ns", "a", "1"));
  fifo.update(config_map("ns", "a", "2"));
  std::vector<std::string> seen;
  ASSERT_TRUE(fifo.try_pop([&](std::span<const Delta> deltas, bool) {
    // Enough new keys to move the FIFO's storage while `deltas` is in use; "a" again is a new item.
    for (int i = 0; i < 3000; ++i) fifo.add(config_map("ns", "n" + std::to_string(i), "3"));
    fifo.update(config_map("ns", "a", "4"));
    for (const Delta& d : deltas) seen.push_back(describe(d));
  }));
  EXPECT_EQ(seen, (std::vector<std::string>{"Added:ns/a@1", "Updated:ns/a@2"}));
  EXPECT_EQ(fifo.size(), 3001u);
  EXPECT_EQ(fifo.list_keys().back().str(), "ns/a");
  ASSERT_NE(fifo.deltas_of("ns/a"), nullptr);
  EXPECT_EQ(fifo.deltas_of("ns/a")->size(), 1u);
}

TEST(DeltaFIFOTest, ADrainedFIFOTakesNewItems) {
  sim::Loop loop;
  DeltaFIFO fifo(loop);
  for (int round = 0; round < 2; ++round) {
    const std::string rv = std::to_string(round);
    for (int i = 0; i < 2000; ++i) fifo.add(config_map("ns", object_name(i), rv));
    for (int i = 0; i < 2000; i += 2) fifo.delete_(config_map("ns", object_name(i), rv));
    for (int i = 0; i < 2000; ++i) {
      auto popped = pop_one(fifo);
      ASSERT_TRUE(popped);
      const std::string key = "ns/" + object_name(i);
      std::vector<std::string> want{"Added:" + key + "@" + rv};
      if (i % 2 == 0) want.push_back("Deleted:" + key + "@" + rv);
      ASSERT_EQ(popped->deltas, want);
    }
    EXPECT_FALSE(pop_one(fifo));
    EXPECT_EQ(fifo.deltas_of("ns/" + object_name(1)), nullptr);
  }
}

// --- Model test against a naive reference ----------------------------------------------------

// The reference: a list of (key, deltas) in queue order, searched linearly.
class ModelFIFO {
 public:
  explicit ModelFIFO(const Indexer* known) : known_(known) {}

  void push(const std::string& key, std::string delta, bool is_delete, bool is_tombstone) {
    auto it = find(key);
    if (it == queue_.end()) {
      queue_.push_back({key, {}});
      it = std::prev(queue_.end());
    }
    auto& ds = it->second;
    ds.push_back({std::move(delta), is_delete, is_tombstone});
    if (ds.size() >= 2 && ds[ds.size() - 1].is_delete && ds[ds.size() - 2].is_delete) {
      if (ds[ds.size() - 2].is_tombstone) ds[ds.size() - 2] = ds.back();
      ds.pop_back();
    }
  }
  bool queued(const std::string& key) { return find(key) != queue_.end(); }
  std::string newest_rv(const std::string& key) { return find(key)->second.back().rv(); }
  std::vector<std::string> queued_keys() const {
    std::vector<std::string> out;
    for (const auto& [k, ds] : queue_) out.push_back(k);
    return out;
  }
  std::vector<std::string> pop() {
    std::vector<std::string> out;
    for (const auto& d : queue_.front().second) out.push_back(d.text);
    queue_.erase(queue_.begin());
    return out;
  }
  bool empty() const { return queue_.empty(); }

  struct D {
    std::string text;
    bool is_delete;
    bool is_tombstone;
    std::string rv() const {
      auto at = text.find('@');
      std::string rv = text.substr(at + 1);
      if (!rv.empty() && rv.back() == '!') rv.pop_back();
      return rv;
    }
  };

 private:
  std::vector<std::pair<std::string, std::vector<D>>>::iterator find(const std::string& key) {
    return std::find_if(queue_.begin(), queue_.end(), [&](const auto& e) { return e.first == key; });
  }
  const Indexer* known_;
  std::vector<std::pair<std::string, std::vector<D>>> queue_;
};

RC_GTEST_PROP(DeltaFIFOModelTest, BehavesLikeTheReferenceModel, ()) {
  sim::Loop loop;
  Indexer cache;  // what the consumer has applied, as an informer's cache
  DeltaFIFOOptions options;
  options.known_objects = &cache;
  options.emit_delta_type_replaced = *rc::gen::arbitrary<bool>();
  DeltaFIFO fifo(loop, options);
  ModelFIFO model(&cache);
  const std::string replaced = options.emit_delta_type_replaced ? "Replaced" : "Sync";
  const int steps = *rc::gen::inRange(1, 80);
  for (int rv = 1; rv <= steps; ++rv) {
    const int op = *rc::gen::inRange(0, 12);
    const std::string name = object_name(*rc::gen::inRange(0, 6));
    const std::string key = "ns/" + name;
    const std::string srv = std::to_string(rv);
    if (op < 3) {
      fifo.add(config_map("ns", name, srv));
      model.push(key, "Added:" + key + "@" + srv, false, false);
    } else if (op < 5) {
      fifo.update(config_map("ns", name, srv));
      model.push(key, "Updated:" + key + "@" + srv, false, false);
    } else if (op < 7) {
      const bool known = cache.contains(key) || model.queued(key);
      fifo.delete_(config_map("ns", name, srv));
      if (known) model.push(key, "Deleted:" + key + "@" + srv, true, false);
    } else if (op < 8) {
      std::vector<api::ObjectPtr> list;
      std::vector<std::string> listed;
      for (int i = 0; i < 6; ++i) {
        if (*rc::gen::inRange(0, 2) == 0) continue;
        list.push_back(config_map("ns", object_name(i), srv));
        listed.push_back("ns/" + object_name(i));
      }
      fifo.replace(list, srv);
      for (const auto& k : listed) model.push(k, replaced + ":" + k + "@" + srv, false, false);
      auto is_listed = [&](const std::string& k) { return std::find(listed.begin(), listed.end(), k) != listed.end(); };
      for (const auto& k : model.queued_keys()) {
        if (is_listed(k)) continue;
        model.push(k, "Deleted:" + k + "@" + model.newest_rv(k) + "!", true, true);
      }
      for (const auto& k : cache.list_keys()) {
        if (is_listed(k.str()) || model.queued(k.str())) continue;
        const auto obj = cache.get_by_key(k.view());
        model.push(k.str(), "Deleted:" + k.str() + "@" + std::string(obj->resource_version()) + "!", true, true);
      }
    } else if (op < 9) {
      for (const auto& k : cache.list_keys()) {
        if (model.queued(k.str())) continue;
        const auto obj = cache.get_by_key(k.view());
        model.push(k.str(), "Sync:" + k.str() + "@" + std::string(obj->resource_version()), false, false);
      }
      fifo.resync();
    } else {
      auto popped = pop_one(fifo, &cache);
      RC_ASSERT(popped.has_value() == !model.empty());
      if (popped) RC_ASSERT(popped->deltas == model.pop());
    }
    RC_ASSERT(testing::keys_of(fifo.list_keys()) == model.queued_keys());
  }
  while (!model.empty()) {
    auto popped = pop_one(fifo, &cache);
    RC_ASSERT(popped.has_value());
    RC_ASSERT(popped->deltas == model.pop());
  }
  RC_ASSERT(!pop_one(fifo));
}

}  // namespace
}  // namespace kubesim::informer
