// Generators of built-in objects and workloads (kubesim/testing/generators.h).
#include "kubesim/testing/generators.h"

#include <cctype>
#include <set>
#include <utility>

#include <rapidcheck.h>

#include "kubesim/api/validation.h"
#include "testing/internal/generators.h"

namespace kubesim::testing::gen {
namespace {

using nlohmann::json;

constexpr const char* kKeyChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
constexpr const char* kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// ConfigMap and Secret keys: [-._a-zA-Z0-9]+, never "." or "..".
rc::Gen<std::string> data_key() {
  return internal::bounded_name(kKeyChars, std::string(kKeyChars) + "-._", 63);
}

rc::Gen<std::string> printable_text() {
  return rc::gen::container<std::string>(rc::gen::inRange<char>(' ', '~' + 1));
}

// Whole groups of 4 base64 characters: always valid base64, no padding needed.
rc::Gen<std::string> base64_text() {
  return rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 9), [](std::size_t groups) {
    return rc::gen::container<std::string>(4 * groups, internal::pick(std::string(kBase64)));
  });
}

rc::Gen<json> string_map(rc::Gen<std::string> value) {
  const auto keys = internal::up_to(4, data_key());
  return rc::gen::exec([keys, value] {
    json out = json::object();
    for (const std::string& k : *keys) out[k] = *value;
    return out;
  });
}

// Only inside rc::gen::exec: metadata with a name from `name`, `ns` unless empty, and labels.
json metadata(const rc::Gen<std::string>& name, const std::string& ns) {
  json m = {{"name", *name}};
  if (!ns.empty()) m["namespace"] = ns;
  const Labels l = *labels();
  if (!l.empty()) m["labels"] = l;
  return m;
}

std::string key_of(const json& object) {
  const json& m = object.at("metadata");
  return object.value("apiVersion", "") + "/" + object.value("kind", "") + "/" + m.value("namespace", "") + "/" +
         m.value("name", "");
}

std::string pool_name(const json& object, std::size_t i) {
  std::string kind = object.value("kind", "object");
  for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return kind + "-" + std::to_string(i);
}

}  // namespace

rc::Gen<json> config_map(std::string ns) {
  return rc::gen::exec([ns] {
    json o = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", metadata(dns1123_subdomain(), ns)}};
    const json data = *string_map(printable_text());
    if (!data.empty()) o["data"] = data;
    return o;
  });
}

rc::Gen<json> secret(std::string ns) {
  return rc::gen::exec([ns] {
    json o = {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", metadata(dns1123_subdomain(), ns)},
              {"type", "Opaque"}};
    const json data = *string_map(base64_text());
    if (!data.empty()) o["data"] = data;
    return o;
  });
}

rc::Gen<json> namespace_() {
  static const std::set<std::string> kInitial = {"default", "kube-system", "kube-public", "kube-node-lease"};
  const auto name = rc::gen::suchThat(dns1123_label(), [](const std::string& n) { return !kInitial.contains(n); });
  return rc::gen::exec([name] {
    return json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", metadata(name, "")}};
  });
}

rc::Gen<json> pod(std::string ns) {
  static const std::vector<std::string> kImages = {"busybox:1.36", "nginx:1.27", "registry.k8s.io/pause:3.10"};
  return rc::gen::exec([ns] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 4);
    json containers = json::array();
    for (std::size_t i = 0; i < n; ++i) {
      // A label of ≤ 62 and a digit: distinct names, still DNS labels.
      const std::string name = (*dns1123_label()).substr(0, api::kDns1123LabelMaxLength - 1) + std::to_string(i);
      containers.push_back({{"name", name}, {"image", *internal::pick(kImages)}});
    }
    json spec = {{"containers", containers}};
    spec["restartPolicy"] = *internal::pick(std::vector<std::string>{"Always", "OnFailure", "Never"});
    return json{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", metadata(dns1123_subdomain(), ns)},
                {"spec", spec}};
  });
}

rc::Gen<json> lease(std::string ns) {
  return rc::gen::exec([ns] {
    json spec = json::object();
    if (*rc::gen::arbitrary<bool>()) spec["holderIdentity"] = *dns1123_subdomain();
    if (*rc::gen::arbitrary<bool>()) spec["leaseDurationSeconds"] = *rc::gen::inRange(1, 3601);
    if (*rc::gen::arbitrary<bool>()) spec["leaseTransitions"] = *rc::gen::inRange(0, 100);
    return json{{"apiVersion", "coordination.k8s.io/v1"}, {"kind", "Lease"},
                {"metadata", metadata(dns1123_subdomain(), ns)}, {"spec", spec}};
  });
}

rc::Gen<json> builtin_object(std::string ns) {
  return internal::one_of<json>({{1, config_map(ns)}, {1, secret(ns)}, {1, pod(ns)}, {1, lease(ns)}});
}

rc::Gen<std::vector<WorkloadStep>> workload(rc::Gen<json> objects, std::size_t pool, std::size_t max_steps) {
  return rc::gen::exec([objects, pool, max_steps] {
    const auto n = *rc::gen::inRange<std::size_t>(0, max_steps + 1);
    std::vector<WorkloadStep> steps;
    std::set<std::string> live;
    for (std::size_t i = 0; i < n; ++i) {
      json object = *objects;
      object["metadata"]["name"] = pool_name(object, *rc::gen::inRange<std::size_t>(0, pool));
      const std::string key = key_of(object);
      if (!live.contains(key)) {
        live.insert(key);
        steps.push_back({WorkloadStep::Op::kCreate, std::move(object)});
      } else if (*rc::gen::arbitrary<bool>()) {
        live.erase(key);
        json ident = {{"apiVersion", object["apiVersion"]}, {"kind", object["kind"]}, {"metadata", json::object()}};
        ident["metadata"]["name"] = object["metadata"]["name"];
        if (object["metadata"].contains("namespace")) ident["metadata"]["namespace"] = object["metadata"]["namespace"];
        steps.push_back({WorkloadStep::Op::kDelete, std::move(ident)});
      } else {
        steps.push_back({WorkloadStep::Op::kUpdate, std::move(object)});
      }
    }
    return steps;
  });
}

std::ostream& operator<<(std::ostream& os, const WorkloadStep& step) {
  static constexpr const char* kOps[] = {"create", "update", "delete"};
  return os << kOps[static_cast<int>(step.op)] << " " << step.object.dump();
}

}  // namespace kubesim::testing::gen
