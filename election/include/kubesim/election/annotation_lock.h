// ConfigMapLock and EndpointsLock: a leader election held in the
// `control-plane.alpha.kubernetes.io/leader` annotation of a ConfigMap or an Endpoints object.
//
// The annotation holds the record's raw JSON, and that string is the raw form the elector
// compares. An object without the annotation reads as an empty record (anyone may take it); an
// annotation that is not a record is a 400 BadRequest Status and changes nothing. Updates set the
// annotation on the cached object and leave the rest of it as it was. Kubernetes removed these
// lock types in 1.28; they remain for clusters that migrate through MultiLock.
#ifndef KUBESIM_ELECTION_ANNOTATION_LOCK_H_
#define KUBESIM_ELECTION_ANNOTATION_LOCK_H_

#include <string>

#include "kubesim/api/client.h"
#include "kubesim/api/object.h"
#include "kubesim/api/resources.h"
#include "kubesim/election/resource_lock.h"

namespace kubesim::election {

class AnnotationLock : public ResourceLock {
 public:
  sim::Task<api::Result<LockRecord>> get(sim::Context ctx) override;
  sim::Task<api::Result<void>> create(sim::Context ctx, LeaderElectionRecord record) override;
  sim::Task<api::Result<void>> update(sim::Context ctx, LeaderElectionRecord record) override;
  const std::string& identity() const override { return config_.identity; }
  std::string describe() const override { return ns_ + "/" + name_; }

  // The object last read or written; null before the first success.
  const api::ObjectPtr& object() const { return object_; }

 protected:
  // `kind` is the object's kind ("ConfigMap", "Endpoints"); `client` must outlive the lock.
  AnnotationLock(api::GroupVersionResource resource, std::string kind, api::Client& client,
                 std::string ns, std::string name, ResourceLockConfig config);

 private:
  api::GroupVersionResource resource_;
  std::string kind_;
  api::Client* client_;
  std::string ns_;
  std::string name_;
  ResourceLockConfig config_;
  api::ObjectPtr object_;
};

class ConfigMapLock final : public AnnotationLock {
 public:
  ConfigMapLock(api::Client& client, std::string ns, std::string name, ResourceLockConfig config)
      : AnnotationLock(api::kConfigMaps, "ConfigMap", client, std::move(ns), std::move(name),
                       std::move(config)) {}
};

class EndpointsLock final : public AnnotationLock {
 public:
  EndpointsLock(api::Client& client, std::string ns, std::string name, ResourceLockConfig config)
      : AnnotationLock(api::kEndpoints, "Endpoints", client, std::move(ns), std::move(name),
                       std::move(config)) {}
};

}  // namespace kubesim::election

#endif  // KUBESIM_ELECTION_ANNOTATION_LOCK_H_
