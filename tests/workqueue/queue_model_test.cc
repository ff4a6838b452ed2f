// Model-based test of Queue: random interleavings of add / get / done / shut_down /
// shut_down_with_drain across several workers, checked step by step against a plain model of
// client-go's rules (Typed in util/workqueue/queue.go, client-go 1.36); a second property adds
// done() calls for items no worker holds, which client-go accepts and which break the rules.
#include "kubesim/workqueue/queue.h"

#include <array>
#include <deque>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"

namespace kubesim::workqueue {
namespace {

using sim::Loop;
using sim::Task;

// ---- model-based: workers interleaving add / get / done / shutdown ----

constexpr int kWorkers = 3;
constexpr int kKeys = 6;

enum class WorkerState { kIdle, kWaiting, kHolding };
enum class DrainState { kNone, kWaiting, kDrained, kCutShort };

struct WorkerModel {
  WorkerState state = WorkerState::kIdle;
  int item = -1;
  int nothing_count = 0;  // gets that returned nullopt
  bool operator==(const WorkerModel&) const = default;
};

// The reference: client-go's rules written as plainly as possible.
struct QueueModel {
  std::deque<int> queue;
  std::set<int> dirty;
  std::set<int> processing;
  std::array<WorkerModel, kWorkers> workers;
  std::deque<int> waiting;  // workers blocked in get, oldest first
  bool shut = false;
  DrainState drain = DrainState::kNone;

