#include "kubesim/fakeapi/store.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/api/object.h"
#include "kubesim/api/resources.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

const api::GroupResource kConfigMapsResource = api::kConfigMaps.group_resource();
const api::GroupResource kSecrets = api::kSecrets.group_resource();

// The ConfigMap stored under `key` at revision `rev`, with data {k: value}.
api::ObjectPtr object_at(const std::string& key, Revision rev, const std::string& value = "v") {
  return testutil::stored_config_map(key, rev, {{"k", value}});
}

std::string value_of(const api::ObjectPtr& obj) {
  return obj ? obj->json()["data"]["k"].get<std::string>() : std::string("<none>");
}

std::vector<std::string> scan_keys(const Store& store, TableId t, Revision at,
                                   std::string_view prefix = "", std::string_view start = "") {
  std::vector<std::string> keys;
  store.scan(t, at, prefix, start, [&](std::string_view key, const api::ObjectPtr&) {
    keys.emplace_back(key);
    return true;
  });
  return keys;
}

std::vector<Revision> log_revisions(const Store& store, Revision after) {
  std::vector<Revision> out;
  for (auto it = store.changes_after(after); it != store.changes_end(); ++it) out.push_back(it->revision);
  return out;
}

TEST(StoreTest, TablesAreCreatedOnceAndNeverReused) {
  Store store;
  const TableId a = store.table(kConfigMapsResource);
  const TableId b = store.table(kSecrets);
  EXPECT_NE(a, b);
  EXPECT_EQ(store.table(kConfigMapsResource), a);
  EXPECT_EQ(store.table_resource(b), kSecrets);
  EXPECT_EQ(store.size(a), 0u);
}

TEST(StoreTest, EveryWriteBumpsTheGlobalRevision) {
  Store store;
  const TableId cms = store.table(kConfigMapsResource);
  const TableId secrets = store.table(kSecrets);
  EXPECT_EQ(store.revision(), 0);
  EXPECT_EQ(store.next_revision(), 1);
  const Change& c1 = store.put(cms, "ns/a", object_at("ns/a", 1));
  EXPECT_EQ(c1.revision, 1);
  EXPECT_EQ(c1.type, ChangeType::kAdded);
  EXPECT_EQ(c1.previous, nullptr);
  const Change& c2 = store.put(secrets, "ns/a", object_at("ns/a", 2));
  EXPECT_EQ(c2.revision, 2);
  EXPECT_EQ(c2.table, secrets);
  const Change& c3 = store.put(cms, "ns/a", object_at("ns/a", 3, "w"));
  EXPECT_EQ(c3.type, ChangeType::kModified);
  EXPECT_EQ(value_of(c3.previous), "v");
  EXPECT_EQ(store.revision(), 3);
  EXPECT_EQ(store.size(cms), 1u);
  EXPECT_EQ(store.size(secrets), 1u);
}

TEST(StoreTest, RemoveRecordsTheLastStateWithTheDeletionRevision) {
  Store store;
  const TableId t = store.table(kConfigMapsResource);
  store.put(t, "ns/a", object_at("ns/a", 1));
  const Change& del = store.remove(t, "ns/a", object_at("ns/a", 2));
  EXPECT_EQ(del.type, ChangeType::kDeleted);
  EXPECT_EQ(del.object->resource_version(), "2");
  EXPECT_EQ(del.previous->resource_version(), "1");
  EXPECT_EQ(store.get(t, "ns/a"), nullptr);
  EXPECT_EQ(store.size(t), 0u);
  // Re-creating the key is an ADDED again.
  const Change& again = store.put(t, "ns/a", object_at("ns/a", 3));
  EXPECT_EQ(again.type, ChangeType::kAdded);
  EXPECT_EQ(again.previous, nullptr);
  EXPECT_EQ(store.size(t), 1u);
}

