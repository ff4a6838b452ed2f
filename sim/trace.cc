#include "kubesim/sim/trace.h"

#include <cstdio>

namespace kubesim::sim {

void Trace::record(Time t, std::string_view process, std::string_view kind,
                   const nlohmann::json& fields) {
  if (!enabled_) return;
  nlohmann::json line = {{"t", t.time_since_epoch().count()},
                         {"p", process},
                         {"k", kind},
                         {"f", fields}};
  std::string text = line.dump();
  text.push_back('\n');
  for (unsigned char c : text) {
    hash_ ^= c;
    hash_ *= 0x100000001b3ULL;
  }
  ++count_;
  if (sink_ != nullptr) sink_->write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::string Trace::hash_hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash_));
  return buf;
}

}  // namespace kubesim::sim
