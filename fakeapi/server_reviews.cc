// The create-only kinds that are answered, not stored: the core bindings resource (a pod's
// binding, as pods/binding), the access reviews of authorization.k8s.io and the reviews of
// authentication.k8s.io. The server authorizes every request (kube-apiserver with
// --authorization-mode=AlwaysAllow), so an access review is allowed and a rules review lists
// every verb on every resource.
#include "fakeapi/internal/server_util.h"
#include "fakeapi/internal/validation/field_errors.h"
#include "kubesim/fakeapi/server.h"

namespace kubesim::fakeapi {
namespace {

using internal::validation::member;
using nlohmann::json;

api::Status invalid_spec(const ResourceInfo& info, const std::string& field, const json& value,
                         const std::string& message) {
  return api::new_invalid({info.gvr.group, info.kind}, "",
                          {{"FieldValueInvalid", "Invalid value: " + (value.is_null() ? std::string("\"null\"") : value.dump()) + ": " + message, field}});
}

// ValidateSubjectAccessReviewSpec and its kin: exactly one of the attributes; a
// SubjectAccessReview names a user or a group; a local one has no non-resource attributes and
// its namespace is the request's.
std::optional<api::Status> invalid_access_review(const ResourceInfo& info, const json& spec,
                                                 const std::string& ns) {
  const json& resource = member(spec, "resourceAttributes");
  const json& non_resource = member(spec, "nonResourceAttributes");
  if (info.kind == "LocalSubjectAccessReview") {
    if (!non_resource.is_null()) {
      return invalid_spec(info, "spec.nonResourceAttributes", non_resource,
                          "disallowed on this kind of request");
    }
    const json& resource_ns = member(resource, "namespace");
    if (!resource.is_null() && resource_ns != ns) {
      return api::new_bad_request("spec.resourceAttributes.namespace must match namespace: " + ns);
    }
  }
  if (!resource.is_null() && !non_resource.is_null()) {
    return invalid_spec(info, "spec.nonResourceAttributes", non_resource,
                        "cannot be specified in combination with resourceAttributes");
  }
  if (resource.is_null() && non_resource.is_null()) {
    return invalid_spec(info, "spec.resourceAttributes", resource,
                        "exactly one of nonResourceAttributes or resourceAttributes must be specified");
  }
  if (info.kind == "SubjectAccessReview" || info.kind == "LocalSubjectAccessReview") {
    const json& user = member(spec, "user");
    const json& groups = member(spec, "groups");
    if ((!user.is_string() || user.get<std::string>().empty()) &&
        (!groups.is_array() || groups.empty())) {
      return invalid_spec(info, "spec.user", json(""), "at least one of user or group must be specified");
    }
  }
  return std::nullopt;
}

}  // namespace

Response ApiServer::serve_unstored_create(const Request& request, const ResourceInfo& info) {
  if (!request.object) return Response::failure(api::new_bad_request("the request has no object to create"));
  if (info.kind == "Binding") return serve_binding(request, request.object->name());
  json review = request.object->to_json();
  review["apiVersion"] = info.api_version();
  review["kind"] = info.kind;
  review["metadata"] = json{{"creationTimestamp", nullptr}};
  const json& spec = member(review, "spec");
  json status = json::object();
  if (info.gvr.group == "authorization.k8s.io") {
    if (info.kind == "SelfSubjectRulesReview") {
      status = {{"resourceRules", json::array({{{"verbs", {"*"}}, {"apiGroups", {"*"}}, {"resources", {"*"}}}})},
                {"nonResourceRules", json::array({{{"verbs", {"*"}}, {"nonResourceURLs", {"*"}}}})},
                {"incomplete", false}};
    } else {
      if (auto bad = invalid_access_review(info, spec, request.ns)) return Response::failure(*bad);
      status = {{"allowed", true}};
    }
  } else if (info.kind == "SelfSubjectReview") {
    const std::string user = request.process.empty() ? "system:anonymous" : request.process;
    status = {{"userInfo", {{"username", user}, {"groups", {"system:authenticated"}}}}};
  } else if (info.kind == "TokenReview") {
    const json& token = member(spec, "token");
    if (!token.is_string() || token.get<std::string>().empty()) {
      return Response::failure(api::new_invalid({info.gvr.group, info.kind}, "",
                                                {{"FieldValueRequired", "Required value", "spec.token"}}));
    }
    status = {{"authenticated", false},
              {"user", json::object()},
              {"error", "kubesim does not verify bearer tokens in a TokenReview"}};
  }
  review["status"] = std::move(status);
  return internal::object_answer(stamp(std::move(review)), 201);
}

}  // namespace kubesim::fakeapi
