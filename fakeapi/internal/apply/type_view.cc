// TypeRef: the Go tables (with k8s.io/api v0.33's list, map and struct markers) and the
// strategic merge tags, a CRD's openAPIV3Schema, or SMD's deduced type (typed/helpers.go,
// schema/elements.go; kube-openapi's schemaconv for how OpenAPI extensions and patch tags become
// list types).
#include "fakeapi/internal/apply/type_view.h"

#include <algorithm>

#include "fakeapi/internal/encoding/types/go_encoding.h"
#include "fakeapi/internal/encoding/types/schema_tables.h"

namespace kubesim::fakeapi::apply {
namespace {

using types::Cardinality;
using types::FieldSpec;
using types::MessageSpec;
using types::ValueKind;

// The field with JSON name `name` of `m`, looked for through inlined structs too; `owner` is
// the message that declares it.
const FieldSpec* find_go_field(const MessageSpec* m, std::string_view name, const MessageSpec** owner) {
  for (const FieldSpec& f : m->fields) {
    if (f.has(types::kInline)) {
      if (const FieldSpec* inner = find_go_field(f.message, name, owner)) return inner;
    } else if (f.name == name) {
      *owner = m;
      return &f;
    }
  }
  return nullptr;
}

const nlohmann::json* schema_member(const nlohmann::json* schema, std::string_view key) {
  if (schema == nullptr || !schema->is_object()) return nullptr;
  auto it = schema->find(key);
  return it == schema->end() ? nullptr : &*it;
}

std::string schema_string(const nlohmann::json* schema, std::string_view key) {
  const nlohmann::json* v = schema_member(schema, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

Shape deduced_shape(const nlohmann::json& value) {
  if (value.is_object()) return Shape::kMap;
  if (value.is_array()) return Shape::kList;
  return Shape::kScalar;
}

}  // namespace

TypeRef TypeRef::deduced() { return TypeRef(); }

TypeRef TypeRef::builtin_kind(std::string_view group, std::string_view kind) {
  TypeRef t;
  t.root_ = true;
  t.patch_ = &builtin_patch_schema(group, kind);
  t.message_ = types::go_type_of(group, kind);
  t.source_ = t.message_ != nullptr ? Source::kGo : Source::kPatchOnly;
  return t;
}

TypeRef TypeRef::custom_resource(const nlohmann::json* schema) {
  TypeRef t;
  t.root_ = true;
  t.source_ = Source::kOpenApi;
  t.schema_ = schema != nullptr && schema->is_object() ? schema : nullptr;
  return t;
}

const MessageSpec* TypeRef::struct_message() const {
  if (source_ != Source::kGo) return nullptr;
  if (field_ == nullptr) return message_;
  if (field_->kind != ValueKind::kMessage) return nullptr;
  if (field_->cardinality != Cardinality::kSingular && !in_collection_) return nullptr;
  return field_->message;
}

Shape TypeRef::shape(const nlohmann::json& value) const {
  Shape want = Shape::kScalar;
  switch (source_) {
    case Source::kDeduced:
      return deduced_shape(value);
    case Source::kPatchOnly:
      want = deduced_shape(value);
      if (want == Shape::kMap) want = Shape::kStruct;
      break;
    case Source::kGo:
      if (field_ != nullptr && !in_collection_ && field_->cardinality == Cardinality::kRepeated) {
        want = Shape::kList;
      } else if (field_ != nullptr && !in_collection_ && field_->cardinality == Cardinality::kMap) {
        want = Shape::kMap;
      } else if (struct_message() != nullptr) {
        want = Shape::kStruct;
      }
      break;
    case Source::kOpenApi: {
      if (root_) {
        want = Shape::kStruct;
        break;
      }
      const std::string type = schema_string(schema_, "type");
      if (schema_ == nullptr || (type.empty() && !schema_->contains("properties"))) {
        return deduced_shape(value);
      }
      if (type == "array") {
        want = Shape::kList;
      } else if (type == "object" || schema_->contains("properties")) {
        const bool has_properties = schema_->contains("properties");
        const nlohmann::json* extra = schema_member(schema_, "additionalProperties");
        const bool map = !has_properties && extra != nullptr &&
                         (extra->is_object() || (extra->is_boolean() && extra->get<bool>()));
        if (!has_properties && !map) return deduced_shape(value);
        want = map ? Shape::kMap : Shape::kStruct;
      }
      break;
    }
  }
  const bool fits = want == Shape::kScalar ||
                    (want == Shape::kList ? value.is_array() : value.is_object());
  return fits || value.is_null() ? want : Shape::kScalar;
}

bool TypeRef::atomic() const {
  switch (source_) {
    case Source::kGo: {
      // The field's own +mapType/+structType marker, else its struct type's +structType.
      if (field_ != nullptr && !in_collection_ && field_->cardinality != Cardinality::kRepeated &&
          field_->has(types::kAtomic)) {
        return true;
      }
      const MessageSpec* m = struct_message();
      return m != nullptr && m->atomic;
    }
    case Source::kOpenApi:
      return schema_string(schema_, "x-kubernetes-map-type") == "atomic";
    default:
      return false;
  }
}

// The Go table's +listType marker of this list field (kNone where k8s.io/api has none).
types::ListType TypeRef::go_list_type() const {
  if (source_ != Source::kGo || field_ == nullptr) return types::ListType::kNone;
  return field_->list_type;
}

ListType TypeRef::list_type() const {
  if (source_ == Source::kOpenApi) {
    const std::string type = schema_string(schema_, "x-kubernetes-list-type");
    if (type == "set") return ListType::kSet;
    if (type == "map") return ListType::kMap;
    return ListType::kAtomic;
  }
  switch (go_list_type()) {
    case types::ListType::kAtomic:
      return ListType::kAtomic;
    case types::ListType::kSet:
      return ListType::kSet;
    case types::ListType::kMap:
      return ListType::kMap;
    case types::ListType::kNone:
      break;
  }
  if (patch_meta_ != nullptr && patch_meta_->strategy == PatchStrategy::kMerge) {
    return patch_meta_->merge_key.empty() ? ListType::kSet : ListType::kMap;
  }
  return ListType::kAtomic;
}

std::vector<std::string> TypeRef::list_keys() const {
  std::vector<std::string> keys;
  if (source_ == Source::kOpenApi) {
    const nlohmann::json* k = schema_member(schema_, "x-kubernetes-list-map-keys");
    if (k != nullptr && k->is_array()) {
      for (const auto& key : *k) {
        if (key.is_string()) keys.push_back(key.get<std::string>());
      }
    }
    return keys;
  }
  if (go_list_type() == types::ListType::kMap) {
    std::string_view joined = field_->list_map_keys;
    while (!joined.empty()) {
      const std::size_t comma = joined.find(',');
      keys.emplace_back(joined.substr(0, comma));
      joined = comma == std::string_view::npos ? std::string_view() : joined.substr(comma + 1);
    }
    return keys;
  }
  if (go_list_type() != types::ListType::kNone) return keys;
  if (patch_meta_ != nullptr && !patch_meta_->merge_key.empty()) keys.push_back(patch_meta_->merge_key);
  return keys;
}

nlohmann::json TypeRef::key_default(std::string_view key) const {
  if (source_ == Source::kOpenApi) {
    const nlohmann::json* d =
        schema_member(schema_member(schema_member(schema_member(schema_, "items"), "properties"), key),
                      "default");
    return d != nullptr ? *d : nlohmann::json();
  }
  // The key field's +default= marker (ContainerPort's and ServicePort's protocol: "TCP").
  if (go_list_type() != types::ListType::kMap || field_->message == nullptr) return nullptr;
  const MessageSpec* owner = nullptr;
  const FieldSpec* f = find_go_field(field_->message, key, &owner);
  if (f == nullptr || f->default_json.empty()) return nullptr;
  nlohmann::json d = nlohmann::json::parse(f->default_json, nullptr, false);
  return d.is_discarded() ? nlohmann::json() : d;
}

bool TypeRef::has_field(std::string_view name) const {
  switch (source_) {
    case Source::kDeduced:
      return false;
    case Source::kPatchOnly:
      return true;
    case Source::kGo: {
      const MessageSpec* m = struct_message();
      const MessageSpec* owner = nullptr;
      return m != nullptr && find_go_field(m, name, &owner) != nullptr;
    }
    case Source::kOpenApi:
      if (root_ && (name == "metadata" || name == "apiVersion" || name == "kind")) return true;
      return schema_member(schema_member(schema_, "properties"), name) != nullptr;
  }
  return false;
}

bool TypeRef::closed() const { return source_ == Source::kGo && struct_message() != nullptr; }

TypeRef TypeRef::member(std::string_view name) const {
  TypeRef t;
  if (root_ && name == "metadata") {
    t.source_ = Source::kGo;
    t.message_ = &types::kMetaV1ObjectMeta;
    t.patch_ = patch_ != nullptr ? &patch_->field("metadata") : &builtin_patch_schema("", "ConfigMap").field("metadata");
    return t;
  }
  switch (source_) {
    case Source::kDeduced:
      return t;
    case Source::kPatchOnly:
      t.source_ = Source::kPatchOnly;
      t.patch_ = &patch_->field(name);
      t.patch_meta_ = &patch_->meta(name);
      return t;
    case Source::kGo: {
      if (field_ != nullptr && field_->cardinality == Cardinality::kMap && !in_collection_) {
        return element();
      }
      const MessageSpec* m = struct_message();
      const MessageSpec* owner = nullptr;
      const FieldSpec* f = m != nullptr ? find_go_field(m, name, &owner) : nullptr;
      if (f == nullptr) return t;  // unknown to the Go type: deduced
      t.source_ = Source::kGo;
      t.field_ = f;
      t.owner_ = owner;
      t.patch_ = patch_ != nullptr ? &patch_->field(name) : nullptr;
      t.patch_meta_ = patch_ != nullptr ? &patch_->meta(name) : nullptr;
      return t;
    }
    case Source::kOpenApi: {
      t.source_ = Source::kOpenApi;
      if (const nlohmann::json* p = schema_member(schema_member(schema_, "properties"), name)) {
        t.schema_ = p;
        return t;
      }
      const nlohmann::json* extra = schema_member(schema_, "additionalProperties");
      if (extra != nullptr && extra->is_object()) {
        t.schema_ = extra;
        return t;
      }
      return TypeRef();
    }
  }
  return t;
}

TypeRef TypeRef::element() const {
  TypeRef t = *this;
  t.root_ = false;
  switch (source_) {
    case Source::kDeduced:
      return TypeRef();
    case Source::kPatchOnly:
      t.patch_meta_ = nullptr;
      return t;
    case Source::kGo:
      t.in_collection_ = true;
      t.patch_meta_ = nullptr;
      return t;
    case Source::kOpenApi:
      t.schema_ = schema_member(schema_, "items");
      if (t.schema_ == nullptr) return TypeRef();
      return t;
  }
  return t;
}

}  // namespace kubesim::fakeapi::apply
