// Texts of a simulated cluster's instants, as failure messages and call logs show them.
#ifndef KUBESIM_CLUSTER_FORMAT_H_
#define KUBESIM_CLUSTER_FORMAT_H_

#include <string>

#include "kubesim/sim/time.h"

namespace kubesim::cluster {

// An instant of the run as seconds with milliseconds, truncated: "12.345s", "0.000s".
// (A duration in Go's format is api::format_go_duration; an instant in it, api::format_go_time.)
std::string format_instant(sim::Time t);

}  // namespace kubesim::cluster

#endif  // KUBESIM_CLUSTER_FORMAT_H_
