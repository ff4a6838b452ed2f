// What structured-merge-diff's schema says about each place in an object: is it a scalar, a
// struct (named fields), a map (arbitrary keys) or a list; whether a struct or map is atomic;
// whether a list is atomic, a set or a map list, and its keys.
//
// Three sources, as kube-apiserver has them:
//   - built-in kinds: the Go type tables (encoding/types/schema.h) give structs, maps and lists;
//     the list semantics come from the +listType/+listMapKey markers of k8s.io/api (a table
//     here) and otherwise, as kube-openapi's schemaconv reads them, from the strategic merge
//     patch tags (a merge list with a key is a map list on it, without a key a set); lists
//     with neither are atomic. Structs marked +structType=atomic are atomic. A built-in kind
//     without a table has ObjectMeta typed and the rest deduced, lists by their patch tags.
//   - custom resources: the served version's openAPIV3Schema (x-kubernetes-list-type,
//     x-kubernetes-list-map-keys, x-kubernetes-map-type); metadata is ObjectMeta.
//   - anything else (a field no schema knows): SMD's deduced type, where objects are granular
//     maps and lists are atomic.
//
// A TypeRef is a small value pointing into tables and schemas that outlive it: the Go tables
// are static; a custom resource's schema must outlive every TypeRef made from it.
#ifndef KUBESIM_FAKEAPI_INTERNAL_APPLY_TYPE_VIEW_H_
#define KUBESIM_FAKEAPI_INTERNAL_APPLY_TYPE_VIEW_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "fakeapi/internal/encoding/types/schema.h"
#include "kubesim/fakeapi/patch.h"

namespace kubesim::fakeapi::apply {

enum class Shape : std::uint8_t { kScalar, kStruct, kMap, kList };
enum class ListType : std::uint8_t { kAtomic, kSet, kMap };

class TypeRef {
 public:
  // SMD's deduced type.
  static TypeRef deduced();
  // A whole object of the built-in kind (group, kind).
  static TypeRef builtin_kind(std::string_view group, std::string_view kind);
  // A whole custom resource whose served version has `schema` as openAPIV3Schema (a null
  // pointer or a null schema: everything but metadata deduced).
  static TypeRef custom_resource(const nlohmann::json* schema);

  // The shape of `value` at this place. A deduced place answers from the value itself;
  // a value that does not fit the type (an object where a list belongs) is a scalar: it is
  // then handled whole.
  Shape shape(const nlohmann::json& value) const;
  // For structs and maps: replaced whole rather than merged member by member.
  bool atomic() const;
  // For lists.
  ListType list_type() const;
  std::vector<std::string> list_keys() const;
  // The schema's default for a map list's key field, or null.
  nlohmann::json key_default(std::string_view key) const;

  // Whether `name` is a declared field of this struct (false for a map's keys).
  bool has_field(std::string_view name) const;
  // Whether this is a struct of a Go type, whose undeclared fields an applied configuration may
  // not set ("field not declared in schema").
  bool closed() const;
  // The type of the member `name` of this struct or map.
  TypeRef member(std::string_view name) const;
  // The type of this list's items.
  TypeRef element() const;

 private:
  enum class Source : std::uint8_t { kDeduced, kGo, kPatchOnly, kOpenApi };

  const types::MessageSpec* struct_message() const;
  types::ListType go_list_type() const;

  Source source_ = Source::kDeduced;
  bool root_ = false;  // a whole object: metadata is ObjectMeta
  // kGo: the message this place is (field_ null), or the field whose value (or, with
  // in_collection_, whose item or map value) this place is, declared in owner_.
  const types::MessageSpec* message_ = nullptr;
  const types::FieldSpec* field_ = nullptr;
  const types::MessageSpec* owner_ = nullptr;
  bool in_collection_ = false;
  // kGo and kPatchOnly: the strategic merge tags of this field and of the fields below it.
  const PatchSchema* patch_ = nullptr;
  const FieldPatchMeta* patch_meta_ = nullptr;
  // kOpenApi: the schema of this place (null: deduced).
  const nlohmann::json* schema_ = nullptr;
};

}  // namespace kubesim::fakeapi::apply

#endif  // KUBESIM_FAKEAPI_INTERNAL_APPLY_TYPE_VIEW_H_
