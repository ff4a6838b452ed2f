#include "kubesim/informer/detail/ordered_ids.h"

#include <iterator>

namespace kubesim::informer::internal {

void OrderedIds::split(std::size_t chunk) {
  Chunk& lower = chunks_[chunk];
  const auto middle = lower.begin() + static_cast<std::ptrdiff_t>(lower.size() / 2);
  Chunk upper(middle, lower.end());
  lower.erase(middle, lower.end());
  chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(chunk) + 1, std::move(upper));
}

// Drops an emptied chunk, and folds a chunk that fell below a quarter full into its successor
// when both fit in one, so erasures cannot leave many nearly empty chunks behind.
void OrderedIds::merge_small(std::size_t chunk) {
  const auto at = chunks_.begin() + static_cast<std::ptrdiff_t>(chunk);
  if (at->empty()) {
    chunks_.erase(at);
    return;
  }
  if (at->size() >= kMaxChunk / 4 || chunk + 1 == chunks_.size()) return;
  Chunk& next = *std::next(at);
  if (at->size() + next.size() > kMaxChunk) return;
  next.insert(next.begin(), at->begin(), at->end());
  chunks_.erase(at);
}

}  // namespace kubesim::informer::internal
