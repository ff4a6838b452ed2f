#include "kubesim/workqueue/metrics.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/sim/loop.h"
#include "kubesim/workqueue/rate_limiting_queue.h"

namespace kubesim::workqueue {
namespace {

using namespace std::chrono_literals;
using sim::Loop;
using sim::Task;
using sim::Time;

TEST(FormatMetricValueTest, PrintsAsThePrometheusGoClientDoes) {
  struct Case {
    double value;
    const char* text;
  };
  const Case cases[] = {
      {0, "0"},
      {1, "1"},
      {-1, "-1"},
      {1.25, "1.25"},
      {100, "100"},
      {123456, "123456"},
      {999999.5, "999999.5"},
      {1e6, "1e+06"},
      {1234567, "1.234567e+06"},
      {1e21, "1e+21"},
      {0.001, "0.001"},
      {0.0001, "0.0001"},
      {0.00001, "1e-05"},
      {1e-6, "1e-06"},
      {9.999999999999999e-06, "9.999999999999999e-06"},
      {-2.5e-7, "-2.5e-07"},
      {1.5e300, "1.5e+300"},
      {std::numeric_limits<double>::infinity(), "+Inf"},
      {-std::numeric_limits<double>::infinity(), "-Inf"},
      {std::numeric_limits<double>::quiet_NaN(), "NaN"},
  };
  for (const Case& c : cases) EXPECT_EQ(format_metric_value(c.value), c.text) << c.text;
}

TEST(DefaultDurationBucketsTest, AreClientGosBuckets) {
  const auto& b = default_duration_buckets();
  ASSERT_EQ(b.size(), 10u);
  std::vector<std::string> printed;
  for (double v : b) printed.push_back(format_metric_value(v));
  EXPECT_EQ(printed, (std::vector<std::string>{"1e-06", "9.999999999999999e-06", "9.999999999999999e-05", "0.001",
                                               "0.01", "0.1", "1", "10", "100", "1000"}));
}

Task<void> get_at(RateLimitingQueue<std::string>* q, std::vector<std::string>* held) {
  auto item = co_await q->get(sim::Context());
  if (item) held->push_back(*item);
}

// Runs a script on a queue named "test" and returns the provider it reported to.
// t=0 add a, b, a; 1 s get a; 1.75 s get b; 2.25 s done a; 3 s done b; 3.5 s add_after c 2 s;
// 4 s add_rate_limited d (5 ms) — c arrives at 5.5 s, d at 4.005 s; nobody takes them.
struct ScriptedRun {
  Loop loop;
  InMemoryMetricsProvider provider;
  RateLimitingQueue<std::string> q{loop, default_controller_rate_limiter<std::string>(loop.clock()),
                                   QueueConfig{"test", &provider}};
  std::vector<std::string> held;
  std::vector<std::pair<Time, InMemoryMetricsProvider::Values>> snapshots;

