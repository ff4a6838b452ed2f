// What the generator and command tests share: writes straight to an ApiServer, answered as the
// server's message ("" for a success), and the CRDs the tests generate objects of.
#ifndef KUBESIM_TESTS_TESTING_GENERATORS_FIXTURES_H_
#define KUBESIM_TESTS_TESTING_GENERATORS_FIXTURES_H_

#include <string>

#include <nlohmann/json.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/api/options.h"
#include "kubesim/api/yaml.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/testing/generators.h"

namespace kubesim::testing {

inline api::GroupVersionResource resource_of(const fakeapi::ApiServer& server, const nlohmann::json& object) {
  const auto* info = server.registry().find_kind(
      api::gvk_from_api_version_and_kind(object.value("apiVersion", ""), object.value("kind", "")));
  return info ? info->gvr : api::GroupVersionResource{};
}

template <class T>
std::string message_of(const api::Result<T>& r) {
  return r.ok() ? std::string() : r.status().message;
}

inline std::string create(fakeapi::ApiServer& server, const nlohmann::json& object) {
  const std::string ns = object["metadata"].value("namespace", "");
  return message_of(server.create(resource_of(server, object), ns, api::make_object(object), api::CreateOptions()));
}

inline std::string run_step(fakeapi::ApiServer& server, const gen::WorkloadStep& step) {
  const nlohmann::json& m = step.object["metadata"];
  const auto resource = resource_of(server, step.object);
  switch (step.op) {
    case gen::WorkloadStep::Op::kCreate:
      return create(server, step.object);
    case gen::WorkloadStep::Op::kUpdate:
      return message_of(server.update(resource, m.value("namespace", ""), api::make_object(step.object),
                                      api::UpdateOptions()));
    case gen::WorkloadStep::Op::kDelete:
      return message_of(server.delete_(resource, m.value("namespace", ""), m.value("name", ""), api::DeleteOptions()));
  }
  return "unknown step";
}

// A CRD whose schema uses most of what gen::custom_object supports.
inline nlohmann::json gadget_crd() {
  return api::yaml_to_json(R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1beta1
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        required: [spec]
        properties:
          spec:
            type: object
            required: [size, mode, ports]
            properties:
              size: {type: integer, format: int32, minimum: 1, maximum: 10}
              ratio: {type: number, minimum: 0, exclusiveMinimum: true, maximum: 1}
              mode: {type: string, enum: [Fast, Slow]}
              owner: {type: string, minLength: 3, maxLength: 8}
              since: {type: string, format: date-time}
              day: {type: string, format: date}
              port: {x-kubernetes-int-or-string: true}
              enabled: {type: boolean}
              step: {type: integer, multipleOf: 5, minimum: -12, maximum: 40}
              offset: {type: integer, maximum: -3}
              tags: {type: array, items: {type: string}, maxItems: 3, x-kubernetes-list-type: set}
              ports:
                type: array
                minItems: 1
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name, number]
                  properties:
                    name: {type: string, minLength: 1}
                    number: {type: integer, minimum: 1, maximum: 65535}
              env: {type: object, additionalProperties: {type: string}, maxProperties: 2}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
              nested:
                type: object
                properties:
                  deeper:
                    type: object
                    properties: {deepest: {type: array, items: {type: array, items: {type: number}}}}
          status:
            type: object
            properties: {ready: {type: boolean}}
)")
      .value();
}

}  // namespace kubesim::testing

#endif  // KUBESIM_TESTS_TESTING_GENERATORS_FIXTURES_H_
