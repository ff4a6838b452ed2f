// TypeRef: the Go tables, the strategic merge tags and the list markers of k8s.io/api v0.33,
// a CRD's openAPIV3Schema, or SMD's deduced type (typed/helpers.go, schema/elements.go;
// kube-openapi's schemaconv for how OpenAPI extensions and patch tags become list types).
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

// +listType markers that the strategic merge tags do not imply: map lists keyed otherwise
// than by their merge key, or with no merge tags at all, and lists the markers make atomic
// although their tags say merge.
constexpr ListSpec kListSpecs[] = {
    {"Container", "ports", ListType::kMap, {"containerPort", "protocol"}},
    {"EphemeralContainerCommon", "ports", ListType::kMap, {"containerPort", "protocol"}},
    {"ServiceSpec", "ports", ListType::kMap, {"port", "protocol"}},
    {"Container", "env", ListType::kMap, {"name"}},
    {"EphemeralContainerCommon", "env", ListType::kMap, {"name"}},
    {"Container", "volumeMounts", ListType::kMap, {"mountPath"}},
    {"EphemeralContainerCommon", "volumeMounts", ListType::kMap, {"mountPath"}},
    {"Container", "volumeDevices", ListType::kMap, {"devicePath"}},
    {"EphemeralContainerCommon", "volumeDevices", ListType::kMap, {"devicePath"}},
    {"ContainerStatus", "volumeMounts", ListType::kMap, {"mountPath"}},
    {"ContainerStatus", "allocatedResourcesStatus", ListType::kMap, {"name"}},
    {"ResourceStatus", "resources", ListType::kMap, {"resourceID"}},
    {"ResourceRequirements", "claims", ListType::kMap, {"name"}},
    {"PodSpec", "volumes", ListType::kMap, {"name"}},
    {"PodSpec", "initContainers", ListType::kMap, {"name"}},
    {"PodSpec", "containers", ListType::kMap, {"name"}},
    {"PodSpec", "ephemeralContainers", ListType::kMap, {"name"}},
    {"PodSpec", "imagePullSecrets", ListType::kMap, {"name"}},
    {"PodSpec", "hostAliases", ListType::kMap, {"ip"}},
    {"PodSpec", "topologySpreadConstraints", ListType::kMap, {"topologyKey", "whenUnsatisfiable"}},
    {"PodSpec", "schedulingGates", ListType::kMap, {"name"}},
    {"PodSpec", "resourceClaims", ListType::kMap, {"name"}},
    {"PodStatus", "conditions", ListType::kMap, {"type"}},
    {"PodStatus", "podIPs", ListType::kMap, {"ip"}},
    {"PodStatus", "hostIPs", ListType::kAtomic, {}},
    {"PodStatus", "resourceClaimStatuses", ListType::kMap, {"name"}},
    {"PersistentVolumeClaimStatus", "conditions", ListType::kMap, {"type"}},
    {"ReplicationControllerStatus", "conditions", ListType::kMap, {"type"}},
    {"ServiceStatus", "conditions", ListType::kMap, {"type"}},
    {"ServiceAccount", "secrets", ListType::kMap, {"name"}},
    {"NodeSpec", "podCIDRs", ListType::kSet, {}},
    {"NodeStatus", "conditions", ListType::kMap, {"type"}},
    {"NodeStatus", "addresses", ListType::kMap, {"type"}},
    {"NamespaceStatus", "conditions", ListType::kMap, {"type"}},
    {"StatefulSetStatus", "conditions", ListType::kMap, {"type"}},
    {"DeploymentStatus", "conditions", ListType::kMap, {"type"}},
    {"DaemonSetStatus", "conditions", ListType::kMap, {"type"}},
    {"ReplicaSetStatus", "conditions", ListType::kMap, {"type"}},
    {"JobStatus", "conditions", ListType::kAtomic, {}},
    {"PodDisruptionBudgetStatus", "conditions", ListType::kMap, {"type"}},
    {"ObjectMeta", "ownerReferences", ListType::kMap, {"uid"}},
    {"ObjectMeta", "finalizers", ListType::kSet, {}},
};

// Messages marked +structType=atomic.
constexpr std::string_view kAtomicStructs[] = {
    "ConfigMapKeySelector", "CrossVersionObjectReference", "EndpointAddress", "EndpointPort",
    "LabelSelector", "LocalObjectReference", "NodeSelector", "NodeSelectorTerm",
    "ObjectFieldSelector", "ObjectReference", "OwnerReference", "ResourceFieldSelector",
    "RoleRef", "ScopeSelector", "SecretKeySelector", "SecretReference", "ServiceBackendPort",
    "Subject", "TopologySelectorTerm", "TypedLocalObjectReference",
};

std::string_view short_name(const MessageSpec* m) {
  if (m == nullptr) return {};
  const std::string_view full = m->name;
  const std::size_t dot = full.rfind('.');
  return dot == std::string_view::npos ? full : full.substr(dot + 1);
}

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
      const std::string_view name = short_name(struct_message());
      return !name.empty() &&
             std::find(std::begin(kAtomicStructs), std::end(kAtomicStructs), name) !=
                 std::end(kAtomicStructs);
    }
    case Source::kOpenApi:
      return schema_string(schema_, "x-kubernetes-map-type") == "atomic";
    default:
      return false;
  }
}

const ListSpec* TypeRef::list_spec() const {
  if (source_ != Source::kGo || field_ == nullptr) return nullptr;
  const std::string_view owner = short_name(owner_);
  for (const ListSpec& spec : kListSpecs) {
    if (spec.message == owner && spec.field == field_->name) return &spec;
  }
  return nullptr;
}

ListType TypeRef::list_type() const {
  if (source_ == Source::kOpenApi) {
    const std::string type = schema_string(schema_, "x-kubernetes-list-type");
    if (type == "set") return ListType::kSet;
    if (type == "map") return ListType::kMap;
    return ListType::kAtomic;
  }
  if (const ListSpec* spec = list_spec()) return spec->type;
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
  if (const ListSpec* spec = list_spec()) {
    for (std::string_view key : spec->keys) {
      if (!key.empty()) keys.emplace_back(key);
    }
    return keys;
  }
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
  // ContainerPort and ServicePort default their protocol (+default="TCP").
  const ListSpec* spec = list_spec();
  if (spec != nullptr && spec->field == "ports" && key == "protocol") return "TCP";
  return nullptr;
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
