// json_text's readers: the parser, and the scanners that find values in the text.
#include "api/internal/json_text.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <system_error>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kubesim::api::internal::json_text {
namespace {

using Json = nlohmann::json;

// Appends the UTF-8 encoding of code point `cp`.
void append_utf8(std::uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::uint32_t hex4(std::string_view s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = at; i < at + 4 && i < s.size(); ++i) {
    const char c = s[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= static_cast<std::uint32_t>(c - '0');
    else if (c >= 'a' && c <= 'f') v |= static_cast<std::uint32_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= static_cast<std::uint32_t>(c - 'A' + 10);
  }
  return v;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : t_(text) {}

  Json value() {
    if (p_ >= t_.size()) return Json();
    switch (t_[p_]) {
      case '{': {
        ++p_;
        Json out = Json::object();
        auto& members = out.get_ref<Json::object_t&>();
        while (p_ < t_.size() && t_[p_] != '}') {
          std::string key = string();
          ++p_;  // ':'
          // The last of duplicate keys wins, as in nlohmann::json::parse.
          members.insert_or_assign(members.end(), std::move(key), value());
          if (p_ < t_.size() && t_[p_] == ',') ++p_;
        }
        ++p_;
        return out;
      }
      case '[': {
        ++p_;
        Json out = Json::array();
        auto& elements = out.get_ref<Json::array_t&>();
        while (p_ < t_.size() && t_[p_] != ']') {
          elements.push_back(value());
          if (p_ < t_.size() && t_[p_] == ',') ++p_;
        }
        ++p_;
        return out;
      }
      case '"':
        return string();
      case 't':
        p_ += 4;
        return true;
      case 'f':
        p_ += 5;
        return false;
      case 'n':
        p_ += 4;
        return nullptr;
      default:
        return number();
    }
  }

 private:
  std::string string() {
    const std::size_t end = detail::skip_string(t_, p_);
    const std::string_view raw = t_.substr(p_ + 1, end - p_ - 2);
    p_ = end;
    if (raw.find('\\') == std::string_view::npos) return std::string(raw);
    return decode_string(raw);
  }

  Json number() {
    const std::size_t begin = p_;
    bool is_float = false;
    while (p_ < t_.size()) {
      const char c = t_[p_];
      if (c == '.' || c == 'e' || c == 'E') {
        is_float = true;
      } else if (!(c == '-' || c == '+' || (c >= '0' && c <= '9'))) {
        break;
      }
      ++p_;
    }
    const char* first = t_.data() + begin;
    const char* last = t_.data() + p_;
    if (!is_float) {
      if (*first == '-') {
        std::int64_t v = 0;
        if (std::from_chars(first, last, v).ec == std::errc()) return v;
      } else {
        std::uint64_t v = 0;
        if (std::from_chars(first, last, v).ec == std::errc()) return v;
      }
    }
    double d = 0;
    std::from_chars(first, last, d);
    return d;
  }

  std::string_view t_;
  std::size_t p_ = 0;
};

}  // namespace

namespace detail {

std::size_t skip_string(std::string_view text, std::size_t pos, bool* escaped) {
  std::size_t p = pos + 1;  // past the opening quote
  bool seen = false;
  const auto done = [&](std::size_t end) {
    if (escaped != nullptr) *escaped = seen;
    return end;
  };
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  while (p + 16 <= text.size()) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + p));
    const int hits =
        _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)));
    if (hits == 0) {
      p += 16;
      continue;
    }
    p += static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(hits)));
    if (text[p] == '"') return done(p + 1);
    seen = true;
    p += 2;  // an escape and the byte it escapes
  }
#endif
  while (p < text.size()) {
    const char c = text[p];
    if (c == '"') return done(p + 1);
    if (c == '\\') seen = true;
    p += c == '\\' ? 2 : 1;
  }
  return done(text.size());
}

}  // namespace detail

Json parse(std::string_view text) { return Parser(text).value(); }

namespace {

// is_written_object's scan: one pass over the text, failing at the first byte write() would not
// have written there.
class WrittenCheck {
 public:
  explicit WrittenCheck(std::string_view text) : t_(text) {}

