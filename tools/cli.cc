#include "kubesim/tools/cli.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

#include <CLI/CLI.hpp>

#include "kubesim/explore/explore.h"
#include "kubesim/report/chart.h"
#include "kubesim/report/junit.h"
#include "kubesim/report/report.h"
#include "kubesim/report/summary.h"
#include "kubesim/runner/progress.h"
#include "kubesim/sweep/sweep.h"

namespace kubesim::tools {

namespace {

struct RunFlags {
  std::vector<std::string> paths;
  std::string seeds;  // checked by check_run_flags, as --seed
  std::string seed;   // checked by check_run_flags: CLI11 reads "-3" as a huge unsigned
  int jobs = 1;
  std::string shard = "0/1";
  std::string junit, results, report, trace, csv, charts;
  bool live = false;
  bool strict = false;
  std::string live_output = "kubesim-live";
  bool list_controllers = false;
  CLI::Option* seeds_opt = nullptr;
  CLI::Option* seed_opt = nullptr;
  CLI::Option* live_output_opt = nullptr;
};

struct MergeFlags {
  std::vector<std::string> inputs;
  std::string junit, results, report, csv, charts;
};

// The files a command writes, opened before anything runs so that a path that cannot be
// written is bad input, not a lost result.
struct Outputs {
  std::unique_ptr<std::ofstream> junit, results, report, trace;
};

struct Context {
  const CliEnvironment& env;
  std::string program;  // argv[0]
  std::string name;     // its file name, for messages
  std::vector<std::string> args;
};

int usage_error(const Context& c, const std::string& command, const std::string& message) {
  *c.env.err << c.name << " " << command << ": " << message << "\n"
             << "Run '" << c.program << " " << command << " --help' for the flags.\n";
  return kBadInput;
}

// Opens `path` for writing unless it is empty; false (with a message) when it cannot.
bool open_output(const Context& c, const std::string& command, const std::string& path,
                 std::unique_ptr<std::ofstream>& stream) {
  if (path.empty()) return true;
  errno = 0;
  stream = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (*stream) return true;
  *c.env.err << c.name << " " << command << ": cannot write " << path
             << (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string()) << "\n";
  return false;
}

bool open_outputs(const Context& c, const std::string& command, const std::string& junit,
                  const std::string& results, const std::string& report, const std::string& trace,
                  Outputs& out) {
  return open_output(c, command, junit, out.junit) &&
         open_output(c, command, results, out.results) &&
         open_output(c, command, report, out.report) && open_output(c, command, trace, out.trace);
}

// Writes the files asked for, noting each on stderr.
void write_outputs(const Context& c, const runner::RunSet& set, Outputs& out, const std::string& junit,
                   const std::string& results, const std::string& report) {
  if (out.results) {
    *out.results << to_json(set).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                 << "\n";
    out.results->close();
    *c.env.err << "results: " << results << "\n";
  }
  if (out.junit) {
    report::write_junit(set, *out.junit);
    out.junit->close();
    *c.env.err << "junit: " << junit << "\n";
  }
  if (out.report) {
    report::write_report_html(set, *out.report);
    out.report->close();
    *c.env.err << "report: " << report << "\n";
  }
}

// Makes the --charts directory before anything runs; false (with a message) when it cannot be.
bool open_charts(const Context& c, const std::string& command, const std::string& dir) {
  if (dir.empty()) return true;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!ec && std::filesystem::is_directory(dir, ec)) return true;
  *c.env.err << c.name << " " << command << ": cannot write " << dir << ": "
             << (ec ? ec.message() : std::string("not a directory")) << "\n";
  return false;
}

// The experiments' outputs: the table on stdout (when the set has experiments), --csv, --charts.
void write_measurements(const Context& c, const runner::RunSet& set, std::unique_ptr<std::ofstream>& csv,
                        const std::string& csv_path, const std::string& charts) {
  const std::vector<sweep::MeasuredRun> rows = sweep::measured_rows(set);
  const bool any = std::any_of(set.scenarios.begin(), set.scenarios.end(),
                               [](const runner::ScenarioRun& r) { return !r.result.experiment.empty(); });
  if (any) sweep::write_table(rows, *c.env.out);
  if (csv) {
    sweep::write_csv(rows, *csv);
    csv->close();
    *c.env.err << "csv: " << csv_path << "\n";
  }
  if (charts.empty()) return;
  std::string error;
  const auto written = report::write_chart_files(rows, charts, error);
  if (!error.empty()) *c.env.err << c.name << ": " << error << "\n";
  *c.env.err << "charts: " << written.size() << (written.size() == 1 ? " file" : " files")
             << " in " << charts << "\n";
}

void add_run_flags(CLI::App& run, RunFlags& f) {
  run.add_option("paths", f.paths, "scenario files (- reads standard input), or directories of *.yaml files")
      ->type_name("FILE|DIR");
  f.seeds_opt = run.add_option("--seeds", f.seeds, "run seeds 1…N instead of each file's `seeds`")
                    ->type_name("N");
  f.seed_opt = run.add_option("--seed", f.seed, "run only this seed (replays a failure)")
                   ->type_name("S");
  run.add_option("--jobs", f.jobs, "run seeds on this many threads (results do not depend on it)")
      ->type_name("N");
  run.add_option("--shard", f.shard, "run the K-th of N disjoint slices of the runs (0 <= K < N)")
      ->type_name("K/N");
  run.add_option("--results", f.results, "write every seed's outcome as JSON (for kubesim merge)")
      ->type_name("FILE.json");
  run.add_option("--junit", f.junit, "write JUnit XML: a testsuite per scenario, a testcase per seed")
      ->type_name("FILE");
  run.add_option("--report", f.report, "write a self-contained HTML report with timelines")
      ->type_name("FILE.html");
  run.add_option("--csv", f.csv, "write one row per point and seed of the experiments' measurements")
      ->type_name("FILE.csv");
  run.add_option("--charts", f.charts,
                 "write an SVG chart per experiment, metric and parameter into DIR")
      ->type_name("DIR");
  run.add_option("--trace", f.trace, "write the JSONL trace of the only run (one scenario, one seed)")
      ->type_name("FILE");
  run.add_flag("--strict", f.strict, "a check that held vacuously (over nothing) fails its seed");
  run.add_flag("--list-controllers", f.list_controllers, "list the controller types and exit");
  run.add_flag("--live", f.live, "run in real time, exec processes as real OS processes");
  f.live_output_opt =
      run.add_option("--live-output", f.live_output, "--live: each run's files go under DIR/SCENARIO/seed-N")
          ->type_name("DIR");
}

void add_merge_flags(CLI::App& merge, MergeFlags& f) {
  merge.add_option("results", f.inputs, "the --results files of the shards")
      ->required()
      ->type_name("RESULTS.json");
  merge.add_option("--results", f.results, "write the merged results as JSON")->type_name("FILE.json");
  merge.add_option("--junit", f.junit, "write JUnit XML of the merged results")->type_name("FILE");
  merge.add_option("--report", f.report, "write the HTML report of the merged results")
      ->type_name("FILE.html");
  merge.add_option("--csv", f.csv, "write the experiments' measurements, a row per point and seed")
      ->type_name("FILE.csv");
  merge.add_option("--charts", f.charts, "write the experiments' SVG charts into DIR")
      ->type_name("DIR");
}

// A seed as the command line writes it: decimal digits only, within 64 bits.
std::optional<std::uint64_t> read_seed(const std::string& text) {
  if (text.empty() || text.size() > 20 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return static_cast<std::uint64_t>(value);
}

// The checks of the run flags that CLI11 does not make; "" when they are fine.
std::string check_run_flags(const RunFlags& f, runner::Shard& shard) {
  if (f.live_output_opt->count() > 0 && !f.live) return "--live-output: only live runs write files; add --live";
  if (f.seeds_opt->count() > 0 && f.seed_opt->count() > 0) {
    return "--seeds and --seed: give one or the other";
  }
  if (f.seeds_opt->count() > 0) {
    const auto n = read_seed(f.seeds);
    if (n && *n == 0) return "--seeds 0: the number of seeds must be at least 1";
    if (!n || *n > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
      return "--seeds " + f.seeds + ": expected a whole number from 1 to " +
             std::to_string(std::numeric_limits<int>::max());
    }
  }
  if (f.jobs < 1) return "--jobs " + std::to_string(f.jobs) + ": at least 1 thread is needed";
  if (f.seed_opt->count() > 0 && !read_seed(f.seed)) {
    return "--seed " + f.seed + ": expected a whole number from 0 to 18446744073709551615";
  }
  std::string error;
  auto parsed = runner::parse_shard(f.shard, error);
  if (!parsed) return error;
  shard = *parsed;
  if (f.paths.empty() && !f.list_controllers) {
    return "name at least one scenario file or directory";
  }
  return "";
}

void list_controllers(const scenarios::Registry& registry, std::ostream& out) {
  std::size_t width = 0;
  for (const auto& name : registry.names()) width = std::max(width, name.size());
  for (const auto& name : registry.names()) {
    const scenarios::ControllerType* type = registry.find(name);
    out << name;
    if (!type->description.empty()) out << std::string(width + 2 - name.size(), ' ') << type->description;
    out << "\n";
  }
}

// Finds and reads every file; false (with every error printed) when any is broken.
bool load_all(const Context& c, const RunFlags& f, const scenarios::Registry& registry,
              std::vector<scenarios::Scenario>& scenarios, sweep::Experiments& experiments) {
  runner::FileList files = runner::scenario_files(f.paths);
  for (const auto& error : files.errors) *c.env.err << error << "\n";
  if (!files.errors.empty()) return false;
  runner::LoadedScenarios loaded = runner::load_scenarios(experiments.expand(runner::read_sources(files.files), registry), registry,
                                          experiments.loader(), f.live, files.listed);
  for (const auto& error : loaded.errors) *c.env.err << error << "\n";
  for (const auto& skipped : loaded.skipped) *c.env.err << "skipped " << skipped << "\n";
  if (loaded.errors.empty() && loaded.scenarios.empty() && !loaded.skipped.empty()) {
    *c.env.err << c.name << " run: every scenario was skipped; nothing was run (run them with --live)\n";
    return false;
  }
  if (f.live && loaded.errors.empty()) {
    std::vector<std::string> notes;
    for (const auto& scenario : loaded.scenarios) {
      for (auto& error : c.env.live.check(scenario, notes)) loaded.errors.push_back(std::move(error));
    }
    for (const auto& note : notes) *c.env.err << note << "\n";
    for (const auto& error : loaded.errors) *c.env.err << error << "\n";
  }
  if (!loaded.errors.empty()) {
    *c.env.err << c.name << " run: " << loaded.errors.size()
               << (loaded.errors.size() == 1 ? " error" : " errors") << "; nothing was run\n";
    return false;
  }
  scenarios = std::move(loaded.scenarios);
  return true;
}

runner::RunSet run_with_progress(const Context& c, const runner::Plan& plan, const scenarios::Registry& registry,
                         const RunFlags& f, std::ostream* trace, sweep::Experiments& experiments) {
  runner::Progress progress(*c.env.err, c.env.err_is_terminal);
  runner::RunSet header;
  header.program = c.program;
  header.shard = plan.shard;
  runner::DriverOptions options;
  options.jobs = f.live ? 1 : f.jobs;
  options.strict = f.strict;
  // A live run is not replayed for its timeline: it draws one every time.
  options.timelines = !f.live && (!f.report.empty() || !f.results.empty());
  options.trace = trace;
  options.stop = c.env.interrupt;
  options.on_progress = [&](std::size_t done, std::size_t total, std::size_t failed) {
    progress.update(done, total, failed);
  };
  options.on_scenario = [&](const runner::ScenarioRun& run) {
    progress.clear();
    report::print_scenario(run, header, *c.env.out);
    c.env.out->flush();
  };
  const runner::RunFunction run =
      f.live ? c.env.live.run(f.live_output, *c.env.err) : experiments.measuring(c.env.run);
  runner::RunSet set = runner::run_plan(plan, registry, run, options);
  progress.clear();
  set.program = c.program;
  set.command = c.args;
  return set;
}

int run_command(const Context& c, const RunFlags& f, const scenarios::Registry& registry) {
  runner::Shard shard;
  if (std::string error = check_run_flags(f, shard); !error.empty()) {
    return usage_error(c, "run", error);
  }
  if (f.list_controllers) {
    list_controllers(registry, *c.env.out);
    return 0;
  }
  if (f.live && (!c.env.live.check || !c.env.live.run)) {
    return usage_error(c, "run", "--live: live mode is not built into this program");
  }
  std::vector<scenarios::Scenario> scenarios;
  sweep::Experiments experiments(c.env.load);
  if (!load_all(c, f, registry, scenarios, experiments)) return kBadInput;
  runner::SeedChoice choice;
  if (f.seeds_opt->count() > 0) choice.seeds = static_cast<int>(*read_seed(f.seeds));
  if (f.seed_opt->count() > 0) choice.seed = read_seed(f.seed);
  const runner::Plan plan = runner::make_plan(std::move(scenarios), choice, shard);
  if (!f.trace.empty() && plan.runs.size() != 1) {
    return usage_error(c, "run",
                       "--trace writes the trace of one run (one scenario, one seed), and this "
                       "command makes " + std::to_string(plan.runs.size()) +
                           "; name one file and give --seed S");
  }
  Outputs outputs;
  std::unique_ptr<std::ofstream> csv;
  if (!open_outputs(c, "run", f.junit, f.results, f.report, f.trace, outputs) ||
      !open_output(c, "run", f.csv, csv) || !open_charts(c, "run", f.charts)) {
    return kBadInput;
  }
  experiments.print_cost(plan, *c.env.out);
  runner::RunSet set = run_with_progress(c, plan, registry, f, outputs.trace.get(), experiments);
  experiments.label(set);
  if (outputs.trace) {
    outputs.trace->close();
    *c.env.err << "trace: " << f.trace << "\n";
  }
  write_outputs(c, set, outputs, f.junit, f.results, f.report);
  write_measurements(c, set, csv, f.csv, f.charts);
  const report::Tally t = report::tally(set);
  // Ctrl-C while the timelines were drawn leaves every run finished.
  const bool stopped = c.env.interrupt != nullptr && c.env.interrupt->load();
  if (stopped) {
    const auto i = set.interrupted.value_or(runner::RunSet::Interruption{plan.runs.size(), plan.runs.size()});
    *c.env.out << "interrupted after " << i.finished << " of " << i.planned
               << " runs: the outputs hold the runs that finished\n";
  }
  *c.env.out << report::closing_line(t) << "\n";
  return stopped ? kInterrupted : report::exit_code(t);
}

// Reads one --results file; false (with a message) when it is not one.
bool read_results(const Context& c, const std::string& path, std::vector<runner::RunSet>& sets) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *c.env.err << c.name << " merge: cannot read " << path << "\n";
    return false;
  }
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    *c.env.err << c.name << " merge: " << path << ": not JSON\n";
    return false;
  }
  auto set = runner::run_set_from_json(j);
  if (!set.ok()) {
    *c.env.err << c.name << " merge: " << path << ": " << set.status().message << "\n";
    return false;
  }
  sets.push_back(std::move(set).value());
  return true;
}

