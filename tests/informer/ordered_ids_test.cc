#include "kubesim/informer/detail/ordered_ids.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace kubesim::informer::internal {
namespace {

// Orders ids by a rank that is unrelated to the id itself, as the Indexer's key order is.
struct RankLess {
  const std::vector<std::uint32_t>* rank;
  bool operator()(std::uint32_t a, std::uint32_t b) const { return (*rank)[a] < (*rank)[b]; }
};

std::vector<std::uint32_t> contents(const OrderedIds& ids) {
  std::vector<std::uint32_t> out;
  ids.for_each([&](std::uint32_t id) { out.push_back(id); });
  return out;
}

// Enough ids for many chunks; inserts and erases in random order, checked against std::set.
void random_operations(std::uint32_t seed, int universe_size, int steps, int insert_percent) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  std::vector<std::uint32_t> rank(universe_size);
  for (int i = 0; i < universe_size; ++i) rank[i] = static_cast<std::uint32_t>(i);
  std::shuffle(rank.begin(), rank.end(), rng);
  const RankLess less{&rank};
  OrderedIds ids;
  std::set<std::uint32_t, RankLess> model(less);
  for (int step = 0; step < steps; ++step) {
    const auto id = static_cast<std::uint32_t>(rng() % universe_size);
    if (static_cast<int>(rng() % 100) < insert_percent) {
      ASSERT_EQ(ids.insert(id, less), model.insert(id).second);
    } else {
      ASSERT_EQ(ids.erase(id, less), model.erase(id) == 1);
    }
    if (step % 500 == 0 || step == steps - 1) {
      ASSERT_EQ(ids.size(), model.size());
      ASSERT_EQ(contents(ids), std::vector<std::uint32_t>(model.begin(), model.end()));
    }
  }
}

TEST(OrderedIdsTest, GrowsThenShrinksInRandomOrder) {
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    random_operations(seed, 5000, 12'000, 80);  // grows to thousands: many splits
    random_operations(seed, 5000, 12'000, 50);  // churn
  }
}

TEST(OrderedIdsTest, DrainsToEmptyAndRefills) {
  std::vector<std::uint32_t> rank(3000);
  for (std::uint32_t i = 0; i < rank.size(); ++i) rank[i] = i;
  const RankLess less{&rank};
  OrderedIds ids;
  for (int round = 0; round < 2; ++round) {
    for (std::uint32_t i = 0; i < rank.size(); ++i) ASSERT_TRUE(ids.insert(i, less));  // in order
    EXPECT_FALSE(ids.insert(7, less));
    EXPECT_EQ(ids.size(), rank.size());
    for (std::uint32_t i = 0; i < rank.size(); i += 2) ASSERT_TRUE(ids.erase(i, less));
    for (std::uint32_t i = 1; i < rank.size(); i += 2) ASSERT_TRUE(ids.erase(i, less));
    EXPECT_TRUE(ids.empty());
    EXPECT_FALSE(ids.erase(1, less));
    EXPECT_TRUE(contents(ids).empty());
  }
}

}  // namespace
}  // namespace kubesim::informer::internal
