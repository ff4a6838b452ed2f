#include "fakeapi/internal/fastpath/tree_update.h"

#include <algorithm>
#include <cstring>

#include "fakeapi/internal/fastpath/text_members.h"

namespace kubesim::fakeapi::internal {
namespace {

using Json = nlohmann::json;
using Outcome = TreeUpdate::Outcome;
constexpr std::size_t kFail = std::string_view::npos;

std::string_view slice(std::string_view t, std::size_t begin, std::size_t end) {
  return t.substr(begin, end - begin);
}

// Whether a tree's key is a text's raw key (one without escapes), sizes first.
bool same_key(const std::string& key, std::string_view raw) {
  return key.size() == raw.size() && std::memcmp(key.data(), raw.data(), raw.size()) == 0;
}

// The end of the string at `pos` of `t` when its text is `s` between quotes, no byte escaped;
// kFail otherwise: the text's bytes are `s`, and `s` holds no '"' or '\\' (so the text's string
// ends right after them and holds no escape). The C library's vectorized memcmp and memchr do
// the passes.
std::size_t plain_string_end(std::string_view t, std::size_t pos, std::string_view s) {
  const std::size_t begin = pos + 1;
  const std::size_t end = begin + s.size();
  if (end >= t.size() || t[end] != '"') return kFail;
  if (s.empty()) return end + 1;
  if (std::memcmp(t.data() + begin, s.data(), s.size()) != 0 ||
      std::memchr(s.data(), '"', s.size()) != nullptr ||
      std::memchr(s.data(), '\\', s.size()) != nullptr) {
    return kFail;
  }
  return end + 1;
}

// Compares the tree `j` with the value at `pos` of `t`, walking both once: the value's end, or
// kFail when they differ in anything but one string's contents, which is recorded in `u`
// (`exact`: not even that).
std::size_t compare(const Json& j, std::string_view t, std::size_t pos, TreeUpdate& u,
                    bool exact) {
  if (pos >= t.size()) return kFail;
  if (j.is_string()) {
    if (t[pos] != '"') return kFail;
    const std::string& s = j.get_ref<const std::string&>();
    if (const std::size_t end = plain_string_end(t, pos, s); end != kFail) return end;
    const std::size_t end = json_text::skip_value(t, pos);
    // Text without escapes that plain_string_end refused holds another string, unless `s` is
    // written otherwise: escaped, or its invalid UTF-8 replaced (a byte past ASCII may be that).
    const std::string_view raw = slice(t, pos + 1, end - 1);
    const auto past_ascii = [](char c) { return static_cast<unsigned char>(c) >= 0x80; };
    const bool written_otherwise = raw.find('\\') != std::string_view::npos ||
                                   std::any_of(s.begin(), s.end(), past_ascii);
    if (written_otherwise && json_text::equals(j, slice(t, pos, end))) return end;
    if (exact || u.value != nullptr) return kFail;  // a second string
    u.value = &s;
    u.outcome = Outcome::kOneString;
    return end;
  }
  if (!j.is_object()) {
    const std::size_t end = json_text::skip_value(t, pos);
    return json_text::equals(j, slice(t, pos, end)) ? end : kFail;
  }
  if (t[pos] != '{' || u.depth == TreeUpdate::kMaxDepth) return kFail;
  const auto& members = j.get_ref<const Json::object_t&>();
  auto it = members.begin();
  bool same = true;
  const std::size_t end = json_text::walk_members(
      t, pos, [&](const json_text::Member& m, std::size_t* value_end) {
        if (m.escaped_key || it == members.end() || !same_key(it->first, m.raw_key)) {
          same = false;
          return false;
        }
        const bool had_change = u.value != nullptr;
        if (!had_change) {
          u.keys[u.depth] = m.raw_key;
          u.values[u.depth++] = m.value_begin;
        }
        *value_end = compare(it->second, t, m.value_begin, u, exact);
        if (!had_change && u.value == nullptr) --u.depth;  // nothing changed below
        ++it;
        same = *value_end != kFail;
        return same;
      });
  return same && end != kFail && it == members.end() ? end : kFail;
}

// Compares the tree's metadata with the stored metadata at `pos` of `t`, which it must keep:
// every member the same but for those left out that the server keeps, and resourceVersion ""
// or as stored. The metadata's end, or kFail.
std::size_t compare_metadata(const Json& j, std::string_view t, std::size_t pos, TreeUpdate& u) {
  if (!j.is_object() || pos >= t.size() || t[pos] != '{') return kFail;
  const auto& members = j.get_ref<const Json::object_t&>();
  auto it = members.begin();
  bool same = true;
  const std::size_t end = json_text::walk_members(
      t, pos, [&](const json_text::Member& m, std::size_t* value_end) {
        const std::string_view key = m.raw_key;
        if (m.escaped_key || (it != members.end() && it->first < key)) {
          same = false;  // an escaped key, or a member the stored object lacks
        } else if (it == members.end() || !same_key(it->first, key)) {
          same = kept_when_absent(key);  // left out; skipped by walk_members
        } else if (key == "resourceVersion" && it->second.is_string() &&
                   it->second.get_ref<const std::string&>().empty()) {
          ++it;  // unconditional
        } else {
          *value_end = compare(it->second, t, m.value_begin, u, true);
          same = *value_end != kFail;
          ++it;
        }
        return same;
      });
  return same && end != kFail && it == members.end() ? end : kFail;
}

}  // namespace

TreeUpdate tree_update(std::string_view stored, const Json& desired) {
  TreeUpdate u;
  if (!desired.is_object() || stored.empty() || stored.front() != '{') return u;
  const auto& members = desired.get_ref<const Json::object_t&>();
  auto it = members.begin();
  bool same = true;
  const std::size_t end = json_text::walk_members(
      stored, 0, [&](const json_text::Member& m, std::size_t* value_end) {
        if (m.escaped_key || it == members.end() || !same_key(it->first, m.raw_key)) {
          same = false;
          return false;
        }
        if (m.raw_key == "metadata") {
          *value_end = compare_metadata(it->second, stored, m.value_begin, u);
        } else {
          const bool had_change = u.value != nullptr;
          if (!had_change) {
            u.keys[u.depth] = m.raw_key;
            u.values[u.depth++] = m.value_begin;
          }
          *value_end = compare(it->second, stored, m.value_begin, u, false);
          if (!had_change && u.value == nullptr) u.depth = 0;
        }
        ++it;
        same = *value_end != kFail;
        return same;
      });
  if (!same || end == kFail || it != members.end()) return TreeUpdate{};
  if (u.value == nullptr) u.outcome = Outcome::kSame;
  return u;
}

}  // namespace kubesim::fakeapi::internal
