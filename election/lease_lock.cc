#include "kubesim/election/lease_lock.h"

#include <algorithm>


namespace kubesim::election {

LeaseLock::LeaseLock(api::Client& client, std::string ns, std::string name,
                     ResourceLockConfig config, std::map<std::string, std::string, std::less<>> labels)
    : client_(&client),
      ns_(std::move(ns)),
      name_(std::move(name)),
      config_(std::move(config)),
      labels_(std::move(labels)) {}

sim::Task<api::Result<LockRecord>> LeaseLock::get(sim::Context ctx) {
  auto got = co_await client_->get(std::move(ctx), api::kLeases, ns_, name_, api::GetOptions());
  if (!got.ok()) co_return std::move(got).status();
  lease_ = std::move(got).value();
  // Only the spec is read: the whole lease's tree is never built.
  LeaderElectionRecord record =
      from_lease_spec(lease_->member_value("spec"), config_.epoch_unix_seconds);
  std::string raw = to_raw(record, config_.epoch_unix_seconds);
  co_return LockRecord(std::move(record), std::move(raw));
}

sim::Task<api::Result<void>> LeaseLock::create(sim::Context ctx, LeaderElectionRecord record) {
  nlohmann::json meta = {{"name", name_}, {"namespace", ns_}};
  if (!labels_.empty()) meta["labels"] = labels_;
  api::ObjectPtr lease = api::make_object({{"apiVersion", "coordination.k8s.io/v1"},
                                           {"kind", "Lease"},
                                           {"metadata", std::move(meta)},
                                           {"spec", to_lease_spec(record, config_.epoch_unix_seconds)}});
  auto created = co_await client_->create(std::move(ctx), api::kLeases, ns_, std::move(lease),
                                          api::CreateOptions());
  if (!created.ok()) co_return std::move(created).status();
  lease_ = std::move(created).value();
  co_return api::Result<void>();
}

sim::Task<api::Result<void>> LeaseLock::update(sim::Context ctx, LeaderElectionRecord record) {
  if (!lease_) co_return api::new_client_error(api::ClientError::kInvalidRequest,
                                            "lease not initialized, call get or create first");
  // The spec is spliced into the lease's text (a renewal changes only renewTime there, which
  // the server checks without rebuilding the object); labels are edited only when missing.
  api::ObjectPtr changed =
      lease_->with_value_at("spec", to_lease_spec(record, config_.epoch_unix_seconds));
  const bool labelled = std::all_of(labels_.begin(), labels_.end(), [&](const auto& label) {
    return changed->label(label.first) == label.second;
  });
  if (!labelled) {
    changed = changed->edited([&](nlohmann::json& j) {
      for (const auto& [k, v] : labels_) j["metadata"]["labels"][k] = v;
    });
  }
  auto updated = co_await client_->update(std::move(ctx), api::kLeases, ns_, std::move(changed),
                                          api::UpdateOptions());
  if (!updated.ok()) co_return std::move(updated).status();
  lease_ = std::move(updated).value();
  co_return api::Result<void>();
}

}  // namespace kubesim::election
