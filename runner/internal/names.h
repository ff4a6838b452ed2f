// Whether a name is in a list of names (a check's condition among a scenario's mustFind).
#ifndef KUBESIM_RUNNER_INTERNAL_NAMES_H_
#define KUBESIM_RUNNER_INTERNAL_NAMES_H_

#include <algorithm>
#include <string>
#include <vector>

namespace kubesim::runner::internal {

inline bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace kubesim::runner::internal

#endif  // KUBESIM_RUNNER_INTERNAL_NAMES_H_
