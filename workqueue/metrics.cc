#include "kubesim/workqueue/metrics.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace kubesim::workqueue {
namespace {

using Values = InMemoryMetricsProvider::Values;

class Gauge final : public GaugeMetric, public SettableGaugeMetric {
 public:
  Gauge(std::shared_ptr<Values> values, double Values::*field) : values_(std::move(values)), field_(field) {}
  void inc() override { (*values_).*field_ += 1; }
  void dec() override { (*values_).*field_ -= 1; }
  void set(double value) override { (*values_).*field_ = value; }

 private:
  std::shared_ptr<Values> values_;
  double Values::*field_;
};

class Counter final : public CounterMetric {
 public:
  Counter(std::shared_ptr<Values> values, double Values::*field) : values_(std::move(values)), field_(field) {}
  void inc() override { (*values_).*field_ += 1; }

 private:
  std::shared_ptr<Values> values_;
  double Values::*field_;
};

class HistogramHandle final : public HistogramMetric {
 public:
  HistogramHandle(std::shared_ptr<Values> values, InMemoryMetricsProvider::Histogram Values::*field)
      : values_(std::move(values)), field_(field) {}
  void observe(double value) override { ((*values_).*field_).observe(value); }

 private:
  std::shared_ptr<Values> values_;
  InMemoryMetricsProvider::Histogram Values::*field_;
};

// Help texts as component-base registers them (BETA stability, so prefixed "[BETA] ").
constexpr std::string_view kAddsHelp = "[BETA] Total number of adds handled by workqueue";
constexpr std::string_view kDepthHelp = "[BETA] Current depth of workqueue";
constexpr std::string_view kLongestHelp =
    "[BETA] How many seconds has the longest running processor for workqueue been running.";
constexpr std::string_view kQueueDurationHelp =
    "[BETA] How long in seconds an item stays in workqueue before being requested.";
constexpr std::string_view kRetriesHelp = "[BETA] Total number of retries handled by workqueue";
constexpr std::string_view kUnfinishedHelp =
    "[BETA] How many seconds of work has done that is in progress and hasn't been observed by "
    "work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads "
    "by observing the rate at which this increases.";
constexpr std::string_view kWorkDurationHelp =
    "[BETA] How long in seconds processing an item from workqueue takes.";

std::string escape_label_value(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void header(std::string& out, std::string_view family, std::string_view help, std::string_view type) {
  out.append("# HELP ").append(family).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(family).append(" ").append(type).append("\n");
}

void sample(std::string& out, std::string_view metric, const std::string& queue, double value) {
  out.append(metric).append("{name=\"").append(escape_label_value(queue)).append("\"} ");
  out.append(format_metric_value(value)).append("\n");
}

void histogram_samples(std::string& out, std::string_view family, const std::string& queue,
                       const InMemoryMetricsProvider::Histogram& h) {
  const std::string label = escape_label_value(queue);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < h.upper_bounds.size(); ++i) {
    cumulative += h.bucket_counts[i];
    out.append(family).append("_bucket{name=\"").append(label).append("\",le=\"");
    out.append(format_metric_value(h.upper_bounds[i])).append("\"} ");
    out.append(std::to_string(cumulative)).append("\n");
  }
  out.append(family).append("_bucket{name=\"").append(label).append("\",le=\"+Inf\"} ");
  out.append(std::to_string(h.count)).append("\n");
  out.append(family).append("_sum{name=\"").append(label).append("\"} ");
  out.append(format_metric_value(h.sum)).append("\n");
  out.append(family).append("_count{name=\"").append(label).append("\"} ");
  out.append(std::to_string(h.count)).append("\n");
}

}  // namespace

QueueMetricSet QueueMetricSet::make(MetricsProvider& provider, const std::string& name) {
  QueueMetricSet set{provider.new_depth_metric(name),
                     provider.new_adds_metric(name),
                     provider.new_latency_metric(name),
                     provider.new_work_duration_metric(name),
                     provider.new_unfinished_work_seconds_metric(name),
                     provider.new_longest_running_processor_seconds_metric(name)};
  if (!set.depth || !set.adds || !set.latency || !set.work_duration || !set.unfinished_work_seconds ||
      !set.longest_running_processor_seconds) {
    throw std::invalid_argument("workqueue: the metrics provider returned a null metric for queue \"" +
                                name + "\"");
  }
  return set;
}

std::vector<double> exponential_buckets(double start, double factor, int count) {
  if (count < 1) throw std::invalid_argument("exponential_buckets: count must be positive");
  if (start <= 0) throw std::invalid_argument("exponential_buckets: start must be positive");
  if (factor <= 1) throw std::invalid_argument("exponential_buckets: factor must be greater than 1");
  std::vector<double> buckets(static_cast<std::size_t>(count));
  for (double& b : buckets) {
    b = start;
    start *= factor;
  }
  return buckets;
}

const std::vector<double>& default_duration_buckets() {
  static const std::vector<double> buckets = exponential_buckets(10e-7, 10, 10);
  return buckets;
}

