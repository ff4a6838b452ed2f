#include "kubesim/workqueue/detail/item_table.h"

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace kubesim::workqueue::internal {
namespace {

struct TableOp {
  int kind;  // 0 insert-or-update, 1 erase, 2 find
  int key;
  int value;
};

// Checks the table against std::map under random inserts, erases and lookups, with keys that
// collide in their low bits (multiples of 4096) mixed with dense ones.
RC_GTEST_PROP(ItemTableProperty, BehavesLikeAMap, ()) {
  const auto ops = *rc::gen::container<std::vector<TableOp>>(rc::gen::construct<TableOp>(
      rc::gen::inRange(0, 3), rc::gen::oneOf(rc::gen::inRange(0, 64), rc::gen::map(rc::gen::inRange(0, 64), [](int k) {
                                                return k * 4096;
                                              })),
      rc::gen::inRange(0, 1000)));
  ItemTable<int, int> table;
  std::map<int, int> model;
  for (const TableOp& op : ops) {
    if (op.kind == 0) {
      auto [slot, inserted] = table.find_or_insert(op.key);
      RC_ASSERT(inserted == (model.count(op.key) == 0));
      table.value(slot) = op.value;
      model[op.key] = op.value;
    } else if (op.kind == 1) {
      const auto slot = table.find(op.key);
      RC_ASSERT((slot != table.kNone) == (model.count(op.key) == 1));
      if (slot != table.kNone) table.erase(slot);
      model.erase(op.key);
    } else {
      const auto slot = table.find(op.key);
      RC_ASSERT((slot != table.kNone) == (model.count(op.key) == 1));
      if (slot != table.kNone) RC_ASSERT(table.value(slot) == model[op.key]);
    }
    RC_ASSERT(table.size() == model.size());
  }
  std::map<int, int> seen;
  table.for_each([&](std::uint32_t slot) { seen[table.key(slot)] = table.value(slot); });
  RC_ASSERT(seen == model);
}

TEST(ItemTableTest, ReusesErasedSlotsAndTheirKeys) {
  ItemTable<std::string, int> table;
  const std::string long_key(100, 'k');
  const auto first = table.find_or_insert(long_key).first;
  table.erase(first);
  const auto second = table.find_or_insert(std::string(100, 'j')).first;
  EXPECT_EQ(first, second);
  EXPECT_EQ(table.key(second), std::string(100, 'j'));
  EXPECT_EQ(table.find(long_key), table.kNone);
  EXPECT_EQ(table.take(second), std::string(100, 'j'));
  EXPECT_TRUE(table.empty());
}

TEST(ItemTableTest, GrowsToManyEntries) {
  ItemTable<int, int> table;
  for (int i = 0; i < 100'000; ++i) table.value(table.find_or_insert(i).first) = i * 2;
  for (int i = 0; i < 100'000; i += 2) table.erase(table.find(i));
  EXPECT_EQ(table.size(), 50'000u);
  for (int i = 0; i < 100'000; ++i) {
    const auto slot = table.find(i);
    if (i % 2 == 0) {
      ASSERT_EQ(slot, table.kNone) << i;
    } else {
      ASSERT_NE(slot, table.kNone) << i;
      ASSERT_EQ(table.value(slot), i * 2);
    }
  }
}

}  // namespace
}  // namespace kubesim::workqueue::internal
