// SimCluster: construction, teardown, time, the always() checks and failure messages. Objects
// are in cluster_objects.cc, processes and leadership in cluster_processes.cc.
#include "kubesim/testing/cluster.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <utility>

#include <gtest/gtest.h>

#include "internal/cluster_impl.h"
#include "kubesim/testing/seeded_test.h"

namespace kubesim::testing {

namespace {

// The trace file of a seeded test under KUBESIM_SEED, its directory (KUBESIM_TRACE_DIR) made when
// missing; a clear error naming the path and the reason when neither can be.
std::unique_ptr<std::ofstream> open_trace_file(const std::string& path) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) {
    throw std::runtime_error("SimCluster: cannot write the trace to \"" + path + "\": cannot make the directory \"" +
                             dir.string() + "\" (KUBESIM_TRACE_DIR): " + ec.message());
  }
  errno = 0;
  auto file = std::make_unique<std::ofstream>(path);
  if (!*file) {
    throw std::runtime_error("SimCluster: cannot write the trace to \"" + path +
                             "\": " + (errno != 0 ? std::strerror(errno) : "it cannot be opened"));
  }
  return file;
}

constexpr sim::Duration kCheckEvery = std::chrono::milliseconds(100);
// Teardown lets the loop run at most this long for every coroutine to unwind.
constexpr int kTeardownSlices = 3000;
constexpr sim::Duration kTeardownSlice = std::chrono::milliseconds(100);

sim::LoopOptions loop_options(const ClusterOptions& options) {
  sim::LoopOptions o;
  o.seed = options.seed();
  o.shuffle = options.shuffle();
  return o;
}

cluster::Options cluster_options(const ClusterOptions& options) {
  return cluster::Options{loop_options(options), options.server()};
}

// The failure of a detached task, its message prefixed with the task's name.
std::exception_ptr named_failure(std::exception_ptr error, const std::string& task) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return std::make_exception_ptr(std::runtime_error(task.empty() ? e.what() : task + ": " + e.what()));
  } catch (...) {
    return error;
  }
}

}  // namespace

// --- Impl ----------------------------------------------------------------------------------------

SimCluster::Impl::Impl(SimCluster* self_, ClusterOptions options_)
    : self(self_),
      options(std::move(options_)),
      tail(options.failure_tail()),
      cluster(cluster_options(options)),
      loop(cluster.loop()),
      server(cluster.server()),
      fault_plan(server) {
  cluster.set_observer(this);
  fault_plan.track_components();
  tail.add_sink(options.trace_sink());
  if (SeededTest* test = SeededTest::current()) {
    const std::string path = test->trace_path();
    if (!path.empty()) {
      trace_file = open_trace_file(path);
      tail.add_sink(trace_file.get());
    }
  }
  loop.set_failure_handler([this](std::exception_ptr error, const std::string& task) {
    if (!failure && !closing()) failure = named_failure(error, task);
  });
  loop.trace().enable(tail.stream());
  cluster::Dependencies everything;
  everything.leadership = true;  // on any lock
  everything.any_write = true;
  cluster.add_invariant(cluster::Invariant{"SimCluster", [this](const cluster::Trigger&) { changed(); }, everything});
  trace("cluster", "cluster.start", {{"seed", std::as_const(options).seed()}, {"shuffle", std::as_const(options).shuffle()}});
}

SimCluster::Impl::~Impl() {
  if (!closing()) teardown();
  // The clients' watch deliveries end when the loop next runs them: let them, while the server
  // they read still exists.
  cluster.destroy_replicas(std::chrono::seconds(1));
}

void SimCluster::Impl::teardown() {
  // Failures now are of no interest: the test is over.
  cluster.teardown(cluster::TeardownOptions{kTeardownSlices, kTeardownSlice});
  failure = nullptr;
}

void SimCluster::Impl::trace(std::string_view process, std::string_view kind, const nlohmann::json& fields) {
  cluster.trace(process, kind, fields);
}

void SimCluster::Impl::rethrow_failure() {
  if (failure) std::rethrow_exception(std::exchange(failure, nullptr));
}

void SimCluster::Impl::changed() {
  dirty = true;
  run_checks();
}

