#include "kubesim/cluster/invariant.h"

#include <algorithm>

namespace kubesim::cluster {

bool Dependencies::depends_on(const api::GroupResource& resource) const {
  return any_write || std::find(resources.begin(), resources.end(), resource) != resources.end();
}

bool Dependencies::depends_on_locks(const std::vector<std::size_t>& changed) const {
  if (!leadership) return false;
  if (locks.empty()) return true;
  return std::any_of(changed.begin(), changed.end(),
                     [&](std::size_t id) { return std::find(locks.begin(), locks.end(), id) != locks.end(); });
}

}  // namespace kubesim::cluster
