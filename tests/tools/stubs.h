// Test doubles for the command line and its outputs: a stub scenario loader that reads a tiny
// line format instead of YAML, a deterministic stub run function that records its calls, sample
// results, a scratch directory, and a well-formedness checker for the XML and SVG written.
//
// The stub file format, one "key: value" a line:
//   name: alpha            the scenario's name
//   seeds: 5               its default seed count
//   mustFind: atMostOneLeader
//   exec: 4:7              a process with an exec: block written at line 4, column 7
//   error: 3:9: message    a parse error (every one of them is reported)
// The stub run breaks atMostOneLeader in the seeds that StubRunner::fail_every says.
#ifndef KUBESIM_TESTS_SCENARIOS_CLI_STUBS_H_
#define KUBESIM_TESTS_SCENARIOS_CLI_STUBS_H_

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kubesim/runner/driver.h"
#include "kubesim/runner/result.h"
#include "kubesim/tools/cli.h"

namespace kubesim::tools::testing {

using namespace std::chrono_literals;

// Parses a stub scenario file: "key: value" lines (name, seeds, description, mustFind, exec
// LINE:COL, error LINE:COL: MESSAGE).
inline scenarios::ParseResult stub_load(const scenarios::Source& source, const scenarios::Registry&) {
  const std::string path = source.name();
  scenarios::ParseResult out;
  std::istringstream in(source.text);
  scenarios::Scenario s;
  s.file = path;
  s.duration = 10min;
  for (std::string line; std::getline(in, line);) {
    const auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
    if (key == "name") s.name = value;
    if (key == "seeds") s.seeds = std::stoi(value);
    if (key == "description") s.description = value;
    if (key == "mustFind") s.must_find.push_back(value);
    if (key == "exec") {
      scenarios::ProcessSpec p;
      p.name = "op";
      p.exec = scenarios::ExecSpec{{"python3", "op.py"}, {}, scenarios::Mark{std::stoi(value), std::stoi(value.substr(2))}, std::nullopt};
      s.processes.push_back(p);
    }
    if (key == "error") {
      const auto second = value.find(':'), third = value.find(": ", second);
      out.errors.push_back(scenarios::ParseError{path,
                                      scenarios::Mark{std::stoi(value.substr(0, second)),
                                           std::stoi(value.substr(second + 1, third - second - 1))},
                                      value.substr(third + 2)});
    }
  }
  if (out.errors.empty()) out.scenario = std::move(s);
  return out;
}

// A failure as a runner reports one.
inline runner::Failure sample_failure(std::uint64_t seed) {
  runner::Failure f;
  f.check = "atMostOneLeader: leases/team-a/manager";
  f.condition = "atMostOneLeader";
  f.mark = scenarios::Mark{12, 7};
  f.at = sim::Time{std::chrono::seconds(seed * 3) + 250ms};
  f.detail = "manager-0 leads since 1s (its clock read 1.5s)\nmanager-1 leads since 2s";
  return f;
}

inline runner::Timeline sample_timeline(std::uint64_t seed) {
  runner::Timeline t;
  t.duration = 10min;
  t.lanes = {"lock leases/team-a/manager", "process manager-0", "process manager-1", "apiserver",
             "queue manager-0"};
  t.spans = {{"lock leases/team-a/manager", "leader", "manager-0", sim::Time{2s}, sim::Time{90s}},
             {"lock leases/team-a/manager", "leader", "manager-1", sim::Time{95s}, sim::Time{10min}},
             {"process manager-0", "partition", "", sim::Time{60s}, sim::Time{100s}},
             {"process manager-1", "pause", "", sim::Time{4min}, sim::Time{4min + 20s}},
             {"apiserver", "fault", "update leases 500", sim::Time{150s}, sim::Time{170s}}};
  t.marks = {{"apiserver", "restart", "", sim::Time{90s}},
             {"apiserver", "compact", "", sim::Time{2min}},
             {"process manager-1", "crash", "", sim::Time{60s}},
             {"process manager-0", "watch-restart", "configmaps", sim::Time{91s}}};
  for (int i = 0; i <= 20; ++i) {
    t.samples.push_back({"queue manager-0", sim::Time{std::chrono::seconds(30 * i)},
                         static_cast<double>((i * 7 + seed) % 11)});
  }
  return t;
}

// A deterministic run: what it returns depends only on the scenario's name and the seed.
class StubRunner {
 public:
  // Seeds divisible by `every` break atMostOneLeader in scenario `name` (0: none do).
  void fail_every(const std::string& name, std::uint64_t every) { every_[name] = every; }
  // The run of this scenario throws.
  void throw_in(const std::string& name) { throws_ = name; }

  runner::RunFunction function() {
    return [this](const scenarios::Scenario& s, const scenarios::Registry&, const runner::RunOptions& o) { return run(s, o); };
  }

  runner::SeedResult run(const scenarios::Scenario& s, const runner::RunOptions& o) {
    {
      std::lock_guard lock(mu_);
      calls_.emplace_back(s.name, o.seed);
      if (o.timeline) timeline_calls_.emplace_back(s.name, o.seed);
    }
    if (s.name == throws_) throw std::runtime_error("boom");
    runner::SeedResult r;
    r.seed = o.seed;
    const auto it = every_.find(s.name);
    if (it != every_.end() && it->second != 0 && o.seed % it->second == 0) {
      r.failures.push_back(sample_failure(o.seed));
    }
    const std::size_t h = std::hash<std::string>{}(s.name + "/" + std::to_string(o.seed));
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016zx", h);
    r.trace_hash = hash;
    r.trace_events = 10 * o.seed;
    r.requests = 7 * o.seed;
    r.trace_tail = {"{\"t\":\"1s\",\"event\":\"renew\",\"seed\":" + std::to_string(o.seed) + "}"};
    if (o.timeline) r.timeline = sample_timeline(o.seed);
    if (o.trace != nullptr) *o.trace << "{\"seed\":" << o.seed << "}\n{\"traceHash\":\"" << hash << "\"}\n";
    return r;
  }

  std::vector<std::pair<std::string, std::uint64_t>> calls() const {
    std::lock_guard lock(mu_);
    return calls_;
  }
  std::vector<std::pair<std::string, std::uint64_t>> timeline_calls() const {
    std::lock_guard lock(mu_);
    return timeline_calls_;
  }

 private:
  std::map<std::string, std::uint64_t> every_;
  std::string throws_;
  mutable std::mutex mu_;
  std::vector<std::pair<std::string, std::uint64_t>> calls_, timeline_calls_;
};

// A fresh directory under the system's temporary directory, removed with the object.
class ScratchDir {
 public:
  ScratchDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("kubesim-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::string path(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

 private:
  std::filesystem::path path_;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// One command line run through run_command_line with the stubs.
struct CliRun {
  int code = -1;
  std::string out, err;
};
inline CliRun run_cli(const std::vector<std::string>& args, StubRunner& runner,
                      bool terminal = false, const scenarios::Registry& registry = scenarios::Registry{}) {
  std::ostringstream out, err;
  CliEnvironment env;
  env.load = stub_load;
  env.run = runner.function();
  env.out = &out;
  env.err = &err;
  env.err_is_terminal = terminal;
  CliRun r;
  r.code = run_command_line(args, registry, env);
  r.out = out.str();
  r.err = err.str();
  return r;
}

}  // namespace kubesim::tools::testing

#endif  // KUBESIM_TESTS_SCENARIOS_CLI_STUBS_H_
