// `kubesim run` on experiments: the cost line, the table, --csv (the same for --jobs 1 and 2),
// bad sweeps refused before anything runs, and scenarios/experiments/failover-vs-lease.yaml.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/sweep/cli_run.h"

namespace kubesim::sweep {
namespace {

namespace fs = std::filesystem;
using testing::kExample;

struct CliOutcome : testing::Outcome {
  std::string csv;
};

// args with the program; with a csv_name, --csv writes TempDir/csv_name, read back into csv.
CliOutcome run(std::vector<std::string> args, const std::string& csv_name = "") {
  const fs::path csv = fs::path(::testing::TempDir()) / (csv_name.empty() ? "x.csv" : csv_name);
  if (!csv_name.empty()) {
    args.push_back("--csv");
    args.push_back(csv.string());
  }
  args.erase(args.begin());
  CliOutcome o{testing::kubesim(args), ""};
  if (!csv_name.empty()) o.csv = testing::read_file(csv);
  return o;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(ExperimentCli, TheExampleRunsEveryPointAndSeedWithFailoversWithinTheLeaseBounds) {
  const CliOutcome o = run({"kubesim", "run", kExample.string()}, "one.csv");
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("failover-vs-lease.yaml: sweep: 3 points × 3 seeds = 9 runs\n"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("failover-vs-lease[leaseDuration=20s]  (3/3 seeds passed)\n  failoverTime"),
            std::string::npos)
      << o.out;
  const auto rows = lines(o.csv);
  ASSERT_EQ(rows.size(), 10u) << o.csv;
  EXPECT_EQ(rows[0],
            "scenario,leaseDuration,seed,passed,failoverTime,leaderTransitions,apiCalls,apiCalls.get,"
            "apiCalls.list,apiCalls.watch,apiCalls.create,apiCalls.update,apiCalls.patch,"
            "apiCalls.delete,apiCalls.deletecollection,requestsPerSecond,checksBroken");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    std::istringstream row(rows[i]);
    std::string scenario, lease, seed, passed, failover;
    std::getline(row, scenario, ',');
    std::getline(row, lease, ',');
    std::getline(row, seed, ',');
    std::getline(row, passed, ',');
    std::getline(row, failover, ',');
    EXPECT_EQ(scenario, "failover-vs-lease[leaseDuration=" + lease + "]");
    EXPECT_EQ(seed, std::to_string((i - 1) % 3 + 1));
    EXPECT_EQ(passed, "true");
    // A survivor tries every retry period with client-go's 1.2 jitter (1s to 2.2s): it sees the
    // last renewal at its next try, waits out the lease from then, and takes over at the first
    // try after that.
    const double l = std::stod(lease), f = std::stod(failover);
    EXPECT_GE(f, l) << rows[i];
    EXPECT_LE(f, l + 4.4) << rows[i];
  }
}

TEST(ExperimentCli, TheCsvDoesNotDependOnJobs) {
  const CliOutcome one = run({"kubesim", "run", kExample.string(), "--jobs", "1", "--seeds", "2"}, "j1.csv");
  const CliOutcome two = run({"kubesim", "run", kExample.string(), "--jobs", "2", "--seeds", "2"}, "j2.csv");
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_EQ(lines(one.csv).size(), 7u);
  EXPECT_EQ(one.csv, two.csv);
  EXPECT_EQ(one.out, two.out);
}

TEST(ExperimentCli, ABrokenSweepRunsNothing) {
  const fs::path file = fs::path(::testing::TempDir()) / "bad-sweep.yaml";
  std::ofstream(file) << "name: bad\nduration: 1m\nsweep: {lease: {from: 9s, to: 1s, steps: 2}}\n"
                         "measure: [speed]\n";
  const CliOutcome o = run({"kubesim", "run", file.string()}, "bad.csv");
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(o.err, file.string() + ":3:9: sweep: parameter lease is never used as {{lease}}\n" +
                       file.string() + ":3:23: sweep: lease: upside-down range: from 9s to 1s (from must be below to)\n" +
                       file.string() +
                       ":4:11: measure: unknown metric \"speed\" (the metrics: failoverTime, "
                       "leaderTransitions, convergenceTime, apiCalls, apiCallsByResource, "
                       "apiCallsPerChange, requestsPerSecond, watchRestarts, relists, queueDepth, "
                       "workDuration, checksBroken)\n"
                       "kubesim run: 3 errors; nothing was run\n");
}

}  // namespace
}  // namespace kubesim::sweep
