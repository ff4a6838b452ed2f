// What kube-apiserver's decoder rejects before any validation runs: a JSON value of the wrong type
// for the versioned Go struct (encoding/json's UnmarshalTypeError, as forked in sigs.k8s.io/json),
// and []byte fields (Secret.data, ConfigMap.binaryData) that are not standard base64.
//
// The schemas (encoding/decode_schema.cc) cover the fields the validation rules read plus the ones users
// commonly get wrong; other fields are accepted as they are. Go reports the first error in
// document order; nlohmann::json keeps members sorted, so the first error in key order is
// reported.
#include <limits>

#include "fakeapi/internal/encoding/decode_schema.h"
#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

// The JSON type word UnmarshalTypeError uses.
std::string type_word(const Json& v) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  return "number";
}

// Go's literalStore puts the number's text in the error when it does not parse as the integer.
std::string number_text(const Json& v) { return "number " + v.dump(); }

// Where the checker is: the Go struct holding the field and the field's dotted path, as a chain
// of segments that is only joined when an error names it.
struct Context {
  std::string_view struct_name;
  const Context* parent = nullptr;
  std::string_view segment;  // empty at the root

  std::string path() const {
    if (parent == nullptr) return std::string(segment);
    std::string head = parent->path();
    if (head.empty()) return std::string(segment);
    return head + "." + std::string(segment);
  }
};

std::string type_error(const std::string& value, const std::string& go_type, const Context& ctx) {
  return "json: cannot unmarshal " + value + " into Go struct field " +
         std::string(ctx.struct_name) + "." + ctx.path() + " of type " + go_type;
}

// base64.StdEncoding.Decode's CorruptInputError offsets, ported from decodeQuantum.
std::optional<std::size_t> base64_error(std::string_view src) {
  auto value = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '/';
  };
  auto newline = [](char c) { return c == '\n' || c == '\r'; };
  std::size_t si = 0;
  while (si < src.size()) {
    int j = 0;
    for (; j < 4; ++j) {
      if (si == src.size()) {
        if (j == 0) return std::nullopt;
        return si - static_cast<std::size_t>(j);
      }
      const char in = src[si++];
      if (value(in)) continue;
      if (newline(in)) {
        --j;
        continue;
      }
      if (in != '=') return si - 1;
      if (j < 2) return si - 1;
      if (j == 2) {
        while (si < src.size() && newline(src[si])) ++si;
        if (si == src.size()) return src.size();
        if (src[si] != '=') return si - 1;
        ++si;
      }
      while (si < src.size() && newline(src[si])) ++si;
      if (si < src.size()) return si;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<std::string> check(const Json& v, const Node& node, const Context& ctx);

std::optional<std::string> check_int(const Json& v, const Node& node, const Context& ctx,
                                     std::int64_t lo, std::int64_t hi) {
  if (!v.is_number()) return type_error(type_word(v), node.go_type, ctx);
  const std::optional<std::int64_t> n = as_int(v);
  if (!n || *n < lo || *n > hi) return type_error(number_text(v), node.go_type, ctx);
  return std::nullopt;
}

std::optional<std::string> check_map(const Json& v, const Node& node, const Context& ctx) {
  if (!v.is_object()) return type_error(type_word(v), node.go_type, ctx);
  for (const auto& [k, value] : v.items()) {
    if (value.is_null()) continue;
    if (node.type == Type::kStringMap) {
      if (!value.is_string()) return type_error(type_word(value), "string", ctx);
      continue;
    }
    if (value.is_string()) {
      if (auto at = base64_error(value.get_ref<const std::string&>())) {
        return "illegal base64 data at input byte " + std::to_string(*at);
      }
    } else if (value.is_array()) {
      for (const Json& b : value) {
        if (b.is_null()) continue;
        const std::optional<std::int64_t> n = as_int(b);
        if (!b.is_number()) return type_error(type_word(b), "uint8", ctx);
        if (!n || *n < 0 || *n > 255) return type_error(number_text(b), "uint8", ctx);
      }
    } else {
      return type_error(type_word(value), "[]uint8", ctx);
    }
  }
  return std::nullopt;
}

std::optional<std::string> check_struct(const Json& v, const Node& node, const Context& ctx) {
  if (!v.is_object()) return type_error(type_word(v), node.go_type, ctx);
  // Both the members and the schema's fields are in name order: one merge walk pairs them.
  auto schema = node.fields.begin();
  for (const auto& [name, field] : v.items()) {
    while (schema != node.fields.end() && schema->first < name) ++schema;
    if (schema == node.fields.end()) break;
    if (schema->first != name) continue;
    const Context inner{node.name, &ctx, name};
    if (auto err = check(field, *schema->second, inner)) return err;
  }
  return std::nullopt;
}

std::optional<std::string> check(const Json& v, const Node& node, const Context& ctx) {
  if (v.is_null()) return std::nullopt;
  switch (node.type) {
    case Type::kString:
      if (!v.is_string()) return type_error(type_word(v), node.go_type, ctx);
      return std::nullopt;
    case Type::kBool:
      if (!v.is_boolean()) return type_error(type_word(v), node.go_type, ctx);
      return std::nullopt;
    case Type::kInt32:
      return check_int(v, node, ctx, std::numeric_limits<std::int32_t>::min(),
                       std::numeric_limits<std::int32_t>::max());
    case Type::kInt64:
      return check_int(v, node, ctx, std::numeric_limits<std::int64_t>::min(),
                       std::numeric_limits<std::int64_t>::max());
    case Type::kIntOrString:
      // IntOrString.UnmarshalJSON decodes anything but a string as an int32.
      if (v.is_string()) return std::nullopt;
      return check_int(v, Node{Type::kInt32, "int32", "", {}, nullptr}, ctx,
                       std::numeric_limits<std::int32_t>::min(),
                       std::numeric_limits<std::int32_t>::max());
    case Type::kStringMap:
    case Type::kBytesMap:
      return check_map(v, node, ctx);
    case Type::kStringList:
      if (!v.is_array()) return type_error(type_word(v), node.go_type, ctx);
      for (const Json& e : v) {
        if (!e.is_null() && !e.is_string()) return type_error(type_word(e), "string", ctx);
      }
      return std::nullopt;
    case Type::kList:
      if (!v.is_array()) return type_error(type_word(v), node.go_type, ctx);
      for (const Json& e : v) {
        if (auto err = check(e, *node.elem, ctx)) return err;
      }
      return std::nullopt;
    case Type::kStruct:
      return check_struct(v, node, ctx);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> decode_error(std::string_view group, std::string_view kind,
                                        const Json& obj) {
  const Node* root = schema_root(group, kind);
  if (root == nullptr || !obj.is_object()) return std::nullopt;
  return check(obj, *root, Context{root->name, nullptr, {}});
}

}  // namespace kubesim::fakeapi::internal::validation
