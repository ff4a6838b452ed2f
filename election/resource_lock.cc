#include "kubesim/election/resource_lock.h"

#include "kubesim/election/annotation_lock.h"
#include "kubesim/election/lease_lock.h"
#include "kubesim/election/multi_lock.h"

namespace kubesim::election {

api::Result<std::shared_ptr<ResourceLock>> new_lock(std::string_view lock_type, api::Client& client,
                                                    std::string ns, std::string name,
                                                    ResourceLockConfig config) {
  if (config.identity.empty()) return api::new_bad_request("resource lock: the identity is empty");
  if (ns.empty()) return api::new_bad_request("resource lock: the namespace is empty");
  if (name.empty()) return api::new_bad_request("resource lock: the name is empty");
  auto lease = [&] { return std::make_shared<LeaseLock>(client, ns, name, config); };
  auto config_map = [&] { return std::make_shared<ConfigMapLock>(client, ns, name, config); };
  auto endpoints = [&] { return std::make_shared<EndpointsLock>(client, ns, name, config); };
  std::shared_ptr<ResourceLock> lock;
  if (lock_type == "leases") {
    lock = lease();
  } else if (lock_type == "configmaps") {
    lock = config_map();
  } else if (lock_type == "endpoints") {
    lock = endpoints();
  } else if (lock_type == "configmapsleases") {
    lock = std::make_shared<MultiLock>(config_map(), lease(), config.epoch_unix_seconds);
  } else if (lock_type == "endpointsleases") {
    lock = std::make_shared<MultiLock>(endpoints(), lease(), config.epoch_unix_seconds);
  } else {
    return api::new_bad_request("Invalid lock-type \"" + std::string(lock_type) +
                                "\": must be one of leases, configmaps, endpoints, "
                                "configmapsleases, endpointsleases");
  }
  return lock;
}

}  // namespace kubesim::election
