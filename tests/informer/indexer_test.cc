#include "kubesim/informer/indexer.h"

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "test_util.h"

namespace kubesim::informer {
namespace {

using testing::config_map;
using testing::keys_of;

const IndexName kLabelIndex("labels");

// Multi-valued: one value "k=v" per label; an object without labels is in no set.
std::vector<std::string> label_index_func(const api::Object& object) {
  std::vector<std::string> out;
  for (const auto& [k, v] : object.labels()) out.push_back(std::string(k) + "=" + std::string(v));
  return out;
}

Indexers test_indexers() {
  Indexers indexers;
  indexers.emplace(kNamespaceIndex, meta_namespace_index_func);
  indexers.emplace(kLabelIndex, label_index_func);
  return indexers;
}

TEST(IndexerTest, StoresByKeyAndListsInKeyOrder) {
  Indexer indexer;
  indexer.add(config_map("b", "x", "3"));
  indexer.add(config_map("a", "y", "4"));
  indexer.add(config_map("", "cluster", "5"));
  EXPECT_EQ(indexer.size(), 3u);
  EXPECT_EQ(keys_of(indexer.list()), (std::vector<std::string>{"a/y", "b/x", "cluster"}));
  EXPECT_EQ(keys_of(indexer.list_keys()), (std::vector<std::string>{"a/y", "b/x", "cluster"}));
  ASSERT_NE(indexer.get_by_key("b/x"), nullptr);
  EXPECT_EQ(indexer.get_by_key("b/x")->resource_version(), "3");
  EXPECT_EQ(indexer.get_by_key("b/nope"), nullptr);
  EXPECT_EQ(indexer.last_store_sync_resource_version(), "5");
}

TEST(IndexerTest, HandsOutTheStoredPointerItself) {
  Indexer indexer;
  auto obj = config_map("ns", "a");
  indexer.add(obj);
  EXPECT_EQ(indexer.get(*obj).get(), obj.get());
  EXPECT_EQ(indexer.list().front().get(), obj.get());
}

TEST(IndexerTest, UpdateReplacesAndDeleteRemoves) {
  Indexer indexer;
  indexer.add(config_map("ns", "a", "1"));
  indexer.update(config_map("ns", "a", "2"));
  EXPECT_EQ(indexer.get_by_key("ns/a")->resource_version(), "2");
  indexer.delete_(config_map("ns", "a", "3"));
  EXPECT_EQ(indexer.size(), 0u);
  EXPECT_EQ(indexer.last_store_sync_resource_version(), "3");
  indexer.delete_key("ns/missing");  // not an error
}

TEST(IndexerTest, ByIndexFollowsAnUpdateThatChangesTheIndexedValue) {
  Indexer indexer(test_indexers());
  indexer.add(config_map("ns", "a", "1", {{"app", "web"}}));
  indexer.add(config_map("ns", "b", "1", {{"app", "web"}}));
  indexer.update(config_map("ns", "a", "2", {{"app", "db"}}));
  EXPECT_EQ(keys_of(*indexer.by_index(kLabelIndex, "app=web")), (std::vector<std::string>{"ns/b"}));
  EXPECT_EQ(keys_of(*indexer.by_index(kLabelIndex, "app=db")), (std::vector<std::string>{"ns/a"}));
  EXPECT_EQ(indexer.list_index_func_values(kLabelIndex), (std::vector<std::string>{"app=db", "app=web"}));
  indexer.delete_key("ns/b");
  EXPECT_EQ(indexer.list_index_func_values(kLabelIndex), (std::vector<std::string>{"app=db"}))
      << "an emptied value must disappear";
}

TEST(IndexerTest, NamespaceIndex) {
  Indexer indexer(test_indexers());
  indexer.add(config_map("n1", "a"));
  indexer.add(config_map("n2", "b"));
  indexer.add(config_map("n1", "c"));
  EXPECT_EQ(keys_of(*indexer.by_index(kNamespaceIndex, "n1")), (std::vector<std::string>{"n1/a", "n1/c"}));
  EXPECT_EQ(keys_of(*indexer.index_keys(kNamespaceIndex, "n2")), (std::vector<std::string>{"n2/b"}));
  EXPECT_TRUE(indexer.by_index(kNamespaceIndex, "n3")->empty());
  EXPECT_EQ(keys_of(*indexer.index(kNamespaceIndex, *config_map("n1", "zzz"))),
            (std::vector<std::string>{"n1/a", "n1/c"}));
}

TEST(IndexerTest, IndexUnionsTheValuesOfAMultiValuedObject) {
  Indexer indexer(test_indexers());
  indexer.add(config_map("ns", "a", "1", {{"x", "1"}}));
  indexer.add(config_map("ns", "b", "1", {{"y", "1"}}));
  indexer.add(config_map("ns", "c", "1", {{"x", "1"}, {"y", "1"}}));
  auto probe = config_map("ns", "p", "1", {{"x", "1"}, {"y", "1"}});
  EXPECT_EQ(keys_of(*indexer.index(kLabelIndex, *probe)), (std::vector<std::string>{"ns/a", "ns/b", "ns/c"}));
}

TEST(IndexerTest, UnknownIndexIsABadRequest) {
  Indexer indexer;
  auto result = indexer.by_index(IndexName("nope"), "v");
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(api::is_bad_request(result.status()));
  EXPECT_FALSE(indexer.index_keys(IndexName("nope"), "v").ok());
  EXPECT_TRUE(indexer.list_index_func_values(IndexName("nope")).empty());
}

TEST(IndexerTest, AddIndexersIndexesWhatIsStoredAndRefusesConflicts) {
  Indexer indexer;
  indexer.add(config_map("n1", "a"));
  ASSERT_TRUE(indexer.add_indexers(test_indexers()).ok());
  EXPECT_EQ(keys_of(*indexer.by_index(kNamespaceIndex, "n1")), (std::vector<std::string>{"n1/a"}));
  Indexers again;
  again.emplace(kNamespaceIndex, meta_namespace_index_func);
  again.emplace(IndexName("fresh"), meta_namespace_index_func);
  auto result = indexer.add_indexers(again);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(indexer.get_indexers().size(), 2u) << "a conflict adds nothing";
}

TEST(IndexerTest, ReplaceRebuildsIndicesAndKeepsTheResourceVersion) {
  Indexer indexer(test_indexers());
  indexer.add(config_map("n1", "a"));
  indexer.replace({config_map("n2", "b"), config_map("n2", "c")}, "42");
  EXPECT_EQ(keys_of(indexer.list()), (std::vector<std::string>{"n2/b", "n2/c"}));
  EXPECT_TRUE(indexer.by_index(kNamespaceIndex, "n1")->empty());
  EXPECT_EQ(indexer.list_index_func_values(kNamespaceIndex), (std::vector<std::string>{"n2"}));
  EXPECT_EQ(indexer.last_store_sync_resource_version(), "42");
}

// --- Model test: indices always equal a brute-force recomputation --------------------------

// Half the names are longer than an entry keeps inline.
std::string indexed_name(int i) {
  return i % 2 == 0 ? "o" + std::to_string(i) : std::string(50, 'o') + std::to_string(i);
}

api::ObjectPtr random_object(int rv) {
  const int key = *rc::gen::inRange(0, 8);
  const int ns = *rc::gen::inRange(0, 3);
  std::map<std::string, std::string> labels;
  for (const char* k : {"a", "b", "c"}) {
    if (*rc::gen::inRange(0, 3) == 0) labels[k] = *rc::gen::element<std::string>("x", "y");
  }
  return config_map("ns" + std::to_string(ns), indexed_name(key), std::to_string(rv), labels);
}

// The first difference between the indexer and a brute-force recomputation over `model`, or "".
std::string brute_force_difference(const Indexer& indexer, const std::map<std::string, api::ObjectPtr>& model) {
  std::vector<std::string> model_keys;
  for (const auto& [k, o] : model) model_keys.push_back(k);
  if (keys_of(indexer.list_keys()) != model_keys) return "list_keys";
  for (const auto& [name, func] : indexer.get_indexers()) {
    std::map<std::string, std::set<std::string>> expected;
    for (const auto& [k, o] : model) {
      for (const auto& v : func(*o)) expected[v].insert(k);
    }
    std::vector<std::string> values;
    for (const auto& [v, keys] : expected) values.push_back(v);
    if (indexer.list_index_func_values(name) != values) return "values of " + name.str();
    for (const auto& [v, keys] : expected) {
      const std::vector<std::string> want(keys.begin(), keys.end());
      if (keys_of(*indexer.by_index(name, v)) != want) return "by_index " + name.str() + " " + v;
      if (keys_of(*indexer.index_keys(name, v)) != want) return "index_keys " + name.str() + " " + v;
    }
  }
  for (const auto& [k, o] : model) {
    if (indexer.get_by_key(k).get() != o.get()) return "get_by_key " + k;
  }
  return "";
}

RC_GTEST_PROP(IndexerModelTest, IndicesEqualBruteForceAfterRandomWrites, ()) {
  Indexer indexer(test_indexers());
  std::map<std::string, api::ObjectPtr> model;
  const int steps = *rc::gen::inRange(1, 60);
  for (int rv = 1; rv <= steps; ++rv) {
    const int op = *rc::gen::inRange(0, 10);
    if (op < 5) {
      auto obj = random_object(rv);
      model[obj->key().str()] = obj;
      if (op < 2) {
        indexer.add(obj);
      } else {
        indexer.update(obj);
      }
    } else if (op < 8) {
      auto obj = random_object(rv);
      model.erase(obj->key().str());
      indexer.delete_(obj);
    } else {
      std::vector<api::ObjectPtr> list;
      model.clear();
      const int n = *rc::gen::inRange(0, 6);
      for (int i = 0; i < n; ++i) {
        auto obj = random_object(rv);
        model[obj->key().str()] = obj;
        list.push_back(obj);
      }
      indexer.replace(list, std::to_string(rv));
    }
    RC_ASSERT(brute_force_difference(indexer, model) == "");
  }
}

// Thousands of objects, so every index set spans many chunks, written in random order.
TEST(IndexerModelTest, IndicesEqualBruteForceAtScale) {
  constexpr std::uint32_t kSeed = 20240611;
  SCOPED_TRACE("seed " + std::to_string(kSeed));
  std::mt19937 rng(kSeed);
  Indexer indexer(test_indexers());
  std::map<std::string, api::ObjectPtr> model;
  for (int rv = 1; rv <= 12'000; ++rv) {
    const std::string ns = "ns" + std::to_string(rng() % 2);
    const std::string name = indexed_name(static_cast<int>(rng() % 3000));
    const std::map<std::string, std::string> labels{{"shard", std::to_string(rng() % 3)}};
    auto obj = config_map(ns, name, std::to_string(rv), labels);
    if (rng() % 4 != 0) {
      model[obj->key().str()] = obj;
      indexer.update(obj);
    } else {
      model.erase(obj->key().str());
      indexer.delete_(obj);
    }
    if (rv % 3000 == 0) {
      ASSERT_EQ(brute_force_difference(indexer, model), "") << "after " << rv << " writes";
    }
  }
  std::vector<api::ObjectPtr> list;
  for (int i = 2999; i >= 0; i -= 3) list.push_back(config_map("ns0", indexed_name(i), "x", {{"shard", "1"}}));
  indexer.replace(list, "x");
  model.clear();
  for (const auto& obj : list) model[obj->key().str()] = obj;
  EXPECT_EQ(brute_force_difference(indexer, model), "");
}

}  // namespace
}  // namespace kubesim::informer
