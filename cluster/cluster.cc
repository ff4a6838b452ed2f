#include "kubesim/cluster/cluster.h"

#include <algorithm>

namespace kubesim::cluster {

bool Replica::unwound() const {
  return std::all_of(incarnations.begin(), incarnations.end(),
                     [](const std::unique_ptr<Incarnation>& inc) { return inc->finished; });
}

Cluster::Cluster(Options options) : loop_(options.loop), server_(loop_, std::move(options.server)) {}

Cluster::~Cluster() = default;

void Cluster::trace(std::string_view process, std::string_view kind, const nlohmann::json& fields) {
  if (loop_.trace().enabled()) loop_.trace().record(loop_.now(), process, kind, fields);
}

void Cluster::adopt(Replica* replica, std::string name, sim::Duration base, sim::Duration extra) {
  std::unique_ptr<Replica> r(replica);
  r->index = replicas_.size();
  r->name = std::move(name);
  r->process = std::make_unique<sim::Process>(loop_, r->name);
  r->link = std::make_shared<sim::NetworkLink>(loop_, base, extra);
  r->process->set_link(r->link);
  replicas_.push_back(std::move(r));
}

Replica* Cluster::find(std::string_view name) const {
  for (const auto& r : replicas_) {
    if (r->name == name) return r.get();
  }
  return nullptr;
}

const Group* Cluster::find_group(std::string_view name) const {
  for (const Group& g : groups_) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

void Cluster::start(Replica& r) {
  Replica* replica = &r;
  r.process->start([this, replica](sim::Context ctx) { return replica_main(this, replica, std::move(ctx)); });
}

sim::Task<void> Cluster::replica_main(Cluster* cluster, Replica* r, sim::Context ctx) {
  if (ctx.done() || cluster->closing_) co_return;
  Incarnation* inc = &r->kind->begin(*r);
  cluster->trace(r->name, "replica.start", {{"incarnation", inc->number}});
  std::exception_ptr error;
  try {
    r->kind->build(*r, *inc);
  } catch (...) {
    error = std::current_exception();
  }
  if (error) {
    inc->finished = true;  // nothing was started
    std::rethrow_exception(error);
  }
  try {
    co_await r->kind->run(r, inc, ctx);
  } catch (...) {
    error = std::current_exception();
  }
  inc->finished = true;
  if (error) std::rethrow_exception(error);
}

// --- faults ----------------------------------------------------------------------------------------

void Cluster::restart_now(Replica& r, Restart cause) {
  if (observer_ != nullptr) observer_->restarting(r, cause);
  r.process->restart();
  if (observer_ != nullptr) observer_->restarted(r, cause);
}

void Cluster::crash(Replica& r, std::optional<sim::Duration> restart_after, Restart cause) {
  r.process->crash();
  if (observer_ != nullptr) observer_->crashed(r);
  if (!restart_after) return;
  Replica* replica = &r;
  const int incarnation = r.process->incarnation();
  loop_.add_timer(loop_.now() + *restart_after, [this, replica, incarnation, cause] {
    if (closing_ || replica->process->alive() || replica->process->incarnation() != incarnation) return;
    restart_now(*replica, cause);
  });
}

void Cluster::restart(Replica& r) { restart_now(r, Restart::kByCall); }

void Cluster::exit(Replica& r, int incarnation) {
  Replica* replica = &r;
  loop_.post([this, replica, incarnation] {
    if (closing_ || !replica->process->alive() || replica->process->incarnation() != incarnation) return;
    restart_now(*replica, Restart::kAfterExit);
  });
}

bool Cluster::partition(Replica& r, sim::Duration d) {
  if (d <= sim::Duration::zero()) return false;
  r.partitioned_until = std::max(r.partitioned_until, loop_.now() + d);
  const bool fresh = !r.link->partitioned();
  r.link->partition();
  Replica* replica = &r;
  loop_.add_timer(loop_.now() + d, [this, replica] {
    // A later partition extended it, or another ending at this instant healed it already.
    if (closing_ || loop_.now() < replica->partitioned_until || !replica->link->partitioned()) return;
    replica->link->heal();
    if (observer_ != nullptr) observer_->healed(*replica);
  });
  return fresh;
}

bool Cluster::pause(Replica& r, sim::Duration d) {
  if (!r.process->alive()) return false;
  r.process->pause(d);
  return true;
}

void Cluster::step_clock(Replica& r, sim::Duration by) { r.process->clock().step(by); }
void Cluster::set_clock_offset(Replica& r, sim::Duration offset) { r.process->clock().set_offset(offset); }
void Cluster::set_clock_rate(Replica& r, double rate) { r.process->clock().set_rate(rate); }
void Cluster::set_latency(Replica& r, sim::Duration base, sim::Duration extra) { r.link->set_latency(base, extra); }

// --- leadership and invariants ----------------------------------------------------------------------

std::size_t Cluster::start_term(Replica& r, const std::vector<std::size_t>& locks, const nlohmann::json& fields) {
  const std::size_t term = leadership_.start(locks, r.index, r.name, loop_.now());
  term_replicas_.push_back(&r);
  term_ended_.push_back(false);
  trace(r.name, "leader.start", fields);
  if (observer_ != nullptr) observer_->term_started(r, term);
  if (!closing_) check_locks(locks);
  return term;
}

void Cluster::end_term(std::size_t term, const nlohmann::json& fields) {
  if (term_ended_.at(term)) return;
  term_ended_[term] = true;
  leadership_.end(term, loop_.now());
  Replica& r = *term_replicas_[term];
  trace(r.name, "leader.end", fields);
  if (observer_ != nullptr) observer_->term_ended(r, term);
  if (!closing_) check_locks(leadership_.locks_of(term));
}

bool Cluster::term_open(std::size_t term) const { return term < term_ended_.size() && !term_ended_[term]; }

void Cluster::add_invariant(Invariant invariant) {
  const bool on_calls = invariant.dependencies.calls;
  invariants_.push_back(std::move(invariant));
  // The recorder tells of calls only to clusters that check some: hearing of one costs a copy.
  if (on_calls && !listening_calls_) {
    listening_calls_ = true;
    server_.recorder().add_listener([this](const fakeapi::RecordedCall& call) {
      if (!closing_) check_call(call);
    });
  }
  if (listening_) return;
  listening_ = true;
  server_.add_write_listener([this](const fakeapi::CommittedWrite& write) {
    if (!closing_) check_write(write);
  });
}

void Cluster::check_call(const fakeapi::RecordedCall& call) {
  const Trigger trigger{nullptr, nullptr, &call};
  for (const Invariant& invariant : invariants_) {
    if (invariant.dependencies.calls) invariant.check(trigger);
  }
}

void Cluster::check_write(const fakeapi::CommittedWrite& write) {
  if (write.resource == nullptr) return;
  const Trigger trigger{&write, nullptr};
  for (const Invariant& invariant : invariants_) {
    if (invariant.dependencies.depends_on(*write.resource)) invariant.check(trigger);
  }
}

void Cluster::check_locks(const std::vector<std::size_t>& locks) {
  const Trigger trigger{nullptr, &locks};
  for (const Invariant& invariant : invariants_) {
    if (invariant.dependencies.depends_on_locks(locks)) invariant.check(trigger);
  }
}

// --- the end ---------------------------------------------------------------------------------------

bool Cluster::unwound() const {
  return std::all_of(replicas_.begin(), replicas_.end(), [](const auto& r) { return r->unwound(); });
}

bool Cluster::teardown(TeardownOptions options, const std::function<bool()>& also_unwound) {
  closing_ = true;
  loop_.trace().disable();
  for (auto& r : replicas_) {
    r->process->crash();
    if (observer_ != nullptr) observer_->crashed(*r);
    if (r->link->partitioned()) r->link->heal();
  }
  const auto done = [&] { return unwound() && (!also_unwound || also_unwound()); };
  for (int i = 0; i < options.slices && !done(); ++i) {
    try {
      loop_.run_for(options.slice);
    } catch (...) {
      // The run is over: what fails while it unwinds is of no interest.
    }
  }
  return done();
}

void Cluster::destroy_replicas(sim::Duration settle) {
  replicas_.clear();
  if (settle <= sim::Duration::zero()) return;
  try {
    loop_.run_for(settle);
  } catch (...) {
  }
}

}  // namespace kubesim::cluster
