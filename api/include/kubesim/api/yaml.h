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
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/result.h"

namespace kubesim::api {

inline constexpr std::size_t kMaxYamlNodes = 1'000'000;

// Every document of a multi-document stream ("---" separated), empty documents left out.
api::Result<std::vector<nlohmann::json>> yaml_documents_to_json(std::string_view text);
// Exactly one document (a request body); none or several is a 400.
api::Result<nlohmann::json> yaml_to_json(std::string_view text);

// A place in YAML text: 0-based line and column, and the byte offset.
struct YamlPlace {
  int line = 0;
  int column = 0;
  std::size_t pos = 0;
};

// The documents of a YAML stream as the parser meets them, without building them: where each
// document's root starts, at most `max_documents` of them (0: all). yaml-cpp 0.7's LoadAll never
// returns on a stray flow indicator such as "," (it reads the same empty document at the same
// place again and again, allocating as it goes; fixed in yaml-cpp 0.8): such a stream stops with
// `stalled_at` set at that character. A syntax error stops it with `error` (its place and
// yaml-cpp's message). Never throws. Loading the text is safe when neither is set.
struct YamlScan {
  std::vector<YamlPlace> roots;
  std::optional<YamlPlace> stalled_at;
  std::optional<std::pair<YamlPlace, std::string>> error;
};
YamlScan scan_yaml_documents(std::string_view text, std::size_t max_documents = 0);

}  // namespace kubesim::api

#endif  // KUBESIM_API_YAML_H_
