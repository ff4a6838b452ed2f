#include "kubesim/workqueue/detail/ready_heap.h"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace kubesim::workqueue::internal {
namespace {

using sim::Duration;
using sim::Time;

struct HeapOp {
  int kind;  // 0, 1: push; 2: pop; 3: erase entries whose slot is a multiple of 3
  int ready_ms;
};

// Checks the heap against a sorted vector under random pushes, pops and erasures, with many
// equal ready times so that the sequence-number tie-break is exercised.
RC_GTEST_PROP(ReadyHeapProperty, PopsInReadyThenSequenceOrder, ()) {
  const auto ops = *rc::gen::container<std::vector<HeapOp>>(
      rc::gen::construct<HeapOp>(rc::gen::inRange(0, 4), rc::gen::inRange(0, 20)));
  ReadyHeap heap;
  std::vector<ReadyHeap::Entry> model;
  std::uint32_t seq = 0xFFFFFF00u;  // wraps around during the run
  std::uint32_t slot = 0;
  auto model_less = [](const ReadyHeap::Entry& a, const ReadyHeap::Entry& b) {
    return a.ready < b.ready || (a.ready == b.ready && static_cast<std::int32_t>(a.seq - b.seq) < 0);
  };
  for (const HeapOp& op : ops) {
    if (op.kind <= 1) {
      const ReadyHeap::Entry e{Time{} + std::chrono::milliseconds(op.ready_ms), slot++, seq++};
      heap.push(e);
      model.push_back(e);
    } else if (op.kind == 2 && !model.empty()) {
      auto it = std::min_element(model.begin(), model.end(), model_less);
      const auto top = heap.top();
      RC_ASSERT(top.slot == it->slot);
      RC_ASSERT(top.ready == it->ready);
      heap.pop();
      model.erase(it);
    } else if (op.kind == 3) {
      auto stale = [](const ReadyHeap::Entry& e) { return e.slot % 3 == 0; };
      heap.erase_if(stale);
      std::erase_if(model, stale);
    }
    RC_ASSERT(heap.size() == model.size());
  }
  std::sort(model.begin(), model.end(), model_less);
  for (const auto& e : model) {
    RC_ASSERT(heap.top().slot == e.slot);
    heap.pop();
  }
  RC_ASSERT(heap.empty());
}

TEST(ReadyHeapTest, EqualReadyTimesComeOutInPushOrder) {
  ReadyHeap heap;
  for (std::uint32_t i = 0; i < 100; ++i) heap.push({Time{} + Duration(5), i, i});
  for (std::uint32_t i = 0; i < 100; ++i) {
    ASSERT_EQ(heap.top().slot, i);
    heap.pop();
  }
}

}  // namespace
}  // namespace kubesim::workqueue::internal
