#include "fakeapi/http/internal/metrics.h"

#include <cstdio>

namespace kubesim::fakeapi::http::internal {

void Metrics::observe_request(const std::string& verb, const std::string& resource, int code,
                              double seconds) {
  ++requests_[{verb, resource, code}];
  Histogram& h = latency_[verb];
  for (std::size_t i = 0; i < kBuckets.size(); ++i) {
    if (seconds <= kBuckets[i]) ++h.buckets[i];
  }
  ++h.count;
  h.sum += seconds;
}

std::string Metrics::render() const {
  std::string out;
  char num[64];
  out += "# HELP apiserver_request_total Counter of apiserver requests broken out by verb, resource and HTTP response code.\n";
  out += "# TYPE apiserver_request_total counter\n";
  for (const auto& [key, n] : requests_) {
    const auto& [verb, resource, code] = key;
    out += "apiserver_request_total{code=\"" + std::to_string(code) + "\",resource=\"" + resource +
           "\",verb=\"" + verb + "\"} " + std::to_string(n) + "\n";
  }
  out += "# HELP apiserver_request_duration_seconds Response latency distribution in seconds for each verb.\n";
  out += "# TYPE apiserver_request_duration_seconds histogram\n";
  for (const auto& [verb, h] : latency_) {
    for (std::size_t i = 0; i < kBuckets.size(); ++i) {
      std::snprintf(num, sizeof num, "%g", kBuckets[i]);
      out += "apiserver_request_duration_seconds_bucket{verb=\"" + verb + "\",le=\"" + num + "\"} " +
             std::to_string(h.buckets[i]) + "\n";
    }
    out += "apiserver_request_duration_seconds_bucket{verb=\"" + verb + "\",le=\"+Inf\"} " +
           std::to_string(h.count) + "\n";
    std::snprintf(num, sizeof num, "%.9g", h.sum);
    out += "apiserver_request_duration_seconds_sum{verb=\"" + verb + "\"} " + num + "\n";
    out += "apiserver_request_duration_seconds_count{verb=\"" + verb + "\"} " +
           std::to_string(h.count) + "\n";
  }
  out += "# HELP apiserver_longrunning_requests Gauge of all active long-running apiserver requests.\n";
  out += "# TYPE apiserver_longrunning_requests gauge\n";
  out += "apiserver_longrunning_requests{verb=\"WATCH\"} " + std::to_string(watches_) + "\n";
  out += "# HELP kubesim_watch_events_sent_total Watch events written to clients.\n";
  out += "# TYPE kubesim_watch_events_sent_total counter\n";
  out += "kubesim_watch_events_sent_total " + std::to_string(events_sent_) + "\n";
  out += "# HELP kubesim_http_connections Open client connections.\n";
  out += "# TYPE kubesim_http_connections gauge\n";
  out += "kubesim_http_connections " + std::to_string(connections_) + "\n";
  return out;
}

}  // namespace kubesim::fakeapi::http::internal
