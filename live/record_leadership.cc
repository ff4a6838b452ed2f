#include "live/internal/record_leadership.h"

#include <utility>

#include "kubesim/api/resources.h"
#include "kubesim/election/record.h"
#include "kubesim/runner/checks.h"
#include "kubesim/runner/world.h"

namespace kubesim::live {

std::optional<RecordView> read_record(const std::string& lock_kind, const api::Object& object,
                                      std::int64_t epoch_unix_seconds) {
  (void)epoch_unix_seconds;  // the record's times are not read
  if (lock_kind == "leases") {
    const nlohmann::json holder = object.value_at("spec.holderIdentity");
    const nlohmann::json seconds = object.value_at("spec.leaseDurationSeconds");
    RecordView view;
    view.holder = holder.is_string() ? holder.get<std::string>() : "";
    view.lease = std::chrono::seconds(seconds.is_number_integer() ? seconds.get<std::int64_t>() : 0);
    return view;
  }
  // Whoever wrote it: client-go, or Python's client (every value a string, its own time format).
  const auto raw = object.annotation(election::kLeaderElectionRecordAnnotationKey);
  if (!raw) return std::nullopt;
  const auto record = election::holder_of_raw(*raw);
  if (!record) return std::nullopt;
  return RecordView{record->holder, record->lease};
}

RecordLeadership::RecordLeadership(runner::World& world) : world_(&world) {
  for (const auto& r : world.replicas) {
    if (!r->spec->exec || !r->spec->exec->lock) continue;
    const scenarios::LockRef& ref = *r->spec->exec->lock;
    const std::size_t id = *world.leadership.find(ref.text());
    Lock* lock = nullptr;
    for (auto& l : locks_) {
      if (l.id == id) lock = &l;
    }
    if (lock == nullptr) {
      locks_.push_back(Lock{id, ref, {}, std::nullopt, 0, {}});
      lock = &locks_.back();
    }
    lock->candidates.push_back(r->index);
  }
}

void RecordLeadership::start_term(Lock& lock, std::size_t replica) {
  runner::World& w = *world_;
  lock.holder = replica;
  lock.term = w.cluster.start_term(*w.replicas[replica], {lock.id}, {{"lock", lock.ref.text()}, {"from", "record"}});
}

void RecordLeadership::end_term(Lock& lock) {
  if (!lock.term) return;
  runner::World& w = *world_;
  w.cluster.end_term(*std::exchange(lock.term, std::nullopt), {{"lock", lock.ref.text()}, {"from", "record"}});
}

void RecordLeadership::on_write(const fakeapi::CommittedWrite& write) {
  if (write.resource == nullptr || !write.object) return;
  for (Lock& lock : locks_) {
    const std::string group = lock.ref.kind == api::kLeases.resource ? api::kLeases.group : "";
    if (write.resource->resource != lock.ref.kind || write.resource->group != group) continue;
    if (write.object->namespace_() != lock.ref.ns || write.object->name() != lock.ref.name) continue;
    std::optional<RecordView> view;
    if (write.type != fakeapi::ChangeType::kDeleted) {
      view = read_record(lock.ref.kind, *write.object, world_->loop.options().epoch_unix_seconds);
    }
    std::optional<std::size_t> holder;
    for (std::size_t c : lock.candidates) {
      if (view && view->holder == world_->replicas[c]->name && world_->replicas[c]->process->alive()) holder = c;
    }
    if (lock.term && (!holder || *holder != lock.holder)) end_term(lock);
    if (holder && !lock.term) start_term(lock, *holder);
    if (holder) lock.expires = world_->loop.now() + view->lease;
  }
}

void RecordLeadership::expire() {
  for (Lock& lock : locks_) {
    if (lock.term && world_->loop.now() >= lock.expires) end_term(lock);
  }
}

void RecordLeadership::replica_down(std::size_t index) {
  for (Lock& lock : locks_) {
    if (lock.term && lock.holder == index) end_term(lock);
  }
}

}  // namespace kubesim::live
