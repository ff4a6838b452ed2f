// The scenario parser's YAML values: how a node reads in a message, as JSON, and on one line.
#include <cmath>

#include "kubesim/api/go_strings.h"
#include "kubesim/api/yaml.h"
#include "kubesim/scenarios/yaml_reader.h"

namespace kubesim::scenarios::yaml {
namespace {

// Deeper trees than this are refused (as api::yaml_to_json refuses them).
constexpr int kMaxDepth = 256;
// Nodes a file's JSON values may expand to through aliases; real scenarios stay far below.
constexpr std::size_t kMaxJsonNodes = 50'000;
// Nodes a check's one-line text shows before it is cut short with "…".
constexpr std::size_t kMaxTextNodes = 1'000;

}  // namespace

// yaml-cpp refuses escapes of no character (\ud800); this keeps the promise all the same.
const char* const kNotUtf8 = "the text is not UTF-8";

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined()) return "nothing";
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
      return "nothing";
    case YAML::NodeType::Null:
      return node.Scalar().empty() || node.Scalar() == "~" ? "nothing" : "null";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Scalar:
      break;
  }
  if (node.Tag() == "!") return quote(node.Scalar());
  YAML::Emitter out;
  out << node;
  auto j = api::yaml_to_json(out.c_str());
  if (!j) return quote(node.Scalar());
  if (j->is_boolean()) return "a boolean (" + node.Scalar() + ")";
  if (j->is_number_integer() || j->is_number_unsigned())
    return "an integer (" + node.Scalar() + ")";
  if (j->is_number()) return "a number (" + node.Scalar() + ")";
  if (j->is_null()) return "null";
  return quote(node.Scalar());
}

std::optional<nlohmann::json> Reader::resolve_scalar(const YAML::Node& node) {
  if (node.IsNull()) return nlohmann::json(nullptr);
  // yaml-cpp's emitter writes a quoted scalar without its quotes, so quoting is read here.
  if (node.Tag() == "!") {
    if (!api::valid_utf8(node.Scalar())) {
      error(mark_of(node), kNotUtf8);
      return std::nullopt;
    }
    return nlohmann::json(node.Scalar());
  }
  YAML::Emitter out;
  out << node;
  auto j = api::yaml_to_json(out.c_str());
  if (!j) {
    error(mark_of(node), j.status().message);
    return std::nullopt;
  }
  return std::move(j.value());
}

bool Reader::to_json(const YAML::Node& node, int depth, nlohmann::json& out) {
  if (depth > kMaxDepth) {
    error(mark_of(node), "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    return false;
  }
  if (++json_nodes_ > kMaxJsonNodes) {
    if (!json_budget_reported_) {
      error(mark_of(node), "the file expands (through aliases) to more than " +
                               std::to_string(kMaxJsonNodes) + " values");
      json_budget_reported_ = true;
    }
    return false;
  }
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      out = nullptr;
      return true;
    case YAML::NodeType::Scalar: {
      auto j = resolve_scalar(node);
      if (!j) return false;
      out = std::move(*j);
      return true;
    }
    case YAML::NodeType::Sequence:
      out = nlohmann::json::array();
      for (const auto& item : node) {
        nlohmann::json v;
        if (!to_json(item, depth + 1, v)) return false;
        out.push_back(std::move(v));
      }
      return true;
    case YAML::NodeType::Map:
      out = nlohmann::json::object();
      for (const auto& kv : node) {
        nlohmann::json key;
        nlohmann::json v;
        if (!to_json(kv.first, depth + 1, key) || !to_json(kv.second, depth + 1, v)) return false;
        out[key.is_string() ? key.get<std::string>() : key.dump()] = std::move(v);
      }
      return true;
  }
  return false;
}

std::optional<nlohmann::json> Reader::json(const Field& field) {
  if (!field) return std::nullopt;
  nlohmann::json out;
  if (!to_json(field.value, 0, out)) return std::nullopt;
  return out;
}

void Reader::emit(YAML::Emitter& out, const YAML::Node& node, int depth) {
  if (depth > kMaxDepth || ++text_nodes_ > kMaxTextNodes) {
    out << "…";
    return;
  }
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      out << YAML::Null;
      return;
    case YAML::NodeType::Scalar:
      if (node.Tag() == "!") {
        out << YAML::DoubleQuoted << node.Scalar();
      } else {
        if (!node.Tag().empty() && node.Tag() != "?") out << YAML::VerbatimTag(node.Tag());
        out << node.Scalar();
      }
      return;
    case YAML::NodeType::Sequence:
      out << YAML::BeginSeq;
      for (const auto& item : node) emit(out, item, depth + 1);
      out << YAML::EndSeq;
      return;
    case YAML::NodeType::Map:
      out << YAML::BeginMap;
      for (const auto& kv : node) {
        out << YAML::Key;
        emit(out, kv.first, depth + 1);
        out << YAML::Value;
        emit(out, kv.second, depth + 1);
      }
      out << YAML::EndMap;
      return;
  }
}

std::string Reader::flow_text(const YAML::Node& node) {
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  text_nodes_ = 0;
  emit(out, node, 0);
  return out.good() ? std::string(out.c_str()) : std::string("…");
}

}  // namespace kubesim::scenarios::yaml
