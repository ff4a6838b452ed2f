// cluster::Cluster: processes, their faults under one incarnation-safe rule, and teardown. Each
// act is pinned to the Loop items it adds (a seed's run depends on them: in shuffle mode every
// instant with more than one ready item draws from the seed).
#include "kubesim/cluster/cluster.h"

#include <chrono>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/api/object.h"
#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/sim/event.h"

namespace kubesim::cluster {
namespace {

using namespace std::chrono_literals;

// Runs until its process is stopped, then marks its incarnation finished.
sim::Task<void> idle_main(Replica* r, sim::Context ctx) {
  Incarnation& inc = r->begin_incarnation();
  sim::Event never(r->process->loop());
  co_await never.wait(ctx);
  inc.finished = true;
}

struct Heard final : Observer {
  void crashed(Replica& r) override { events.push_back("crashed " + r.name); }
  void restarting(Replica& r, Restart cause) override { events.push_back("restarting " + r.name + " " + text(cause)); }
  void restarted(Replica& r, Restart cause) override { events.push_back("restarted " + r.name + " " + text(cause)); }
  void healed(Replica& r) override { events.push_back("healed " + r.name); }
  void term_started(Replica& r, std::size_t term) override {
    events.push_back("term " + std::to_string(term) + " of " + r.name + " started");
  }
  void term_ended(Replica& r, std::size_t term) override {
    events.push_back("term " + std::to_string(term) + " of " + r.name + " ended");
  }
  static std::string text(Restart cause) {
    switch (cause) {
      case Restart::kAfterCrash: return "after-crash";
      case Restart::kAfterExit: return "after-exit";
      case Restart::kByCall: return "by-call";
    }
    return "?";
  }
  std::vector<std::string> events;
};

class ClusterTest : public ::testing::Test {
 protected:
  ClusterTest() { c.set_observer(&heard); }
  ~ClusterTest() override { EXPECT_TRUE(c.teardown()); }

  Replica& started(const std::string& name) {
    Replica& r = c.add_replica(name, 1ms, 0ms);
    Replica* p = &r;
    r.process->start([p](sim::Context ctx) { return idle_main(p, std::move(ctx)); });
    c.loop().run_for(1ms);
    return r;
  }

