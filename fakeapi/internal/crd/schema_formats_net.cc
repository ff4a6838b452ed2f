// Go's net, net/url and net/mail parsers as far as strfmt's format checks need them, and
// strfmt's hostname rule.
#include "fakeapi/internal/crd/schema_formats_net.h"

#include <cstdint>
#include <string>
#include <vector>

#include "fakeapi/internal/encoding/go_compat.h"

namespace kubesim::fakeapi::internal {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// The old net package's parseIPv4 (sloppy: fields may have leading zeros) or netip's.
bool ipv4(std::string_view s, bool sloppy) {
  for (int field = 0; field < 4; ++field) {
    if (field > 0) {
      if (s.empty() || s[0] != '.') return false;
      s.remove_prefix(1);
    }
    std::size_t i = 0;
    int n = 0;
    while (i < s.size() && is_digit(s[i]) && n <= 0xFFFFFF) n = n * 10 + (s[i++] - '0');
    if (i == 0 || n > 255 || (!sloppy && (i > 3 || (i > 1 && s[0] == '0')))) return false;
    s.remove_prefix(i);
  }
  return s.empty();
}

// parseIPv6: hex fields (at most 4 digits unless sloppy), one "::", a trailing IPv4 address.
bool ipv6(std::string_view s, bool sloppy) {
  int ellipsis = -1;
  int i = 0;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s.remove_prefix(2);
    if (s.empty()) return true;
  }
  while (i < 16) {
    std::size_t c = 0;
    std::uint32_t n = 0;
    while (c < s.size() && hex_value(s[c]) >= 0 && n <= 0xFFFFFF) n = n * 16 + hex_value(s[c++]);
    if (c == 0 || n > 0xFFFF || (!sloppy && c > 4)) return false;
    if (c < s.size() && s[c] == '.') {
      if ((ellipsis < 0 && i != 12) || i + 4 > 16 || !ipv4(s, sloppy)) return false;
      i += 4;
      s = {};
      break;
    }
    i += 2;
    s.remove_prefix(c);
    if (s.empty()) break;
    if (s[0] != ':' || s.size() == 1) return false;
    s.remove_prefix(1);
    if (s[0] == ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      s.remove_prefix(1);
      if (s.empty()) break;
    }
  }
  if (!s.empty()) return false;
  return i < 16 ? ellipsis >= 0 : ellipsis < 0;
}

// Runes of strfmt's hostname pattern: [a-zA-Z0-9\p{S}\p{L}], and [a-zA-Z\p{L}] for the last
// label. Every non-ASCII rune counts as a letter or a symbol here.
bool host_rune(std::uint32_t r) {
  if (r >= 0x80) return true;
  const char c = static_cast<char>(r);
  return is_alnum(c) || std::string_view("$+<=>^`|~").find(c) != std::string_view::npos;
}
bool tld_rune(std::uint32_t r) {
  return r >= 0x80 || (is_alnum(static_cast<char>(r)) && !is_digit(static_cast<char>(r)));
}

std::vector<std::uint32_t> runes(std::string_view s) {
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t r = 0;
    const std::size_t n = decode_utf8(s, i, r);
    out.push_back(n == 0 ? 0xFFFD : r);
    i += n == 0 ? 1 : n;
  }
  return out;
}

// The shapes of one label before the last: X, or X then up to 61 of X or '-', then X.
bool inner_label(std::string_view label) {
  const std::vector<std::uint32_t> r = runes(label);
  if (r.empty() || r.size() > 63 || !host_rune(r.front()) || !host_rune(r.back())) return false;
  for (std::uint32_t c : r) {
    if (!host_rune(c) && c != '-') return false;
  }
  return true;
}

// A lone label: X, an optional '-', then up to 62 of X.
bool lone_label(std::string_view label) {
  const std::vector<std::uint32_t> r = runes(label);
  if (r.empty() || !host_rune(r[0])) return false;
  std::size_t i = 1;
  if (i < r.size() && r[i] == '-') ++i;
  if (r.size() - i > 62) return false;
  for (; i < r.size(); ++i) {
    if (!host_rune(r[i])) return false;
  }
  return true;
}

bool valid_escapes(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') continue;
    if (i + 2 >= s.size() || hex_value(s[i + 1]) < 0 || hex_value(s[i + 2]) < 0) return false;
    i += 2;
  }
  return true;
}

bool valid_optional_port(std::string_view port) {
  if (port.empty()) return true;
  if (port[0] != ':') return false;
  for (char c : port.substr(1)) {
    if (!is_digit(c)) return false;
  }
  return true;
}

// url's parseHost and the host mode of its unescape: brackets around an IPv6 literal, a numeric
// port, valid escapes, and no ASCII character the host mode escapes.
bool valid_host(std::string_view host) {
  std::string_view name = host;
  if (!host.empty() && host[0] == '[') {
    const std::size_t close = host.rfind(']');
    if (close == std::string_view::npos || !valid_optional_port(host.substr(close + 1)))
      return false;
    name = host.substr(0, close + 1);
  } else if (const std::size_t colon = host.rfind(':'); colon != std::string_view::npos) {
    if (!valid_optional_port(host.substr(colon))) return false;
  }
  if (!valid_escapes(name)) return false;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80 || is_alnum(c) ||
        std::string_view("-_.~!$&'()*+,;=:[]<>\"%").find(c) != std::string_view::npos) {
      continue;
    }
    return false;
  }
  return true;
}

