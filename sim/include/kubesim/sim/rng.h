// Seeded randomness for simulations.
//
// Rng is xoshiro256** seeded through splitmix64. Unlike the standard library's distributions,
// every helper here is specified exactly, so a seed gives the same numbers on every platform and
// standard library. A Loop owns one Rng; fork() derives independent streams (one per process, for
// example) whose numbers do not shift when another stream is used more or less. split() names a
// stream instead of taking the next one: Rng(seed).split(a).split(b) is the same generator
// however much any other generator has been used, for draws that must not move when others draw
// more or less (a scenario's workload, whatever faults the run injects).
#ifndef KUBESIM_SIM_RNG_H_
#define KUBESIM_SIM_RNG_H_

#include <cstdint>

#include "kubesim/sim/time.h"

namespace kubesim::sim {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  std::uint64_t next_u64();
  // Uniform in [0, n); n must be > 0.
  std::uint64_t uniform(std::uint64_t n);
  // Uniform in [lo, hi] inclusive; lo <= hi.
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi);
  // Uniform in [0, 1) with 53 bits of precision.
  double uniform_real();
  // True with probability p (p <= 0: never, p >= 1: always).
  bool bernoulli(double p);
  // Uniform in [lo, hi); lo when hi <= lo.
  Duration uniform_duration(Duration lo, Duration hi);
  // A new generator whose stream is independent of this one's; advances this one by one step.
  Rng fork();
  // The generator of sub-stream `id` of this one's present state, independent of this one and of
  // every other id; this one does not move.
  Rng split(std::uint64_t id) const;

 private:
  std::uint64_t s_[4];
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_RNG_H_
