#include "kubesim/informer/detail/key_text.h"

#include <cassert>
#include <cstring>
#include <limits>

namespace kubesim::informer::internal {

void KeyText::assign(std::string_view key) {
  assert(key.size() <= std::numeric_limits<std::uint32_t>::max());
  size_ = static_cast<std::uint32_t>(key.size());
  if (key.size() <= kInline) {
    heap_.reset();
    std::memcpy(inline_, key.data(), key.size());
    return;
  }
  heap_ = std::make_unique_for_overwrite<char[]>(key.size());
  std::memcpy(heap_.get(), key.data(), key.size());
}

}  // namespace kubesim::informer::internal
