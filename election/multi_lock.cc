#include "kubesim/election/multi_lock.h"

#include <cassert>

namespace kubesim::election {

MultiLock::MultiLock(std::shared_ptr<ResourceLock> primary, std::shared_ptr<ResourceLock> secondary,
                     std::int64_t epoch_unix_seconds)
    : primary_(std::move(primary)),
      secondary_(std::move(secondary)),
      epoch_unix_seconds_(epoch_unix_seconds) {
  assert(primary_ && secondary_ && "MultiLock needs two locks");
  assert(primary_->identity() == secondary_->identity() && "MultiLock's locks must share an identity");
}

sim::Task<api::Result<LockRecord>> MultiLock::get(sim::Context ctx) {
  auto primary = co_await primary_->get(ctx);
  if (!primary.ok()) co_return std::move(primary).status();
  auto secondary = co_await secondary_->get(ctx);
  if (!secondary.ok()) {
    const bool missing = api::is_not_found(secondary.status());
    secondary_missing_ = missing;
    // An old-style candidate holds the primary and nobody has made the secondary yet.
    if (missing && primary->record.holder_identity != identity()) co_return std::move(primary).value();
    co_return std::move(secondary).status();
  }
  secondary_missing_ = false;
  LockRecord out = std::move(primary).value();
  if (out.record.holder_identity != secondary->record.holder_identity) {
    out.record.holder_identity = std::string(kUnknownLeader);
    out.raw = to_raw(out.record, epoch_unix_seconds_);
  }
  out.raw += ",";
  out.raw += secondary->raw;
  co_return out;
}

sim::Task<api::Result<void>> MultiLock::create(sim::Context ctx, LeaderElectionRecord record) {
  auto primary = co_await primary_->create(ctx, record);
  if (!primary.ok() && !api::is_already_exists(primary.status())) co_return primary;
  auto secondary = co_await secondary_->create(ctx, record);
  if (secondary.ok()) secondary_missing_ = false;
  co_return secondary;
}

sim::Task<api::Result<void>> MultiLock::update(sim::Context ctx, LeaderElectionRecord record) {
  auto primary = co_await primary_->update(ctx, record);
  if (!primary.ok()) co_return primary;
  if (!keep_secondary_precondition_) {
    // client-go: whatever the fresh read says other than NotFound, update over the cached object.
    auto fresh = co_await secondary_->get(ctx);
    secondary_missing_ = !fresh.ok() && api::is_not_found(fresh.status());
  }
  if (secondary_missing_) {
    auto created = co_await secondary_->create(ctx, record);
    if (created.ok()) secondary_missing_ = false;
    co_return created;
  }
  auto secondary = co_await secondary_->update(ctx, record);
  co_return secondary;
}

}  // namespace kubesim::election