std::string format_metric_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == 0) return "0";
  // Shortest round-trip digits, then Go's %g layout decision for the shortest precision:
  // exponent form when the decimal exponent is below -4 or at least 6.
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(result.ptr - buf));
  const std::size_t e = sci.find('e');
  const bool negative = sci.front() == '-';
  std::string digits;
  for (char c : sci.substr(0, e)) {
    if (c >= '0' && c <= '9') digits += c;
  }
  const int exponent = std::atoi(std::string(sci.substr(e + 1)).c_str());
  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= 6) {
    out += digits[0];
    if (digits.size() > 1) out.append(".").append(digits, 1, std::string::npos);
    out += exponent < 0 ? "e-" : "e+";
    const int magnitude = std::abs(exponent);
    if (magnitude < 10) out += '0';
    out += std::to_string(magnitude);
    return out;
  }
  if (exponent < 0) {
    out.append("0.").append(static_cast<std::size_t>(-exponent - 1), '0').append(digits);
    return out;
  }
  const auto integer_digits = static_cast<std::size_t>(exponent + 1);
  if (digits.size() <= integer_digits) {
    out.append(digits).append(integer_digits - digits.size(), '0');
  } else {
    out.append(digits, 0, integer_digits).append(".").append(digits, integer_digits, std::string::npos);
  }
  return out;
}

void InMemoryMetricsProvider::Histogram::observe(double value) {
  for (std::size_t i = 0; i < upper_bounds.size(); ++i) {
    if (value <= upper_bounds[i]) {
      ++bucket_counts[i];
      break;
    }
  }
  ++count;
  sum += value;
}

std::shared_ptr<Values> InMemoryMetricsProvider::values_for(const std::string& name) {
  auto& slot = queues_[name];
  if (!slot) slot = std::make_shared<Values>();
  return slot;
}

std::shared_ptr<GaugeMetric> InMemoryMetricsProvider::new_depth_metric(const std::string& name) {
  auto values = values_for(name);
  values->has_queue_metrics = true;
  return std::make_shared<Gauge>(std::move(values), &Values::depth);
}

std::shared_ptr<CounterMetric> InMemoryMetricsProvider::new_adds_metric(const std::string& name) {
  auto values = values_for(name);
  values->has_queue_metrics = true;
  return std::make_shared<Counter>(std::move(values), &Values::adds_total);
}

std::shared_ptr<HistogramMetric> InMemoryMetricsProvider::new_latency_metric(const std::string& name) {
  auto values = values_for(name);
  values->has_queue_metrics = true;
  return std::make_shared<HistogramHandle>(std::move(values), &Values::queue_duration_seconds);
}

std::shared_ptr<HistogramMetric> InMemoryMetricsProvider::new_work_duration_metric(const std::string& name) {
  auto values = values_for(name);
  values->has_queue_metrics = true;
  return std::make_shared<HistogramHandle>(std::move(values), &Values::work_duration_seconds);
}

std::shared_ptr<SettableGaugeMetric> InMemoryMetricsProvider::new_unfinished_work_seconds_metric(
    const std::string& name) {
  auto values = values_for(name);
  values->has_queue_metrics = true;
  return std::make_shared<Gauge>(std::move(values), &Values::unfinished_work_seconds);
}

std::shared_ptr<SettableGaugeMetric> InMemoryMetricsProvider::new_longest_running_processor_seconds_metric(
    const std::string& name) {
  auto values = values_for(name);
  values->has_queue_metrics = true;
  return std::make_shared<Gauge>(std::move(values), &Values::longest_running_processor_seconds);
}

std::shared_ptr<CounterMetric> InMemoryMetricsProvider::new_retries_metric(const std::string& name) {
  auto values = values_for(name);
  values->has_retries = true;
  return std::make_shared<Counter>(std::move(values), &Values::retries_total);
}

const Values* InMemoryMetricsProvider::find(const std::string& name) const {
  auto it = queues_.find(name);
  return it == queues_.end() ? nullptr : it->second.get();
}

std::string InMemoryMetricsProvider::prometheus_text() const {
  std::string out;
  // One family at a time, in the order of their names.
  auto scalar_family = [&](std::string_view family, std::string_view help, std::string_view type,
                           bool Values::*present, double Values::*field) {
    bool any = false;
    for (const auto& [queue, values] : queues_) {
      if (!((*values).*present)) continue;
      if (!any) header(out, family, help, type);
      any = true;
      sample(out, family, queue, (*values).*field);
    }
  };
  auto histogram_family = [&](std::string_view family, std::string_view help, Histogram Values::*field) {
    bool any = false;
    for (const auto& [queue, values] : queues_) {
      if (!values->has_queue_metrics) continue;
      if (!any) header(out, family, help, "histogram");
      any = true;
      histogram_samples(out, family, queue, (*values).*field);
    }
  };
  scalar_family("workqueue_adds_total", kAddsHelp, "counter", &Values::has_queue_metrics, &Values::adds_total);
  scalar_family("workqueue_depth", kDepthHelp, "gauge", &Values::has_queue_metrics, &Values::depth);
  scalar_family("workqueue_longest_running_processor_seconds", kLongestHelp, "gauge", &Values::has_queue_metrics,
                &Values::longest_running_processor_seconds);
  histogram_family("workqueue_queue_duration_seconds", kQueueDurationHelp, &Values::queue_duration_seconds);
  scalar_family("workqueue_retries_total", kRetriesHelp, "counter", &Values::has_retries, &Values::retries_total);
  scalar_family("workqueue_unfinished_work_seconds", kUnfinishedHelp, "gauge", &Values::has_queue_metrics,
                &Values::unfinished_work_seconds);
  histogram_family("workqueue_work_duration_seconds", kWorkDurationHelp, &Values::work_duration_seconds);
  return out;
}

}  // namespace kubesim::workqueue
