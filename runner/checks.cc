#include "kubesim/runner/checks.h"

#include <algorithm>
#include <optional>

#include "kubesim/api/go_duration.h"
#include "kubesim/runner/world.h"

namespace kubesim::runner {

Checker::Checker(World& world) : world_(&world) {
  for (const scenarios::Check& check : world.scenario.checks) {
    Run run;
    run.check = &check;
    run.deps = dependencies_of(world, check.condition);
    const sim::Time start = sim::Time{} + check.after;
    switch (check.kind) {
      case scenarios::CheckKind::kAlways:
        run.from = sim::Time{};
        run.to = world.end;
        break;
      case scenarios::CheckKind::kEventually:
        run.from = start;
        run.to = start + check.within;
        break;
      case scenarios::CheckKind::kConsistently:
        run.from = start;
        run.to = start + check.length;
        break;
      case scenarios::CheckKind::kFinally:
        run.from = run.to = world.end;
        break;
    }
    run.subject = subject_of(world, check.condition);
    if (const auto* calls = std::get_if<scenarios::CallBudget>(&check.condition)) run.budget = call_budget(*calls);
    const std::size_t i = runs_.size();
    runs_.push_back(std::move(run));
    // A finally's budget too takes every call as it is logged (the log keeps only the last ones).
    if (check.kind == scenarios::CheckKind::kFinally && !runs_[i].budget) continue;
    world.cluster.add_invariant(cluster::Invariant{
        check.text, [this, i](const cluster::Trigger& trigger) { on_trigger(i, trigger); }, runs_[i].deps});
  }
}

void Checker::begin() {
  if (std::any_of(runs_.begin(), runs_.end(), [](const Run& r) { return !r.subject.objects.empty(); })) {
    world_->server.add_write_listener([this](const fakeapi::CommittedWrite& write) { on_write(write); });
  }
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    Run& run = runs_[i];
    // An always and a finally are about the whole run.
    if (run.check->kind == scenarios::CheckKind::kAlways || run.check->kind == scenarios::CheckKind::kFinally) look(run);
    if (run.check->kind == scenarios::CheckKind::kAlways) {
      run.open = true;
      evaluate(i);
    } else if (run.check->kind != scenarios::CheckKind::kFinally && run.from <= world_->end) {
      world_->loop.add_timer(run.from, [this, i] { open_window(i); });
    }
  }
}

void Checker::look(Run& run) {
  if (!run.saw && !run.subject.objects.empty()) run.saw = objects_present(*world_, run.subject);
}

void Checker::on_write(const fakeapi::CommittedWrite& write) {
  for (Run& run : runs_) {
    if (run.saw || run.subject.objects.empty()) continue;
    const bool watching = run.open || (run.check->kind == scenarios::CheckKind::kFinally && !run.done);
    if (watching && objects_written(run.subject, write)) run.saw = true;
  }
}

std::string Checker::vacuity(const Run& run, sim::Time now) {
  if (run.broke || run.subject.empty()) return {};
  if (run.check->kind == scenarios::CheckKind::kEventually) return run.vacuous_why;
  // A finally is about the whole run.
  const sim::Time from = run.check->kind == scenarios::CheckKind::kFinally ? sim::Time{} : run.from;
  const sim::Time to = std::min(run.to, now);
  if (run.saw || lock_led(*world_, run.subject, from, to)) return {};
  return run.subject.absence() + " existed during [" + api::format_go_time(from) + ", " + api::format_go_time(to) + "]";
}

void Checker::open_window(std::size_t i) {
  if (world_->closing()) return;
  Run& run = runs_[i];
  run.open = true;
  look(run);
  evaluate(i);
  if (run.to <= world_->end) world_->loop.add_timer(run.to, [this, i] { close_window(i); });
  const sim::Time next = world_->loop.now() + kProbeInterval;
  if (live(run) && next < run.to) world_->loop.add_timer(next, [this, i] { probe(i); });
}

void Checker::probe(std::size_t i) {
  if (world_->closing() || !live(runs_[i])) return;
  evaluate(i);
  const sim::Time next = world_->loop.now() + kProbeInterval;
  if (live(runs_[i]) && next < runs_[i].to) world_->loop.add_timer(next, [this, i] { probe(i); });
}

void Checker::close_window(std::size_t i) {
  if (world_->closing()) return;
  Run& run = runs_[i];
  if (live(run)) evaluate(i);  // the window's last instant counts
  if (live(run) && run.check->kind == scenarios::CheckKind::kEventually) {
    fail(run, "did not hold at any instant of [" + api::format_go_time(run.from) + ", " + api::format_go_time(run.to) + "]; at the end:\n" + run.last_detail,
         world_->loop.now());
  }
  run.done = true;
  run.open = false;
}

namespace {

// The fact a failure after a write ends with: which write it was, as its trace line names it
// (the line itself follows the break in the trace).
std::string describe_write(const fakeapi::CommittedWrite& write) {
  const char* done = write.type == fakeapi::ChangeType::kAdded      ? "created"
                     : write.type == fakeapi::ChangeType::kModified ? "updated"
                                                                    : "deleted";
  const std::string ns(write.object->namespace_());
  return "right after revision " + std::to_string(write.revision) + ": " + write.resource->resource +
         " " + (ns.empty() ? "" : ns + "/") + std::string(write.object->name()) + " " + done;
}

}  // namespace

void Checker::evaluate(std::size_t i) { evaluate(i, nullptr); }

std::optional<std::string> Checker::judge(Run& run, const fakeapi::CommittedWrite* write) {
  if (run.budget) return run.budget->why();
  return evaluate_condition(*world_, run.check->condition, write);
}

