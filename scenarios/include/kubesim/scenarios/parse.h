// Reading scenario files: YAML text in, a checked Scenario or every error of the file out.
//
// The parser reads the format of docs/scenarios.md with yaml-cpp and reports each problem as
// FILE:LINE:COL: what is wrong — syntax, an unknown key, a wrong type, a bad duration, a range
// upside down, a reference to a process, lock, resource or controller type that does not exist,
// a timeline instant past `duration` — all of them, not just the first. A file with errors gives
// no Scenario. Parsing never throws and never runs anything.
#ifndef KUBESIM_SCENARIOS_PARSE_H_
#define KUBESIM_SCENARIOS_PARSE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/scenarios/registry.h"
#include "kubesim/scenarios/scenario.h"

namespace kubesim::scenarios {

struct ParseError {
  std::string file;
  Mark mark;  // 0:0 when the problem has no place (a file that cannot be read)
  std::string message;
  // "FILE:LINE:COL: message" (or "FILE: message" without a place).
  std::string text() const;
};

struct ParseResult {
  std::optional<Scenario> scenario;  // set exactly when errors is empty
  std::vector<ParseError> errors;    // in file order
};

// Parses `text` as the scenario file `file` (the name used in errors and Scenario::file).
ParseResult parse_scenario(std::string_view text, const std::string& file,
                           const Registry& registry);

// A scenario file read once: the path as given ("-" is standard input) and its text, or why it
// could not be read ("cannot read the file: it is a directory"). Reading once is what lets a
// pipe, `-` or a shell's `<(…)` be a scenario file.
struct Source {
  std::string path;
  std::string text;
  std::optional<std::string> error;
  // The name errors and Scenario::file use: the path, or "<stdin>" for "-".
  std::string name() const;
};
Source read_source(const std::string& path);
// Parses a source read without error (parse_scenario of its text, named source.name()).
ParseResult parse_source(const Source& source, const Registry& registry);
// Reads the file at `path` once and parses it; a file that cannot be read is the one error.
ParseResult load_scenario(const std::string& path, const Registry& registry);

}  // namespace kubesim::scenarios

#endif  // KUBESIM_SCENARIOS_PARSE_H_
