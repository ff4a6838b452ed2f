// Words shared by FaultPlan's report and its effect lines.
#ifndef KUBESIM_TESTING_INTERNAL_FAULT_PLAN_TEXT_H_
#define KUBESIM_TESTING_INTERNAL_FAULT_PLAN_TEXT_H_

#include <cstdint>
#include <string>

namespace kubesim::testing::internal {

// "1 relist", "3 relists"
inline std::string counted(std::int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// A calling process as the call log names it.
inline std::string process_name(const std::string& process) { return process.empty() ? "(unnamed)" : process; }

}  // namespace kubesim::testing::internal

#endif  // KUBESIM_TESTING_INTERNAL_FAULT_PLAN_TEXT_H_
