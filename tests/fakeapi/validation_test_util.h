// Helpers of the request-validation tests: resource lookups, the expected-Status check, and the
// message texts apimachinery's format checks produce.
#ifndef KUBESIM_TESTS_FAKEAPI_VALIDATION_TEST_UTIL_H_
#define KUBESIM_TESTS_FAKEAPI_VALIDATION_TEST_UTIL_H_

#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/api/status.h"
#include "kubesim/fakeapi/registry.h"
#include "kubesim/fakeapi/validation.h"

namespace kubesim::fakeapi::validation_testing {

using Json = nlohmann::json;

inline const Registry& registry() {
  static const Registry r;
  return r;
}

// The built-in resource `resource` of group `group` (version v1).
inline const ResourceInfo& builtin(const std::string& resource, const std::string& group = "") {
  const ResourceInfo* info = registry().find({group, "v1", resource});
  EXPECT_NE(info, nullptr) << resource;
  return *info;
}

// The ResourceInfo of widgets.example.com/v1 (kind Widget, namespaced), from a parsed CRD.
inline ResourceInfo widget_info() {
  const Json crd = Json::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {"group": "example.com", "scope": "Namespaced",
             "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
             "versions": [{"name": "v1", "served": true, "storage": true}]}})");
  auto infos = registry().parse_crd(crd);
  EXPECT_TRUE(infos.ok());
  return infos.value().front();
}

// Whether `s` is the Status kube-apiserver returns with `code` and `message`; the reason follows
// from the code (400 BadRequest, 422 Invalid).
inline ::testing::AssertionResult is_status(const std::optional<api::Status>& s, int code,
                                            const std::string& message) {
  if (!s) return ::testing::AssertionFailure() << "valid, expected " << code << ": " << message;
  const api::StatusReason reason =
      code == 400 ? api::StatusReason::kBadRequest : api::StatusReason::kInvalid;
  if (s->code != code || s->reason != reason || s->message != message) {
    return ::testing::AssertionFailure()
           << "got " << *s << "\n  expected " << code << ": " << message;
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult is_valid(const std::optional<api::Status>& s) {
  if (s) return ::testing::AssertionFailure() << "expected valid, got " << *s;
  return ::testing::AssertionSuccess();
}

// apimachinery's texts for the common format checks.
inline const std::string kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and "
    "must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
    "validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
inline const std::string kLabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start "
    "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
    "validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
inline const std::string kNamePartMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
inline const std::string kLabelValueMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and "
    "must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
    "'12345', regex "
    "used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
inline const std::string kConfigKeyMsg =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name', "
    " or "
    "'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
inline const std::string kNoMatch = "`selector` does not match template `labels`";

// Object skeletons.
inline Json config_map(const std::string& name = "cm") {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"data", {{"a", "b"}}}};
}

inline Json pod_spec() {
  return {{"containers", Json::array({{{"name", "web"}, {"image", "nginx:1.25"}}})}};
}

inline Json pod(const std::string& name = "p") {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", pod_spec()}};
}

inline Json pod_template(const Json& labels = {{"app", "web"}}) {
  return {{"metadata", {{"labels", labels}}}, {"spec", pod_spec()}};
}

inline Json deployment(const std::string& kind = "Deployment", const std::string& name = "d") {
  return {{"apiVersion", "apps/v1"},
          {"kind", kind},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec",
           {{"replicas", 2},
            {"selector", {{"matchLabels", {{"app", "web"}}}}},
            {"template", pod_template()}}}};
}

}  // namespace kubesim::fakeapi::validation_testing

#endif  // KUBESIM_TESTS_FAKEAPI_VALIDATION_TEST_UTIL_H_
