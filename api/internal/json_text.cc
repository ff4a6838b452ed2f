#include "api/internal/json_text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <system_error>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kubesim::api::internal::json_text {
namespace {

using Json = nlohmann::json;

// Bytes that cannot be written as they are: controls, '"', '\\' and (nlohmann's to check) UTF-8.
constexpr auto kNeedsCare = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
  return t;
}();

// The length of the prefix of `s` that needs no escaping.
std::size_t plain_prefix(std::string_view s) {
  std::size_t i = 0;
#if defined(__SSE2__)
  if (s.size() >= 16) {
    // 16 bytes at a time: a signed compare with 0x20 flags control bytes and bytes >= 0x80 alike.
    const __m128i space = _mm_set1_epi8(0x20);
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const auto bad_bits = [&](std::size_t at) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + at));
      return _mm_movemask_epi8(_mm_or_si128(
          _mm_cmplt_epi8(x, space),
          _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash))));
    };
    for (; i + 16 <= s.size(); i += 16) {
      if (const int bad = bad_bits(i); bad != 0) {
        return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(bad)));
      }
    }
    if (i == s.size()) return i;
    // The tail, as the last 16 bytes (overlapping what is already known to be plain).
    const std::size_t last = s.size() - 16;
    const int bad = bad_bits(last);
    return bad == 0 ? s.size() : last + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(bad)));
  }
#endif
  while (i < s.size() && !kNeedsCare[static_cast<unsigned char>(s[i])]) ++i;
  return i;
}

std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

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

std::size_t skip_string(std::string_view text, std::size_t pos) {
  std::size_t p = pos + 1;  // past the opening quote
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
    if (text[p] == '"') return p + 1;
    p += 2;  // an escape and the byte it escapes
  }
#endif
  while (p < text.size()) {
    const char c = text[p];
    if (c == '"') return p + 1;
    p += c == '\\' ? 2 : 1;
  }
  return text.size();
}

}  // namespace detail

namespace {

// Appends to a std::string through a cursor, growing it in steps rather than per byte; the
// string is cut to what was written when the Out goes away.
class Out {
 public:
  explicit Out(std::string& s) : s_(s) {
    const std::size_t len = s_.size();
    s_.resize(len + 256);
    p_ = s_.data() + len;
    end_ = s_.data() + s_.size();
  }
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;
  ~Out() { s_.resize(static_cast<std::size_t>(p_ - s_.data())); }

  void put(char c) {
    if (p_ == end_) grow(1);
    *p_++ = c;
  }
  void put(std::string_view v) {
    if (static_cast<std::size_t>(end_ - p_) < v.size()) grow(v.size());
    std::memcpy(p_, v.data(), v.size());
    p_ += v.size();
  }
  // `v` between double quotes.
  void put_quoted(std::string_view v) {
    if (static_cast<std::size_t>(end_ - p_) < v.size() + 2) grow(v.size() + 2);
    *p_++ = '"';
    std::memcpy(p_, v.data(), v.size());
    p_ += v.size();
    *p_++ = '"';
  }

 private:
  void grow(std::size_t n) {
    const std::size_t len = static_cast<std::size_t>(p_ - s_.data());
    s_.resize(std::max(s_.size() * 2, len + n + 256));
    p_ = s_.data() + len;
    end_ = s_.data() + s_.size();
  }

  std::string& s_;
  char* p_;
  char* end_;
};

void put_string(std::string_view s, Out& out) {
  const std::size_t plain = plain_prefix(s);
  if (plain == s.size()) {
    out.put_quoted(s);
    return;
  }
  for (std::size_t i = plain; i < s.size(); ++i) {
    if (static_cast<unsigned char>(s[i]) >= 0x80) {
      // UTF-8 (and its replacement when invalid) is nlohmann's to write.
      out.put(dump(Json(std::string(s))));
      return;
    }
  }
  out.put('"');
  out.put(s.substr(0, plain));
  for (std::size_t i = plain; i < s.size(); ++i) {
    const char c = s[i];
    switch (c) {
      case '"':
        out.put("\\\"");
        break;
      case '\\':
        out.put("\\\\");
        break;
      case '\b':
        out.put("\\b");
        break;
      case '\t':
        out.put("\\t");
        break;
      case '\n':
        out.put("\\n");
        break;
      case '\f':
        out.put("\\f");
        break;
      case '\r':
        out.put("\\r");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out.put(std::string_view(buf, 6));
        } else {
          out.put(c);
        }
    }
  }
  out.put('"');
}

template <typename Int>
void put_int(Int v, Out& out) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.put(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
}

