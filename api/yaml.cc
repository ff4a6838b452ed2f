#include "kubesim/api/yaml.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "kubesim/api/go_strings.h"

namespace kubesim::api {
namespace {

constexpr int kMaxDepth = 256;

bool one_of(std::string_view s, std::initializer_list<std::string_view> options) {
  for (auto o : options) {
    if (s == o) return true;
  }
  return false;
}

// An integer in go-yaml v2's syntax: [-+]?(0b[01_]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|[0-9_]+).
std::optional<nlohmann::json> parse_int(std::string_view s) {
  bool neg = false;
  std::string_view body = s;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    neg = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body.empty()) return std::nullopt;
  int base = 10;
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
    base = 16;
    body.remove_prefix(2);
  } else if (body.size() > 2 && body[0] == '0' && (body[1] == 'b' || body[1] == 'B')) {
    base = 2;
    body.remove_prefix(2);
  } else if (body.size() > 2 && body[0] == '0' && body[1] == 'o') {
    base = 8;
    body.remove_prefix(2);
  } else if (body.size() > 1 && body[0] == '0') {
    base = 8;
    body.remove_prefix(1);
  }
  std::string digits;
  for (char c : body) {
    if (c == '_') continue;
    const bool ok = base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                               : (c >= '0' && c < static_cast<char>('0' + std::min(base, 10)));
    if (!ok) return std::nullopt;
    digits += c;
  }
  if (digits.empty()) return std::nullopt;
  errno = 0;
  const unsigned long long v = std::strtoull(digits.c_str(), nullptr, base);
  if (errno == ERANGE) return std::nullopt;
  if (!neg && v <= static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max())) {
    return nlohmann::json(static_cast<std::int64_t>(v));
  }
  if (!neg) return nlohmann::json(static_cast<std::uint64_t>(v));
  if (v <= static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max()) + 1ULL) {
    return nlohmann::json(static_cast<std::int64_t>(0ULL - v));
  }
  return std::nullopt;
}

