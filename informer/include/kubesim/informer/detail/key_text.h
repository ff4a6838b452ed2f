// KeyText: an entry's own copy of its key, inline up to kInline bytes (typical "namespace/name"
// keys), so comparing a key reads the entry rather than some object elsewhere. The DeltaFIFO and
// the Indexer keep one in each entry, for their KeyTable (kubesim/api/key_table.h) to compare.
#ifndef KUBESIM_INFORMER_DETAIL_KEY_TEXT_H_
#define KUBESIM_INFORMER_DETAIL_KEY_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace kubesim::informer::internal {

class KeyText {
 public:
  KeyText() = default;
  explicit KeyText(std::string_view key) { assign(key); }
  KeyText(KeyText&&) noexcept = default;
  KeyText& operator=(KeyText&&) noexcept = default;

  void assign(std::string_view key);
  void clear() {
    size_ = 0;
    heap_.reset();
  }
  std::string_view view() const { return {heap_ ? heap_.get() : inline_, size_}; }

 private:
  static constexpr std::size_t kInline = 44;
  std::uint32_t size_ = 0;
  char inline_[kInline] = {};
  std::unique_ptr<char[]> heap_;  // set only for keys longer than kInline
};

}  // namespace kubesim::informer::internal

#endif  // KUBESIM_INFORMER_DETAIL_KEY_TEXT_H_
