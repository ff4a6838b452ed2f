// The scenario file as a whole: loading the YAML, the scenario's own keys, and the order in
// which the sections are read (scenarios/internal/parse_context.h).
#include "kubesim/scenarios/parse.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "kubesim/api/go_strings.h"
#include "kubesim/scenarios/yaml_reader.h"
#include "scenarios/internal/parse_context.h"

namespace kubesim::scenarios {

namespace internal {
// parse_explore.cc: `seeds` (a count or a list) and `explore:`.
void parse_seeds(ParseContext& ctx, const Field& field);
void parse_explore(ParseContext& ctx, const Field& field);
}  // namespace internal

namespace {

using internal::Field;
using internal::MapFields;
using internal::ParseContext;

// The place just past the end of `text`, for problems yaml-cpp reports without a place.
Mark end_of(std::string_view text) {
  Mark mark{1, 1};
  for (char c : text) {
    if (c == '\n') {
      ++mark.line;
      mark.column = 1;
    } else {
      ++mark.column;
    }
  }
  return mark;
}

// The place of the first byte that does not start a valid UTF-8 sequence, or nullopt.
std::optional<Mark> first_invalid_utf8(std::string_view text) {
  if (api::valid_utf8(text)) return std::nullopt;
  Mark mark{1, 1};
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t len = c < 0x80         ? 1
                            : (c >> 5) == 6  ? 2
                            : (c >> 4) == 14 ? 3
                            : (c >> 3) == 30 ? 4
                                             : 0;
    if (len == 0 || i + len > text.size() || !api::valid_utf8(text.substr(i, len))) return mark;
    if (c == '\n') {
      ++mark.line;
      mark.column = 1;
    } else {
      ++mark.column;
    }
    i += len;
  }
  return mark;
}

const std::vector<std::string> kScenarioKeys = {
    "name",      "description", "duration", "seeds",  "shuffle",  "cluster", "network",
    "processes", "workload",    "timeline", "expect", "mustFind", "explore", "sweep",  "measure"};

void read_scenario(ParseContext& ctx, const Field& document) {
  Scenario& s = ctx.scenario;
  if (!document.is_map()) {
    ctx.reader.error(document.mark(), "a scenario is a mapping (name: …, duration: …, …), not " +
                                          internal::describe(document.value));
    return;
  }
  MapFields top(ctx.reader, document, "the scenario", kScenarioKeys);
  for (const char* key : {"sweep", "measure"}) {
    if (Field f = top.get(key)) {
      ctx.reader.error(
          f.key_mark, std::string(key) +
                          ": an experiment's key, expanded by kubesim run (one scenario per point); "
                          "not accepted here");
    }
  }
  if (auto name = ctx.reader.string(top.require("name"))) {
    if (name->empty()) ctx.reader.error(top.get("name"), "must not be empty");
    s.name = *name;
  }
  if (auto d = ctx.reader.string(top.get("description"))) s.description = *d;
  const Field duration = top.require("duration", "the virtual time it runs, e.g. 10m");
  if (auto d = ctx.reader.positive_duration(duration)) {
    s.duration = *d;
    ctx.duration_known = true;
    ctx.duration_text = duration.value.Scalar();
  }
  internal::parse_seeds(ctx, top.get("seeds"));
  if (auto b = ctx.reader.boolean(top.get("shuffle"))) s.shuffle = *b;
  internal::parse_cluster(ctx, top.get("cluster"));
  internal::parse_network(ctx, top.get("network"));
  internal::parse_processes(ctx, top.get("processes"));
  internal::parse_workload(ctx, top.get("workload"));
  internal::parse_timeline(ctx, top.get("timeline"));
  internal::parse_expect(ctx, top.get("expect"));
  internal::parse_must_find(ctx, top.get("mustFind"));
  internal::parse_explore(ctx, top.get("explore"));
}

}  // namespace

std::string ParseError::text() const {
  return place(file, mark) + ": " + message;
}

ParseResult parse_scenario(std::string_view text, const std::string& file,
                           const Registry& registry) {
  ParseResult result;
  internal::Errors errors;
  if (auto bad = first_invalid_utf8(text)) {
    errors.add(*bad, "the file is not UTF-8 text");
    result.errors = errors.sorted(file);
    return result;
  }
  internal::LoadedYaml yaml = internal::load_yaml(text);
  if (yaml.error) {
    Mark mark = yaml.error->first;
    if (mark.line == 0) mark = end_of(text);
    errors.add(mark, "invalid YAML: " + yaml.error->second);
    result.errors = errors.sorted(file);
    return result;
  }
  if (!yaml.document.IsDefined() || yaml.document.IsNull()) {
    errors.add(Mark{1, 1},
               "the file is empty: a scenario is a mapping with at least name and duration");
    result.errors = errors.sorted(file);
    return result;
  }
  if (yaml.second_document) {
    Mark mark = *yaml.second_document;
    if (mark.line == 0) mark = end_of(text);
    errors.add(mark, "a scenario file holds one YAML document; a second one starts here");
  }
  Scenario scenario;
  scenario.file = file;
  ParseContext ctx(errors, registry, scenario);
  read_scenario(ctx, Field{"scenario", yaml.document, Mark{1, 1}});
  if (errors.empty()) {
    result.scenario = std::move(scenario);
  } else {
    result.errors = errors.sorted(file);
  }
  return result;
}

std::string Source::name() const { return path == "-" ? "<stdin>" : path; }

Source read_source(const std::string& path) {
  Source out;
  out.path = path;
  auto fail = [&](const std::string& why) {
    out.text.clear();
    out.error = "cannot read the file: " + why;
    return out;
  };
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    if (std::cin.bad()) return fail("reading standard input failed");
    out.text = text.str();
    return out;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail("it is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(errno != 0 ? std::strerror(errno) : "it cannot be opened");
  text << in.rdbuf();
  if (in.bad()) return fail("reading it failed");
  out.text = text.str();
  return out;
}

ParseResult parse_source(const Source& source, const Registry& registry) {
  return parse_scenario(source.text, source.name(), registry);
}

ParseResult load_scenario(const std::string& path, const Registry& registry) {
  Source source = read_source(path);
  if (source.error) {
    ParseResult result;
    result.errors.push_back(ParseError{source.name(), Mark{}, *source.error});
    return result;
  }
  return parse_source(source, registry);
}

}  // namespace kubesim::scenarios
