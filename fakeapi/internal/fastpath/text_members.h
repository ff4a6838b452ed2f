// Reading objects' compact texts for the write fast paths (text_update.h, text_create.h): an
// object's top-level members, and the checks a kind's members pass when the general path would
// store them as they are.
#ifndef KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TEXT_MEMBERS_H_
#define KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TEXT_MEMBERS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fakeapi/internal/fastpath/object_text.h"

namespace kubesim::fakeapi::internal {

// The top-level members of an object's text, in key order.
class Members {
 public:
  struct Member {
    std::string_view key;
    std::size_t value_begin;
    std::size_t value_end;
  };

  // False when the text is not an object, has an escaped key or more members than are held.
  bool read(std::string_view text) {
    text_ = text;
    if (text.empty() || text.front() != '{') return false;
    bool ok = true;
    json_text::for_each_member(text, 0, [&](const json_text::Member& m) {
      if (m.escaped_key || size_ == members_.size()) {
        ok = false;
        return false;
      }
      members_[size_++] = {m.raw_key, m.value_begin, m.value_end};
      return true;
    });
    return ok;
  }

  std::string_view text() const { return text_; }
  std::size_t size() const { return size_; }
  const Member& operator[](std::size_t i) const { return members_[i]; }
  std::string_view value(const Member& m) const {
    return text_.substr(m.value_begin, m.value_end - m.value_begin);
  }
  const Member* find(std::string_view key) const {
    for (std::size_t i = 0; i < size_; ++i) {
      if (members_[i].key == key) return &members_[i];
    }
    return nullptr;
  }

 private:
  std::string_view text_;
  std::array<Member, 16> members_;
  std::size_t size_ = 0;
};

// Fields of the stored metadata an update may leave out, which the server keeps as stored
// (write_update's system fields; resourceVersion makes the update unconditional).
inline bool kept_when_absent(std::string_view key) {
  return key == "resourceVersion" || key == "uid" || key == "creationTimestamp" ||
         key == "namespace";
}

// The limit on a ConfigMap's data and binaryData bytes.
constexpr std::int64_t kMaxConfigMapSize = 1 * 1024 * 1024;

// Whether a ConfigMap's `data` text is stored as it is by the general path, which accepts it:
// a non-empty object of strings whose keys are config keys, within the size limit
// (ValidateConfigMap in validation/validate_core.cc, without binaryData).
bool config_map_data_as_stored(std::string_view data);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TEXT_MEMBERS_H_
