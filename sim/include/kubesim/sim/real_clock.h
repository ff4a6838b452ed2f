// Real-mode time source: the machine's monotonic clock, read only by a Loop in real mode.
#ifndef KUBESIM_SIM_REAL_CLOCK_H_
#define KUBESIM_SIM_REAL_CLOCK_H_

#include <cstdint>

namespace kubesim::sim {

// Nanoseconds on the machine's monotonic clock (real mode only; never in virtual mode).
std::int64_t real_monotonic_ns();

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_REAL_CLOCK_H_