TEST(StoreTest, GetAtServesEveryRetainedRevision) {
  Store store;
  const TableId t = store.table(kConfigMapsResource);
  store.put(t, "ns/a", object_at("ns/a", 1, "one"));
  store.put(t, "ns/b", object_at("ns/b", 2));
  store.put(t, "ns/a", object_at("ns/a", 3, "three"));
  store.remove(t, "ns/a", object_at("ns/a", 4, "three"));
  store.put(t, "ns/a", object_at("ns/a", 5, "five"));
  EXPECT_EQ(store.get_at(t, "ns/a", 0), nullptr);
  EXPECT_EQ(value_of(store.get_at(t, "ns/a", 1)), "one");
  EXPECT_EQ(value_of(store.get_at(t, "ns/a", 2)), "one");
  EXPECT_EQ(value_of(store.get_at(t, "ns/a", 3)), "three");
  EXPECT_EQ(store.get_at(t, "ns/a", 4), nullptr);
  EXPECT_EQ(value_of(store.get_at(t, "ns/a", 5)), "five");
  EXPECT_EQ(value_of(store.get(t, "ns/a")), "five");
  EXPECT_EQ(store.get_at(t, "ns/missing", 5), nullptr);
  // Each change names the key's previous write, and reads walk back along them; after each
  // compaction point the writes before it are gone but the states they left stay readable.
  EXPECT_EQ(store.changes_after(4)->prev_revision, 4);
  EXPECT_EQ(store.changes_after(3)->prev_revision, 3);
  EXPECT_EQ(store.changes_after(2)->prev_revision, 1);
  const std::vector<std::string> want = {"<none>", "one", "one", "three", "<none>", "five"};
  for (Revision compacted = 1; compacted <= 5; ++compacted) {
    store.compact(compacted);
    for (Revision at = compacted; at <= 5; ++at) {
      EXPECT_EQ(value_of(store.get_at(t, "ns/a", at)), want[static_cast<std::size_t>(at)])
          << "compacted to " << compacted << ", read at " << at;
    }
  }
}

TEST(StoreTest, ScanVisitsKeysInOrderAtARevisionWithPrefixAndStart) {
  Store store;
  const TableId t = store.table(kConfigMapsResource);
  store.put(t, "b/x", object_at("b/x", 1));
  store.put(t, "a/y", object_at("a/y", 2));
  store.put(t, "a/x", object_at("a/x", 3));
  store.put(t, "ab/z", object_at("ab/z", 4));
  store.remove(t, "a/y", object_at("a/y", 5));
  EXPECT_EQ(scan_keys(store, t, 5), (std::vector<std::string>{"a/x", "ab/z", "b/x"}));
  EXPECT_EQ(scan_keys(store, t, 4), (std::vector<std::string>{"a/x", "a/y", "ab/z", "b/x"}));
  EXPECT_EQ(scan_keys(store, t, 2), (std::vector<std::string>{"a/y", "b/x"}));
  EXPECT_EQ(scan_keys(store, t, 4, "a/"), (std::vector<std::string>{"a/x", "a/y"}));
  EXPECT_EQ(scan_keys(store, t, 4, "a/", std::string("a/x\0", 4)), (std::vector<std::string>{"a/y"}));
  EXPECT_EQ(scan_keys(store, t, 4, "", "ab"), (std::vector<std::string>{"ab/z", "b/x"}));
  // A start before the prefix begins at the prefix.
  EXPECT_EQ(scan_keys(store, t, 4, "b/", "a"), (std::vector<std::string>{"b/x"}));
  // The visitor stops the scan.
  int visited = 0;
  store.scan(t, 5, "", "", [&](std::string_view, const api::ObjectPtr&) { return ++visited < 2; });
  EXPECT_EQ(visited, 2);
}

TEST(StoreTest, ChangesAfterReplaysTheLogInRevisionOrder) {
  Store store;
  const TableId t = store.table(kConfigMapsResource);
  for (int i = 1; i <= 5; ++i) store.put(t, "ns/a", object_at("ns/a", i));
  EXPECT_EQ(log_revisions(store, 0), (std::vector<Revision>{1, 2, 3, 4, 5}));
  EXPECT_EQ(log_revisions(store, 3), (std::vector<Revision>{4, 5}));
  EXPECT_EQ(log_revisions(store, 5), (std::vector<Revision>{}));
}