  void at(sim::Duration d, std::function<void()> fn) { loop.add_timer(Time{} + d, std::move(fn)); }
  void snapshot(sim::Duration d) {
    at(d, [this] { snapshots.emplace_back(loop.now(), *provider.find("test")); });
  }
  ScriptedRun() {
    q.add("a");
    q.add("b");
    q.add("a");
    at(1s, [this] { loop.spawn(get_at(&q, &held)); });
    at(1750ms, [this] { loop.spawn(get_at(&q, &held)); });
    at(2250ms, [this] { q.done("a"); });
    at(3s, [this] { q.done("b"); });
    at(3500ms, [this] { q.add_after("c", 2s); });
    at(4s, [this] { q.add_rate_limited("d"); });
    // Ticks of the unfinished-work refresh fall on multiples of 500 ms; snapshot just after.
    for (auto t : {1000ms, 1500ms, 2000ms, 2500ms, 3000ms, 3500ms, 4000ms}) snapshot(t + 1ms);
    loop.run_until_idle();
  }
};

TEST(QueueMetricsTest, ValuesAfterAScriptedRun) {
  ScriptedRun run;
  const auto* v = run.provider.find("test");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(run.held, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(v->adds_total, 4);  // a, b, c, d: the second add of a was deduplicated
  EXPECT_EQ(v->depth, 2);       // c and d wait in the queue
  EXPECT_EQ(v->retries_total, 2);
  EXPECT_EQ(v->queue_duration_seconds.count, 2u);
  EXPECT_DOUBLE_EQ(v->queue_duration_seconds.sum, 1.0 + 1.75);
  EXPECT_EQ(v->work_duration_seconds.count, 2u);
  EXPECT_DOUBLE_EQ(v->work_duration_seconds.sum, 1.25 + 1.25);
  EXPECT_EQ(v->unfinished_work_seconds, 0);
  EXPECT_EQ(v->longest_running_processor_seconds, 0);

  // unfinished_work_seconds / longest_running_processor_seconds as the 500 ms ticks saw them.
  std::vector<std::pair<double, double>> gauges;
  for (const auto& [t, values] : run.snapshots) {
    gauges.emplace_back(values.unfinished_work_seconds, values.longest_running_processor_seconds);
  }
  EXPECT_EQ(gauges, (std::vector<std::pair<double, double>>{
                        {0, 0},         // 1.0 s: a was just taken, no tick yet
                        {0.5, 0.5},     // 1.5 s: a for 0.5 s
                        {1.25, 1.0},    // 2.0 s: a for 1 s, b for 0.25 s
                        {0.75, 0.75},   // 2.5 s: a done, b for 0.75 s
                        {0, 0},         // 3.0 s: done(b) came first at this instant, then the tick
                        {0, 0},         // 3.5 s: the refresh has stopped
                        {0, 0}}));
}

TEST(QueueMetricsTest, PrometheusExposition) {
  ScriptedRun run;
  const std::string text = run.provider.prometheus_text();
  const std::string expected = R"(# HELP workqueue_adds_total [BETA] Total number of adds handled by workqueue
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="test"} 4
# HELP workqueue_depth [BETA] Current depth of workqueue
# TYPE workqueue_depth gauge
workqueue_depth{name="test"} 2
# HELP workqueue_longest_running_processor_seconds [BETA] How many seconds has the longest running processor for workqueue been running.
# TYPE workqueue_longest_running_processor_seconds gauge
workqueue_longest_running_processor_seconds{name="test"} 0
# HELP workqueue_queue_duration_seconds [BETA] How long in seconds an item stays in workqueue before being requested.
# TYPE workqueue_queue_duration_seconds histogram
workqueue_queue_duration_seconds_bucket{name="test",le="1e-06"} 0
workqueue_queue_duration_seconds_bucket{name="test",le="9.999999999999999e-06"} 0
workqueue_queue_duration_seconds_bucket{name="test",le="9.999999999999999e-05"} 0
workqueue_queue_duration_seconds_bucket{name="test",le="0.001"} 0
workqueue_queue_duration_seconds_bucket{name="test",le="0.01"} 0
workqueue_queue_duration_seconds_bucket{name="test",le="0.1"} 0
workqueue_queue_duration_seconds_bucket{name="test",le="1"} 1
workqueue_queue_duration_seconds_bucket{name="test",le="10"} 2
workqueue_queue_duration_seconds_bucket{name="test",le="100"} 2
workqueue_queue_duration_seconds_bucket{name="test",le="1000"} 2
workqueue_queue_duration_seconds_bucket{name="test",le="+Inf"} 2
workqueue_queue_duration_seconds_sum{name="test"} 2.75
workqueue_queue_duration_seconds_count{name="test"} 2
# HELP workqueue_retries_total [BETA] Total number of retries handled by workqueue
# TYPE workqueue_retries_total counter
workqueue_retries_total{name="test"} 2
# HELP workqueue_unfinished_work_seconds [BETA] How many seconds of work has done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.
# TYPE workqueue_unfinished_work_seconds gauge
workqueue_unfinished_work_seconds{name="test"} 0
# HELP workqueue_work_duration_seconds [BETA] How long in seconds processing an item from workqueue takes.
# TYPE workqueue_work_duration_seconds histogram
workqueue_work_duration_seconds_bucket{name="test",le="1e-06"} 0
workqueue_work_duration_seconds_bucket{name="test",le="9.999999999999999e-06"} 0
workqueue_work_duration_seconds_bucket{name="test",le="9.999999999999999e-05"} 0
workqueue_work_duration_seconds_bucket{name="test",le="0.001"} 0
workqueue_work_duration_seconds_bucket{name="test",le="0.01"} 0
workqueue_work_duration_seconds_bucket{name="test",le="0.1"} 0
workqueue_work_duration_seconds_bucket{name="test",le="1"} 0
workqueue_work_duration_seconds_bucket{name="test",le="10"} 2
workqueue_work_duration_seconds_bucket{name="test",le="100"} 2
workqueue_work_duration_seconds_bucket{name="test",le="1000"} 2
workqueue_work_duration_seconds_bucket{name="test",le="+Inf"} 2
workqueue_work_duration_seconds_sum{name="test"} 2.5
workqueue_work_duration_seconds_count{name="test"} 2
)";
  EXPECT_EQ(text, expected);
}

TEST(QueueMetricsTest, SeriesAreSortedByQueueNameAndLabelsEscaped) {
  Loop loop;
  InMemoryMetricsProvider provider;
  Queue<std::string> b(loop, QueueConfig{"b", &provider});
  Queue<std::string> a(loop, QueueConfig{"a \"quoted\"\\", &provider});
  a.add("x");
  const std::string text = provider.prometheus_text();
  const auto first = text.find("workqueue_depth{name=\"a \\\"quoted\\\"\\\\\"} 1");
  const auto second = text.find("workqueue_depth{name=\"b\"} 0");
  ASSERT_NE(first, std::string::npos) << text;
  ASSERT_NE(second, std::string::npos) << text;
  EXPECT_LT(first, second);
  EXPECT_EQ(text.find("workqueue_retries_total"), std::string::npos) << "plain queues have no retries metric";
}

TEST(QueueMetricsTest, UnnamedQueuesOrQueuesWithoutProviderReportNothing) {
  Loop loop;
  InMemoryMetricsProvider provider;
  DelayingQueue<std::string> unnamed(loop, QueueConfig{"", &provider});
  DelayingQueue<std::string> no_provider(loop, QueueConfig{"named", nullptr});
  unnamed.add("x");
  no_provider.add("x");
  EXPECT_EQ(provider.prometheus_text(), "");
}

// A provider that fails the test on any metric it was not expected to make.
class CountingProvider final : public MetricsProvider {
 public:
  struct Count final : GaugeMetric, CounterMetric, HistogramMetric, SettableGaugeMetric {
    int incs = 0, decs = 0, observations = 0, sets = 0;
    void inc() override { ++incs; }
    void dec() override { ++decs; }
    void observe(double) override { ++observations; }
    void set(double) override { ++sets; }
  };
  std::shared_ptr<Count> depth = std::make_shared<Count>(), adds = std::make_shared<Count>(),
                         latency = std::make_shared<Count>(), work = std::make_shared<Count>(),
                         unfinished = std::make_shared<Count>(), longest = std::make_shared<Count>();
  std::vector<std::string> names;

