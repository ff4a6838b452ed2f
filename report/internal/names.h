// Names in the order first seen (an experiment's parameters, metrics, x values), for the charts.
#ifndef KUBESIM_REPORT_INTERNAL_NAMES_H_
#define KUBESIM_REPORT_INTERNAL_NAMES_H_

#include <algorithm>
#include <string>
#include <vector>

namespace kubesim::report::internal {

// Appends `name` unless `names` has it.
inline void add_once(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

}  // namespace kubesim::report::internal

#endif  // KUBESIM_REPORT_INTERNAL_NAMES_H_
