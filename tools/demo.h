// `kubesim demo`: a small deterministic simulation that shows the runtime at work until the
// scenario runner exists.
#ifndef KUBESIM_TOOLS_DEMO_H_
#define KUBESIM_TOOLS_DEMO_H_

#include <cstdint>
#include <ostream>

namespace kubesim::tools {

struct DemoOptions {
  std::uint64_t seed = 1;
  bool shuffle = false;
  int workers = 3;
  int hours = 24;
};

// Runs the demo, writing a summary (and the JSONL trace when `trace` is given) and returning
// the trace hash as 16 hex digits.
std::string run_demo(const DemoOptions& options, std::ostream& out, std::ostream* trace);

}  // namespace kubesim::tools

#endif  // KUBESIM_TOOLS_DEMO_H_