  std::shared_ptr<GaugeMetric> new_depth_metric(const std::string& n) override { return note(n, depth); }
  std::shared_ptr<CounterMetric> new_adds_metric(const std::string& n) override { return note(n, adds); }
  std::shared_ptr<HistogramMetric> new_latency_metric(const std::string& n) override { return note(n, latency); }
  std::shared_ptr<HistogramMetric> new_work_duration_metric(const std::string& n) override { return note(n, work); }
  std::shared_ptr<SettableGaugeMetric> new_unfinished_work_seconds_metric(const std::string& n) override {
    return note(n, unfinished);
  }
  std::shared_ptr<SettableGaugeMetric> new_longest_running_processor_seconds_metric(const std::string& n) override {
    return note(n, longest);
  }
  std::shared_ptr<CounterMetric> new_retries_metric(const std::string&) override {
    ADD_FAILURE() << "a plain Queue has no retries metric";
    return nullptr;
  }

 private:
  std::shared_ptr<Count> note(const std::string& n, std::shared_ptr<Count> c) {
    names.push_back(n);
    return c;
  }
};

Task<void> take_and_finish(Queue<std::string>* q) {
  auto item = co_await q->get(sim::Context());
  q->done(*item);
}

TEST(QueueMetricsTest, DrivesAUserProvider) {
  Loop loop;
  CountingProvider provider;
  Queue<std::string> q(loop, QueueConfig{"mine", &provider});
  EXPECT_EQ(provider.names, std::vector<std::string>(6, "mine"));
  q.add("x");
  q.add("x");
  loop.spawn(take_and_finish(&q));
  loop.run_until_idle();
  EXPECT_EQ(provider.adds->incs, 1);
  EXPECT_EQ(provider.depth->incs, 1);
  EXPECT_EQ(provider.depth->decs, 1);
  EXPECT_EQ(provider.latency->observations, 1);
  EXPECT_EQ(provider.work->observations, 1);
  EXPECT_EQ(provider.unfinished->sets, 0) << "done before the first 500 ms tick";
}

TEST(QueueMetricsTest, TheRefreshDoesNotOutliveTheWork) {
  Loop loop;
  InMemoryMetricsProvider provider;
  Queue<std::string> q(loop, QueueConfig{"q", &provider});
  q.add("x");
  loop.spawn(take_and_finish(&q));
  loop.run_until_idle();
  EXPECT_LE(loop.now(), Time{} + 500ms);
  EXPECT_EQ(loop.pending_timers(), 0u);
}

}  // namespace
}  // namespace kubesim::workqueue
