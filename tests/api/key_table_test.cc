#include "kubesim/api/key_table.h"

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace kubesim::api {
namespace {

// A table checked against a std::map after every operation. `hash_of` lets a test force
// collisions; ids index `keys`.
class TableChecker {
 public:
  explicit TableChecker(std::uint64_t (*hash_of)(std::string_view)) : hash_of_(hash_of) {}

  void insert(const std::string& key) {
    ASSERT_EQ(find(key), KeyTable::kAbsent);
    const auto id = static_cast<std::uint32_t>(keys_.size());
    keys_.push_back(key);
    table_.insert(hash_of_(key), id);
    model_[key] = id;
  }
  void erase(const std::string& key) {
    const std::uint32_t id = model_.at(key);
    table_.erase(hash_of_(key), id);
    model_.erase(key);
  }
  std::uint32_t find(const std::string& key) const {
    return table_.find(key, hash_of_(key), [this](std::uint32_t id) { return std::string_view(keys_[id]); });
  }
  void check(const std::vector<std::string>& universe) const {
    ASSERT_EQ(table_.size(), model_.size());
    for (const std::string& key : universe) {
      auto it = model_.find(key);
      ASSERT_EQ(find(key), it == model_.end() ? KeyTable::kAbsent : it->second) << key;
    }
  }
  const std::map<std::string, std::uint32_t>& model() const { return model_; }
  KeyTable& table() { return table_; }

 private:
  std::uint64_t (*hash_of_)(std::string_view);
  KeyTable table_;
  std::vector<std::string> keys_;
  std::map<std::string, std::uint32_t> model_;
};

std::uint64_t real_hash(std::string_view key) { return hash_key(key); }
// Eight home slots in all, the last eight of the table at any size, so probe runs are long, wrap
// around the end of the table, and most erasures shift later slots back.
std::uint64_t clustered_hash(std::string_view key) { return (0xFFFFFFF8ull + hash_key(key) % 8) << 32; }

void random_operations(std::uint64_t (*hash_of)(std::string_view), std::uint32_t seed) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  std::vector<std::string> universe;
  for (int i = 0; i < 300; ++i) universe.push_back("ns-" + std::to_string(i % 7) + "/obj-" + std::to_string(i));
  TableChecker checker(hash_of);
  for (int step = 0; step < 3000; ++step) {
    const std::string& key = universe[rng() % universe.size()];
    if (checker.model().contains(key)) {
      checker.erase(key);
    } else {
      checker.insert(key);
    }
    if (step % 100 == 0) checker.check(universe);
  }
  checker.check(universe);
  checker.table().clear();
  EXPECT_EQ(checker.table().size(), 0u);
}

TEST(KeyTableTest, MatchesAMapUnderRandomInsertsAndErases) { random_operations(real_hash, 1); }

TEST(KeyTableTest, MatchesAMapWhenEveryKeyCollides) {
  for (std::uint32_t seed = 1; seed <= 5; ++seed) random_operations(clustered_hash, seed);
}

TEST(KeyTableTest, ReserveKeepsEverythingFindable) {
  TableChecker checker(real_hash);
  std::vector<std::string> universe;
  for (int i = 0; i < 50; ++i) {
    universe.push_back("k" + std::to_string(i));
    checker.insert(universe.back());
  }
  checker.table().reserve(10'000);
  checker.check(universe);
}

}  // namespace
}  // namespace kubesim::api
