// check_live and live_run_function (kubesim/live/live.h): one live run from the World's
// setup to the last process killed, and the interruption of a run by SIGINT or SIGTERM.
#include "kubesim/live/live.h"

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <thread>

#include "kubesim/cluster/trace_tail.h"
#include "kubesim/runner/checks.h"
#include "kubesim/runner/world.h"
#include "live/internal/live_run.h"
#include "live/internal/program.h"

namespace kubesim::live {

namespace fs = std::filesystem;

namespace {

// Takes SIGINT and SIGTERM for the duration of a run: every thread started meanwhile (the HTTP
// server's) inherits the blocked mask, and a thread of its own notes the signal.
class SignalWatch {
 public:
  SignalWatch() {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals_, &old_);
    thread_ = std::thread([this] {
      const timespec period{0, 100'000'000};
      while (!done_) {
        const int sig = sigtimedwait(&signals_, nullptr, &period);
        if (sig > 0) signal_ = sig;
      }
    });
  }
  ~SignalWatch() {
    done_ = true;
    thread_.join();
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  int signal() const { return signal_; }

 private:
  sigset_t signals_{};
  sigset_t old_{};
  std::atomic<bool> done_{false};
  std::atomic<int> signal_{0};
  std::thread thread_;
};

std::string error_at(const scenarios::Scenario& s, const scenarios::Mark& mark, const std::string& message) {
  return scenarios::ParseError{s.file, mark, message}.text();
}

sim::LoopOptions live_loop_options(std::uint64_t seed) {
  sim::LoopOptions o;
  o.seed = seed;
  o.shuffle = false;
  o.mode = sim::ClockMode::kReal;
  o.epoch_unix_seconds = static_cast<std::int64_t>(std::time(nullptr));
  return o;
}

runner::SeedResult run_live(const scenarios::Scenario& scenario, const scenarios::Registry& registry, const runner::RunOptions& options,
                    const LiveOptions& live_options) {
  runner::SeedResult result;
  result.seed = options.seed;
  result.live = true;
  // Absolute: the programs run in the scenario's folder and find their kubeconfig by this path.
  const fs::path dir = fs::absolute(fs::path(live_options.output) / scenario.name / ("seed-" + std::to_string(options.seed)));
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) {
    result.error = "cannot create the run folder " + dir.string() + ": " + ec.message();
    return result;
  }
  if (live_options.log != nullptr) *live_options.log << "live: " << scenario.name << " seed " << options.seed << ": output in " << dir.string() << "\n";
  SignalWatch signals;
  cluster::TraceTail tail(options.trace_tail);
  tail.add_sink(options.trace);
  runner::World world(scenario, registry, options, tail.stream(), live_loop_options(options.seed));
  live::LiveRun run(world, dir, live_options);
  live::ExecKind exec(run);
  world.exec_kind = &exec;
  try {
    world.setup();
    run.setup();
    world.checker->set_first_failure_hook([&tail] { tail.freeze(); });
    world.start();
    while (world.loop.now() < world.end && run.error().empty() && signals.signal() == 0) {
      world.run_until(std::min(world.end, world.loop.now() + std::chrono::milliseconds(50)));
    }
    if (run.error().empty() && signals.signal() == 0) world.checker->finish();
  } catch (const std::exception& e) {
    result.error = e.what();
  }
  if (result.error.empty()) result.error = run.error();
  if (world.checker) {
    result.failures = world.checker->take_failures();
    result.vacuous = world.checker->take_vacuous();
  }
  const sim::Time stopped = world.loop.now();
  result.trace_tail = tail.lines();
  result.trace_hash = world.loop.trace().hash_hex();
  result.trace_events = world.loop.trace().count();
  result.requests = world.server.recorder().calls().size() + world.server.recorder().dropped();
  if (world.workload != nullptr) result.writes = world.workload->writes;
  if (options.timeline) result.timeline = world.finish_picture(stopped);
  world.teardown();
  run.shut_down();
  if (signals.signal() != 0) {
    std::cerr << "kubesim run: interrupted (" << strsignal(signals.signal())
              << "); every replica process was killed; nothing was written\n";
    std::_Exit(130);
  }
  return result;
}

}  // namespace

LiveCheck check_live(const scenarios::Scenario& scenario) {
  LiveCheck out;
  const fs::path dir = fs::absolute(fs::path(scenario.file)).parent_path();
  const char* path_env = ::getenv("PATH");
  for (const auto& p : scenario.processes) {
    if (!p.exec || p.exec->command.empty()) continue;
    const std::string& word = p.exec->command.front();
    const live::Program program = live::find_program(word, dir, path_env != nullptr ? path_env : "");
    if (program.kind == live::ProgramKind::kMissing) {
      out.errors.push_back(error_at(scenario, p.exec->mark,
                                    "command: \"" + word + "\" is not an executable file" +
                                        (word.find('/') != std::string::npos ? " (relative paths start at the scenario's folder, " + dir.string() + ")"
                                                                             : " in any directory of PATH")));
      continue;
    }
    bool clocked = false;
    for (int i = 0; i < p.replicas; ++i) clocked = clocked || live::clock_differs(scenario, p, p.name + "-" + std::to_string(i));
    if (!clocked) continue;
    if (auto obstacle = live::faketime_obstacle(program)) {
      out.notes.push_back(scenario.file + ": process " + p.name + ": its clock skew and drift cannot be applied: " +
                          *obstacle + "; it runs on the real clock");
    }
  }
  return out;
}

runner::RunFunction live_run_function(LiveOptions options) {
  return [options](const scenarios::Scenario& scenario, const scenarios::Registry& registry, const runner::RunOptions& run_options) {
    runner::RunOptions live_run = run_options;
    live_run.timeline = true;  // a live run cannot be run again for its picture
    return run_live(scenario, registry, live_run, options);
  };
}

}  // namespace kubesim::live
