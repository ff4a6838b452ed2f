// Virtual time: the clock every simulated component reads.
//
// `Time` is a point on the simulation's true timeline, counted in nanoseconds from the start of
// the simulation (Time{} is the instant the Loop was created). `Duration` is std::chrono's
// nanoseconds. Wall-clock dates are derived from an epoch the caller chooses (a fixed date by
// default), never from the machine's clock, so a run's timestamps are reproducible.
#ifndef KUBESIM_SIM_TIME_H_
#define KUBESIM_SIM_TIME_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace kubesim::sim {

using Duration = std::chrono::nanoseconds;

// The tag clock for sim::Time. It has no now(): the current time belongs to a Loop or a Process.
struct VirtualClock {
  using rep = Duration::rep;
  using period = Duration::period;
  using duration = Duration;
  using time_point = std::chrono::time_point<VirtualClock, Duration>;
  static constexpr bool is_steady = true;
};

using Time = VirtualClock::time_point;

// The wall-clock instant that Time{} stands for: 2025-01-01T00:00:00Z unless a Loop is given
// another. Seconds since the Unix epoch.
inline constexpr std::int64_t kDefaultEpochUnixSeconds = 1735689600;

// Formats `t` as an RFC 3339 UTC timestamp with second precision ("2025-01-01T00:00:07Z"), the
// form Kubernetes uses for metav1.Time, given the Unix second that Time{} stands for.
std::string format_rfc3339(Time t, std::int64_t epoch_unix_seconds = kDefaultEpochUnixSeconds);

// The same with microsecond precision ("2025-01-01T00:00:07.000123Z"), metav1.MicroTime's form.
std::string format_rfc3339_micro(Time t, std::int64_t epoch_unix_seconds = kDefaultEpochUnixSeconds);

// Parses either form back (a "Z" or numeric offset suffix, optional fraction). Returns false and
// leaves `out` untouched when `text` is not an RFC 3339 timestamp or names an instant more than
// about 292 years from the epoch, which Time cannot hold.
bool parse_rfc3339(const std::string& text, Time& out,
                   std::int64_t epoch_unix_seconds = kDefaultEpochUnixSeconds);

// Seconds as a double, for metrics and messages.
inline double to_seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_TIME_H_
