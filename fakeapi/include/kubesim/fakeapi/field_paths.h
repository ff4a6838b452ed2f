// What a resource's schema says of a field path, so that a check on a field can be refused when
// the field does not exist instead of passing by reading nothing.
//
// A path is the keys of object members from the object's top ("spec", "replicas"), as
// Object::value_at reads a dotted path. Built-in kinds answer from their Go type tables (the
// JSON names of k8s.io/api's structs, embedded structs included); custom resources from their
// version's openAPIV3Schema (properties, additionalProperties, x-kubernetes-int-or-string,
// x-kubernetes-preserve-unknown-fields) and, under `metadata`, from ObjectMeta. apiVersion and
// kind are known to every kind. A step into a list's elements is not a member step, so a path
// through a list is unknown. Where there is nothing to check against (a custom resource without
// a schema, or under a field that preserves unknown fields) the answer is kUnchecked.
#ifndef KUBESIM_FAKEAPI_FIELD_PATHS_H_
#define KUBESIM_FAKEAPI_FIELD_PATHS_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/fakeapi/registry.h"

namespace kubesim::fakeapi {

// What a field holds, as JSON sees it.
enum class FieldType {
  kString,
  kInteger,
  kNumber,   // a number that may have a fraction
  kBoolean,
  kObject,   // a struct: named fields
  kMap,      // string keys of the caller's choosing (a ConfigMap's data, labels)
  kList,
  kAny,      // an int-or-string, a quantity, a time, or a value the schema leaves open
};

// "a string", "an integer", … for messages.
std::string_view describe(FieldType type);

struct FieldLookup {
  enum class Verdict { kKnown, kUnknown, kUnchecked };
  Verdict verdict = Verdict::kUnchecked;
  FieldType type = FieldType::kAny;  // kKnown: what the field holds
  // kUnknown: which step the schema lacks and what it has there ("ConfigMap has no field
  // \"dta\"; its fields: apiVersion, binaryData, data, immutable, kind, metadata").
  std::string problem;
};

FieldLookup lookup_field(const ResourceInfo& info, std::span<const std::string> path);
// The same for a dotted path ("spec.replicas").
FieldLookup lookup_field(const ResourceInfo& info, std::string_view dotted_path);

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_FIELD_PATHS_H_
