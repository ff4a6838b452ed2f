// Running RestClient calls from a test: a real-mode Loop driven with run() until the task is
// done (run_until_complete would return as soon as the loop waits only on the network).
#ifndef KUBESIM_TESTS_REST_CLIENT_REAL_LOOP_H_
#define KUBESIM_TESTS_REST_CLIENT_REAL_LOOP_H_

#include <optional>

#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/task.h"

namespace kubesim::api::rest::testing {

inline sim::LoopOptions real_mode() {
  sim::LoopOptions o;
  o.mode = sim::ClockMode::kReal;
  return o;
}

template <class T>
sim::Task<void> run_and_stop(sim::Task<T> task, std::optional<T>* out, sim::Loop* loop) {
  T value = co_await std::move(task);
  out->emplace(std::move(value));
  loop->stop();
}

// Runs `task` on the real-mode `loop` and returns its value.
template <class T>
T run_real(sim::Loop& loop, sim::Task<T> task) {
  std::optional<T> out;
  loop.spawn(run_and_stop(std::move(task), &out, &loop), "test");
  loop.run();
  return std::move(*out);
}

// A context that gives up after `seconds`: a test that would otherwise hang fails instead.
inline sim::ContextWithCancel guard(sim::Loop& loop, int seconds = 20) {
  return sim::with_timeout(sim::Context(), loop, std::chrono::seconds(seconds));
}

}  // namespace kubesim::api::rest::testing

#endif  // KUBESIM_TESTS_REST_CLIENT_REAL_LOOP_H_
