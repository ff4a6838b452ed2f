// libFuzzer target: raw bytes as a scenario file, through parse_scenario with the built-in
// controller types. Aborts when the result breaks the parser's promises (kubesim/scenarios/
// parse.h): a Scenario exactly when there is no error; every error placed (line and column ≥ 1,
// within the file) and in file order, its text UTF-8; every JSON value of a Scenario writable
// and every check's text on one line. The sanitizers and libFuzzer's timeouts catch the rest
// (crashes, leaks, hangs).
//
//   scenario_parse_fuzz -max_total_time=10 -dict=tests/scenarios/fuzz/scenario.dict CORPUS_DIR
//   SEED_DIR
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kubesim/api/go_strings.h"
#include "kubesim/scenarios/parse.h"

namespace {

using namespace kubesim::scenarios;

[[noreturn]] void broken(const std::string& rule) {
  std::fprintf(stderr, "broken rule: %s\n", rule.c_str());
  std::abort();
}

void check_errors(const ParseResult& result, std::string_view text) {
  const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (std::size_t i = 0; i < result.errors.size(); ++i) {
    const ParseError& e = result.errors[i];
    if (e.mark.line < 1 || e.mark.column < 1 || e.mark.line > lines) {
      broken("an error without a place in the file: " + e.text());
    }
    if (e.file != "fuzz.yaml" || e.message.empty()) broken("an error without file or message");
    if (!kubesim::api::valid_utf8(e.text())) broken("an error that is not UTF-8");
    if (i > 0 && std::pair(e.mark.line, e.mark.column) <
                     std::pair(result.errors[i - 1].mark.line, result.errors[i - 1].mark.column)) {
      broken("errors out of file order: " + e.text());
    }
  }
}

// Dumping throws on strings that are not UTF-8, which a runner or report would meet later.
void check_json(const nlohmann::json& j) {
  try {
    (void)j.dump();
  } catch (const nlohmann::json::exception& e) {
    broken(std::string("a JSON value that cannot be written: ") + e.what());
  }
}

void check_scenario(const Scenario& s) {
  for (const auto& o : s.cluster.objects) check_json(o);
  for (const auto& p : s.processes) {
    for (const auto& actor : p.run) {
      if (const auto* c = std::get_if<ControllerSpec>(&actor)) check_json(c->params);
    }
  }
  for (const auto& w : s.workload) {
    if (const auto* c = std::get_if<CreateAction>(&w.action)) check_json(c->object);
    if (const auto* u = std::get_if<UpdateAction>(&w.action)) {
      for (const auto& [path, value] : u->set) check_json(value);
    }
  }
  for (const auto& c : s.checks) {
    if (c.text.find('\n') != std::string::npos)
      broken("a check's text on several lines: " + c.text);
    if (!kubesim::api::valid_utf8(c.text)) broken("a check's text that is not UTF-8");
    if (const auto* m = std::get_if<Match>(&c.condition)) check_json(m->tree);
    if (const auto* o = std::get_if<ObjectPathEquals>(&c.condition)) check_json(o->equals);
  }
  if (s.duration <= kubesim::sim::Duration::zero())
    broken("a scenario without a positive duration");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Registry registry = Registry::with_builtins();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ParseResult result = parse_scenario(text, "fuzz.yaml", registry);
  if (result.scenario.has_value() != result.errors.empty()) {
    broken("a scenario must come exactly when there is no error");
  }
  check_errors(result, text);
  if (result.scenario) check_scenario(*result.scenario);
  return 0;
}