  bool object_text() {
    return !t_.empty() && t_[0] == '{' && value(0) && p_ == t_.size();
  }

 private:
  static constexpr int kMaxDepth = 256;

  bool at(char c) const { return p_ < t_.size() && t_[p_] == c; }

  bool value(int depth) {
    if (p_ >= t_.size()) return false;
    switch (t_[p_]) {
      case '{':
        return depth < kMaxDepth && object(depth + 1);
      case '[':
        return depth < kMaxDepth && array(depth + 1);
      case '"':
        return string(nullptr);
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        return integer();
    }
  }

  // The items of an object or array (the opening byte at p_), each read by item(), separated
  // by ',' and ended by `close`.
  template <typename Item>
  bool items(char close, Item&& item) {
    ++p_;  // '{' or '['
    if (at(close)) {
      ++p_;
      return true;
    }
    for (;;) {
      if (!item()) return false;
      if (at(',')) {
        ++p_;
        continue;
      }
      if (!at(close)) return false;
      ++p_;
      return true;
    }
  }

  bool object(int depth) {
    std::string_view previous;
    bool first = true;
    return items('}', [&] {
      std::string_view key;
      if (!at('"') || !string(&key)) return false;
      // Keys in order and once each, as a sorted map holds them.
      if (!first && !(previous < key)) return false;
      previous = key;
      first = false;
      if (!at(':')) return false;
      ++p_;
      return value(depth);
    });
  }

  bool array(int depth) {
    return items(']', [&] { return value(depth); });
  }

  // A string as write_string writes it: printable ASCII as it is, and only the escapes it
  // writes. For a key (`key` set), no escape at all.
  bool string(std::string_view* key) {
    const std::size_t begin = ++p_;  // past '"'
    while (p_ < t_.size()) {
      p_ += detail::plain_prefix(t_.substr(p_));
      if (p_ >= t_.size()) return false;
      const auto c = static_cast<unsigned char>(t_[p_]);
      if (c == '"') {
        if (key != nullptr) *key = t_.substr(begin, p_ - begin);
        ++p_;
        return true;
      }
      if (c < 0x20 || c >= 0x80) return false;
      if (c != '\\') {
        ++p_;
        continue;
      }
      if (key != nullptr || p_ + 1 >= t_.size()) return false;
      const char e = t_[p_ + 1];
      if (e == '"' || e == '\\' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
        p_ += 2;
        continue;
      }
      // \u00xx, lower-case, for a control byte that has no short escape.
      if (e != 'u' || p_ + 6 > t_.size() || t_.substr(p_ + 2, 2) != "00") return false;
      const auto hex = [](char h) {
        return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : -1;
      };
      const int high = hex(t_[p_ + 4]);
      const int low = hex(t_[p_ + 5]);
      if (high < 0 || high > 1 || low < 0) return false;
      const int byte = high * 16 + low;
      if (byte == '\b' || byte == '\f' || byte == '\n' || byte == '\r' || byte == '\t') return false;
      p_ += 6;
    }
    return false;
  }

  bool literal(std::string_view word) {
    if (t_.substr(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  // -?(0|[1-9][0-9]*), not -0, at most 18 digits: what write() writes for an integer, and
  // within the range of both of the integers it reads back.
  bool integer() {
    const bool negative = at('-');
    if (negative) ++p_;
    const std::size_t begin = p_;
    while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9') ++p_;
    const std::size_t digits = p_ - begin;
    if (digits == 0 || digits > 18) return false;
    if (t_[begin] == '0') return digits == 1 && !negative;
    return true;
  }

  std::string_view t_;
  std::size_t p_ = 0;
};

}  // namespace

bool is_written_object(std::string_view text) { return WrittenCheck(text).object_text(); }

namespace {

// The position of the next '"', '{', '}', '[' or ']' at or after `p`, or the text's size.
std::size_t next_structural(std::string_view text, std::size_t p) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i lower = _mm_set1_epi8(0x20);
  // '[' and ']' with the 0x20 bit set are '{' and '}'; no other byte becomes either.
  const __m128i open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}');
  while (p + 16 <= text.size()) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + p));
    const __m128i folded = _mm_or_si128(x, lower);
    const int hits = _mm_movemask_epi8(_mm_or_si128(
        _mm_cmpeq_epi8(x, quote),
        _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close))));
    if (hits != 0) return p + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(hits)));
    p += 16;
  }
