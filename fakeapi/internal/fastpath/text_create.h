// The create fast path. A create of a ConfigMap whose text holds only what the general path
// would store as it is (apiVersion, kind, a name or a generateName and the namespace, labels,
// string data; a uid the server replaces) is stored from that text with the server's fields
// written in, without building, validating and rendering a tree. Every other create is left to
// the general path, which answers these the same way (tests/fakeapi/text_writes_test.cc and
// tests/fakeapi/generate_name_fast_path_test.cc run both).
#ifndef KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TEXT_CREATE_H_
#define KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TEXT_CREATE_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "kubesim/api/object.h"
#include "kubesim/fakeapi/registry.h"

namespace kubesim::fakeapi::internal {

// What the stored object keeps of the object sent: its data and labels, as text (empty when
// absent) or, for an object held as a JSON tree, as the tree's values (null when absent), its
// name and its generateName (empty when absent). Without a name, the server draws one from the
// generateName, which every name so drawn passes the name checks with.
struct TextCreate {
  std::string_view data;
  std::string_view labels;
  const nlohmann::json* data_tree = nullptr;
  const nlohmann::json* labels_tree = nullptr;
  std::string_view name;
  std::string_view generate_name;
};

// The fast path's plan for creating `object` in namespace `ns`, or nullopt when the general path
// must decide. It does not look at the store: the namespace and the name's key are the caller's
// to check.
std::optional<TextCreate> plan_text_create(const ResourceInfo& info, const api::Object& object,
                                           std::string_view ns);

// The stored object: the plan's members with the server's metadata and `name` (the plan's, or
// the one drawn for it), built from the text as it is written (its metadata is not read back).
api::ObjectPtr text_create(const ResourceInfo& info, const TextCreate& plan, std::string_view name,
                           std::string_view ns, std::string_view uid,
                           std::string_view creation_timestamp, std::string_view resource_version);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TEXT_CREATE_H_
