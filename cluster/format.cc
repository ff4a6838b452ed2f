#include "kubesim/cluster/format.h"

#include <cinttypes>
#include <cstdio>

namespace kubesim::cluster {

std::string format_instant(sim::Time t) {
  const std::int64_t ns = t.time_since_epoch().count();
  char buf[48];
  std::snprintf(buf, sizeof buf, "%" PRId64 ".%03" PRId64 "s", ns / 1'000'000'000, (ns % 1'000'000'000) / 1'000'000);
  return buf;
}

}  // namespace kubesim::cluster
