#include "kubesim/election/annotation_lock.h"


namespace kubesim::election {

AnnotationLock::AnnotationLock(api::GroupVersionResource resource, std::string kind,
                               api::Client& client, std::string ns, std::string name,
                               ResourceLockConfig config)
    : resource_(std::move(resource)),
      kind_(std::move(kind)),
      client_(&client),
      ns_(std::move(ns)),
      name_(std::move(name)),
      config_(std::move(config)) {}

sim::Task<api::Result<LockRecord>> AnnotationLock::get(sim::Context ctx) {
  auto got = co_await client_->get(std::move(ctx), resource_, ns_, name_, api::GetOptions());
  if (!got.ok()) co_return std::move(got).status();
  const auto annotation = got.value()->annotation(kLeaderElectionRecordAnnotationKey);
  LockRecord out;
  if (annotation) {
    auto parsed = parse_raw(*annotation, config_.epoch_unix_seconds);
    if (!parsed.ok()) co_return std::move(parsed).status();
    out.record = std::move(parsed).value();
    out.raw = std::string(*annotation);
  }
  object_ = std::move(got).value();
  co_return out;
}

sim::Task<api::Result<void>> AnnotationLock::create(sim::Context ctx, LeaderElectionRecord record) {
  nlohmann::json meta = {{"name", name_},
                         {"namespace", ns_},
                         {"annotations",
                          {{std::string(kLeaderElectionRecordAnnotationKey),
                            to_raw(record, config_.epoch_unix_seconds)}}}};
  api::ObjectPtr object =
      api::make_object({{"apiVersion", "v1"}, {"kind", kind_}, {"metadata", std::move(meta)}});
  auto created = co_await client_->create(std::move(ctx), resource_, ns_, std::move(object),
                                          api::CreateOptions());
  if (!created.ok()) co_return std::move(created).status();
  object_ = std::move(created).value();
  co_return api::Result<void>();
}

sim::Task<api::Result<void>> AnnotationLock::update(sim::Context ctx, LeaderElectionRecord record) {
  if (!object_) {
    co_return api::new_client_error(api::ClientError::kInvalidRequest,
                                    kind_ == "ConfigMap"
                                        ? "configmap not initialized, call get or create first"
                                        : "endpoint not initialized, call get or create first");
  }
  api::ObjectPtr changed = object_->with_annotation(kLeaderElectionRecordAnnotationKey,
                                                    to_raw(record, config_.epoch_unix_seconds));
  auto updated = co_await client_->update(std::move(ctx), resource_, ns_, std::move(changed),
                                          api::UpdateOptions());
  if (!updated.ok()) co_return std::move(updated).status();
  object_ = std::move(updated).value();
  co_return api::Result<void>();
}

}  // namespace kubesim::election
