// OrderedIds: the entries holding one index value, in key order — an Indexer's index bucket.
//
// A sorted sequence of entry ids cut into chunks of at most kMaxChunk ids (a one-level B-tree):
// inserting or erasing moves at most one chunk's ids, finding a place is two binary searches,
// and iterating reads ids in sequence, which is what makes by_index fast. Appending an id that
// sorts last (objects arriving in key order, as lists return them) compares only with the last id.
//
// The order is given by the caller's `less(a, b)` over ids, which must be a strict total order
// that does not change while an id is stored (the Indexer compares the entries' keys).
#ifndef KUBESIM_INFORMER_DETAIL_ORDERED_IDS_H_
#define KUBESIM_INFORMER_DETAIL_ORDERED_IDS_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kubesim::informer::internal {

class OrderedIds {
 public:
  static constexpr std::size_t kMaxChunk = 256;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Adds `id`; false when it was already stored.
  template <class Less>
  bool insert(std::uint32_t id, const Less& less);
  // Removes `id`; false when it was not stored.
  template <class Less>
  bool erase(std::uint32_t id, const Less& less);

  // Calls f(id) for every id, in order. `f` must not change this set.
  template <class F>
  void for_each(F&& f) const {
    for (const Chunk& chunk : chunks_) {
      for (std::uint32_t id : chunk) f(id);
    }
  }

 private:
  using Chunk = std::vector<std::uint32_t>;

  // The chunk where `id` belongs: the first whose last id does not sort before it, else the last.
  template <class Less>
  std::size_t chunk_for(std::uint32_t id, const Less& less) const;
  void split(std::size_t chunk);
  void merge_small(std::size_t chunk);

  // Invariant: no chunk is empty or holds more than kMaxChunk ids; each chunk is sorted and
  // sorts entirely before the next.
  std::vector<Chunk> chunks_;
  std::size_t size_ = 0;
};

template <class Less>
std::size_t OrderedIds::chunk_for(std::uint32_t id, const Less& less) const {
  assert(!chunks_.empty());
  if (less(chunks_.back().back(), id)) return chunks_.size() - 1;
  const auto it = std::partition_point(chunks_.begin(), chunks_.end(),
                                       [&](const Chunk& chunk) { return less(chunk.back(), id); });
  return static_cast<std::size_t>(it - chunks_.begin());
}

template <class Less>
bool OrderedIds::insert(std::uint32_t id, const Less& less) {
  if (chunks_.empty() || (chunks_.back().size() == kMaxChunk && less(chunks_.back().back(), id))) {
    chunks_.emplace_back(1, id);  // appending in order to full chunks: start a new one
    ++size_;
    return true;
  }
  std::size_t c = chunk_for(id, less);
  auto pos = std::lower_bound(chunks_[c].begin(), chunks_[c].end(), id, less);
  if (pos != chunks_[c].end() && !less(id, *pos)) return false;
  if (chunks_[c].size() == kMaxChunk) {
    split(c);
    if (less(chunks_[c].back(), id)) ++c;
    pos = std::lower_bound(chunks_[c].begin(), chunks_[c].end(), id, less);
  }
  chunks_[c].insert(pos, id);
  ++size_;
  return true;
}

template <class Less>
bool OrderedIds::erase(std::uint32_t id, const Less& less) {
  if (chunks_.empty()) return false;
  const std::size_t c = chunk_for(id, less);
  Chunk& chunk = chunks_[c];
  const auto pos = std::lower_bound(chunk.begin(), chunk.end(), id, less);
  if (pos == chunk.end() || *pos != id) return false;
  chunk.erase(pos);
  --size_;
  merge_small(c);
  return true;
}

}  // namespace kubesim::informer::internal

#endif  // KUBESIM_INFORMER_DETAIL_ORDERED_IDS_H_