int merge_command(const Context& c, const MergeFlags& f) {
  std::vector<runner::RunSet> shards;
  bool ok = true;
  for (const auto& path : f.inputs) ok = read_results(c, path, shards) && ok;
  if (!ok) return kBadInput;
  auto merged = runner::merge_run_sets(shards, c.args);
  if (!merged.ok()) {
    *c.env.err << c.name << " merge: " << merged.status().message << "\n";
    return kBadInput;
  }
  Outputs outputs;
  std::unique_ptr<std::ofstream> csv;
  if (!open_outputs(c, "merge", f.junit, f.results, f.report, "", outputs) ||
      !open_output(c, "merge", f.csv, csv) || !open_charts(c, "merge", f.charts)) {
    return kBadInput;
  }
  const runner::RunSet& set = merged.value();
  for (const auto& line : sweep::sweep_cost_lines(set)) *c.env.out << line << "\n";
  for (const auto& run : set.scenarios) report::print_scenario(run, set, *c.env.out);
  write_outputs(c, set, outputs, f.junit, f.results, f.report);
  write_measurements(c, set, csv, f.csv, f.charts);
  const report::Tally t = report::tally(set);
  *c.env.out << report::closing_line(t) << "\n";
  return report::exit_code(t);
}

}  // namespace

int run_command_line(const std::vector<std::string>& args, const scenarios::Registry& registry,
                     const CliEnvironment& env) {
  if (args.size() >= 2 && args[1] == "explore") return explore_command_line(args, registry, env);
  Context c{env, args.empty() ? "kubesim" : args.front(), "", args};
  c.name = std::filesystem::path(c.program).filename().string();
  CLI::App app{"Run scenario files over many seeds, and merge the results of shards"};
  app.name(c.name);
  app.require_subcommand(1);
  RunFlags run_flags;
  MergeFlags merge_flags;
  CLI::App* run = app.add_subcommand("run", "run scenario files over their seeds");
  CLI::App* merge = app.add_subcommand("merge", "join the --results files of a run's shards");
  add_run_flags(*run, run_flags);
  add_merge_flags(*merge, merge_flags);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, *env.out, *env.err);
  } catch (const CLI::ParseError& e) {
    const std::string command = *run ? "run" : *merge ? "merge" : "";
    return usage_error(c, command.empty() ? std::string("run|merge") : command, e.what());
  }
  if (*run) return run_command(c, run_flags, registry);
  return merge_command(c, merge_flags);
}

}  // namespace kubesim::tools