void SimCluster::Impl::follow_calls() {
  if (following_calls) return;
  following_calls = true;
  cluster::Dependencies calls;
  calls.calls = true;
  cluster.add_invariant(cluster::Invariant{"SimCluster calls", [this](const cluster::Trigger&) {
                                             calls_dirty = true;
                                             run_checks(/*calls_only=*/true);
                                           },
                                           calls});
}

void SimCluster::Impl::add_check(ClusterCheck check) {
  if (check.condition.reads_calls) follow_calls();
  const std::optional<std::string> never = check.condition.unjudgeable ? check.condition.unjudgeable(*self) : std::nullopt;
  if (!never) {
    checks.push_back(std::move(check));
    run_checks();
    return;
  }
  // Checked from now on it would hold (or break) by reading nothing: it breaks now, naming why.
  const std::string why = "it can never be judged: " + *never;
  violations.push_back(Violation{check.name, why, loop.now(), self->failure_context()});
  trace("cluster", "check.broken", {{"check", check.name}, {"why", why}});
  if (!check.fail_test) return;
  ADD_FAILURE_AT(check.where.file_name(), static_cast<int>(check.where.line()))
      << "always(\"" << check.name << "\"): " << why << "\n" << violations.back().context;
}

void SimCluster::Impl::report_vacuous() {
  for (const ClusterCheck& check : checks) {
    if (check.seen || !check.condition.present || check.violation != 0) continue;
    const std::string why = "it held vacuously: nothing it is about (" + check.condition.description +
                            ") existed while the cluster ran";
    trace("cluster", "check.vacuous", {{"check", check.name}, {"why", why}});
    if (!options.strict() || !check.fail_test) continue;
    ADD_FAILURE_AT(check.where.file_name(), static_cast<int>(check.where.line()))
        << "always(\"" << check.name << "\"): " << why
        << " (ClusterOptions().strict(false) lets it pass)\n" << self->failure_context();
  }
}

void SimCluster::Impl::run_checks(bool calls_only) {
  if (checking) return;
  checking = true;
  for (ClusterCheck& check : checks) {
    if (calls_only && !check.condition.reads_calls) continue;
    if (!check.seen && check.condition.present) check.seen = check.condition.present(*self);
    std::optional<std::string> why = check.condition.check(*self);
    if (!why) continue;
    if (check.violation != 0) {
      ++violations[check.violation - 1].checks_failed;
      continue;
    }
    violations.push_back(Violation{check.name, *why, loop.now(), self->failure_context()});
    check.violation = violations.size();
    trace("cluster", "check.broken", {{"check", check.name}, {"why", *why}});
    if (!check.fail_test) continue;
    ADD_FAILURE_AT(check.where.file_name(), static_cast<int>(check.where.line()))
        << "always(\"" << check.name << "\") broke: " << *why << "\n" << violations.back().context;
  }
  checking = false;
}

SimCluster::Impl::Outcome SimCluster::Impl::drive(const Condition& condition, sim::Duration d,
                                                 bool stop_when_holds) {
  const sim::Time deadline = loop.now() + d;
  Outcome out;
  const auto check = [&] {
    out.why = condition.check(*self);
    out.stopped = !out.why.has_value() == stop_when_holds;
    return out.stopped;
  };
  if (condition.reads_calls) follow_calls();
  if (check()) return out;
  // Timers at every tick and at the deadline, so that no step jumps past one.
  sim::Time tick = loop.now() + kCheckEvery;
  sim::TimerId tick_timer = loop.add_timer(std::min(tick, deadline), [] {});
  const sim::TimerId deadline_timer = loop.add_timer(deadline, [] {});
  dirty = false;
  calls_dirty = false;
  while (loop.now() < deadline) {
    const bool stepped = loop.step();
    rethrow_failure();
    if (!stepped) break;
    const bool due = loop.now() >= tick;
    if (due) {
      tick = loop.now() + kCheckEvery;
      tick_timer = loop.add_timer(std::min(tick, deadline), [] {});
    }
    const bool called = condition.reads_calls && calls_dirty;
    if (!dirty && !due && !called) continue;
    dirty = false;
    calls_dirty = false;
    if (check()) break;
  }
  loop.cancel_timer(tick_timer);
  loop.cancel_timer(deadline_timer);
  if (out.stopped) return out;
  // The rest of the work due at the deadline, then the last check.
  loop.run_until(deadline);
  rethrow_failure();
  check();
  return out;
}

// --- ClusterOptions ------------------------------------------------------------------------------

