// Work queue metrics: client-go's MetricsProvider interface, an in-memory provider, and its
// Prometheus text exposition.
//
// A queue given a name and a provider asks the provider for one metric of each kind, labelled
// with the queue's name, and drives them as client-go does: depth and adds_total on add, depth
// and queue_duration_seconds on get, work_duration_seconds on done, unfinished_work_seconds and
// longest_running_processor_seconds refreshed periodically while items are being processed, and
// retries_total on every add_after of a delaying queue. Every duration is measured on the queue's
// sim::Clock, so metric values are virtual time and reproducible from a seed.
//
// Plug in another metrics system by implementing MetricsProvider; the metric objects it returns
// are called from the loop thread only. Nothing here is global: each queue is handed its provider.
#ifndef KUBESIM_WORKQUEUE_METRICS_H_
#define KUBESIM_WORKQUEUE_METRICS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kubesim::workqueue {

// A value that goes up and down by one (the queue's depth).
class GaugeMetric {
 public:
  virtual ~GaugeMetric() = default;
  virtual void inc() = 0;
  virtual void dec() = 0;
};

// A value that is set (the unfinished-work gauges).
class SettableGaugeMetric {
 public:
  virtual ~SettableGaugeMetric() = default;
  virtual void set(double value) = 0;
};

// A value that only goes up by one.
class CounterMetric {
 public:
  virtual ~CounterMetric() = default;
  virtual void inc() = 0;
};

// Individual observations, in seconds.
class HistogramMetric {
 public:
  virtual ~HistogramMetric() = default;
  virtual void observe(double value) = 0;
};

// Makes the metrics of one named queue. Each call may return a fresh object or a shared one
// (two queues with the same name then report into the same series, as in Prometheus).
class MetricsProvider {
 public:
  virtual ~MetricsProvider() = default;
  virtual std::shared_ptr<GaugeMetric> new_depth_metric(const std::string& name) = 0;
  virtual std::shared_ptr<CounterMetric> new_adds_metric(const std::string& name) = 0;
  virtual std::shared_ptr<HistogramMetric> new_latency_metric(const std::string& name) = 0;
  virtual std::shared_ptr<HistogramMetric> new_work_duration_metric(const std::string& name) = 0;
  virtual std::shared_ptr<SettableGaugeMetric> new_unfinished_work_seconds_metric(const std::string& name) = 0;
  virtual std::shared_ptr<SettableGaugeMetric> new_longest_running_processor_seconds_metric(
      const std::string& name) = 0;
  virtual std::shared_ptr<CounterMetric> new_retries_metric(const std::string& name) = 0;
};

// The metrics a Queue drives; every member is set.
struct QueueMetricSet {
  std::shared_ptr<GaugeMetric> depth;
  std::shared_ptr<CounterMetric> adds;
  std::shared_ptr<HistogramMetric> latency;
  std::shared_ptr<HistogramMetric> work_duration;
  std::shared_ptr<SettableGaugeMetric> unfinished_work_seconds;
  std::shared_ptr<SettableGaugeMetric> longest_running_processor_seconds;

  // Asks `provider` for the six queue metrics of `name`; throws std::invalid_argument when the
  // provider returns a null metric.
  static QueueMetricSet make(MetricsProvider& provider, const std::string& name);
};

// client-go's buckets for both duration histograms (component-base's
// ExponentialBuckets(10e-7, 10, 10)): 1 µs to 1000 s, computed by repeated multiplication
// exactly as Go does, so the `le` labels print as Prometheus prints them.
std::vector<double> exponential_buckets(double start, double factor, int count);
const std::vector<double>& default_duration_buckets();

// Formats a sample value as the Prometheus Go client does (strconv 'g' with the shortest
// round-trip digits; "+Inf", "-Inf", "NaN").
std::string format_metric_value(double value);

// Keeps every metric in memory, for tests and for the /metrics endpoint of kubesim itself.
class InMemoryMetricsProvider final : public MetricsProvider {
 public:
  struct Histogram {
    std::vector<double> upper_bounds = default_duration_buckets();
    // Observations per bucket (not cumulative); values above the last bound count only in count.
    std::vector<std::uint64_t> bucket_counts = std::vector<std::uint64_t>(upper_bounds.size());
    std::uint64_t count = 0;
    double sum = 0;
    void observe(double value);
  };
  // The series of one queue name. Only the metrics some queue asked for are exposed.
  struct Values {
    double depth = 0;
    double adds_total = 0;
    Histogram queue_duration_seconds;
    Histogram work_duration_seconds;
    double unfinished_work_seconds = 0;
    double longest_running_processor_seconds = 0;
    double retries_total = 0;
    bool has_queue_metrics = false;  // depth … longest_running_processor_seconds were asked for
    bool has_retries = false;
  };

  std::shared_ptr<GaugeMetric> new_depth_metric(const std::string& name) override;
  std::shared_ptr<CounterMetric> new_adds_metric(const std::string& name) override;
  std::shared_ptr<HistogramMetric> new_latency_metric(const std::string& name) override;
  std::shared_ptr<HistogramMetric> new_work_duration_metric(const std::string& name) override;
  std::shared_ptr<SettableGaugeMetric> new_unfinished_work_seconds_metric(const std::string& name) override;
  std::shared_ptr<SettableGaugeMetric> new_longest_running_processor_seconds_metric(
      const std::string& name) override;
  std::shared_ptr<CounterMetric> new_retries_metric(const std::string& name) override;

  // The series of queue `name`, or nullptr when no queue of that name asked for metrics.
  const Values* find(const std::string& name) const;

  // The Prometheus text exposition (format 0.0.4) of every series: families in name order
  // (workqueue_adds_total, workqueue_depth, …), each with # HELP and # TYPE lines, one sample per
  // queue name in name order, label `name`. Families no queue asked for are left out.
  std::string prometheus_text() const;

 private:
  std::shared_ptr<Values> values_for(const std::string& name);

  std::map<std::string, std::shared_ptr<Values>> queues_;  // ordered: the exposition is sorted
};

}  // namespace kubesim::workqueue

#endif  // KUBESIM_WORKQUEUE_METRICS_H_
