// YAML to JSON, as Kubernetes tools convert it (sigs.k8s.io/yaml over go-yaml v2, YAML 1.1
// scalars): plain scalars resolve to null (~, null, empty), booleans (true/false, yes/no, on/off,
// y/n in their three casings), integers (decimal, 0x hex, 0o and leading-0 octal, 0b binary,
// with '_' separators), floats (including .inf and .nan) or strings; quoted scalars and !!str are
// always strings; mapping keys become strings. Anchors and aliases are expanded.
//
// Guarantees: never throws; a malformed document is a 400 BadRequest naming the line and column;
// documents nesting deeper than 256 levels, or expanding (through aliases) to more than
// kMaxYamlNodes nodes, are refused the same way, so a small hostile body cannot exhaust memory.
#ifndef KUBESIM_API_YAML_H_
#define KUBESIM_API_YAML_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/result.h"

namespace kubesim::api {

inline constexpr std::size_t kMaxYamlNodes = 1'000'000;

// Every document of a multi-document stream ("---" separated), empty documents left out.
api::Result<std::vector<nlohmann::json>> yaml_documents_to_json(std::string_view text);
// Exactly one document (a request body); none or several is a 400.
api::Result<nlohmann::json> yaml_to_json(std::string_view text);

}  // namespace kubesim::api

#endif  // KUBESIM_API_YAML_H_
