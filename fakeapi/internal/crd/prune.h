// apiextensions-apiserver's pruning of custom resources: what a CRD's structural schema does not
// declare is dropped before the object is stored, and named (for fieldValidation warnings and
// strict errors) by its path, "spec.ports[0].unknownNested". Metadata is kept at the root and in
// embedded resources (x-kubernetes-embedded-resource), but its unknown members are dropped as
// ObjectMeta's JSON decoding drops them ("metadata.unknownMeta").
#ifndef KUBESIM_FAKEAPI_INTERNAL_CRD_PRUNE_H_
#define KUBESIM_FAKEAPI_INTERNAL_CRD_PRUNE_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::internal {

// Prunes the custom resource `obj` by `schema` (the served version's openAPIV3Schema; null means
// no schema, and nothing is pruned). Appends the dropped fields' paths to `pruned` when given:
// the root's unknown metadata members, then the pruned fields sorted, then embedded resources'
// unknown metadata members, as kube-apiserver reports them.
void prune_custom_resource(const nlohmann::json& schema, nlohmann::json& obj,
                           std::vector<std::string>* pruned);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_CRD_PRUNE_H_
