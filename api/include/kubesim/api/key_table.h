// KeyTable: a hash index from object keys to the entries of a keyed collection (an informer's
// DeltaFIFO and Indexer, the API server's store).
//
// Each keeps its entries where it likes and names them by a small integer id; a KeyTable maps
// each key to the id of its entry. It is an open-addressing table (linear probing, backward-shift
// erase, so no tombstones) of 8-byte slots, each holding an id and 32 bits of the key's hash:
// a lookup usually touches one cache line of slots and compares the text of only the entry whose
// hash bits match. The table does not hold keys; the caller's `key_of(id)` reads them.
//
// Nothing observable may depend on the order of the slots: callers never iterate the table.
#ifndef KUBESIM_API_KEY_TABLE_H_
#define KUBESIM_API_KEY_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace kubesim::api {

// A 64-bit hash of a key, well mixed in every bit. Deterministic across runs and platforms.
inline std::uint64_t hash_key(std::string_view key) {
  constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
  std::uint64_t h = 0xC2B2AE3D27D4EB4Full ^ key.size();
  const char* p = key.data();
  std::size_t n = key.size();
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    h = (h ^ word) * kMul;
    h ^= h >> 29;
  }
  if (n > 0) {
    std::uint64_t word = 0;
    std::memcpy(&word, p, n);
    h = (h ^ word) * kMul;
  }
  // Final avalanche (MurmurHash3's fmix64).
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 33;
  return h;
}

class KeyTable {
 public:
  static constexpr std::uint32_t kAbsent = ~std::uint32_t{0};

  // The id stored for `key` (whose hash_key is `hash`), or kAbsent. `key_of(id)` must return
  // the key of every id in the table.
  template <class KeyOf>
  std::uint32_t find(std::string_view key, std::uint64_t hash, const KeyOf& key_of) const {
    if (size_ == 0) return kAbsent;
    const std::uint32_t tag = tag_of(hash);
    for (std::size_t i = tag & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.id == kAbsent) return kAbsent;
      if (slot.tag == tag && key_of(slot.id) == key) return slot.id;
    }
  }
  // Adds `id` under `hash`. The caller guarantees its key is not in the table.
  void insert(std::uint64_t hash, std::uint32_t id);
  // Removes `id`, which must be in the table under `hash`.
  void erase(std::uint64_t hash, std::uint32_t id);
  // Removes everything and releases the slots.
  void clear();
  // Makes room for `n` keys without growing again.
  void reserve(std::size_t n);
  std::size_t size() const { return size_; }

 private:
  // `tag` is the hash's upper half; its low bits choose the home slot, so the home of a stored
  // slot can be recomputed without the key (erase and growth need it).
  struct Slot {
    std::uint32_t id = kAbsent;
    std::uint32_t tag = 0;
  };
  static std::uint32_t tag_of(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }
  void rehash(std::size_t capacity);

  std::vector<Slot> slots_;  // empty, or a power of two in size and never more than 3/4 full
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace kubesim::api

#endif  // KUBESIM_API_KEY_TABLE_H_
