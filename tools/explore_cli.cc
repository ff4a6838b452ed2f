// `PROGRAM explore`: the command line of kubesim/explore/explore.h (declared in kubesim/tools/cli.h).
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include <CLI/CLI.hpp>

#include "kubesim/api/go_duration.h"
#include "kubesim/explore/explore.h"
#include "kubesim/tools/cli.h"

namespace kubesim::tools {

namespace {

constexpr std::size_t kDefaultBudget = 1000;

struct Flags {
  std::string file;
  std::string budget;
  int jobs = 1;
  int seeds = 0;
  std::string out = ".";
  CLI::Option* seeds_opt = nullptr;
};

// "--budget": a whole number of runs, or a duration of wall time.
std::string read_budget(const std::string& text, explore::ExploreOptions& options) {
  if (text.empty()) return "";
  const std::string bad = "--budget " + text + ": expected a number of runs (1000) or a duration (5m, 90s)";
  if (text.find_first_not_of("0123456789") == std::string::npos) {
    if (text.size() > 12) return bad;
    const std::size_t runs = std::stoull(text);
    if (runs < 1) return "--budget " + text + ": at least 1 run is needed";
    options.budget_runs = runs;
    return "";
  }
  auto d = api::parse_go_duration(text);
  if (!d.ok()) return bad;
  if (d.value() <= sim::Duration::zero()) return "--budget " + text + ": the time must be positive";
  options.budget_time = std::chrono::duration<double>(d.value());
  options.budget_runs = static_cast<std::size_t>(-1);
  return "";
}

// The output directory exists (made when missing) and can be written.
std::string check_out(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) return "--out " + dir + ": not a directory";
  } else if (!fs::create_directories(dir, ec)) {
    return "--out " + dir + ": cannot create the directory: " + ec.message();
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    return "--out " + dir + ": cannot write there: " + std::strerror(errno);
  }
  return "";
}

std::string left_text(double s) {
  const long n = std::lround(std::max(0.0, s));
  return n >= 60 ? std::to_string(n / 60) + "m" + std::to_string(n % 60) + "s" : std::to_string(n) + "s";
}

}  // namespace

int explore_command_line(const std::vector<std::string>& args, const scenarios::Registry& registry,
                         const CliEnvironment& env) {
  const std::string program = args.empty() ? "kubesim" : args.front();
  const std::string name = std::filesystem::path(program).filename().string();
  CLI::App app{"Search a scenario for a failing run under perturbations, and shrink it"};
  app.name(name + " explore");
  Flags f;
  app.add_option("file", f.file, "the scenario file")->required()->type_name("FILE");
  app.add_option("--budget", f.budget, "runs (1000) or wall time (5m, 90s); default 1000 runs")
      ->type_name("RUNS|DURATION");
  app.add_option("--jobs", f.jobs, "runs at once (results do not depend on it)")->type_name("N");
  f.seeds_opt = app.add_option("--seeds", f.seeds, "explore only the file's first N seeds")->type_name("N");
  app.add_option("--out", f.out, "where NAME.min.yaml is written (default: .)")->type_name("DIR");
  std::vector<const char*> argv;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i != 1) argv.push_back(args[i].c_str());  // drop "explore"
  }
  const auto usage = [&](const std::string& message) {
    *env.err << name << " explore: " << message << "\n"
             << "Run '" << program << " explore --help' for the flags.\n";
    return kBadInput;
  };
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, *env.out, *env.err);
  } catch (const CLI::ParseError& e) {
    return usage(e.what());
  }
  explore::ExploreOptions options;
  options.budget_runs = kDefaultBudget;
  if (std::string e = read_budget(f.budget, options); !e.empty()) return usage(e);
  if (f.jobs < 1) return usage("--jobs " + std::to_string(f.jobs) + ": at least 1 thread is needed");
  if (f.seeds_opt->count() > 0 && f.seeds < 1) {
    return usage("--seeds " + std::to_string(f.seeds) + ": the number of seeds must be at least 1");
  }
  if (f.seeds_opt->count() > 0) options.seeds = f.seeds;
  if (std::string e = check_out(f.out); !e.empty()) return usage(e);
  options.jobs = f.jobs;
  options.out_dir = f.out;
  options.program = program;
  options.run = env.run;
  const auto start = std::chrono::steady_clock::now();
  bool drawn = false;
  if (env.err_is_terminal) {
    options.on_progress = [&](std::size_t done, std::size_t budget, bool found) {
      const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::string line = "\rexplore: " + std::to_string(done) + " runs";
      if (options.budget_time) {
        line += ", " + left_text(options.budget_time->count() - spent) + " left";
      } else {
        line += " of " + std::to_string(budget);
        if (done > 0) line += ", about " + left_text(spent / static_cast<double>(done) * static_cast<double>(budget - done)) + " left";
      }
      *env.err << line << (found ? ", found one; shrinking" : "") << "\x1b[K" << std::flush;
      drawn = true;
    };
  }
  const explore::ExploreReport report = explore::explore(f.file, registry, options);
  if (drawn) *env.err << "\r\x1b[K" << std::flush;
  if (!report.errors.empty()) {
    for (const auto& e : report.errors) *env.err << e << "\n";
    *env.err << name << " explore: " << report.errors.size()
             << (report.errors.size() == 1 ? " error" : " errors") << "; nothing was run\n";
    return kBadInput;
  }
  explore::print_explore_report(report, *env.out);
  return report.found ? 1 : 0;
}

}  // namespace kubesim::tools
