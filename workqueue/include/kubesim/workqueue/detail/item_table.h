// ItemTable: the hash table behind every per-item set and map of the work queues.
//
// Keys live in slots with stable numbers, so a queue can keep a slot number in its FIFO or heap
// instead of a second copy of the key. Slots are allocated in fixed-size chunks that never move,
// so growing never copies keys. The index is open addressing with linear probing (load factor at
// most 1/2) and backward-shift deletion, so there are no tombstones. Each key is
// hashed once per operation; callers that touch the table several times in one operation pass
// the tag along. Erased slots keep their key object so that the next insert into that slot can
// reuse its storage (a std::string's buffer, for example): memory stays at the peak live count.
//
// Iteration (for_each) visits live slots in slot order, which depends only on the sequence of
// inserts and erases, never on hash values: nothing observable depends on hashing.
#ifndef KUBESIM_WORKQUEUE_DETAIL_ITEM_TABLE_H_
#define KUBESIM_WORKQUEUE_DETAIL_ITEM_TABLE_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kubesim::workqueue::internal {

// A hint to bring the line at `p` into cache; changes nothing. (GCC 12 drops __builtin_prefetch
// when the address was loaded through a std::string, hence the asm on x86.)
inline void prefetch(const void* p) {
#if defined(__x86_64__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

// The hash of a key: std::hash<K>, except for strings, the common key type ("namespace/name"),
// which get a multiply-fold hash that is inlined and about 1.6 times faster than libstdc++'s
// out-of-line murmur hash on object keys: 16 bytes per 64×64→128-bit multiply, the last 16
// bytes (or, for short keys, overlapping 4-byte reads) folded in at the end. Unseeded, like
// std::hash, so runs replay exactly.
template <class K>
struct KeyHash : std::hash<K> {};

namespace hash_detail {
inline std::uint64_t load64(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline std::uint64_t load32(const char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline std::uint64_t fold(std::uint64_t a, std::uint64_t b) {
  const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}
}  // namespace hash_detail

inline std::uint64_t hash_bytes(const char* p, std::size_t n) {
  using namespace hash_detail;
  constexpr std::uint64_t k0 = 0x9E3779B97F4A7C15ull;
  constexpr std::uint64_t k1 = 0xBF58476D1CE4E5B9ull;
  constexpr std::uint64_t k2 = 0x94D049BB133111EBull;
  std::uint64_t seed = k0 ^ n;
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  if (n <= 16) {
    if (n >= 4) {
      const std::size_t d = (n >> 3) << 2;
      a = (load32(p) << 32) | load32(p + d);
      b = (load32(p + n - 4) << 32) | load32(p + n - 4 - d);
    } else if (n > 0) {
      a = (std::uint64_t{static_cast<unsigned char>(p[0])} << 16) |
          (std::uint64_t{static_cast<unsigned char>(p[n >> 1])} << 8) | static_cast<unsigned char>(p[n - 1]);
    }
  } else {
    std::size_t left = n;
    while (left > 16) {
      seed = fold(load64(p) ^ k1, load64(p + 8) ^ seed);
      p += 16;
      left -= 16;
    }
    a = load64(p + left - 16);
    b = load64(p + left - 8);
  }
  return fold(k2 ^ n, fold(a ^ k1, b ^ seed));
}

template <>
struct KeyHash<std::string> {
  std::size_t operator()(const std::string& s) const noexcept { return hash_bytes(s.data(), s.size()); }
};

template <class K, class V, class Hash = KeyHash<K>, class KeyEqual = std::equal_to<K>>
class ItemTable {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  ItemTable() = default;
  ItemTable(const ItemTable&) = delete;
  ItemTable& operator=(const ItemTable&) = delete;

  // A 32-bit digest of `key`: its top bits choose the home bucket, all of it filters probes.
  // Fibonacci hashing spreads weak hashes (libstdc++'s identity hash of integers). Every table
  // with the same K and Hash computes the same tag, so it can be handed from one to another.
  static std::uint32_t tag_of(const K& key) {
    const auto h = static_cast<std::uint64_t>(Hash{}(key));
    return static_cast<std::uint32_t>((h * 0x9E3779B97F4A7C15ull) >> 32);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // The slot holding `key`, or kNone.
  std::uint32_t find(const K& key) const { return find(key, tag_of(key)); }
  std::uint32_t find(const K& key, std::uint32_t tag) const {
    if (index_.empty()) return kNone;
    std::uint32_t pos = tag >> shift_;
    for (;;) {
      const IndexEntry& e = index_[pos];
      if (e.slot == kNone) return kNone;
      if (e.tag == tag && KeyEqual{}(*at(e.slot).key, key)) return e.slot;
      pos = (pos + 1) & mask_;
    }
  }

  // Inserts `key`, which must be absent (tag == tag_of(key)); its value is V{}.
  template <class KK>
  std::uint32_t insert_new(KK&& key, std::uint32_t tag) {
    if ((size_ + 1) * 2 > index_.size()) grow();
    std::uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<std::uint32_t>(slot_count_);
      if (slot_count_ == chunks_.size() * kChunk) chunks_.push_back(std::make_unique<Chunk>());
      ++slot_count_;
    }
    Slot& s = at(slot);
    if (s.key) {
      *s.key = std::forward<KK>(key);  // reuses the storage of the key that lived here
    } else {
      s.key.emplace(std::forward<KK>(key));
    }
    s.value = V{};
    s.tag = tag;
    s.live = true;
    place(slot, tag);
    ++size_;
    return slot;
  }

  // The slot of `key`, inserting it (value V{}) when absent; .second is true when inserted.
  template <class KK>
  std::pair<std::uint32_t, bool> find_or_insert(KK&& key) {
    const std::uint32_t tag = tag_of(key);
    return find_or_insert(std::forward<KK>(key), tag);
  }
  template <class KK>
  std::pair<std::uint32_t, bool> find_or_insert(KK&& key, std::uint32_t tag) {
    const std::uint32_t slot = find(key, tag);
    if (slot != kNone) return {slot, false};
    return {insert_new(std::forward<KK>(key), tag), true};
  }

  // Removes the entry in `slot`, which must be live.
  void erase(std::uint32_t slot) {
    assert(live(slot));
    Slot& s = at(slot);
    std::uint32_t hole = s.tag >> shift_;
    while (index_[hole].slot != slot) hole = (hole + 1) & mask_;
    // Backward shift: pull later entries of the probe run into the hole when their home allows.
    std::uint32_t next = hole;
    for (;;) {
      next = (next + 1) & mask_;
      const IndexEntry& e = index_[next];
      if (e.slot == kNone) break;
      const std::uint32_t home = e.tag >> shift_;
      const bool stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
      if (stays) continue;
      index_[hole] = e;
      hole = next;
    }
    index_[hole].slot = kNone;
    s.live = false;
    free_.push_back(slot);
    --size_;
  }

  // Moves the key out of `slot` and erases it.
  K take(std::uint32_t slot) {
    K key = std::move(*at(slot).key);
    erase(slot);
    return key;
  }

  const K& key(std::uint32_t slot) const { return *at(slot).key; }
  std::uint32_t tag(std::uint32_t slot) const { return at(slot).tag; }
  bool live(std::uint32_t slot) const { return slot < slot_count_ && at(slot).live; }
  // One more than the highest slot number ever used.
  std::size_t slot_count() const { return slot_count_; }

  // Cache hints for callers that know which entries they will touch next. They change nothing.
  void prefetch_slot(std::uint32_t slot) const {
    const Slot* s = &at(slot);
    prefetch(s);
    prefetch(reinterpret_cast<const char*>(s + 1) - 1);  // a slot may straddle two lines
  }
  // The first bucket a lookup of a key with this tag reads.
  void prefetch_bucket(std::uint32_t tag) const {
    if (!index_.empty()) prefetch(&index_[tag >> shift_]);
  }
  // The out-of-line bytes of the key in `slot` (for keys such as std::string); reads the slot.
  void prefetch_key_bytes(std::uint32_t slot) const {
    if constexpr (requires(const K& k) { k.data(); }) prefetch(at(slot).key->data());
  }
  V& value(std::uint32_t slot) { return at(slot).value; }
  const V& value(std::uint32_t slot) const { return at(slot).value; }

  // Calls fn(slot) for every live slot, in slot order.
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (std::uint32_t i = 0; i < slot_count_; ++i) {
      if (at(i).live) fn(i);
    }
  }

  // Removes every entry and frees the memory.
  void clear() {
    index_.clear();
    chunks_.clear();
    slot_count_ = 0;
    free_.clear();
    size_ = 0;
    mask_ = 0;
    shift_ = 32;
  }

 private:
  struct IndexEntry {
    std::uint32_t slot = kNone;
    std::uint32_t tag = 0;
  };
  struct Slot {
    std::optional<K> key;  // engaged in every slot ever used, live or free
    V value{};
    std::uint32_t tag = 0;
    bool live = false;
  };
  static constexpr std::size_t kChunkBits = 9;
  static constexpr std::size_t kChunk = std::size_t{1} << kChunkBits;  // slots per chunk
  // Cache-line aligned, so that 64-byte slots (a std::string key and a queue's state) each
  // occupy exactly one line.
  struct alignas(64) Chunk {
    Slot slots[kChunk];
  };

  Slot& at(std::uint32_t slot) { return chunks_[slot >> kChunkBits]->slots[slot & (kChunk - 1)]; }
  const Slot& at(std::uint32_t slot) const { return chunks_[slot >> kChunkBits]->slots[slot & (kChunk - 1)]; }

  void place(std::uint32_t slot, std::uint32_t tag) {
    std::uint32_t pos = tag >> shift_;
    while (index_[pos].slot != kNone) pos = (pos + 1) & mask_;
    index_[pos] = IndexEntry{slot, tag};
  }

  // Doubles the index, re-placing entries from the old index (which holds every tag), so growing
  // never reads the slots.
  void grow() {
    const std::size_t capacity = index_.empty() ? 16 : index_.size() * 2;
    assert(capacity <= (std::size_t{1} << 32) && "ItemTable: too many items");
    std::vector<IndexEntry> old(capacity, IndexEntry{});
    old.swap(index_);
    mask_ = static_cast<std::uint32_t>(capacity - 1);
    int bits = 0;
    while ((std::size_t{1} << bits) < capacity) ++bits;
    shift_ = static_cast<std::uint32_t>(32 - bits);
    for (const IndexEntry& e : old) {
      if (e.slot != kNone) place(e.slot, e.tag);
    }
  }

  std::vector<IndexEntry> index_;  // size 0 or a power of two, at most half full
  std::vector<std::unique_ptr<Chunk>> chunks_;
  std::size_t slot_count_ = 0;
  std::vector<std::uint32_t> free_;  // slots not live, reused last-in first-out
  std::size_t size_ = 0;
  std::uint32_t mask_ = 0;
  std::uint32_t shift_ = 32;
};

}  // namespace kubesim::workqueue::internal

#endif  // KUBESIM_WORKQUEUE_DETAIL_ITEM_TABLE_H_