ClusterOptions& ClusterOptions::crd(const nlohmann::json& crd) {
  crds_.push_back(crd.dump());
  return *this;
}

// --- SimCluster ----------------------------------------------------------------------------------

SimCluster::SimCluster(ClusterOptions options) : impl_(std::make_unique<Impl>(this, std::move(options))) {
  for (const std::string& path : impl_->options.crd_files()) crd_file(path);
  const auto& crds = impl_->options.crds();
  for (std::size_t i = 0; i < crds.size(); ++i) {
    impl_->apply_one(nlohmann::json::parse(crds[i]), "ClusterOptions::crd [" + std::to_string(i) + "]");
  }
}

SimCluster::~SimCluster() {
  impl_->report_vacuous();
  if (SeededTest* test = SeededTest::current()) test->report_hash(trace_hash());
  impl_->teardown();
}

std::uint64_t SimCluster::seed() const { return impl_->options.seed(); }
sim::Loop& SimCluster::loop() { return impl_->loop; }
cluster::Cluster& SimCluster::cluster() { return impl_->cluster; }
const cluster::Cluster& SimCluster::cluster() const { return impl_->cluster; }
fakeapi::ApiServer& SimCluster::server() { return impl_->server; }
const fakeapi::ApiServer& SimCluster::server() const { return impl_->server; }
sim::Time SimCluster::now() const { return impl_->loop.now(); }
std::string SimCluster::trace_hash() const { return impl_->loop.trace().hash_hex(); }

void SimCluster::run_for(sim::Duration d) {
  impl_->rethrow_failure();
  impl_->loop.run_for(d);
  impl_->rethrow_failure();
}

bool SimCluster::run_until(const Condition& condition, sim::Duration within) {
  return impl_->drive(condition, within, /*stop_when_holds=*/true).stopped;
}

void SimCluster::always(std::string name, Condition condition, std::source_location where) {
  impl_->add_check(ClusterCheck{std::move(name), std::move(condition), 0, /*fail_test=*/true, where});
}

void SimCluster::always(Condition condition, std::source_location where) {
  std::string name = condition.description;
  always(std::move(name), std::move(condition), where);
}

void SimCluster::record_always(std::string name, Condition condition) {
  impl_->add_check(ClusterCheck{std::move(name), std::move(condition), 0, /*fail_test=*/false});
}

const std::vector<Violation>& SimCluster::violations() const { return impl_->violations; }

FaultPlan& SimCluster::faults() { return impl_->fault_plan; }

CallLog SimCluster::calls() const { return impl_->cluster.calls(); }

bool SimCluster::strict() const { return impl_->options.strict(); }

std::string SimCluster::failure_context() const {
  const std::size_t n = impl_->options.failure_tail();
  std::string out = "seed " + std::to_string(seed()) + ", t=" + cluster::format_instant(now());
  const std::vector<std::string> lines = impl_->tail.lines();
  out += "\nlast " + std::to_string(lines.size()) + " trace events:";
  for (const std::string& line : lines) out += "\n  " + line;
  const CallLog log = calls();
  const std::size_t shown = std::min(n, log.size());
  out += "\nlast " + std::to_string(shown) + " calls:";
  if (shown > 0) out += "\n" + log.format(n);
  // The request whose write set this off is logged only once its answer leaves the server.
  if (const fakeapi::Request* r = impl_->cluster.server().answering(); r != nullptr && !r->process.empty()) {
    std::string what = r->process + " " + std::string(api::to_string(r->verb)) + " " +
                       r->resource.group_resource().to_string();
    if (r->subresource != fakeapi::Subresource::kNone) what += "/" + std::string(api::to_string(r->subresource));
    const std::string name = !r->name.empty() || r->object == nullptr ? r->name : std::string(r->object->name());
    if (!name.empty()) what += " " + (r->ns.empty() ? name : r->ns + "/" + name);
    out += "\nbeing answered: " + what + ", received at " + cluster::format_instant(r->received);
  }
  if (!impl_->fault_plan.fired().empty()) {
    const std::string report = impl_->fault_plan.report();
    out += "\n" + report.substr(0, report.size() - 1);  // without its last newline
  }
  return out;
}

void PrintTo(const SimCluster& c, std::ostream* os) {
  *os << "SimCluster(seed " << c.seed() << ", t=" << cluster::format_instant(c.now()) << ")";
}

}  // namespace kubesim::testing