std::optional<nlohmann::json> parse_float(std::string_view s) {
  if (one_of(s, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"})) {
    return nlohmann::json(std::numeric_limits<double>::infinity());
  }
  if (one_of(s, {"-.inf", "-.Inf", "-.INF"})) {
    return nlohmann::json(-std::numeric_limits<double>::infinity());
  }
  if (one_of(s, {".nan", ".NaN", ".NAN"})) return nlohmann::json(std::nan(""));
  // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t digits = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i, ++digits;
  }
  if (digits == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    std::size_t exp = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++exp;
    if (exp == 0) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  std::string clean;
  for (char c : s) {
    if (c != '_') clean += c;
  }
  return nlohmann::json(std::strtod(clean.c_str(), nullptr));
}

nlohmann::json resolve_plain(const std::string& s) {
  if (one_of(s, {"", "~", "null", "Null", "NULL"})) return nullptr;
  if (one_of(s, {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y"})) {
    return true;
  }
  if (one_of(s, {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N"})) {
    return false;
  }
  if (auto i = parse_int(s)) return *i;
  if (auto f = parse_float(s)) return *f;
  return s;
}

class Converter {
 public:
  api::Result<nlohmann::json> convert(const YAML::Node& node, int depth) {
    if (depth > kMaxDepth) return fail(node, "nesting deeper than " + std::to_string(kMaxDepth));
    if (++nodes_ > kMaxYamlNodes) return fail(node, "document expands to too many nodes");
    switch (node.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null:
        return nlohmann::json(nullptr);
      case YAML::NodeType::Scalar:
        return scalar(node);
      case YAML::NodeType::Sequence: {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& item : node) {
          auto v = convert(item, depth + 1);
          if (!v) return v;
          out.push_back(std::move(v.value()));
        }
        return out;
      }
      case YAML::NodeType::Map: {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& kv : node) {
          auto key = convert(kv.first, depth + 1);
          if (!key) return key;
          auto v = convert(kv.second, depth + 1);
          if (!v) return v;
          const nlohmann::json& k = key.value();
          out[k.is_string() ? k.get<std::string>() : k.dump()] = std::move(v.value());
        }
        return out;
      }
    }
    return nlohmann::json(nullptr);
  }

 private:
  static api::Result<nlohmann::json> scalar(const YAML::Node& node) {
    const std::string& tag = node.Tag();
    const std::string& value = node.Scalar();
    if (!valid_utf8(value)) return fail(node, "invalid UTF-8 in a scalar");
    if (tag == "!" || tag == "tag:yaml.org,2002:str") return nlohmann::json(value);
    if (tag == "?" || tag.empty()) return resolve_plain(value);
    if (tag == "tag:yaml.org,2002:int") {
      if (auto i = parse_int(value)) return *i;
    } else if (tag == "tag:yaml.org,2002:float") {
      if (auto f = parse_float(value)) return *f;
      if (auto i = parse_int(value)) return nlohmann::json(i->get<double>());
    } else if (tag == "tag:yaml.org,2002:bool" || tag == "tag:yaml.org,2002:null") {
      nlohmann::json r = resolve_plain(value);
      if ((tag.back() == 'l' && r.is_boolean()) || (tag.back() != 'l' && r.is_null())) return r;
    } else {
      return resolve_plain(value);  // unknown tags are ignored, as go-yaml does for maps
    }
    return fail(node, "cannot decode " + value + " as " + tag);
  }

  static api::Status fail(const YAML::Node& node, const std::string& what) {
    const YAML::Mark mark = node.Mark();
    return api::new_bad_request("error converting YAML to JSON: yaml: line " +
                                std::to_string(mark.line + 1) + ": " + what);
  }

  std::size_t nodes_ = 0;
};

}  // namespace

namespace {

YamlPlace place_of(const YAML::Mark& m) {
  return YamlPlace{m.line, m.column, m.pos < 0 ? 0 : static_cast<std::size_t>(m.pos)};
}

// Where a document's root starts, and whether the root is a lone null.
class RootProbe : public YAML::EventHandler {
 public:
  bool lone_null = false;
  YAML::Mark mark = YAML::Mark::null_mark();

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { root(m, true); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { root(m, false); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override {
    root(m, false);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    root(m, false);
    ++depth_;
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    root(m, false);
    ++depth_;
  }
  void OnMapEnd() override { --depth_; }

 private:
  void root(const YAML::Mark& m, bool null) {
    if (depth_ != 0 || seen_) return;
    seen_ = true;
    lone_null = null;
    mark = m;
  }

  int depth_ = 0;
  bool seen_ = false;
};

}  // namespace

YamlScan scan_yaml_documents(std::string_view text, std::size_t max_documents) {
  YamlScan out;
  try {
    std::istringstream stream{std::string(text)};
    YAML::Parser parser(stream);
    bool last_lone_null = false;
    while (max_documents == 0 || out.roots.size() < max_documents) {
      RootProbe probe;
      if (!parser.HandleNextDocument(probe)) break;
      const YamlPlace place = place_of(probe.mark);
      if (!out.roots.empty() && probe.lone_null && last_lone_null && place.pos == out.roots.back().pos) {
        out.stalled_at = place;
        break;
      }
      last_lone_null = probe.lone_null;
      out.roots.push_back(place);
    }
  } catch (const YAML::Exception& e) {
    out.error = std::pair{place_of(e.mark), e.msg};
  }
  return out;
}

api::Result<std::vector<nlohmann::json>> yaml_documents_to_json(std::string_view text) {
  const YamlScan scan = scan_yaml_documents(text);
  if (scan.stalled_at) {
    return api::new_bad_request("error converting YAML to JSON: yaml: line " +
                                std::to_string(scan.stalled_at->line + 1) + ", column " +
                                std::to_string(scan.stalled_at->column + 1) +
                                ": did not find expected node content");
  }
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(std::string(text));
  } catch (const YAML::Exception& e) {
    return api::new_bad_request("error converting YAML to JSON: yaml: line " +
                                std::to_string(e.mark.line + 1) + ", column " +
                                std::to_string(e.mark.column + 1) + ": " + e.msg);
  } catch (const std::exception& e) {
    return api::new_bad_request(std::string("error converting YAML to JSON: ") + e.what());
  }
  std::vector<nlohmann::json> out;
  Converter converter;
  for (const auto& doc : docs) {
    if (doc.IsNull() || !doc.IsDefined()) continue;
    auto j = converter.convert(doc, 0);
    if (!j) return j.status();
    out.push_back(std::move(j.value()));
  }
  return out;
}

api::Result<nlohmann::json> yaml_to_json(std::string_view text) {
  auto docs = yaml_documents_to_json(text);
  if (!docs) return docs.status();
  if (docs->size() != 1) {
    return api::new_bad_request("error converting YAML to JSON: expected exactly one document, got " +
                                std::to_string(docs->size()));
  }
  return std::move(docs->front());
}

}  // namespace kubesim::api
