// The driver's second half: running a plan's slice on `jobs` threads and gathering the results
// in plan order.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "kubesim/runner/driver.h"

namespace kubesim::runner {

namespace {

struct Job {
  std::size_t scenario = 0;
  RunOptions options;
};
struct Done {
  SeedResult result;
  double wall_seconds = 0;
};

// Runs one job; whatever the run function throws becomes the result's error.
Done run_one(const scenarios::Scenario& scenario, const scenarios::Registry& registry, const RunFunction& run,
             const RunOptions& options) {
  Done done;
  const auto start = std::chrono::steady_clock::now();
  try {
    done.result = run(scenario, registry, options);
  } catch (const std::exception& e) {
    done.result = SeedResult{};
    done.result.error = std::string("the run threw: ") + e.what();
  } catch (...) {
    done.result = SeedResult{};
    done.result.error = "the run threw a non-standard exception";
  }
  done.result.seed = options.seed;
  done.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return done;
}

bool stopping(const std::atomic<bool>* stop) { return stop != nullptr && stop->load(); }

// Runs every job, on the calling thread when jobs is 1, else on `jobs` threads; calls
// `finished(index, done)` on the calling thread for each, in the order they finish. Once `stop`
// is true no job starts; those under way finish.
template <class Finished>
void run_jobs(const std::vector<Job>& jobs, const Plan& plan, const scenarios::Registry& registry,
              const RunFunction& run, int threads, const std::atomic<bool>* stop,
              Finished finished) {
  if (threads <= 1 || jobs.size() <= 1) {
    for (std::size_t i = 0; i < jobs.size() && !stopping(stop); ++i) {
      finished(i, run_one(plan.scenarios[jobs[i].scenario], registry, run, jobs[i].options));
    }
    return;
  }
  std::vector<Done> results(jobs.size());
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::size_t> ready;
  const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(threads), jobs.size());
  std::size_t working = n;  // workers not yet out of jobs; guarded by mu
  auto worker = [&] {
    for (std::size_t i = next++; i < jobs.size() && !stopping(stop); i = next++) {
      Done done = run_one(plan.scenarios[jobs[i].scenario], registry, run, jobs[i].options);
      std::lock_guard lock(mu);
      results[i] = std::move(done);
      ready.push_back(i);
      cv.notify_one();
    }
    std::lock_guard lock(mu);
    --working;
    cv.notify_one();
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < n; ++t) pool.emplace_back(worker);
  while (true) {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return !ready.empty() || working == 0; });
    if (ready.empty()) break;
    const std::size_t i = ready.front();
    ready.pop_front();
    Done done = std::move(results[i]);
    lock.unlock();
    finished(i, std::move(done));
  }
  for (auto& thread : pool) thread.join();
}

RunSet empty_set(const Plan& plan) {
  RunSet set;
  set.shard = plan.shard;
  for (std::size_t s = 0; s < plan.scenarios.size(); ++s) {
    const scenarios::Scenario& scenario = plan.scenarios[s];
    ScenarioRun run;
    run.result.file = scenario.file;
    run.result.name = scenario.name;
    run.result.description = scenario.description;
    run.result.must_find = scenario.must_find;
    run.planned_seeds = plan.seeds[s];
    set.scenarios.push_back(std::move(run));
  }
  return set;
}

// Reruns each scenario's report seed with the timeline on, and keeps the timeline.
void draw_timelines(RunSet& set, const Plan& plan, const scenarios::Registry& registry,
                    const RunFunction& run, const DriverOptions& options) {
  std::vector<Job> jobs;
  std::vector<std::pair<std::size_t, std::size_t>> targets;  // (scenario, seed index)
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    const auto index = report_seed_index(set.scenarios[s].result);
    if (!index) continue;
    Job job;
    job.scenario = s;
    job.options.seed = set.scenarios[s].result.seeds[*index].seed;
    job.options.timeline = true;
    job.options.trace_tail = options.trace_tail;
    job.options.strict = options.strict;
    jobs.push_back(job);
    targets.emplace_back(s, *index);
  }
  run_jobs(jobs, plan, registry, run, options.jobs, options.stop, [&](std::size_t i, Done done) {
    auto [s, index] = targets[i];
    set.scenarios[s].result.seeds[index].timeline = std::move(done.result.timeline);
  });
}

}  // namespace

RunSet run_plan(const Plan& plan, const scenarios::Registry& registry, const RunFunction& run,
                const DriverOptions& options) {
  RunSet set = empty_set(plan);
  std::vector<Job> jobs;
  std::vector<std::size_t> remaining(plan.scenarios.size(), 0);
  for (const auto& planned : plan.runs) {
    Job job;
    job.scenario = planned.scenario;
    job.options.seed = planned.seed;
    job.options.trace_tail = options.trace_tail;
    job.options.strict = options.strict;
    if (plan.runs.size() == 1) job.options.trace = options.trace;
    jobs.push_back(job);
    ++remaining[planned.scenario];
  }
  std::vector<Done> done(jobs.size());
  std::vector<bool> in(jobs.size(), false);  // the job finished
  std::size_t finished_count = 0, failed = 0, next_scenario = 0, first_job = 0;
  // Hands each scenario whose seeds are all in (all: once the run is over, stopped or not) to
  // on_scenario, in scenario order, with the seeds that finished.
  auto deliver = [&](bool all) {
    while (next_scenario < plan.scenarios.size() && (all || remaining[next_scenario] == 0)) {
      ScenarioRun& target = set.scenarios[next_scenario];
      for (; first_job < jobs.size() && jobs[first_job].scenario == next_scenario; ++first_job) {
        if (!in[first_job]) continue;
        target.result.seeds.push_back(std::move(done[first_job].result));
        target.wall_seconds.push_back(done[first_job].wall_seconds);
      }
      if (options.on_scenario) options.on_scenario(target);
      ++next_scenario;
    }
  };
  deliver(false);
  run_jobs(jobs, plan, registry, run, options.jobs, options.stop, [&](std::size_t i, Done result) {
    const ScenarioResult& meta = set.scenarios[jobs[i].scenario].result;
    if (seed_failed(meta, result.result)) ++failed;
    // Nothing reads the trace tail of a seed that broke nothing; dropping it keeps what a
    // long run holds per seed small.
    if (!result.result.broke_any()) result.result.trace_tail.clear();
    done[i] = std::move(result);
    in[i] = true;
    ++finished_count;
    --remaining[jobs[i].scenario];
    if (options.on_progress) options.on_progress(finished_count, jobs.size(), failed);
    deliver(false);
  });
  if (finished_count < jobs.size()) {
    set.interrupted = RunSet::Interruption{finished_count, jobs.size()};
    deliver(true);
  }
  if (options.timelines) draw_timelines(set, plan, registry, run, options);
  return set;
}

}  // namespace kubesim::runner