#endif
  for (; p < text.size(); ++p) {
    const char c = text[p];
    if (c == '"' || c == '{' || c == '}' || c == '[' || c == ']') return p;
  }
  return p;
}

}  // namespace

std::size_t skip_value(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return text.size();
  const char first = text[pos];
  if (first == '"') return detail::skip_string(text, pos);
  if (first == '{' || first == '[') {
    int depth = 0;
    std::size_t p = pos;
    while ((p = next_structural(text, p)) < text.size()) {
      const char c = text[p];
      if (c == '"') {
        p = detail::skip_string(text, p);
        continue;
      }
      if (c == '{' || c == '[') {
        ++depth;
      } else if (--depth == 0) {
        return p + 1;
      }
      ++p;
    }
    return text.size();
  }
  std::size_t p = pos;
  while (p < text.size() && text[p] != ',' && text[p] != '}' && text[p] != ']') ++p;
  return p;
}

std::string key_of(const Member& m) {
  return m.escaped_key ? decode_string(m.raw_key) : std::string(m.raw_key);
}

namespace {

// find_member's search, from the first key at or after `p`.
std::optional<Member> find_member_from(std::string_view text, std::size_t p, std::string_view key) {
  // Keys are written in order (nlohmann::json objects are sorted maps), so the search for an
  // ASCII key ends at the first key past it. (Invalid UTF-8, written replaced, can change the
  // order among non-ASCII keys, but not their order against an ASCII one.)
  const bool ordered = std::all_of(key.begin(), key.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  while (p < text.size() && text[p] != '}') {
    const std::size_t key_begin = p;
    bool escaped = false;
    const std::size_t key_end = detail::skip_string(text, p, &escaped);
    const std::string_view raw = text.substr(key_begin + 1, key_end - key_begin - 2);
    // Most keys differ from the one looked for in their first byte, which then decides.
    int order;
    if (escaped) {
      order = std::string_view(decode_string(raw)).compare(key);
    } else if (!raw.empty() && !key.empty() && raw[0] != key[0]) {
      order = static_cast<unsigned char>(raw[0]) < static_cast<unsigned char>(key[0]) ? -1 : 1;
    } else {
      order = raw.compare(key);
    }
    if (order > 0 && ordered) return std::nullopt;
    const std::size_t value_begin = key_end + 1;  // past ':'
    const std::size_t value_end = skip_value(text, value_begin);
    if (order == 0) return Member{raw, escaped, key_begin, value_begin, value_end};
    p = value_end;
    if (p < text.size() && text[p] == ',') ++p;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Member> find_member(std::string_view text, std::size_t pos, std::string_view key) {
  return find_member_from(text, pos + 1, key);  // past '{'
}

std::optional<Member> find_member_after(std::string_view text, std::size_t after,
                                        std::string_view key) {
  if (after >= text.size() || text[after] != ',') return std::nullopt;
  return find_member_from(text, after + 1, key);
}

std::string_view raw_string(std::string_view text, std::size_t begin, std::size_t end) {
  if (end < begin + 2) return {};
  return text.substr(begin + 1, end - begin - 2);
}

std::string decode_string(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (c != '\\' || i + 1 >= raw.size()) {
      out += c;
      continue;
    }
    const char e = raw[++i];
    switch (e) {
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        std::uint32_t cp = hex4(raw, i + 1);
        i += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && i + 6 < raw.size() && raw[i + 1] == '\\' &&
            raw[i + 2] == 'u') {
          const std::uint32_t low = hex4(raw, i + 3);
          if (low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            i += 6;
          }
        }
        append_utf8(cp, out);
        break;
      }
      default:  // '"', '\\', '/'
        out += e;
    }
  }
  return out;
}

}  // namespace kubesim::api::internal::json_text
