#include "kubesim/fakeapi/field_paths.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "fakeapi/internal/encoding/types/go_encoding.h"
#include "fakeapi/internal/encoding/types/schema.h"

namespace kubesim::fakeapi {

namespace {

using nlohmann::json;
using Verdict = FieldLookup::Verdict;

// The field named `name` in JSON among `m`'s fields, those of embedded structs included.
const types::FieldSpec* json_field(const types::MessageSpec& m, std::string_view name) {
  for (const types::FieldSpec& f : m.fields) {
    if (f.has(types::kInline)) {
      if (const types::FieldSpec* inner = json_field(*f.message, name)) return inner;
    } else if (f.name == name) {
      return &f;
    }
  }
  return nullptr;
}

void json_names(const types::MessageSpec& m, std::vector<std::string>& out) {
  for (const types::FieldSpec& f : m.fields) {
    if (f.has(types::kInline)) {
      json_names(*f.message, out);
    } else {
      out.emplace_back(f.name);
    }
  }
}

FieldType scalar_type(types::ValueKind kind) {
  switch (kind) {
    case types::ValueKind::kString:
    case types::ValueKind::kBytes:
    case types::ValueKind::kTime:
    case types::ValueKind::kMicroTime: return FieldType::kString;
    case types::ValueKind::kBool: return FieldType::kBoolean;
    case types::ValueKind::kInt32:
    case types::ValueKind::kInt64: return FieldType::kInteger;
    case types::ValueKind::kMessage: return FieldType::kObject;
    case types::ValueKind::kStringList: return FieldType::kList;
    case types::ValueKind::kQuantity:
    case types::ValueKind::kIntOrString:
    case types::ValueKind::kFieldsV1:
    case types::ValueKind::kUnsupported: return FieldType::kAny;
  }
  return FieldType::kAny;
}

std::string joined(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The steps of `path` before `at`, dotted ("spec.template").
std::string prefix(std::span<const std::string> path, std::size_t at) {
  std::string out;
  for (std::size_t i = 0; i < at; ++i) out += (i == 0 ? "" : ".") + path[i];
  return out;
}

// "ConfigMap", "ConfigMap's metadata": what lacks path[at].
std::string owner_text(const std::string& kind, std::span<const std::string> path, std::size_t at) {
  return at == 0 ? kind : kind + "'s " + prefix(path, at);
}

FieldLookup unknown(const std::string& kind, std::span<const std::string> path, std::size_t at, const std::string& has) {
  FieldLookup out;
  out.verdict = Verdict::kUnknown;
  out.problem = owner_text(kind, path, at) + " has no field \"" + path[at] + "\"" + has;
  return out;
}

FieldLookup known(FieldType type) {
  FieldLookup out;
  out.verdict = Verdict::kKnown;
  out.type = type;
  return out;
}

// Walks path[at..] from a value of `m` (a Go struct).
FieldLookup walk_message(const std::string& kind, const types::MessageSpec& m, std::span<const std::string> path,
                         std::size_t at) {
  const types::MessageSpec* message = &m;
  for (std::size_t i = at; i < path.size(); ++i) {
    const types::FieldSpec* f = json_field(*message, path[i]);
    if (f == nullptr) {
      std::vector<std::string> names;
      json_names(*message, names);
      if (i == 0) names.insert(names.end(), {"apiVersion", "kind"});
      return unknown(kind, path, i, "; its fields: " + joined(std::move(names)));
    }
    const bool last = i + 1 == path.size();
    if (f->cardinality == types::Cardinality::kRepeated) {
      if (last) return known(FieldType::kList);
      return unknown(kind, path, i + 1, " (" + prefix(path, i + 1) + " is a list: a path cannot step into its elements)");
    }
    if (f->cardinality == types::Cardinality::kMap) {
      if (last) return known(FieldType::kMap);
      // Any key; then what the map's values hold.
      if (i + 2 == path.size()) return known(scalar_type(f->kind));
      if (f->kind != types::ValueKind::kMessage) {
        return unknown(kind, path, i + 2, " (" + prefix(path, i + 2) + " is " +
                                              std::string(describe(scalar_type(f->kind))) + ")");
      }
      message = f->message;
      ++i;
      continue;
    }
    if (last) return known(scalar_type(f->kind));
    if (f->kind != types::ValueKind::kMessage) {
      return unknown(kind, path, i + 1, " (" + prefix(path, i + 1) + " is " + std::string(describe(scalar_type(f->kind))) + ")");
    }
    message = f->message;
  }
  return known(FieldType::kObject);
}

// ObjectMeta's table: the type of a ConfigMap's metadata, as every kind's.
const types::MessageSpec* object_meta() {
  static const types::MessageSpec* meta = [] {
    const types::MessageSpec* config_map = types::go_type_of("", "ConfigMap");
    const types::FieldSpec* f = config_map == nullptr ? nullptr : json_field(*config_map, "metadata");
    return f == nullptr ? nullptr : f->message;
  }();
  return meta;
}

FieldType schema_type(const json& node) {
  if (node.value("x-kubernetes-int-or-string", false)) return FieldType::kAny;
  const std::string type = node.contains("type") && node["type"].is_string() ? node["type"].get<std::string>() : "";
  if (type == "string") return FieldType::kString;
  if (type == "integer") return FieldType::kInteger;
  if (type == "number") return FieldType::kNumber;
  if (type == "boolean") return FieldType::kBoolean;
  if (type == "array") return FieldType::kList;
  if (type == "object") {
    if (node.contains("properties")) return FieldType::kObject;
    if (node.contains("additionalProperties")) return FieldType::kMap;
    return FieldType::kAny;
  }
  return FieldType::kAny;
}

// Walks path[at..] through a custom resource's openAPIV3Schema node.
FieldLookup walk_schema(const std::string& kind, const json& root, std::span<const std::string> path, std::size_t at) {
  const json* node = &root;
  for (std::size_t i = at; i < path.size(); ++i) {
    const json* next = nullptr;
    if (auto p = node->find("properties"); p != node->end() && p->is_object()) {
      if (auto f = p->find(path[i]); f != p->end()) next = &*f;
    }
    if (next == nullptr) {
      if (auto a = node->find("additionalProperties"); a != node->end()) {
        if (a->is_object()) next = &*a;
        if (a->is_boolean() && a->get<bool>()) return FieldLookup{};
      }
    }
    if (next == nullptr) {
      if (node->value("x-kubernetes-preserve-unknown-fields", false)) return FieldLookup{};
      const FieldType type = schema_type(*node);
      if (type != FieldType::kObject && type != FieldType::kMap && type != FieldType::kAny) {
        return unknown(kind, path, i, " (" + prefix(path, i) + " is " + std::string(describe(type)) + ")");
      }
      std::vector<std::string> names;
      if (auto p = node->find("properties"); p != node->end() && p->is_object()) {
        for (const auto& [name, _] : p->items()) names.push_back(name);
      }
      if (i == 0) names.insert(names.end(), {"apiVersion", "kind", "metadata"});
      return unknown(kind, path, i, names.empty() ? " (its schema names none)" : "; its fields: " + joined(std::move(names)));
    }
    node = next;
  }
  return known(schema_type(*node));
}

}  // namespace

std::string_view describe(FieldType type) {
  switch (type) {
    case FieldType::kString: return "a string";
    case FieldType::kInteger: return "an integer";
    case FieldType::kNumber: return "a number";
    case FieldType::kBoolean: return "a boolean";
    case FieldType::kObject: return "an object";
    case FieldType::kMap: return "a map";
    case FieldType::kList: return "a list";
    case FieldType::kAny: return "any value";
  }
  return "any value";
}

FieldLookup lookup_field(const ResourceInfo& info, std::span<const std::string> path) {
  if (path.empty()) return known(FieldType::kObject);
  if (path[0] == "apiVersion" || path[0] == "kind") {
    if (path.size() == 1) return known(FieldType::kString);
    return unknown(info.kind, path, 1, " (" + path[0] + " is a string)");
  }
  if (path[0] == "metadata" && object_meta() != nullptr) {
    if (path.size() == 1) return known(FieldType::kObject);
    return walk_message(info.kind, *object_meta(), path, 1);
  }
  if (info.go_type != nullptr) return walk_message(info.kind, *info.go_type, path, 0);
  if (info.custom && info.schema.is_object()) return walk_schema(info.kind, info.schema, path, 0);
  return FieldLookup{};
}

FieldLookup lookup_field(const ResourceInfo& info, std::string_view dotted_path) {
  std::vector<std::string> path;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = dotted_path.find('.', start);
    path.emplace_back(dotted_path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return lookup_field(info, path);
}

}  // namespace kubesim::fakeapi
