// xml_problem: a small XML 1.0 well-formedness checker for the tests of the JUnit file and the
// timeline SVG — elements nest and close, attributes are quoted, every & starts a character or
// entity reference, no control character or broken UTF-8 appears, and there is one root.
// Returns "" for a well-formed document, else what is wrong and where.
#ifndef KUBESIM_TESTS_SCENARIOS_CLI_XML_CHECK_H_
#define KUBESIM_TESTS_SCENARIOS_CLI_XML_CHECK_H_

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kubesim::tools::testing {

namespace xml_detail {

inline bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' ||
         c == '.';
}

// The problem with the character data text[from, to) (text or an attribute value), or "".
inline std::string data_problem(std::string_view text, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u < 0x20 && u != '\t' && u != '\n' && u != '\r') {
      return "control character at " + std::to_string(i);
    }
    if (text[i] == '<') return "raw < at " + std::to_string(i);
    if (u >= 0x80) {
      const std::size_t n = u >= 0xF0 ? 4 : u >= 0xE0 ? 3 : u >= 0xC2 ? 2 : 0;
      if (n == 0 || i + n > to) return "bad UTF-8 at " + std::to_string(i);
      for (std::size_t k = 1; k < n; ++k) {
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) {
          return "bad UTF-8 at " + std::to_string(i);
        }
      }
      i += n - 1;
      continue;
    }
    if (text[i] != '&') continue;
    const std::size_t semi = text.find(';', i);
    if (semi == std::string_view::npos || semi >= to) return "unterminated & at " + std::to_string(i);
    const std::string_view ref = text.substr(i + 1, semi - i - 1);
    const bool named = ref == "amp" || ref == "lt" || ref == "gt" || ref == "quot" || ref == "apos";
    bool numeric = ref.size() >= 2 && ref[0] == '#';
    for (std::size_t k = 1; numeric && k < ref.size(); ++k) {
      numeric = std::isxdigit(static_cast<unsigned char>(ref[k])) || (k == 1 && ref[k] == 'x');
    }
    if (!named && !numeric) return "bad reference &" + std::string(ref) + "; at " + std::to_string(i);
    i = semi;
  }
  return "";
}

}  // namespace xml_detail

inline std::string xml_problem(std::string_view doc) {
  using namespace xml_detail;
  std::vector<std::string> open;
  int roots = 0;
  std::size_t i = 0;
  while (i < doc.size()) {
    if (doc[i] != '<') {
      const std::size_t next = std::min(doc.find('<', i), doc.size());
      if (auto p = data_problem(doc, i, next); !p.empty()) return p;
      if (open.empty() && doc.substr(i, next - i).find_first_not_of(" \t\r\n") != std::string_view::npos) {
        return "text outside the root at " + std::to_string(i);
      }
      i = next;
      continue;
    }
    if (doc.substr(i, 2) == "<?") {
      const std::size_t end = doc.find("?>", i);
      if (end == std::string_view::npos) return "unterminated <? at " + std::to_string(i);
      i = end + 2;
      continue;
    }
    if (doc.substr(i, 4) == "<!--") {
      const std::size_t end = doc.find("-->", i);
      if (end == std::string_view::npos) return "unterminated comment at " + std::to_string(i);
      i = end + 3;
      continue;
    }
    const bool closing = doc.substr(i, 2) == "</";
    std::size_t k = i + (closing ? 2 : 1);
    const std::size_t name_start = k;
    while (k < doc.size() && name_char(doc[k])) ++k;
    const std::string name(doc.substr(name_start, k - name_start));
    if (name.empty()) return "a tag without a name at " + std::to_string(i);
    if (closing) {
      if (open.empty() || open.back() != name) return "</" + name + "> does not close the open element";
      open.pop_back();
      while (k < doc.size() && std::isspace(static_cast<unsigned char>(doc[k]))) ++k;
      if (k >= doc.size() || doc[k] != '>') return "bad closing tag at " + std::to_string(i);
      i = k + 1;
      continue;
    }
    std::vector<std::string> attributes;
    for (;;) {
      while (k < doc.size() && std::isspace(static_cast<unsigned char>(doc[k]))) ++k;
      if (k >= doc.size()) return "unterminated tag <" + name;
      if (doc[k] == '>' || doc.substr(k, 2) == "/>") break;
      const std::size_t a = k;
      while (k < doc.size() && name_char(doc[k])) ++k;
      const std::string attribute(doc.substr(a, k - a));
      if (attribute.empty() || k + 1 >= doc.size() || doc[k] != '=' || (doc[k + 1] != '"' && doc[k + 1] != '\'')) {
        return "bad attribute in <" + name + " at " + std::to_string(k);
      }
      for (const auto& seen : attributes) {
        if (seen == attribute) return "attribute " + attribute + " twice in <" + name;
      }
      attributes.push_back(attribute);
      const char quote = doc[k + 1];
      const std::size_t end = doc.find(quote, k + 2);
      if (end == std::string_view::npos) return "unterminated attribute in <" + name;
      if (auto p = data_problem(doc, k + 2, end); !p.empty()) return p;
      k = end + 1;
    }
    const bool empty = doc[k] == '/';
    if (open.empty()) ++roots;
    if (roots > 1) return "more than one root element";
    if (!empty) open.push_back(name);
    i = k + (empty ? 2 : 1);
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  if (roots != 1) return "no root element";
  return "";
}

}  // namespace kubesim::tools::testing

#endif  // KUBESIM_TESTS_SCENARIOS_CLI_XML_CHECK_H_