  Cluster c;
  Heard heard;
};

TEST_F(ClusterTest, AddReplicaGivesEachProcessItsOwnLinkAndIndex) {
  Replica& a = c.add_replica("a-0", 2ms, 3ms);
  Replica& b = c.add_replica("b-0", 1ms, 0ms);
  EXPECT_EQ(a.index, 0u);
  EXPECT_EQ(b.index, 1u);
  EXPECT_EQ(a.process->name(), "a-0");
  EXPECT_EQ(a.process->link(), a.link.get());
  EXPECT_NE(a.link, b.link);
  EXPECT_EQ(c.find("b-0"), &b);
  EXPECT_EQ(c.find("c-0"), nullptr);
  EXPECT_TRUE(c.unwound());  // nothing started
}

TEST_F(ClusterTest, CrashWithRestartAddsExactlyOneTimerAndRestartsOnce) {
  Replica& r = started("m-0");
  const std::size_t timers = c.loop().pending_timers();
  c.crash(r, 5s);
  EXPECT_FALSE(r.process->alive());
  EXPECT_EQ(c.loop().pending_timers(), timers + 1);
  c.loop().run_for(5s);
  EXPECT_TRUE(r.process->alive());
  EXPECT_EQ(r.process->incarnation(), 1);
  EXPECT_EQ(heard.events, (std::vector<std::string>{"crashed m-0", "restarting m-0 after-crash",
                                                    "restarted m-0 after-crash"}));
  EXPECT_EQ(r.incarnations.size(), 1u);  // the finished one was dropped
  EXPECT_EQ(r.incarnations.back()->number, 1);
}

TEST_F(ClusterTest, ACrashCanTellTheObserverItsRestartFollowsAnExit) {
  Replica& r = started("m-0");
  c.crash(r, 1s, Restart::kAfterExit);
  c.loop().run_for(1s);
  EXPECT_EQ(heard.events, (std::vector<std::string>{"crashed m-0", "restarting m-0 after-exit",
                                                    "restarted m-0 after-exit"}));
}

TEST_F(ClusterTest, AnOlderRestartTimerNeverRestartsALaterIncarnation) {
  Replica& r = started("m-0");
  c.crash(r, 10s);    // would restart at t=10s
  c.loop().run_for(2s);
  c.restart(r);       // incarnation 1 at t=2s
  c.loop().run_for(2s);
  c.crash(r);         // down for good at t=4s
  c.loop().run_for(10s);
  EXPECT_FALSE(r.process->alive());
  EXPECT_EQ(r.process->incarnation(), 1);
}

TEST_F(ClusterTest, ExitPostsOneRestartForTheIncarnationThatExited) {
  Replica& r = started("m-0");
  c.exit(r, 0);
  c.exit(r, 0);  // the second finds incarnation 1 and does nothing
  c.loop().run_for(1ms);
  EXPECT_EQ(r.process->incarnation(), 1);
  c.exit(r, 0);  // stale
  c.loop().run_for(1ms);
  EXPECT_EQ(r.process->incarnation(), 1);
  EXPECT_EQ(heard.events, (std::vector<std::string>{"restarting m-0 after-exit", "restarted m-0 after-exit"}));
}

TEST_F(ClusterTest, ExitOfACrashedProcessDoesNotBringItBack) {
  Replica& r = started("m-0");
  c.exit(r, 0);
  c.crash(r);
  c.loop().run_for(1s);
  EXPECT_FALSE(r.process->alive());
}

TEST_F(ClusterTest, PausingADeadProcessDoesNothingAndItsNextIncarnationRuns) {
  Replica& r = started("m-0");
  c.crash(r);
  const std::size_t timers = c.loop().pending_timers();
  EXPECT_FALSE(c.pause(r, 1min));
  EXPECT_EQ(c.loop().pending_timers(), timers);
  c.restart(r);
  EXPECT_FALSE(r.process->paused());
  EXPECT_TRUE(c.pause(r, 1s));
  EXPECT_TRUE(r.process->paused());
  c.loop().run_for(1s);
  EXPECT_FALSE(r.process->paused());
}

TEST_F(ClusterTest, PartitionsExtendAndHealOnceAtTheLatestEnd) {
  Replica& r = started("m-0");
  EXPECT_TRUE(c.partition(r, 2s));
  EXPECT_FALSE(c.partition(r, 5s));  // extends
  EXPECT_FALSE(c.partition(r, 5s));  // ends at the same instant
  EXPECT_FALSE(c.partition(r, 0s));  // nothing
  c.loop().run_for(4s);
  EXPECT_TRUE(r.link->partitioned());
  c.loop().run_for(1s);
  EXPECT_FALSE(r.link->partitioned());
  EXPECT_EQ(heard.events, (std::vector<std::string>{"healed m-0"}));
  EXPECT_EQ(r.partitioned_until, sim::Time{} + 1ms + 5s);
}

TEST_F(ClusterTest, ClockAndLatencyActsReachTheProcess) {
  Replica& r = started("m-0");
  c.set_clock_offset(r, 3s);
  c.step_clock(r, 2s);
  EXPECT_EQ(r.process->clock().wall_now() - r.process->clock().now(), 5s);
  c.set_clock_rate(r, 2.0);
  c.set_latency(r, 7ms, 0ms);
  sim::Rng rng(1);
  EXPECT_EQ(r.link->sample_latency(rng), 7ms);
}

// A kind that logs its calls, fails to build when asked, and runs until its process stops.
class LoggedKind final : public ProcessKind {
 public:
  explicit LoggedKind(std::vector<std::string>& log) : log_(&log) {}
  Incarnation& begin(Replica& r) override {
    log_->push_back("begin " + r.name);
    return r.begin_incarnation();
  }
  void build(Replica& r, Incarnation& inc) override {
    log_->push_back("build " + r.name + " #" + std::to_string(inc.number));
    if (fail) throw std::runtime_error("no controllers for " + r.name);
  }
  sim::Task<void> run(Replica* r, Incarnation*, sim::Context ctx) override {
    log_->push_back("run " + r->name);
    sim::Event never(r->process->loop());
    co_await never.wait(ctx);
    log_->push_back("stopped " + r->name);
  }
  bool fail = false;