bool valid_userinfo(std::string_view s) {
  for (char c : s) {
    if (!is_alnum(c) && std::string_view("-._:~!$&'()*+,;=%@").find(c) == std::string_view::npos) {
      return false;
    }
  }
  return valid_escapes(s);
}

// net/mail's address parser, over the part of the text not yet read.
class MailParser {
 public:
  explicit MailParser(std::string_view s) : s_(s) {}

  // parseSingleAddress with the group syntax left out.
  bool single_address() {
    skip_space();
    if (s_.empty()) return false;
    const std::string_view before = s_;
    if (addr_spec()) {
      skip_space();
      if (!s_.empty() && s_[0] == '(' && !comment()) return false;
    } else {
      s_ = before;
      if (!s_.empty() && s_[0] != '<' && !phrase()) return false;
      skip_space();
      if (!consume('<') || !addr_spec() || !consume('>')) return false;
    }
    // skipCFWS, then nothing may be left.
    skip_space();
    while (!s_.empty() && s_[0] == '(') {
      if (!comment()) return false;
      skip_space();
    }
    return s_.empty();
  }

 private:
  static bool vchar(std::uint32_t r) { return (r >= '!' && r <= '~') || r >= 0x80; }
  static bool atext(std::uint32_t r, bool dot) {
    if (r == '.') return dot;
    if (r < 0x80 &&
        std::string_view("()<>[]:;@\\,\"").find(static_cast<char>(r)) != std::string_view::npos) {
      return false;
    }
    return vchar(r);
  }

  void skip_space() {
    while (!s_.empty() && (s_[0] == ' ' || s_[0] == '\t')) s_.remove_prefix(1);
  }
  bool consume(char c) {
    if (s_.empty() || s_[0] != c) return false;
    s_.remove_prefix(1);
    return true;
  }
  // The next rune; 0 length at the end, and false for invalid UTF-8.
  bool next_rune(std::size_t at, std::uint32_t& r, std::size_t& size) const {
    if (at >= s_.size()) {
      size = 0;
      return true;
    }
    size = decode_utf8(s_, at, r);
    return size != 0;
  }

  // consumeAtom(dot=true, permissive): a dot-atom, with the dots checked unless permissive.
  bool atom(bool permissive) {
    std::size_t i = 0;
    for (;;) {
      std::uint32_t r = 0;
      std::size_t size = 0;
      if (!next_rune(i, r, size)) return false;
      if (size == 0 || !atext(r, true)) break;
      i += size;
    }
    if (i == 0) return false;
    const std::string_view a = s_.substr(0, i);
    s_.remove_prefix(i);
    return permissive ||
           (a.front() != '.' && a.back() != '.' && a.find("..") == std::string_view::npos);
  }

  bool quoted_string(bool& empty) {
    std::size_t i = 1;
    bool escaped = false;
    empty = true;
    for (;;) {
      std::uint32_t r = 0;
      std::size_t size = 0;
      if (!next_rune(i, r, size) || size == 0) return false;
      const bool wsp = r == ' ' || r == '\t';
      if (escaped) {
        if (!vchar(r) && !wsp) return false;
        escaped = false;
        empty = false;
      } else if ((vchar(r) && r != '\\' && r != '"') || wsp) {
        empty = false;
      } else if (r == '"') {
        break;
      } else if (r == '\\') {
        escaped = true;
      } else {
        return false;
      }
      i += size;
    }
    s_.remove_prefix(i + 1);
    return true;
  }

  bool domain_literal() {
    s_.remove_prefix(1);
    const std::size_t close = s_.find(']');
    if (close == std::string_view::npos) return false;
    const std::string_view dtext = s_.substr(0, close);
    for (std::size_t i = 0; i < dtext.size();) {
      std::uint32_t r = 0;
      const std::size_t n = decode_utf8(dtext, i, r);
      if (n == 0 || r == '[' || r == '\\' || !vchar(r)) return false;
      i += n;
    }
    s_.remove_prefix(close + 1);
    return go_ip(dtext, false);
  }

  bool addr_spec() {
    const std::string_view before = s_;
    skip_space();
    bool ok = false;
    if (!s_.empty() && s_[0] == '"') {
      bool empty = true;
      ok = quoted_string(empty) && !empty;
    } else {
      ok = !s_.empty() && atom(false);
    }
    if (ok) ok = consume('@');
    if (ok) {
      skip_space();
      ok = !s_.empty() && (s_[0] == '[' ? domain_literal() : atom(false));
    }
    if (!ok) s_ = before;
    return ok;
  }