void Checker::evaluate(std::size_t i, const fakeapi::CommittedWrite* write) {
  Run& run = runs_[i];
  switch (run.check->kind) {
    case scenarios::CheckKind::kAlways:
    case scenarios::CheckKind::kConsistently: {
      // Every earlier evaluation held, so a write may be judged alone (see evaluate_condition).
      auto broken = judge(run, write);
      if (broken) {
        if (write != nullptr) *broken += "\n" + describe_write(*write);
        fail(run, std::move(*broken), world_->loop.now());
        run.done = true;
      }
      return;
    }
    case scenarios::CheckKind::kEventually: {
      auto broken = judge(run, nullptr);
      const bool first = run.evaluations++ == 0;
      if (!broken) {
        run.done = true;
        world_->trace("checks", "check.held", {{"check", run.check->text}});
        const sim::Time now = world_->loop.now();
        if (first && !run.subject.empty() && !objects_present(*world_, run.subject) &&
            !lock_led(*world_, run.subject, now, now) && !(run.budget && run.budget->active())) {
          run.vacuous_why = "it held at once, at " + api::format_go_time(now) + ", with " + run.subject.absence() + " in existence";
        }
      } else {
        run.last_detail = std::move(*broken);
      }
      return;
    }
    case scenarios::CheckKind::kFinally: {
      auto broken = judge(run, nullptr);
      if (broken) fail(run, std::move(*broken), world_->loop.now());
      run.done = true;
      return;
    }
  }
}

bool Checker::informers_lag_cached(const fakeapi::CommittedWrite& write) {
  if (!lag_ || lag_->first != write.revision) lag_ = std::make_pair(write.revision, informers_lag(*world_, write));
  return lag_->second;
}

void Checker::on_call(Run& run, const fakeapi::RecordedCall& call) {
  run.budget->add(call);
  if (run.saw || !run.subject.calls) return;
  // An always and a finally are about the whole run.
  const bool whole_run = run.check->kind == scenarios::CheckKind::kAlways || run.check->kind == scenarios::CheckKind::kFinally;
  if ((whole_run || run.open) && run.subject.calls->matches(call)) run.saw = true;
}

void Checker::on_trigger(std::size_t i, const cluster::Trigger& trigger) {
  Run& run = runs_[i];
  if (trigger.call != nullptr) {
    on_call(run, *trigger.call);
    if (live(run)) evaluate(i);  // never a finally's: it is judged at the end
    return;
  }
  if (!live(run)) return;
  if (trigger.write == nullptr) {
    evaluate(i);  // a term started or ended on one of its locks
    return;
  }
  // An eventually informersConverged cannot hold while an informer still lacks this write;
  // skipping it saves a comparison of every cache with the server.
  if (run.check->kind == scenarios::CheckKind::kEventually && std::holds_alternative<scenarios::InformersConverged>(run.check->condition) &&
      informers_lag_cached(*trigger.write)) {
    return;
  }
  evaluate(i, trigger.write);
}

void Checker::on_event() {
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    if (live(runs_[i])) evaluate(i);
  }
}

void Checker::finish() {
  const sim::Time now = world_->loop.now();
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    Run& run = runs_[i];
    if (run.done) continue;
    switch (run.check->kind) {
      case scenarios::CheckKind::kAlways:
        break;
      case scenarios::CheckKind::kEventually:
        if (run.open) evaluate(i);
        if (!run.done) {
          fail(run,
               run.open ? "did not hold at any instant of [" + api::format_go_time(run.from) + ", " + api::format_go_time(now) +
                              "] before the run ended; at the end:\n" + run.last_detail
                        : "its window [" + api::format_go_time(run.from) + ", " + api::format_go_time(run.to) + "] starts after the run ends at " + api::format_go_time(now),
               now);
        }
        break;
      case scenarios::CheckKind::kConsistently:
        if (run.open) evaluate(i);
        break;
      case scenarios::CheckKind::kFinally:
        evaluate(i);
        break;
    }
    run.done = true;
    run.open = false;
  }
  for (Run& run : runs_) {
    std::string why = vacuity(run, now);
    if (why.empty()) continue;
    const scenarios::Check& check = *run.check;
    if (world_->options.strict) {
      record(Failure{check.text, "vacuous", check.mark, now, "the check held vacuously: " + why}, "apiserver");
    } else {
      world_->trace("checks", "check.vacuous", {{"check", check.text}, {"why", why}});
      vacuous_.push_back(Vacuous{check.text, condition_name(check.condition), check.mark, std::move(why)});
    }
  }
}

void Checker::fail(Run& run, std::string detail, sim::Time when) {
  run.broke = true;
  const scenarios::Check& check = *run.check;
  const std::string lock = lock_of(check.condition);
  const bool lane = !lock.empty() && world_->leadership.find(lock).has_value();
  record(Failure{check.text, condition_name(check.condition), check.mark, when, std::move(detail)},
         lane ? "lock " + lock : "apiserver");
}

void Checker::fail(Failure failure) { record(std::move(failure), "apiserver"); }

void Checker::record(Failure failure, const std::string& lane) {
  if (failures_.empty() && first_failure_) first_failure_();
  world_->trace("checks", "check.break",
                {{"check", failure.check}, {"at", api::format_go_time(failure.at)}, {"detail", failure.detail}});
  world_->picture.mark(lane, "failure", failure.check, failure.at);
  failures_.push_back(std::move(failure));
}

}  // namespace kubesim::runner
