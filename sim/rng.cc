#include "kubesim/sim/rng.h"

#include <cassert>

namespace kubesim::sim {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Rng::Rng(std::uint64_t seed) {
  std::uint64_t state = seed;
  for (auto& word : s_) word = splitmix64(state);
}

std::uint64_t Rng::next_u64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Rng::uniform(std::uint64_t n) {
  assert(n > 0);
  // Lemire's nearly-divisionless method: unbiased, and exactly specified.
  unsigned __int128 m = static_cast<unsigned __int128>(next_u64()) * n;
  auto low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(next_u64()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

std::int64_t Rng::uniform_int(std::int64_t lo, std::int64_t hi) {
  assert(lo <= hi);
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span == UINT64_MAX) return static_cast<std::int64_t>(next_u64());
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + uniform(span + 1));
}

double Rng::uniform_real() {
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

bool Rng::bernoulli(double p) {
  if (p <= 0) return false;
  if (p >= 1) return true;
  return uniform_real() < p;
}

Duration Rng::uniform_duration(Duration lo, Duration hi) {
  if (hi <= lo) return lo;
  return lo + Duration(static_cast<Duration::rep>(uniform(static_cast<std::uint64_t>((hi - lo).count()))));
}

Rng Rng::fork() { return Rng(next_u64()); }

Rng Rng::split(std::uint64_t id) const {
  // Every word of the state and the id go through splitmix64, so nearby ids and states land far
  // apart; the result seeds a generator as a seed does.
  std::uint64_t state = id ^ 0x6a09e667f3bcc909ULL;
  std::uint64_t seed = splitmix64(state);
  for (const std::uint64_t word : s_) {
    state ^= word;
    seed ^= splitmix64(state);
  }
  return Rng(seed);
}

}  // namespace kubesim::sim
