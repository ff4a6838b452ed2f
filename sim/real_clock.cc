#include "kubesim/sim/real_clock.h"

#include <chrono>

namespace kubesim::sim {

std::int64_t real_monotonic_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace kubesim::sim