void put_value(const Json& j, Out& out) {
  switch (j.type()) {
    case Json::value_t::object: {
      out.put('{');
      bool first = true;
      for (const auto& [key, value] : j.get_ref<const Json::object_t&>()) {
        if (!first) out.put(',');
        first = false;
        put_string(key, out);
        out.put(':');
        put_value(value, out);
      }
      out.put('}');
      return;
    }
    case Json::value_t::array: {
      out.put('[');
      bool first = true;
      for (const Json& e : j.get_ref<const Json::array_t&>()) {
        if (!first) out.put(',');
        first = false;
        put_value(e, out);
      }
      out.put(']');
      return;
    }
    case Json::value_t::string:
      put_string(j.get_ref<const std::string&>(), out);
      return;
    case Json::value_t::number_integer:
      put_int(j.get<std::int64_t>(), out);
      return;
    case Json::value_t::number_unsigned:
      put_int(j.get<std::uint64_t>(), out);
      return;
    case Json::value_t::boolean:
      out.put(j.get<bool>() ? std::string_view("true") : std::string_view("false"));
      return;
    case Json::value_t::null:
      out.put("null");
      return;
    default:  // floats, binary, discarded: as nlohmann writes them
      out.put(dump(j));
      return;
  }
}

}  // namespace

void write_string(std::string_view s, std::string& out) {
  Out o(out);
  put_string(s, o);
}

void write(const Json& j, std::string& out) {
  Out o(out);
  put_value(j, o);
}

std::string write(const Json& j) {
  std::string out;
  write(j, out);
  return out;
}

Json parse(std::string_view text) { return Parser(text).value(); }

namespace {

// Whether `quoted` (a string's text, quotes included) is what write_string(s) writes.
bool same_string(std::string_view quoted, const std::string& s) {
  const std::string_view raw = quoted.substr(1, quoted.size() - 2);
  if (raw == s) return raw.find('\\') == std::string_view::npos;
  // Escapes, and invalid UTF-8 written replaced, need the written form.
  std::string written;
  write_string(s, written);
  return written == quoted;
}

template <typename Int>
bool same_int(Int v, std::string_view text) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return text == std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
}

}  // namespace

bool equals_except(const Json& j, std::string_view text, std::string_view except) {
  if (!j.is_object() || text.empty() || text.front() != '{') return false;
  const auto& members = j.get_ref<const Json::object_t&>();
  auto it = members.begin();
  const auto skip_except = [&] {
    if (!except.empty() && it != members.end() && it->first == except) ++it;
  };
  skip_except();
  bool same = true;
  const std::size_t end = for_each_member(text, 0, [&](const Member& m) {
    if (!except.empty() && (m.escaped_key ? decode_string(m.raw_key) == except : m.raw_key == except)) {
      return true;
    }
    if (it == members.end() ||
        !same_string(text.substr(m.key_begin, m.raw_key.size() + 2), it->first) ||
        !equals(it->second, text.substr(m.value_begin, m.value_end - m.value_begin))) {
      same = false;
      return false;
    }
    ++it;
    skip_except();
    return true;
  });
  return same && end != std::string_view::npos && it == members.end();
}

bool equals(const Json& j, std::string_view text) {
  if (text.empty()) return false;
  switch (j.type()) {
    case Json::value_t::object:
      return equals_except(j, text, {});
    case Json::value_t::array: {
      if (text.front() != '[') return false;
      const auto& elements = j.get_ref<const Json::array_t&>();
      std::size_t i = 0;
      bool same = true;
      for_each_element(text, 0, [&](std::size_t b, std::size_t e) {
        if (!same) return;
        same = i < elements.size() && equals(elements[i], text.substr(b, e - b));
        ++i;
      });
      return same && i == elements.size();
    }
    case Json::value_t::string: {
      if (text.front() != '"') return false;
      return text.size() >= 2 && same_string(text, j.get_ref<const std::string&>());
    }
    case Json::value_t::number_integer:
      return same_int(j.get<std::int64_t>(), text);
    case Json::value_t::number_unsigned:
      return same_int(j.get<std::uint64_t>(), text);
    case Json::value_t::boolean:
      return text == (j.get<bool>() ? "true" : "false");
    case Json::value_t::null:
      return text == "null";
    default:
      return text == dump(j);
  }
}

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

std::optional<Member> find_member(std::string_view text, std::size_t pos, std::string_view key) {
  // Keys are written in order (nlohmann::json objects are sorted maps), so the search for an
  // ASCII key ends at the first key past it. (Invalid UTF-8, written replaced, can change the
  // order among non-ASCII keys, but not their order against an ASCII one.)
  const bool ordered = std::all_of(key.begin(), key.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  std::size_t p = pos + 1;  // past '{'
  while (p < text.size() && text[p] != '}') {
    const std::size_t key_begin = p;
    const std::size_t key_end = detail::skip_string(text, p);
    const std::string_view raw = text.substr(key_begin + 1, key_end - key_begin - 2);
    const bool escaped = raw.find('\\') != std::string_view::npos;
    const int order = escaped ? std::string_view(decode_string(raw)).compare(key) : raw.compare(key);
    if (order > 0 && ordered) return std::nullopt;
    const std::size_t value_begin = key_end + 1;  // past ':'
    const std::size_t value_end = skip_value(text, value_begin);
    if (order == 0) return Member{raw, escaped, key_begin, value_begin, value_end};
    p = value_end;
    if (p < text.size() && text[p] == ',') ++p;
  }
  return std::nullopt;
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
