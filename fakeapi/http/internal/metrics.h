// Metrics of the HTTP front end in Prometheus' text format, with kube-apiserver's names where
// one exists: apiserver_request_total{verb,resource,code}, apiserver_request_duration_seconds
// (a histogram by verb), apiserver_longrunning_requests{verb="WATCH"}, plus
// kubesim_watch_events_sent_total and kubesim_http_connections. Kept by the I/O thread only: no
// locks, and a request is counted when its answer (or a watch's headers) is written.
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_METRICS_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_METRICS_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

namespace kubesim::fakeapi::http::internal {

class Metrics {
 public:
  // verb: the Kubernetes verb upper-cased as kube-apiserver reports it (GET, LIST, WATCH, POST,
  // PUT, PATCH, DELETE, DELETECOLLECTION), or the HTTP method for other paths.
  void observe_request(const std::string& verb, const std::string& resource, int code,
                       double seconds);
  void watch_opened() { ++watches_; }
  void watch_closed() { --watches_; }
  void events_sent(std::uint64_t n) { events_sent_ += n; }
  void connection_opened() { ++connections_; }
  void connection_closed() { --connections_; }
  std::int64_t watches() const { return watches_; }

  std::string render() const;

 private:
  static constexpr std::array<double, 12> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                       0.05,   0.1,   0.25,   0.5,   1,    5};
  struct Histogram {
    std::array<std::uint64_t, kBuckets.size()> buckets{};
    std::uint64_t count = 0;
    double sum = 0;
  };
  std::map<std::tuple<std::string, std::string, int>, std::uint64_t> requests_;
  std::map<std::string, Histogram> latency_;
  std::int64_t watches_ = 0;
  std::int64_t connections_ = 0;
  std::uint64_t events_sent_ = 0;
};

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_METRICS_H_
