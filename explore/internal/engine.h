// The explorer's runs: a scenario document (YAML) written out, parsed and run with one seed, and
// the oracle that judges a run (explore/differential.h). Used by the search (engine.cc) and by
// the shrinker's predicate (finding.cc).
#ifndef KUBESIM_EXPLORE_INTERNAL_ENGINE_H_
#define KUBESIM_EXPLORE_INTERNAL_ENGINE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "explore/internal/differential.h"
#include "explore/internal/perturb.h"
#include "kubesim/explore/explore.h"
#include "kubesim/runner/runner.h"

namespace kubesim::explore {

// One run of a document.
struct DocRun {
  std::string parse_error;  // the first error when the document does not parse
  std::vector<std::string> checks;  // Check::text of every check, in the scenario's order
  runner::SeedResult result;
  runner::RunCapture capture;
  bool parsed() const { return parse_error.empty(); }
};

// Parses `text` (as the file `file`) and runs it with `seed`; the capture only when asked.
DocRun run_text(const std::string& text, const std::string& file, std::uint64_t seed,
                const scenarios::Registry& registry, const runner::RunFunction& run, bool capture);

// What the search shares with the finding's shrinking and replay.
struct Search {
  std::string file;
  YAML::Node document;                      // the file as read
  std::set<std::string> original_timeline;  // YAML::Dump of each of the file's timeline entries
  const scenarios::Registry* registry = nullptr;
  runner::RunFunction run;
  DiffOptions diff;
  bool differential = true;
  std::vector<std::uint64_t> seeds;                        // the seeds explored
  std::map<std::uint64_t, runner::RunCapture> references;  // per seed
};

// The document without the entries the explorer added (timeline entries that are not, as
// written, among the file's own).
YAML::Node unperturbed(const Search& search, const YAML::Node& doc);

// A run judged: the broken check it shows ("" when none), and for the differential the
// differences.
struct Verdict {
  bool failed = false;
  std::string check;  // the first broken check's text; "error" for a runner error
  std::string detail;
  sim::Time at{};
  std::vector<Difference> differences;  // set when it failed by the differential only
};
Verdict judge(const Search& search, std::uint64_t seed, const DocRun& run);

// The finding after the search: the candidate document, its verdict, and the rest of the report
// to fill (writes OUT/NAME.min.yaml).
void complete_finding(const Search& search, const ExploreOptions& options, const std::string& name,
                      std::uint64_t seed, const YAML::Node& doc, const Verdict& verdict,
                      bool perturbed, ExploreFinding& finding);

}  // namespace kubesim::explore

#endif  // KUBESIM_EXPLORE_INTERNAL_ENGINE_H_
