// run_main: the `kubesim run` and `kubesim merge` command line, for kubesim itself and for any
// program that links kubesim and registers its own controller types (kubesim/scenarios/registry.h):
//
//   PROGRAM run FILE|DIR… [--seeds N | --seed S] [--jobs N] [--shard K/N]
//               [--results FILE.json] [--junit FILE] [--report FILE.html] [--trace FILE]
//               [--csv FILE.csv] [--charts DIR]
//               [--list-controllers] [--live [--live-output DIR]]
//   PROGRAM merge RESULTS.json… [--results FILE.json] [--junit FILE] [--report FILE.html]
//                 [--csv FILE.csv] [--charts DIR]
//   PROGRAM explore FILE [--budget RUNS|DURATION] [--jobs N] [--seeds N] [--out DIR]
//     (kubesim/explore/explore.h)
//
// `run` reads every file first (a directory: its *.yaml and *.yml files) and runs nothing when
// any is broken: it prints every error of every file as FILE:LINE:COL: what is wrong, and exits
// 2. It then runs each scenario over its seeds (kubesim/runner/driver.h), shows progress on
// stderr when stderr is a terminal, prints one line per scenario, the first failing seed of each
// failing scenario with the command that replays it (PROGRAM run FILE --seed N, PROGRAM being
// argv[0]), and the closing line "N passed, M failed" (kubesim/report/summary.h), then
// writes the files asked for; for experiments (kubesim/sweep/sweep.h) also the table of each
// point on stdout, --csv and --charts (DIR/EXPERIMENT--METRIC--PARAM.svg, chart.h). `merge` joins the --results files of the shards of one run and
// prints and writes exactly what the unsharded run would have.
//
// Exit status: 0 when every scenario passed, 1 when some failed, 2 for bad input (a usage error,
// a broken scenario file, a results file that is not one, shards that do not fit together, an
// output file that cannot be written) — and then nothing was run —, 130 when `run` was
// interrupted (Ctrl-C): no further run starts, the runs under way finish, every output asked for
// is written from the runs that finished, and "interrupted after N of M runs" comes before the
// closing line. A second Ctrl-C ends the process at once (exit 130, outputs not written). A live
// run (kubesim/live/live.h) handles Ctrl-C itself: it kills its processes and writes nothing.
#ifndef KUBESIM_TOOLS_CLI_H_
#define KUBESIM_TOOLS_CLI_H_

#include <atomic>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "kubesim/runner/driver.h"
#include "kubesim/scenarios/registry.h"

namespace kubesim::tools {

// The exit statuses of bad input (nothing was run) and of an interrupted `run` (see above).
inline constexpr int kBadInput = 2;
inline constexpr int kInterrupted = 130;  // as a shell reports a process ended by SIGINT

// Live mode (`run --live`, kubesim/live/live.h), given by programs that link
// kubesim::scenarios_live; a program without it refuses --live ("live mode is not built into this
// program").
struct LiveHook {
  // The errors (FILE:LINE:COL: …) that keep a scenario from running live; notes for the user.
  std::function<std::vector<std::string>(const scenarios::Scenario&,
                                         std::vector<std::string>& notes)> check;
  // The run function of live runs, writing each run's files under `output`, logging on `log`.
  std::function<runner::RunFunction(const std::string& output, std::ostream& log)> run;
};

// What the command line takes from its process. run_main gives the real ones; tests give stubs.
struct CliEnvironment {
  runner::LoadFunction load;   // scenarios::parse_source
  runner::RunFunction run;     // run_seed
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;
  bool err_is_terminal = false;  // progress is drawn only on a terminal
  LiveHook live;                 // unset: --live is refused
  // `run` stops starting runs once this is true (run_main sets it on Ctrl-C; tests from their run
  // function): see the exit status 130 above. Null: never.
  const std::atomic<bool>* interrupt = nullptr;
};

// args[0] is the program, args[1] the subcommand ("run", "merge" or "explore").
int run_command_line(const std::vector<std::string>& args, const scenarios::Registry& registry,
                     const CliEnvironment& env);

// The command line on std::cout and std::cerr, with parse_source and run_seed.
int run_main(int argc, char** argv,
             const scenarios::Registry& registry = scenarios::Registry::with_builtins(),
             const LiveHook& live = {});

// `PROGRAM explore FILE [--budget RUNS|DURATION] [--jobs N] [--seeds N] [--out DIR]`: exit 1 when
// a failing run was found (NAME.min.yaml written), 0 when none within the budget, 2 for bad input
// (nothing runs). args[0] is the program, args[1] "explore".
int explore_command_line(const std::vector<std::string>& args, const scenarios::Registry& registry,
                         const CliEnvironment& env);

}  // namespace kubesim::tools

#endif  // KUBESIM_TOOLS_CLI_H_
