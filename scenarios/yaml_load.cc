// Loading a scenario file's YAML: its one document, or what keeps it from being read.
//
// yaml-cpp 0.7's LoadAll never returns on a stray flow indicator such as "," (it reads the same
// token as an empty document again and again, allocating as it goes; yaml-cpp issue #1040, fixed
// in 0.8). So the documents are first walked one at a time, at most three
// (api::scan_yaml_documents), and a parser that stops advancing is reported as the syntax error
// it is.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kubesim/api/yaml.h"
#include "kubesim/scenarios/yaml_reader.h"

namespace kubesim::scenarios::yaml {
namespace {

constexpr std::size_t kMaxDocuments = 3;

Mark mark_of(const api::YamlPlace& place) { return Mark{place.line + 1, place.column + 1}; }

// The place (1-based) of the innermost `{` or `[` that the text never closes, reading it as YAML
// flow collections do: quoted strings and comments do not count. nullopt when every one closes.
std::optional<Mark> unclosed_flow(std::string_view text) {
  std::vector<Mark> open;
  int line = 1, column = 1;
  char quote = 0;
  bool comment = false;
  char before = '\n';
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (comment) {
      if (c == '\n') comment = false;
    } else if (quote != 0) {
      if (quote == '"' && c == '\\') {
        ++i;
        ++column;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '#' && (before == ' ' || before == '\t' || before == '\n')) {
      comment = true;
    } else if ((c == '"' || c == '\'') && (before == ' ' || before == '\n' || before == '{' ||
                                           before == '[' || before == ',' || before == ':')) {
      quote = c;
    } else if (c == '{' || c == '[') {
      open.push_back(Mark{line, column});
    } else if ((c == '}' || c == ']') && !open.empty()) {
      open.pop_back();
    }
    before = c;
    if (c == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  if (open.empty()) return std::nullopt;
  return open.back();
}

// yaml-cpp's message made plain where it says little: an unclosed flow collection is reported
// where it opened, a tab in an indentation is called one.
std::pair<Mark, std::string> explained(std::string_view text, Mark mark, std::string message) {
  if (message.find("flow not found") != std::string::npos) {
    if (auto opened = unclosed_flow(text)) {
      const bool map = message.find("map") != std::string::npos;
      return {*opened, std::string("this \"") + (map ? "{" : "[") + "\" is never closed: add \"" +
                           (map ? "}" : "]") + "\" where the " + (map ? "mapping" : "list") + " ends"};
    }
  }
  if (message.find("tab") != std::string::npos || message.find("illegal block entry") != std::string::npos) {
    // The line the parser stopped on, and the one before (a tab ends an indentation early).
    std::size_t start = 0;
    for (int l = 1; l < mark.line && start != std::string_view::npos; ++l) {
      start = text.find('\n', start);
      if (start != std::string_view::npos) ++start;
    }
    if (start != std::string_view::npos && start < text.size()) {
      const std::size_t end = text.find_first_not_of(" \t", start);
      const std::string_view indent = text.substr(start, (end == std::string_view::npos ? text.size() : end) - start);
      if (indent.find('\t') != std::string_view::npos) {
        return {Mark{mark.line, static_cast<int>(indent.find('\t')) + 1},
                "a tab in the indentation: YAML indents with spaces only"};
      }
    }
  }
  return {mark, std::move(message)};
}

}  // namespace

LoadedYaml load_yaml(std::string_view text) {
  LoadedYaml out;
  const api::YamlScan scan = api::scan_yaml_documents(text, kMaxDocuments);
  if (scan.error) {
    const auto& [place, message] = *scan.error;
    out.error = explained(text, mark_of(place), message);  // a place of -1 (none) becomes 0:0
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
    out.error = explained(text, mark_of(e.mark), e.msg);
  }
  return out;
}

}  // namespace kubesim::scenarios::yaml
