// The Go types validation/decode_check.cc checks JSON against: for each built-in kind, a tree of the fields
// the validation rules read (plus the ones users commonly get wrong), each with the Go type
// encoding/json names in its errors. Fields not listed are accepted as they are.
#ifndef KUBESIM_FAKEAPI_INTERNAL_ENCODING_DECODE_SCHEMA_H_
#define KUBESIM_FAKEAPI_INTERNAL_ENCODING_DECODE_SCHEMA_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kubesim::fakeapi::internal::validation {

enum class Type {
  kString,
  kBool,
  kInt32,
  kInt64,
  kStringMap,
  kBytesMap,
  kStringList,
  kIntOrString,
  kStruct,
  kList
};

struct Node {
  Type type;
  std::string go_type;  // reflect's Type.String(): "string", "v1.RestartPolicy", "[]v1.Container"
  std::string name;     // a struct's Type.Name(), which errors name the struct by
  std::vector<std::pair<std::string, const Node*>> fields;  // kStruct: sorted by name, unique
  const Node* elem = nullptr;  // kList
};

// The schema of the versioned Go type of the built-in kind (group, kind), or null when there is
// none. The schemas are built once and live for the program's lifetime.
const Node* schema_root(std::string_view group, std::string_view kind);

}  // namespace kubesim::fakeapi::internal::validation

#endif  // KUBESIM_FAKEAPI_INTERNAL_ENCODING_DECODE_SCHEMA_H_