  // A display name: words (atoms with dots, or quoted strings) up to the first that fails.
  bool phrase() {
    int words = 0;
    for (;;) {
      skip_space();
      if (s_.empty()) break;
      const std::string_view before = s_;
      bool empty = true;
      const bool ok = s_[0] == '"' ? quoted_string(empty) : atom(true);
      if (!ok) {
        s_ = before;
        break;
      }
      ++words;
    }
    return words > 0;
  }

  // consumeComment after a '(': nested parentheses and backslash escapes, up to the match.
  bool comment() {
    s_.remove_prefix(1);
    int depth = 1;
    while (!s_.empty() && depth > 0) {
      if (s_[0] == '\\' && s_.size() > 1) {
        s_.remove_prefix(1);
      } else if (s_[0] == '(') {
        ++depth;
      } else if (s_[0] == ')') {
        --depth;
      }
      s_.remove_prefix(1);
    }
    return depth == 0;
  }

  std::string_view s_;
};

}  // namespace

bool go_ip(std::string_view s, bool sloppy) {
  for (char c : s) {
    if (c == '.') return ipv4(s, sloppy);
    if (c == ':') return ipv6(s, sloppy);
  }
  return false;
}

bool cidr(std::string_view s) {
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  const std::string_view addr = s.substr(0, slash);
  const std::string_view mask = s.substr(slash + 1);
  int bits = 32;
  if (!ipv4(addr, true)) {
    if (!ipv6(addr, true)) return false;
    bits = 128;
  }
  if (mask.empty()) return false;
  int n = 0;
  for (char c : mask) {
    if (!is_digit(c)) return false;
    n = n * 10 + (c - '0');
    if (n >= 0xFFFFFF) return false;
  }
  return n <= bits;
}

bool mac(std::string_view s) {
  if (s.size() < 14) return false;
  auto hex_pair = [&](std::size_t at) {
    return hex_value(s[at]) >= 0 && hex_value(s[at + 1]) >= 0;
  };
  if (s[2] == ':' || s[2] == '-') {
    if ((s.size() + 1) % 3 != 0) return false;
    const std::size_t n = (s.size() + 1) / 3;
    if (n != 6 && n != 8 && n != 20) return false;
    for (std::size_t i = 0, x = 0; i < n; ++i, x += 3) {
      if (!hex_pair(x) || (x + 2 < s.size() && s[x + 2] != s[2])) return false;
    }
    return true;
  }
  if (s[4] == '.') {
    if ((s.size() + 1) % 5 != 0) return false;
    const std::size_t n = 2 * (s.size() + 1) / 5;
    if (n != 6 && n != 8 && n != 20) return false;
    for (std::size_t i = 0, x = 0; i < n; i += 2, x += 5) {
      if (!hex_pair(x) || !hex_pair(x + 2) || (x + 4 < s.size() && s[x + 4] != '.')) return false;
    }
    return true;
  }
  return false;
}

bool hostname(std::string_view s) {
  if (s.size() > 255) return false;
  std::vector<std::string_view> labels;
  for (std::size_t start = 0;;) {
    const std::size_t dot = s.find('.', start);
    labels.push_back(s.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  for (std::string_view label : labels) {
    if (label.size() > 63) return false;
  }
  if (labels.size() == 1) return lone_label(s);
  for (std::size_t i = 0; i + 1 < labels.size(); ++i) {
    if (!inner_label(labels[i])) return false;
  }
  const std::vector<std::uint32_t> tld = runes(labels.back());
  if (tld.size() < 2 || tld.size() > 63) return false;
  for (std::uint32_t r : tld) {
    if (!tld_rune(r)) return false;
  }
  return true;
}

bool request_uri(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  }
  if (s.empty()) return false;
  if (s == "*") return true;
  // getScheme: letters, then letters, digits, '+', '-' or '.', up to a ':'.
  bool scheme = false;
  std::string_view rest = s;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (is_alnum(c) && !is_digit(c)) continue;
    if (is_digit(c) || c == '+' || c == '-' || c == '.') {
      if (i == 0) break;
      continue;
    }
    if (c == ':') {
      if (i == 0) return false;
      scheme = true;
      rest = s.substr(i + 1);
    }
    break;
  }
  if (!rest.empty() && rest.back() == '?' && rest.find('?') == rest.size() - 1) {
    rest.remove_suffix(1);
  } else {
    rest = rest.substr(0, rest.find('?'));
  }
  if (rest.empty() || rest[0] != '/') return scheme;  // opaque with a scheme
  if (scheme && rest.substr(0, 2) == "//") {
    rest.remove_prefix(2);
    const std::size_t slash = rest.find('/');
    const std::string_view authority = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    const std::size_t at = authority.rfind('@');
    if (at == std::string_view::npos) {
      if (!valid_host(authority)) return false;
    } else if (!valid_host(authority.substr(at + 1)) || !valid_userinfo(authority.substr(0, at))) {
      return false;
    }
  }
  return valid_escapes(rest);
}

bool email_address(std::string_view s) { return MailParser(s).single_address(); }

}  // namespace kubesim::fakeapi::internal
