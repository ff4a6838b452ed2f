// What a `match`/`noMatch` check's partial object names: its kind resolved to the server's
// resource, and its metadata.namespace and metadata.name ("" when absent). Shared by the check's
// evaluation and what it depends on (conditions.cc) and by its subject (subject.cc).
#ifndef KUBESIM_RUNNER_INTERNAL_MATCH_TREE_H_
#define KUBESIM_RUNNER_INTERNAL_MATCH_TREE_H_

#include <string>

#include <nlohmann/json.hpp>

#include "kubesim/fakeapi/registry.h"
#include "kubesim/runner/world.h"

namespace kubesim::runner {

// Null when the tree has no apiVersion and kind, or the server does not serve that kind.
const fakeapi::ResourceInfo* match_resource(World& w, const nlohmann::json& tree);
std::string match_namespace(const nlohmann::json& tree);
std::string match_name(const nlohmann::json& tree);

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_INTERNAL_MATCH_TREE_H_
