// EntryPool<T>: values named by dense 32-bit ids, for tables that refer to them by id.
//
// Values live in fixed-size chunks, so neither an id nor a value's address changes as the pool
// grows, and there is no allocation per value. Released ids are handed out again, the most
// recently released first; ids are not stable across a release, so a caller must drop every
// reference to an id before releasing it.
#ifndef KUBESIM_FAKEAPI_INTERNAL_ENTRY_POOL_H_
#define KUBESIM_FAKEAPI_INTERNAL_ENTRY_POOL_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace kubesim::fakeapi::internal {

template <class T>
class EntryPool {
 public:
  using Id = std::uint32_t;

  // The id of a value equal to T{}.
  Id allocate() {
    if (!free_.empty()) {
      const Id id = free_.back();
      free_.pop_back();
      return id;
    }
    assert(issued_ < std::numeric_limits<Id>::max() && "too many entries");
    if (issued_ % kChunk == 0) chunks_.push_back(std::make_unique<T[]>(kChunk));
    return static_cast<Id>(issued_++);
  }
  // Resets the value to T{}, releasing what it holds, and makes `id` free for reuse.
  void release(Id id) {
    (*this)[id] = T{};
    free_.push_back(id);
  }

  T& operator[](Id id) { return chunks_[id / kChunk][id % kChunk]; }
  const T& operator[](Id id) const { return chunks_[id / kChunk][id % kChunk]; }
  // The ids in use.
  std::size_t size() const { return issued_ - free_.size(); }

 private:
  static constexpr std::size_t kChunk = 512;

  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t issued_ = 0;  // ids ever handed out: [0, issued_)
  std::vector<Id> free_;
};

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_ENTRY_POOL_H_