TEST(StoreTest, CompactionKeepsTheStateAtTheCompactedRevisionAndEverythingAfter) {
  Store store;
  const TableId t = store.table(kConfigMapsResource);
  store.put(t, "ns/a", object_at("ns/a", 1, "one"));
  store.put(t, "ns/a", object_at("ns/a", 2, "two"));
  store.put(t, "ns/b", object_at("ns/b", 3));
  store.remove(t, "ns/b", object_at("ns/b", 4));
  store.put(t, "ns/a", object_at("ns/a", 5, "five"));
  store.compact(3);
  EXPECT_EQ(store.compacted(), 3);
  // Reads before the compacted revision are gone; the state at it is kept (etcd's rule).
  EXPECT_EQ(store.get_at(t, "ns/a", 2), nullptr);
  EXPECT_EQ(value_of(store.get_at(t, "ns/a", 3)), "two");
  EXPECT_EQ(value_of(store.get_at(t, "ns/a", 4)), "two");
  EXPECT_EQ(value_of(store.get_at(t, "ns/a", 5)), "five");
  EXPECT_NE(store.get_at(t, "ns/b", 3), nullptr);
  EXPECT_EQ(store.get_at(t, "ns/b", 4), nullptr);
  EXPECT_EQ(scan_keys(store, t, 3), (std::vector<std::string>{"ns/a", "ns/b"}));
  EXPECT_EQ(log_revisions(store, 0), (std::vector<Revision>{4, 5}));
  // Compacting backwards or beyond the head is clamped.
  store.compact(2);
  EXPECT_EQ(store.compacted(), 3);
  store.compact(100);
  EXPECT_EQ(store.compacted(), 5);
  EXPECT_EQ(value_of(store.get_at(t, "ns/a", 5)), "five");
  EXPECT_EQ(scan_keys(store, t, 5), (std::vector<std::string>{"ns/a"}));
  EXPECT_EQ(log_revisions(store, 0), (std::vector<Revision>{}));
}

TEST(StoreTest, CompactionForgetsDeletedKeysAndTheyCanComeBack) {
  Store store;
  const TableId t = store.table(kConfigMapsResource);
  store.put(t, "ns/a", object_at("ns/a", 1));
  store.remove(t, "ns/a", object_at("ns/a", 2));
  store.compact(2);
  EXPECT_EQ(store.get(t, "ns/a"), nullptr);
  EXPECT_EQ(store.size(t), 0u);
  const Change& c = store.put(t, "ns/a", object_at("ns/a", 3, "back"));
  EXPECT_EQ(c.type, ChangeType::kAdded);
  EXPECT_EQ(value_of(store.get(t, "ns/a")), "back");
  store.put(t, "ns/a", object_at("ns/a", 4, "again"));
  store.compact(4);
  EXPECT_EQ(value_of(store.get_at(t, "ns/a", 4)), "again");
}

TEST(StoreTest, TheListenerSeesEveryCommittedChange) {
  Store store;
  const TableId t = store.table(kConfigMapsResource);
  std::vector<std::pair<Revision, ChangeType>> seen;
  store.set_listener([&](const Change& c) {
    EXPECT_EQ(store.revision(), c.revision);  // committed before the listener runs
    seen.emplace_back(c.revision, c.type);
  });
  store.put(t, "ns/a", object_at("ns/a", 1));
  store.put(t, "ns/a", object_at("ns/a", 2));
  store.remove(t, "ns/a", object_at("ns/a", 3));
  EXPECT_EQ(seen, (std::vector<std::pair<Revision, ChangeType>>{
                      {1, ChangeType::kAdded}, {2, ChangeType::kModified}, {3, ChangeType::kDeleted}}));
}

