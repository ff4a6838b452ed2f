// The Go types of Kubernetes' built-in kinds, as tables.
//
// Kubernetes objects travel as proto2 messages whose Go structs then go through encoding/json, so
// what a client sees depends on two things a .proto file does not say: Go's omitempty/omitzero
// and pointer-or-value for each field, and the hand-written JSON forms of a few apimachinery types
// (Time, Quantity, IntOrString, FieldsV1). A table per message records both (field number, wire
// shape, JSON name, Go flags). The protobuf request decoder (fakeapi/http/protobuf) walks them to
// turn wire bytes into JSON; the server uses the Go flags to store objects as the typed encoding
// would (go_encoding.h). The tables are generated (gen_schema.py, from k8s.io/api's
// generated.proto and types.go, at v0.33.9: kube-apiserver 1.33) for every message reachable
// from the kinds decodable_kinds() lists: every kind with ObjectMeta that kube-apiserver 1.33
// serves in the built-in group versions, and the bodies of subresources. A field added by a
// later Kubernetes release is unknown to them, as it is to a 1.33 server.
//
// They also carry what server-side apply (structured-merge-diff) and strategic merge patch need
// to merge a field, from the Go markers and struct tags of types.go: the list type and its keys
// (+listType, +listMapKey), atomic maps and structs (+mapType, +structType), the patch strategy
// and merge key (patchStrategy, patchMergeKey tags), and the +default= marker's value. A list
// without a +listType marker gets what kube-openapi's schemaconv derives for SMD
// (getListElementRelationship): with patchStrategy "merge" a map list keyed by patchMergeKey, or
// a set when it has none; otherwise atomic. Maps and structs without a marker are granular, and
// a struct field's marker overrides its type's (PersistentVolumeSpec.claimRef is granular though
// ObjectReference is atomic). In 1.33 every list of these kinds carries +listType.
//
// Guarantees of the tables: each MessageSpec's fields are sorted by number without duplicates;
// a kMessage field names its MessageSpec; every other kind has `message == nullptr`; a kRepeated
// field's list_type is never kNone, every other field's is; a kMap list names one or more keys,
// each a field of its element message. All tables are constant-initialised, so they can be used
// from static initialisers of other files.
#ifndef KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_SCHEMA_H_
#define KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_SCHEMA_H_

#include <cstdint>
#include <span>
#include <string_view>

namespace kubesim::fakeapi::types {

struct MessageSpec;

// What a field (or each element of a repeated field, or each value of a map) holds.
enum class ValueKind : std::uint8_t {
  kString,
  kBool,
  kInt32,
  kInt64,
  kBytes,        // JSON: standard base64 with padding, as Go encodes []byte.
  kMessage,      // A message described by FieldSpec::message.
  kTime,         // metav1.Time: RFC 3339 seconds in UTC, null when unset.
  kMicroTime,    // metav1.MicroTime: RFC 3339 with microseconds, null when unset.
  kQuantity,     // resource.Quantity: its string.
  kIntOrString,  // intstr.IntOrString: a JSON number or string.
  kFieldsV1,     // metav1.FieldsV1: raw JSON carried in bytes.
  kStringList,   // A []string that travels as a message of `repeated string items = 1`
                 // (ExtraValue of authentication, authorization and certificates): a JSON
                 // array of strings, null when nil (no items).
  kUnsupported,  // Known field of a type this decoder cannot render: an error when present.
};

enum class Cardinality : std::uint8_t {
  kSingular,
  kRepeated,  // Packed or not, for scalars.
  kMap,       // map<string, value>: entries with key = 1, value = 2.
};

// How server-side apply and strategic merge patch merge a list.
enum class ListType : std::uint8_t {
  kNone,    // Not a list (a singular or map field).
  kAtomic,  // Replaced whole.
  kSet,     // Scalars merged as a set of values.
  kMap,     // Messages merged element by element, keyed by FieldSpec::list_map_keys.
};

// How Go renders the field (the struct field's type and json tag).
inline constexpr std::uint8_t kPointer = 1;    // *T: absent means nil.
inline constexpr std::uint8_t kOmitEmpty = 2;  // json:",omitempty"
inline constexpr std::uint8_t kOmitZero = 4;   // json:",omitzero"
inline constexpr std::uint8_t kInline = 8;     // Embedded struct: its fields join the parent.
// How it merges. kAtomic: a map (+mapType=atomic) or a singular struct (+structType=atomic on the
// field, or on its type unless the field says granular) replaced whole; unset, it merges member
// by member. The patch strategy bits are the patchStrategy struct tag's ("merge,retainKeys"
// sets both).
inline constexpr std::uint8_t kAtomic = 16;
inline constexpr std::uint8_t kPatchMerge = 32;
inline constexpr std::uint8_t kPatchRetainKeys = 64;

struct FieldSpec {
  std::uint32_t number;
  // The JSON name; for kInline fields, the proto field name (used in error messages only).
  std::string_view name;
  ValueKind kind;
  Cardinality cardinality;
  std::uint8_t flags;
  const MessageSpec* message;  // Set iff kind == kMessage.
  ListType list_type = ListType::kNone;
  // kMap lists: the keys, comma-joined in marker order ("containerPort,protocol"); else empty.
  std::string_view list_map_keys = {};
  // The patchMergeKey struct tag ("name"), or empty. Strategic merge patch keys a merge list by
  // it, even where list_map_keys differ (Container.ports: containerPort).
  std::string_view patch_merge_key = {};
  // The +default= marker's value as JSON text ("\"TCP\"", "1", "false"; a ref(Constant)
  // resolved to the constant's value), or empty. Recorded only: the tables apply no defaults.
  std::string_view default_json = {};

  bool has(std::uint8_t flag) const { return (flags & flag) != 0; }
};

struct MessageSpec {
  std::string_view name;  // Fully qualified proto name, for error messages.
  std::span<const FieldSpec> fields;
  // +structType=atomic on the Go type: its values (in lists and maps too) are replaced whole.
  bool atomic = false;

  // The field with this number, or nullptr.
  const FieldSpec* find(std::uint32_t number) const;
};

// A top-level kind with a table, and the message that holds it. A kind served in two versions
// of its group (autoscaling's HorizontalPodAutoscaler) has one entry per version, the group's
// preferred version first.
struct KindSpec {
  std::string_view group;  // "" for the core group.
  std::string_view version;
  std::string_view kind;
  const MessageSpec* message;
};

// Every kind with a table (generated, schema_kinds.cc), each (group, version, kind) once.
std::span<const KindSpec> decodable_kinds();

}  // namespace kubesim::fakeapi::types

#endif  // KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_SCHEMA_H_
