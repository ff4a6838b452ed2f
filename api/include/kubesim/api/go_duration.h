// Durations written as Go writes them: time.ParseDuration and Duration.String.
//
// Scenario files, command-line flags and reports use Go/Kubernetes duration text ("150ms",
// "10s", "1h30m", "1.5h", "-2m"). parse_go_duration accepts exactly what time.ParseDuration
// accepts (units ns, us, µs, μs, ms, s, m, h; fractions; a sign; "0" alone) and refuses the rest
// with its error text ("time: missing unit in duration \"1\""), as a 400 BadRequest Status.
#ifndef KUBESIM_API_GO_DURATION_H_
#define KUBESIM_API_GO_DURATION_H_

#include <string>
#include <string_view>

#include "kubesim/api/result.h"
#include "kubesim/sim/time.h"

namespace kubesim::api {

Result<sim::Duration> parse_go_duration(std::string_view text);

// Duration.String: "1h30m0s", "1.5s", "300ms", "2µs", "0s".
std::string format_go_duration(sim::Duration d);
// An instant of a run as the virtual time since its start, in the same form: "1m30s".
inline std::string format_go_time(sim::Time t) { return format_go_duration(t - sim::Time{}); }
// For people to read: rounded to the millisecond (Duration.Round(time.Millisecond).String()),
// "3m15.201s" rather than "3m15.20137872s"; a duration under a millisecond is written whole.
std::string format_rounded(sim::Duration d);
inline std::string format_rounded_time(sim::Time t) { return format_rounded(t - sim::Time{}); }

}  // namespace kubesim::api

#endif  // KUBESIM_API_GO_DURATION_H_