  void hand(int w, int k) {
    dirty.erase(k);
    processing.insert(k);
    workers[w] = WorkerModel{WorkerState::kHolding, k, workers[w].nothing_count};
  }
  void enqueue(int k) {
    if (!waiting.empty()) {
      const int w = waiting.front();
      waiting.pop_front();
      hand(w, k);
    } else {
      queue.push_back(k);
    }
  }
  // Typed.Done: whether or not k was processing.
  void done(int k) {
    const bool was_processing = processing.erase(k) > 0;
    if (dirty.count(k)) enqueue(k);
    if (was_processing && processing.empty() && drain == DrainState::kWaiting) drain = DrainState::kDrained;
  }
  void stop_waiters() {
    for (int w : waiting) {
      workers[w].state = WorkerState::kIdle;
      ++workers[w].nothing_count;
    }
    waiting.clear();
  }
};

// The system under test, with its own checks of the rules that do not need the model.
struct QueueSut {
  Loop loop;
  Queue<int> q{loop};
  std::array<WorkerModel, kWorkers> workers;
  std::set<int> held;            // items some worker holds now
  std::map<int, bool> pending;   // added since it was last handed out
  std::vector<std::string> violations;
  DrainState drain = DrainState::kNone;
  // The rules hold only while every done() follows a get(); off when the test calls stray ones.
  bool check_rules = true;
};

Task<void> sut_get(QueueSut* s, int w) {
  s->workers[w].state = WorkerState::kWaiting;
  auto item = co_await s->q.get(sim::Context());
  if (!item) {
    s->workers[w].state = WorkerState::kIdle;
    ++s->workers[w].nothing_count;
    co_return;
  }
  const int k = *item;
  const bool first_holder = s->held.insert(k).second;
  if (s->check_rules && !first_holder) s->violations.push_back("two workers hold " + std::to_string(k));
  if (s->check_rules && !s->pending[k]) {
    s->violations.push_back("handed out twice without a new add: " + std::to_string(k));
  }
  s->pending[k] = false;
  s->workers[w].state = WorkerState::kHolding;
  s->workers[w].item = k;
}

Task<void> sut_drain(QueueSut* s) {
  s->drain = DrainState::kWaiting;
  const bool drained = co_await s->q.shut_down_with_drain(sim::Context());
  s->drain = drained ? DrainState::kDrained : DrainState::kCutShort;
}

void sut_done(QueueSut& s, int w) {
  const int k = s.workers[w].item;
  s.held.erase(k);
  s.workers[w].state = WorkerState::kIdle;
  s.workers[w].item = -1;
  s.q.done(k);
}

void expect_matches(const QueueModel& m, QueueSut& s) {
  s.loop.run_until_idle();
  RC_ASSERT(s.violations.empty());
  for (int w = 0; w < kWorkers; ++w) {
    RC_ASSERT(s.workers[w].state == m.workers[w].state);
    RC_ASSERT(s.workers[w].nothing_count == m.workers[w].nothing_count);
    if (m.workers[w].state == WorkerState::kHolding) RC_ASSERT(s.workers[w].item == m.workers[w].item);
  }
  RC_ASSERT(s.q.len() == m.queue.size());
  RC_ASSERT(s.q.processing() == m.processing.size());
  RC_ASSERT(s.q.shutting_down() == m.shut);
  RC_ASSERT(s.drain == m.drain);
}

using QueueCommand = rc::state::Command<QueueModel, QueueSut>;

struct AddCmd : QueueCommand {
  int key = *rc::gen::inRange(0, kKeys);
  void apply(QueueModel& m) const override {
    if (m.shut || m.dirty.count(key)) return;
    m.dirty.insert(key);
    if (m.processing.count(key)) return;
    m.enqueue(key);
  }
  void run(const QueueModel& m, QueueSut& s) const override {
    if (!s.q.shutting_down()) s.pending[key] = true;
    s.q.add(key);
    expect_matches(nextState(m), s);
  }
  void show(std::ostream& os) const override { os << "add(" << key << ")"; }
};

struct GetCmd : QueueCommand {
  int worker;
  explicit GetCmd(const QueueModel& m) {
    std::vector<int> idle;
    for (int w = 0; w < kWorkers; ++w) {
      if (m.workers[w].state == WorkerState::kIdle) idle.push_back(w);
    }
    RC_PRE(!idle.empty());
    worker = *rc::gen::elementOf(idle);
  }
  void checkPreconditions(const QueueModel& m) const override {
    RC_PRE(m.workers[worker].state == WorkerState::kIdle);
  }
  void apply(QueueModel& m) const override {
    if (!m.queue.empty()) {
      const int k = m.queue.front();
      m.queue.pop_front();
      m.hand(worker, k);
    } else if (m.shut) {
      ++m.workers[worker].nothing_count;
    } else {
      m.workers[worker].state = WorkerState::kWaiting;
      m.waiting.push_back(worker);
    }
  }
  void run(const QueueModel& m, QueueSut& s) const override {
    s.loop.spawn(sut_get(&s, worker));
    expect_matches(nextState(m), s);
  }
  void show(std::ostream& os) const override { os << "worker " << worker << ": get"; }
};

struct DoneCmd : QueueCommand {
  int worker;
  explicit DoneCmd(const QueueModel& m) {
    std::vector<int> holding;
    for (int w = 0; w < kWorkers; ++w) {
      if (m.workers[w].state == WorkerState::kHolding) holding.push_back(w);
    }
    RC_PRE(!holding.empty());
    worker = *rc::gen::elementOf(holding);
  }
  void checkPreconditions(const QueueModel& m) const override {
    RC_PRE(m.workers[worker].state == WorkerState::kHolding);
  }
  void apply(QueueModel& m) const override {
    const int k = m.workers[worker].item;
    m.workers[worker].state = WorkerState::kIdle;
    m.workers[worker].item = -1;
    m.done(k);
  }
  void run(const QueueModel& m, QueueSut& s) const override {
    sut_done(s, worker);
    expect_matches(nextState(m), s);
  }
  void show(std::ostream& os) const override { os << "worker " << worker << ": done"; }
};

// done() for any key, from no worker: a second done(), or one for an item never handed out.
struct StrayDoneCmd : QueueCommand {
  int key = *rc::gen::inRange(0, kKeys);
  void apply(QueueModel& m) const override { m.done(key); }
  void run(const QueueModel& m, QueueSut& s) const override {
    s.held.erase(key);
    s.q.done(key);
    expect_matches(nextState(m), s);
  }
  void show(std::ostream& os) const override { os << "stray done(" << key << ")"; }
};

struct ShutDownCmd : QueueCommand {
  void apply(QueueModel& m) const override {
    m.shut = true;
    m.stop_waiters();
    if (m.drain == DrainState::kWaiting) {
      m.drain = m.processing.empty() ? DrainState::kDrained : DrainState::kCutShort;
    }
  }
  void run(const QueueModel& m, QueueSut& s) const override {
    s.q.shut_down();
    expect_matches(nextState(m), s);
  }
  void show(std::ostream& os) const override { os << "shut_down"; }
};

struct ShutDownWithDrainCmd : QueueCommand {
  void checkPreconditions(const QueueModel& m) const override { RC_PRE(m.drain == DrainState::kNone); }
  void apply(QueueModel& m) const override {
    m.shut = true;
    m.stop_waiters();
    m.drain = m.processing.empty() ? DrainState::kDrained : DrainState::kWaiting;
  }
  void run(const QueueModel& m, QueueSut& s) const override {
    s.loop.spawn(sut_drain(&s));
    expect_matches(nextState(m), s);
  }
  void show(std::ostream& os) const override { os << "shut_down_with_drain"; }
};

// Shuts down, lets every worker finish what it holds and take what is left: no item is lost.
void finish(QueueSut& sut) {
  sut.q.shut_down();
  sut.loop.run_until_idle();
  for (int round = 0; round < 4 * kKeys + 2; ++round) {
    for (int w = 0; w < kWorkers; ++w) {
      if (sut.workers[w].state == WorkerState::kHolding) sut_done(sut, w);
    }
    for (int w = 0; w < kWorkers; ++w) {
      if (sut.workers[w].state == WorkerState::kIdle) sut.loop.spawn(sut_get(&sut, w));
    }
    sut.loop.run_until_idle();
  }
  RC_ASSERT(sut.violations.empty());
  for (const auto& [key, pending] : sut.pending) RC_ASSERT(!pending);
  RC_ASSERT(sut.q.len() == 0u);
}

RC_GTEST_PROP(QueueModelTest, WorkersFollowClientGoRules, ()) {
  QueueSut sut;
  rc::state::check(QueueModel{}, sut,
                   rc::state::gen::execOneOfWithArgs<AddCmd, AddCmd, AddCmd, GetCmd, GetCmd, DoneCmd, DoneCmd,
                                                     ShutDownCmd, ShutDownWithDrainCmd>());
  finish(sut);
}

// client-go's Typed.Done with stray calls: duplicates in the queue, two workers on one item.
RC_GTEST_PROP(QueueModelTest, StrayDonesDoWhatClientGoDoes, ()) {
  QueueSut sut;
  sut.check_rules = false;
  rc::state::check(QueueModel{}, sut,
                   rc::state::gen::execOneOfWithArgs<AddCmd, AddCmd, AddCmd, GetCmd, GetCmd, DoneCmd, DoneCmd,
                                                     StrayDoneCmd, ShutDownCmd, ShutDownWithDrainCmd>());
  finish(sut);
}

}  // namespace
}  // namespace kubesim::workqueue
