// Loading a scenario file's YAML: its one document, or what keeps it from being read.
//
// yaml-cpp 0.7's LoadAll never returns on a stray flow indicator such as "," (it reads the same
// token as an empty document again and again, allocating as it goes; yaml-cpp issue #1040, fixed
// in 0.8). So the documents are first walked one at a time, at most three
// (api::scan_yaml_documents), and a parser that stops advancing is reported as the syntax error
// it is.
#include <string>

#include "kubesim/api/yaml.h"
#include "kubesim/scenarios/yaml_reader.h"

namespace kubesim::scenarios::yaml {
namespace {

constexpr std::size_t kMaxDocuments = 3;

Mark mark_of(const api::YamlPlace& place) { return Mark{place.line + 1, place.column + 1}; }

}  // namespace

LoadedYaml load_yaml(std::string_view text) {
  LoadedYaml out;
  const api::YamlScan scan = api::scan_yaml_documents(text, kMaxDocuments);
  if (scan.error) {
    const auto& [place, message] = *scan.error;
    out.error = std::pair{mark_of(place), message};  // a place of -1 (none) becomes 0:0
    return out;
  }
  if (scan.stalled_at) {
    const std::size_t pos = scan.stalled_at->pos;
    const char c = pos < text.size() ? text[pos] : ' ';
    out.error = std::pair{mark_of(*scan.stalled_at), c > ' ' && c < 0x7f
                                                         ? "unexpected \"" + std::string(1, c) + "\""
                                                         : std::string("unexpected character")};
    return out;
  }
  if (scan.roots.size() > 1) out.second_document = mark_of(scan.roots[1]);
  try {
    out.document = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    out.error = std::pair{mark_of(e.mark), e.msg};
  }
  return out;
}

}  // namespace kubesim::scenarios::yaml
