#include "kubesim/scenarios/scenario.h"

#include <type_traits>

namespace kubesim::scenarios {

std::string place(const std::string& file, const Mark& mark) {
  if (mark.line == 0) return file;
  return file + ":" + std::to_string(mark.line) + ":" + std::to_string(mark.column);
}

std::string condition_name(const Condition& condition) {
  return std::visit(
      [](const auto& c) -> std::string {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, AtMostOneLeader>) return "atMostOneLeader";
        if constexpr (std::is_same_v<T, LeaderElected>) return "leaderElected";
        if constexpr (std::is_same_v<T, InformersConverged>) return "informersConverged";
        if constexpr (std::is_same_v<T, CountCompare>) return "count";
        if constexpr (std::is_same_v<T, ObjectPathEquals>) return "object";
        if constexpr (std::is_same_v<T, MaxLeaderTransitions>) return "maxLeaderTransitions";
        if constexpr (std::is_same_v<T, Match>) return c.negate ? "noMatch" : "match";
        if constexpr (std::is_same_v<T, CallBudget>) return "calls";
      },
      condition);
}

}  // namespace kubesim::scenarios
