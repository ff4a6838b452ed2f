#include "kubesim/api/key_table.h"

#include <cassert>
#include <limits>

namespace kubesim::api {

void KeyTable::insert(std::uint64_t hash, std::uint32_t id) {
  assert(id != kAbsent);
  if ((size_ + 1) * 4 > slots_.size() * 3) rehash(slots_.empty() ? 16 : slots_.size() * 2);
  const std::uint32_t tag = tag_of(hash);
  std::size_t i = tag & mask_;
  while (slots_[i].id != kAbsent) i = (i + 1) & mask_;
  slots_[i] = Slot{id, tag};
  ++size_;
}

void KeyTable::erase(std::uint64_t hash, std::uint32_t id) {
  std::size_t i = tag_of(hash) & mask_;
  while (slots_[i].id != id) {
    assert(slots_[i].id != kAbsent && "erasing an id that is not in the table");
    i = (i + 1) & mask_;
  }
  // Backward shift: pull later slots of the probe run into the hole when their home allows it,
  // so every stored id stays reachable from its home without tombstones.
  for (std::size_t j = (i + 1) & mask_; slots_[j].id != kAbsent; j = (j + 1) & mask_) {
    const std::size_t home = slots_[j].tag & mask_;
    if (((j - home) & mask_) >= ((j - i) & mask_)) {
      slots_[i] = slots_[j];
      i = j;
    }
  }
  slots_[i] = Slot{};
  --size_;
}

void KeyTable::clear() {
  slots_ = {};
  mask_ = 0;
  size_ = 0;
}

void KeyTable::reserve(std::size_t n) {
  std::size_t capacity = slots_.empty() ? 16 : slots_.size();
  while (n * 4 > capacity * 3) capacity *= 2;
  if (capacity != slots_.size()) rehash(capacity);
}

void KeyTable::rehash(std::size_t capacity) {
  assert((capacity & (capacity - 1)) == 0 && capacity - 1 <= std::numeric_limits<std::uint32_t>::max());
  std::vector<Slot> old(capacity);
  old.swap(slots_);
  mask_ = capacity - 1;
  for (const Slot& slot : old) {
    if (slot.id == kAbsent) continue;
    std::size_t i = slot.tag & mask_;
    while (slots_[i].id != kAbsent) i = (i + 1) & mask_;
    slots_[i] = slot;
  }
}

}  // namespace kubesim::api
