// json_text's writer, and the comparisons with what it writes.
#include "api/internal/json_text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>

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

}  // namespace

namespace detail {

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
    if (bad == 0) return s.size();
    return last + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(bad)));
  }
#endif
  while (i < s.size() && !kNeedsCare[static_cast<unsigned char>(s[i])]) ++i;
  return i;
}

}  // namespace detail

namespace {

std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

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
  const std::size_t plain = detail::plain_prefix(s);
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
    if (!except.empty()) {
      const std::string_view key = m.raw_key;
      if (m.escaped_key ? decode_string(key) == except : key == except) return true;
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

}  // namespace kubesim::api::internal::json_text
