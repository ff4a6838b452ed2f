// Helpers shared by the informer tests.
#ifndef KUBESIM_TESTS_INFORMER_TEST_UTIL_H_
#define KUBESIM_TESTS_INFORMER_TEST_UTIL_H_

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/object.h"

namespace kubesim::informer::testing {

// A ConfigMap with the given identity, resourceVersion and labels.
inline api::ObjectPtr config_map(const std::string& ns, const std::string& name,
                                 const std::string& rv = "1",
                                 const std::map<std::string, std::string>& labels = {}) {
  nlohmann::json meta = {{"name", name}};
  if (!ns.empty()) meta["namespace"] = ns;
  if (!rv.empty()) meta["resourceVersion"] = rv;
  if (!labels.empty()) meta["labels"] = labels;
  return api::make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", std::move(meta)}});
}

inline std::vector<std::string> keys_of(const std::vector<api::ObjectPtr>& objects) {
  std::vector<std::string> out;
  for (const auto& o : objects) out.emplace_back(o->key().str());
  return out;
}

inline std::vector<std::string> keys_of(const std::vector<api::ObjectKey>& keys) {
  std::vector<std::string> out;
  for (const auto& k : keys) out.emplace_back(k.str());
  return out;
}

}  // namespace kubesim::informer::testing

#endif  // KUBESIM_TESTS_INFORMER_TEST_UTIL_H_