 private:
  std::vector<std::string>* log_;
};

TEST_F(ClusterTest, AGroupsReplicasRunTheirKindInEachIncarnation) {
  std::vector<std::string> log;
  LoggedKind kind(log);
  const std::vector<Replica*> made = c.add_group("m", 2, 1ms, 0ms, kind);
  ASSERT_EQ(made.size(), 2u);
  EXPECT_EQ(made[1]->name, "m-1");
  ASSERT_NE(c.find_group("m"), nullptr);
  EXPECT_EQ(c.find_group("m")->replicas, made);
  EXPECT_EQ(c.find_group("n"), nullptr);
  for (Replica* r : made) c.start(*r);
  c.loop().run_for(1ms);
  c.restart(*made[0]);
  c.loop().run_for(1ms);
  EXPECT_EQ(log, (std::vector<std::string>{"begin m-0", "build m-0 #0", "run m-0", "begin m-1", "build m-1 #0",
                                           "run m-1", "stopped m-0", "begin m-0", "build m-0 #1", "run m-0"}));
  EXPECT_FALSE(made[0]->incarnations.back()->finished);
  EXPECT_TRUE(c.teardown());  // while the kind still exists
  EXPECT_EQ(log.back(), "stopped m-1");
}

TEST(ClusterGroupTest, ABuildThatFailsFinishesTheIncarnationAndReportsTheFailure) {
  Cluster c;
  std::vector<std::string> log;
  LoggedKind kind(log);
  kind.fail = true;
  std::string failure;
  c.loop().set_failure_handler([&](std::exception_ptr error, const std::string&) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  Replica* r = c.add_group("m", 1, 1ms, 0ms, kind).front();
  c.start(*r);
  c.loop().run_for(1ms);
  EXPECT_EQ(failure, "no controllers for m-0");
  EXPECT_TRUE(r->unwound());
  EXPECT_EQ(log, (std::vector<std::string>{"begin m-0", "build m-0 #0"}));
  EXPECT_TRUE(c.teardown());
}

// An invariant on `locks` (any lock when empty) that logs its checks into `log`.
Invariant logged(std::string name, std::vector<std::string>& log, Dependencies deps) {
  return Invariant{name,
                   [name, &log](const Trigger& t) {
                     log.push_back(name + (t.write != nullptr ? " after a write" : " after a term"));
                   },
                   std::move(deps)};
}

TEST_F(ClusterTest, TermsAreRecordedTracedToldAndCheckedOnTheirLocks) {
  Replica& r = started("m-0");
  const std::size_t lease = c.leadership().add_lock("leases/a/m");
  const std::size_t other = c.leadership().add_lock("leases/a/n");
  std::vector<std::string> log;
  Dependencies on_lease;
  on_lease.leadership = true;
  on_lease.locks = {lease};
  Dependencies on_any;
  on_any.leadership = true;
  c.add_invariant(logged("lease", log, on_lease));
  c.add_invariant(logged("any", log, on_any));
  std::ostringstream sink;
  c.loop().trace().enable(&sink);
  const std::size_t term = c.start_term(r, {lease}, {{"lock", "leases/a/m"}});
  EXPECT_TRUE(c.term_open(term));
  EXPECT_EQ(c.leadership().lock(lease).open.size(), 1u);
  c.end_term(term, {{"lock", "leases/a/m"}});
  c.end_term(term, {{"lock", "leases/a/m"}});  // once only
  EXPECT_FALSE(c.term_open(term));
  c.end_term(c.start_term(r, {other}), {});
  EXPECT_EQ(log, (std::vector<std::string>{"lease after a term", "any after a term", "lease after a term",
                                           "any after a term", "any after a term", "any after a term"}));
  EXPECT_EQ(heard.events, (std::vector<std::string>{"term 0 of m-0 started", "term 0 of m-0 ended",
                                                    "term 1 of m-0 started", "term 1 of m-0 ended"}));
  const std::string trace = sink.str();
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto at = trace.find(what); at != std::string::npos; at = trace.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("\"leader.start\""), 2u);
  EXPECT_EQ(count("\"leader.end\""), 2u);  // one per term
  EXPECT_EQ(count("\"m-0\""), 4u);
}

TEST_F(ClusterTest, InvariantsAreCheckedAfterTheWritesTheyDependOnInTheOrderAdded) {
  std::vector<std::string> log;
  Dependencies maps;
  maps.resources = {api::kConfigMaps.group_resource()};
  Dependencies writes;
  writes.any_write = true;
  c.add_invariant(logged("maps", log, maps));
  c.add_invariant(logged("writes", log, writes));
  c.add_invariant(logged("terms", log, Dependencies{.leadership = true, .locks = {}, .any_write = false, .resources = {}}));
  const auto map = api::Object::from_json({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "a"}}}});
  ASSERT_TRUE(c.server().create(api::kConfigMaps, "default", map.value(), api::CreateOptions()).ok());
  const auto secret = api::Object::from_json({{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "s"}}}});
  ASSERT_TRUE(c.server().create(api::kSecrets, "default", secret.value(), api::CreateOptions()).ok());
  EXPECT_EQ(log, (std::vector<std::string>{"maps after a write", "writes after a write", "writes after a write"}));
  ASSERT_TRUE(c.teardown());
  log.clear();
  const auto late = api::Object::from_json({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "b"}}}});
  ASSERT_TRUE(c.server().create(api::kConfigMaps, "default", late.value(), api::CreateOptions()).ok());
  EXPECT_TRUE(log.empty());  // closing: nothing is checked
}

