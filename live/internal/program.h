// The program of an exec process: where it is, and whether libfaketime can change its clock.
//
// A command's first word is looked up as execvp does: a word with a '/' relative to the working
// directory (the scenario file's folder), else in each directory of PATH. libfaketime works by
// LD_PRELOAD, so it fakes the time of programs that read it through the C library (Python,
// Node.js, Java, C and C++ programs); it cannot change the clock of a statically linked binary
// (no dynamic loader) nor of a Go binary (the Go runtime reads the clock through the vDSO, not
// libc), even a dynamically linked one.
#ifndef KUBESIM_LIVE_INTERNAL_PROGRAM_H_
#define KUBESIM_LIVE_INTERNAL_PROGRAM_H_

#include <filesystem>
#include <optional>
#include <string>

#include "kubesim/scenarios/scenario.h"
#include "kubesim/sim/time.h"

namespace kubesim::live {

enum class ProgramKind {
  kMissing,  // not found, or not executable
  kScript,   // starts with #!: its interpreter reads the clock
  kDynamic,  // a dynamically linked ELF binary
  kStatic,   // an ELF binary without a dynamic loader
  kGo,       // an ELF binary built by Go
  kOther,    // something else the kernel may run
};

struct Program {
  ProgramKind kind = ProgramKind::kMissing;
  std::string path;  // as found
};

// Finds `word` as execvp would from `cwd`, with `path_env` as PATH.
Program find_program(const std::string& word, const std::filesystem::path& cwd,
                     const std::string& path_env);

// Why libfaketime cannot fake `program`'s clock; nullopt when it can.
std::optional<std::string> faketime_obstacle(const Program& program);

// The installed libfaketime (the multi-threaded variant when present); "" when there is none.
std::string faketime_library();

// Whether replica `replica` of `process` ever reads a clock other than the real one: a skew or
// drift range that is not zero, or a `skew` event of the timeline naming it.
bool clock_differs(const scenarios::Scenario& scenario, const scenarios::ProcessSpec& process, const std::string& replica);

// libfaketime's FAKETIME value for a wall clock `offset` from the real one, running at `rate`:
// "+1.500000s x1.010000". The decimal point is '.', as in the C locale the programs start in.
std::string faketime_spec(sim::Duration offset, double rate);

}  // namespace kubesim::live

#endif  // KUBESIM_LIVE_INTERNAL_PROGRAM_H_