TEST(StoreTest, KeysErasedByCompactionComeBackOnceInKeyOrder) {
  Store store;
  const TableId t = store.table(kConfigMapsResource);
  // Enough keys that one erased key is not swept from the key order at once.
  std::vector<std::string> keys;
  for (int i = 10; i < 30; ++i) keys.push_back("ns/k" + std::to_string(i));
  for (const auto& key : keys) store.put(t, key, object_at(key, store.next_revision()));
  EXPECT_EQ(scan_keys(store, t, store.revision()), keys);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    store.remove(t, "ns/k15", object_at("ns/k15", store.next_revision()));
    const Revision deleted = store.revision();
    store.compact(deleted);
    EXPECT_EQ(store.get(t, "ns/k15"), nullptr);
    EXPECT_EQ(store.size(t), keys.size() - 1);
    const Change& back = store.put(t, "ns/k15", object_at("ns/k15", store.next_revision(), "back"));
    EXPECT_EQ(back.type, ChangeType::kAdded);
    EXPECT_EQ(back.prev_revision, 0);  // the deletion went with the erased entry
    EXPECT_EQ(store.get_at(t, "ns/k15", deleted), nullptr);
    EXPECT_EQ(value_of(store.get_at(t, "ns/k15", back.revision)), "back");
    std::vector<std::string> without = keys;
    std::erase(without, "ns/k15");
    EXPECT_EQ(scan_keys(store, t, deleted), without);
    EXPECT_EQ(scan_keys(store, t, back.revision), keys);
    EXPECT_EQ(scan_keys(store, t, back.revision, "ns/k1", "ns/k15"),
              (std::vector<std::string>{"ns/k15", "ns/k16", "ns/k17", "ns/k18", "ns/k19"}));
  }
}

TEST(StoreTest, ManyKeysStayFindableAsTheIndexGrowsAndHalfOfThemAreErased) {
  Store store;
  const TableId t = store.table(kConfigMapsResource);
  constexpr int kKeys = 5000;
  const auto key = [](int i) { return "ns-" + std::to_string(i % 7) + "/cm-" + std::to_string(i); };
  std::map<std::string, Revision> model;
  for (int i = 0; i < kKeys; ++i) {
    store.put(t, key(i), object_at(key(i), store.next_revision()));
    model[key(i)] = store.revision();
  }
  for (int i = 1; i < kKeys; i += 2) {
    store.remove(t, key(i), object_at(key(i), store.next_revision()));
    model.erase(key(i));
  }
  store.compact(store.revision());
  const auto check = [&] {
    ASSERT_EQ(store.size(t), model.size());
    for (int i = 0; i < kKeys; ++i) {
      const auto it = model.find(key(i));
      const api::ObjectPtr got = store.get(t, key(i));
      ASSERT_EQ(got == nullptr, it == model.end()) << key(i);
      if (got) {
        ASSERT_EQ(got->resource_version(), std::to_string(it->second)) << key(i);
      }
    }
    std::vector<std::string> want;
    for (const auto& entry : model) want.push_back(entry.first);
    ASSERT_EQ(scan_keys(store, t, store.revision()), want);
  };
  check();
  for (int i = 1; i < kKeys; i += 4) {
    store.put(t, key(i), object_at(key(i), store.next_revision()));
    model[key(i)] = store.revision();
  }
  check();
}

TEST(StoreTest, CompactionReleasesTheObjectsOfErasedKeys) {
  Store store;
  const TableId t = store.table(kConfigMapsResource);
  std::vector<std::weak_ptr<const api::Object>> objects;
  for (int i = 0; i < 16; ++i) {
    const std::string key = "ns/k" + std::to_string(i);
    api::ObjectPtr created = object_at(key, store.next_revision());
    objects.push_back(created);
    store.put(t, key, std::move(created));
  }
  EXPECT_EQ(scan_keys(store, t, store.revision()).size(), 16u);
  for (int i = 0; i < 16; ++i) {
    const std::string key = "ns/k" + std::to_string(i);
    api::ObjectPtr last = object_at(key, store.next_revision());
    objects.push_back(last);
    store.remove(t, key, std::move(last));
  }
  store.compact(store.revision());
  for (const auto& object : objects) EXPECT_TRUE(object.expired());
  EXPECT_TRUE(scan_keys(store, t, store.revision()).empty());
}

}  // namespace
}  // namespace kubesim::fakeapi