TEST_F(ClusterTest, TheCallLogHasTheCallsOfItsProcessesButNotTheOperatorsOwn) {
  Replica& r = started("m-0");
  const auto map = api::Object::from_json({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "a"}}}});
  ASSERT_TRUE(c.server().create(api::kConfigMaps, "default", map.value(), api::CreateOptions()).ok());  // the operator's
  fakeapi::InProcessClient client(c.server(), *r.process);
  const auto got = c.loop().run_until_complete(client.get(r.process->context(), api::kConfigMaps, "default", "a"));
  ASSERT_TRUE(got.ok());
  const CallLog log = c.calls();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log.count(Get(api::kConfigMaps).by("m-0").in("default").named("a").ok()), 1u);
  EXPECT_EQ(log.count(Writes(api::kConfigMaps)), 0u);
}

// An invariant on calls hears each call as the recorder logs it, the log already holding it;
// invariants on writes do not hear calls, nor those on calls writes.
TEST_F(ClusterTest, InvariantsOnCallsHearEachLoggedCall) {
  Replica& r = started("m-0");
  std::vector<std::string> heard_calls;
  Dependencies on_calls;
  on_calls.calls = true;
  c.add_invariant(Invariant{"calls", [&](const Trigger& t) {
                              ASSERT_NE(t.call, nullptr);
                              EXPECT_EQ(t.write, nullptr);
                              const CallLog log = c.calls();
                              ASSERT_FALSE(log.empty());
                              EXPECT_EQ(log[log.size() - 1].seq, t.call->seq);
                              heard_calls.push_back(std::string(api::to_string(t.call->verb)) + " " + t.call->name + " " +
                                                    std::to_string(t.call->code));
                            },
                            on_calls});
  int writes = 0;
  Dependencies on_writes;
  on_writes.any_write = true;
  c.add_invariant(Invariant{"writes", [&](const Trigger& t) {
                              EXPECT_EQ(t.call, nullptr);
                              ++writes;
                            },
                            on_writes});
  const auto map = api::Object::from_json({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "a"}}}});
  ASSERT_TRUE(c.server().create(api::kConfigMaps, "default", map.value(), api::CreateOptions()).ok());  // the operator's
  EXPECT_TRUE(heard_calls.empty());
  fakeapi::InProcessClient client(c.server(), *r.process);
  ASSERT_TRUE(c.loop().run_until_complete(client.get(r.process->context(), api::kConfigMaps, "default", "a")).ok());
  ASSERT_FALSE(c.loop().run_until_complete(client.get(r.process->context(), api::kConfigMaps, "default", "b")).ok());
  ASSERT_TRUE(c.loop().run_until_complete(client.delete_(r.process->context(), api::kConfigMaps, "default", "a")).ok());
  EXPECT_EQ(heard_calls, (std::vector<std::string>{"get a 200", "get b 404", "delete a 200"}));
  EXPECT_EQ(writes, 2);  // the operator's create and the client's delete
}

TEST(ClusterTeardownTest, CrashesEveryProcessHealsEveryLinkAndNothingScheduledActsAfter) {
  Cluster c;
  Replica& a = c.add_replica("a-0", 1ms, 0ms);
  Replica* p = &a;
  a.process->start([p](sim::Context ctx) { return idle_main(p, std::move(ctx)); });
  c.loop().run_for(1ms);
  c.crash(a, 1s);
  c.restart(a);
  c.partition(a, 1min);
  std::ostringstream sink;
  c.loop().trace().enable(&sink);
  ASSERT_TRUE(c.teardown());
  EXPECT_TRUE(c.closing());
  EXPECT_FALSE(a.process->alive());
  EXPECT_FALSE(a.link->partitioned());
  EXPECT_FALSE(c.loop().trace().enabled());
  c.loop().run_for(2min);  // the restart and heal timers find the cluster closing
  EXPECT_FALSE(a.process->alive());
  EXPECT_TRUE(sink.str().empty());
}

TEST(ClusterTeardownTest, SaysWhenSomethingNeverUnwinds) {
  Cluster c;
  Replica& a = c.add_replica("a-0", 1ms, 0ms);
  a.begin_incarnation();  // never finished
  EXPECT_FALSE(c.teardown(TeardownOptions{3, 10ms}));
  EXPECT_FALSE(c.unwound());
  EXPECT_EQ(c.loop().now(), sim::Time{} + 30ms);  // three slices, no more
  a.incarnations.back()->finished = true;
  EXPECT_TRUE(c.unwound());
}

TEST(ClusterTeardownTest, WaitsForTheCallersOwnWorkToo) {
  Cluster c;
  int asked = 0;
  EXPECT_FALSE(c.teardown(TeardownOptions{2, 10ms}, [&] { return ++asked > 5; }));
  EXPECT_EQ(asked, 3);  // before each slice, and once at the end
  EXPECT_TRUE(c.teardown(TeardownOptions{2, 10ms}, [&] { return true; }));
}

}  // namespace
}  // namespace kubesim::cluster
