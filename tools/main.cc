// The kubesim command line.
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "tools/demo.h"

int main(int argc, char** argv) {
  CLI::App app{"kubesim: a deterministic simulator for Kubernetes controllers"};
  app.require_subcommand(1);

  kubesim::tools::DemoOptions demo;
  std::string trace_path;
  CLI::App* demo_cmd = app.add_subcommand("demo", "run a small deterministic simulation");
  demo_cmd->add_option("--seed", demo.seed, "random seed; the same seed replays the same run");
  demo_cmd->add_flag("--shuffle", demo.shuffle, "order same-instant events by the seed");
  demo_cmd->add_option("--workers", demo.workers, "worker processes")->check(CLI::Range(1, 1000));
  demo_cmd->add_option("--hours", demo.hours, "virtual hours to simulate")->check(CLI::Range(1, 100000));
  demo_cmd->add_option("--trace", trace_path, "write the JSONL trace to this file");

  CLI11_PARSE(app, argc, argv);

  if (*demo_cmd) {
    std::unique_ptr<std::ofstream> trace;
    if (!trace_path.empty()) {
      trace = std::make_unique<std::ofstream>(trace_path);
      if (!*trace) {
        std::cerr << "kubesim demo: cannot write " << trace_path << "\n";
        return 2;
      }
    }
    kubesim::tools::run_demo(demo, std::cout, trace.get());
  }
  return 0;
}
