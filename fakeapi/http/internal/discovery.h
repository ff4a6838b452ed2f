// Discovery and OpenAPI documents, built from the Registry on the loop thread.
//
// Legacy discovery only (APIVersions, APIGroupList, APIGroup, APIResourceList): every kubectl from
// 1.27 reads it, and it is never mistaken for aggregated discovery because it is served as plain
// application/json. OpenAPI v3 is the minimum kubectl's default validation needs: one PATCH
// operation per built-in kind carrying x-kubernetes-group-version-kind and the fieldValidation
// parameter, so kubectl leaves validation to the server; custom resource groups are left out, so
// kubectl falls back to listing CRDs. OpenAPI v2 is served (elsewhere) as an empty protobuf
// document. Unknown groups and versions give nullopt (a 404).
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_DISCOVERY_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_DISCOVERY_H_

#include <optional>
#include <string>

#include "kubesim/fakeapi/registry.h"

namespace kubesim::fakeapi::http::internal {

std::string api_versions_json(const std::string& server_address);
std::string group_list_json(const Registry& registry);
std::optional<std::string> group_json(const Registry& registry, const std::string& group);
std::optional<std::string> resource_list_json(const Registry& registry, const std::string& group,
                                              const std::string& version);
std::string openapi_v3_root_json(const Registry& registry);
std::optional<std::string> openapi_v3_json(const Registry& registry, const std::string& group,
                                           const std::string& version);

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_DISCOVERY_H_
