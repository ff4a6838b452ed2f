// ConfigMap, Secret, Namespace, Lease and Service rules.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/fakeapi/validation.h"
#include "tests/fakeapi/validation_test_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace validation_testing;  // NOLINT: test helpers

struct KindCase {
  const char* name;
  Json body;
  std::string message;  // "" when valid
};

void run_kind_creates(const ResourceInfo& info, const std::vector<KindCase>& cases) {
  for (const KindCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto s = validate_create(info, c.body, "default");
    if (c.message.empty()) {
      EXPECT_TRUE(is_valid(s));
    } else {
      EXPECT_TRUE(is_status(s, 422, c.message));
    }
  }
}

Json kind_patched(Json base, const Json& patch) {
  base.merge_patch(patch);
  return base;
}

TEST(ValidationConfigMapTest, DataKeysAndSize) {
  const std::string invalid = "ConfigMap \"cm\" is invalid: ";
  Json big = config_map();
  big["data"]["a"] = std::string(1024 * 1024 + 1, 'x');
  auto s = validate_create(builtin("configmaps"), big, "default");
  EXPECT_TRUE(is_status(s, 422, invalid + ": Too long: may not be more than 1048576 bytes"));
  ASSERT_TRUE(s && s->details);
  EXPECT_EQ(s->details->causes.front().field, "");
  run_kind_creates(
      builtin("configmaps"),
      {{"valid keys",
        kind_patched(config_map(), {{"data", {{"key.name", ""}, {"KEY_NAME", "1"}, {"key-name", "2"}}}}),
        ""},
       {"bad key", kind_patched(config_map(), {{"data", {{"a b", "x"}}}}),
        invalid + "data[a b]: Invalid value: \"a b\": " + kConfigKeyMsg},
       {"dot-dot key", kind_patched(config_map(), {{"data", {{"..", "x"}}}}),
        invalid + "data[..]: Invalid value: \"..\": must not be '..'"},
       {"key in both", kind_patched(config_map(), {{"binaryData", {{"a", "YQ=="}}}}),
        invalid + "data[a]: Invalid value: \"a\": duplicate of key present in binaryData"},
       {"bad binary key", kind_patched(config_map(), {{"binaryData", {{"b/c", "YQ=="}}}}),
        invalid + "binaryData[b/c]: Invalid value: \"b/c\": " + kConfigKeyMsg}});
}

TEST(ValidationConfigMapTest, ImmutableConfigMaps) {
  const ResourceInfo& cm = builtin("configmaps");
  const Json old = kind_patched(config_map(), {{"immutable", true}});
  const std::string invalid = "ConfigMap \"cm\" is invalid: ";
  EXPECT_TRUE(is_valid(validate_update(
      cm, old, kind_patched(old, {{"metadata", {{"labels", {{"a", "b"}}}}}}), "default", "cm", false)));
  EXPECT_TRUE(is_status(
      validate_update(cm, old, kind_patched(old, {{"data", {{"a", "c"}}}}), "default", "cm", false), 422,
      invalid + "data: Forbidden: field is immutable when `immutable` is set"));
  EXPECT_TRUE(
      is_status(validate_update(cm, old, config_map(), "default", "cm", false), 422,
                invalid + "immutable: Forbidden: field is immutable when `immutable` is set"));
  EXPECT_TRUE(is_status(
      validate_update(cm, old, kind_patched(old, {{"binaryData", {{"z", "YQ=="}}}}), "default", "cm",
                      false),
      422, invalid + "binaryData: Forbidden: field is immutable when `immutable` is set"));
  // A mutable ConfigMap may become immutable and change its data at the same time.
  EXPECT_TRUE(is_valid(validate_update(cm, config_map(), kind_patched(old, {{"data", {{"a", "c"}}}}),
                                       "default", "cm", false)));
}

Json secret(const Json& patch = Json::object()) {
  return kind_patched({{"apiVersion", "v1"},
                  {"kind", "Secret"},
                  {"metadata", {{"name", "s"}}},
                  {"data", {{"a", "YQ=="}}}},
                 patch);
}

TEST(ValidationSecretTest, KeysAndTypes) {
  const std::string invalid = "Secret \"s\" is invalid: ";
  run_kind_creates(
      builtin("secrets"),
      {{"opaque", secret(), ""},
       {"bad key", secret({{"data", {{"a b", "YQ=="}}}}),
        invalid + "data[a b]: Invalid value: \"a b\": " + kConfigKeyMsg},
       {"bad stringData key", secret({{"stringData", {{"x y", "plain"}}}}),
        invalid + "data[x y]: Invalid value: \"x y\": " + kConfigKeyMsg},
       {"tls without keys", secret({{"type", "kubernetes.io/tls"}}),
        invalid + "[data[tls.crt]: Required value, data[tls.key]: Required value]"},
       {"tls",
        secret(
            {{"type", "kubernetes.io/tls"}, {"data", {{"tls.crt", "YQ=="}, {"tls.key", "YQ=="}}}}),
        ""},
       {"tls from stringData",
        secret(
            {{"type", "kubernetes.io/tls"}, {"stringData", {{"tls.crt", "c"}, {"tls.key", "k"}}}}),
        ""},
       {"basic-auth", secret({{"type", "kubernetes.io/basic-auth"}}),
        invalid + "[data[username]: Required value, data[password]: Required value]"},
       {"service account token", secret({{"type", "kubernetes.io/service-account-token"}}),
        invalid + "metadata.annotations[kubernetes.io/service-account.name]: Required value"},
       {"too large", secret({{"stringData", {{"big", std::string(1024 * 1024 + 1, 'x')}}}}),
        invalid + "data: Too long: may not be more than 1048576 bytes"}});
}

TEST(ValidationSecretTest, TypeAndImmutableData) {
  const ResourceInfo& secrets = builtin("secrets");
  const std::string invalid = "Secret \"s\" is invalid: ";
  EXPECT_TRUE(is_valid(
      validate_update(secrets, secret(), secret({{"type", "Opaque"}}), "default", "s", false)));
  const Json tls =
      secret({{"type", "kubernetes.io/tls"}, {"data", {{"tls.crt", "YQ=="}, {"tls.key", "YQ=="}}}});
  EXPECT_TRUE(
      is_status(validate_update(secrets, secret(), tls, "default", "s", false), 422,
                invalid + "type: Invalid value: \"kubernetes.io/tls\": field is immutable"));
  const Json frozen = secret({{"immutable", true}});
  EXPECT_TRUE(is_status(
      validate_update(secrets, frozen, secret({{"immutable", true}, {"stringData", {{"a", "b"}}}}),
                      "default", "s", false),
      422, invalid + "data: Forbidden: field is immutable when `immutable` is set"));
}

TEST(ValidationNamespaceTest, SpecFinalizers) {
  const Json ns = {{"metadata", {{"name", "team-a"}}},
                   {"spec", {{"finalizers", {"kubernetes", "custom"}}}}};
  EXPECT_TRUE(is_status(validate_create(builtin("namespaces"), ns, ""), 422,
                        "Namespace \"team-a\" is invalid: spec.finalizers: Invalid value: "
                        "\"custom\": name is neither a "
                        "standard finalizer name nor is it fully qualified"));
  EXPECT_TRUE(
      is_valid(validate_create(builtin("namespaces"), {{"metadata", {{"name", "team-a"}}}}, "")));
}

TEST(ValidationLeaseTest, DurationsAndTransitions) {
  const ResourceInfo& leases = builtin("leases", "coordination.k8s.io");
  const Json lease = {{"metadata", {{"name", "l"}}},
                      {"spec", {{"holderIdentity", "a"}, {"leaseDurationSeconds", 15}}}};
  const std::string invalid = "Lease.coordination.k8s.io \"l\" is invalid: ";
  run_kind_creates(
      leases,
      {{"valid", lease, ""},
       {"zero duration", kind_patched(lease, {{"spec", {{"leaseDurationSeconds", 0}}}}),
        invalid + "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0"},
       {"negative transitions", kind_patched(lease, {{"spec", {{"leaseTransitions", -1}}}}),
        invalid + "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"},
       {"preferred holder", kind_patched(lease, {{"spec", {{"preferredHolder", "b"}}}}),
        invalid +
            "spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined"}});
  EXPECT_TRUE(is_status(
      validate_update(leases, lease, kind_patched(lease, {{"spec", {{"leaseDurationSeconds", -5}}}}),
                      "default", "l", false),
      422, invalid + "spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0"));
}

Json service(const Json& patch = Json::object()) {
  return kind_patched({{"apiVersion", "v1"},
                  {"kind", "Service"},
                  {"metadata", {{"name", "svc"}}},
                  {"spec", {{"selector", {{"app", "web"}}}, {"ports", {{{"port", 80}}}}}}},
                 patch);
}

TEST(ValidationServiceTest, Create) {
  const std::string invalid = "Service \"svc\" is invalid: ";
  const std::string range = "must be between 1 and 65535, inclusive";
  run_kind_creates(
      builtin("services"),
      {{"valid", service(), ""},
       {"no ports", service({{"spec", {{"ports", nullptr}}}}),
        invalid + "spec.ports: Required value"},
       {"headless without ports", service({{"spec", {{"ports", nullptr}, {"clusterIP", "None"}}}}),
        ""},
       {"external name",
        service({{"spec",
                  {{"ports", nullptr},
                   {"type", "ExternalName"},
                   {"externalName", "db.example.com."}}}}),
        ""},
       {"external name missing",
        service({{"spec", {{"ports", nullptr}, {"type", "ExternalName"}}}}),
        invalid + "spec.externalName: Required value"},
       {"bad type", service({{"spec", {{"type", "Foo"}}}}),
        invalid + "spec.type: Unsupported value: \"Foo\": supported values: \"ClusterIP\", "
                  "\"ExternalName\", "
                  "\"LoadBalancer\", \"NodePort\""},
       {"unnamed ports", service({{"spec", {{"ports", {{{"port", 80}}, {{"port", 81}}}}}}}),
        invalid + "[spec.ports[0].name: Required value, spec.ports[1].name: Required value]"},
       {"port zero", service({{"spec", {{"ports", {{{"port", 0}}}}}}}),
        invalid + "[spec.ports[0].port: Invalid value: 0: " + range +
            ", spec.ports[0].targetPort: Invalid value: 0: " + range + "]"},
       {"bad protocol", service({{"spec", {{"ports", {{{"port", 80}, {"protocol", "HTTP"}}}}}}}),
        invalid + "spec.ports[0].protocol: Unsupported value: \"HTTP\": supported values: "
                  "\"SCTP\", \"TCP\", \"UDP\""},
       {"duplicate port",
        service({{"spec",
                  {{"ports", {{{"name", "a"}, {"port", 80}}, {{"name", "b"}, {"port", 80}}}}}}}),
        invalid + "spec.ports[1]: Duplicate value: "
                  "{\"Name\":\"\",\"Protocol\":\"TCP\",\"AppProtocol\":null,"
                  "\"Port\":80,\"TargetPort\":0,\"NodePort\":0}"},
       {"nodePort on ClusterIP",
        service({{"spec", {{"ports", {{{"port", 80}, {"nodePort", 30080}}}}}}}),
        invalid + "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"},
       {"headless load balancer",
        service({{"spec", {{"type", "LoadBalancer"}, {"clusterIP", "None"}}}}),
        invalid + "spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for "
                  "LoadBalancer services"},
       {"bad selector", service({{"spec", {{"selector", {{"app", "a b"}}}}}}),
        invalid + "spec.selector: Invalid value: \"a b\": " + kLabelValueMsg},
       {"externalTrafficPolicy on ClusterIP",
        service({{"spec", {{"externalTrafficPolicy", "Local"}}}}),
        invalid + "spec.externalTrafficPolicy: Invalid value: \"Local\": may only be set for "
                  "externally-accessible services"}});
}

TEST(ValidationServiceTest, ClusterIpIsImmutable) {
  const ResourceInfo& services = builtin("services");
  const Json old = service({{"spec", {{"clusterIP", "10.0.0.1"}, {"clusterIPs", {"10.0.0.1"}}}}});
  EXPECT_TRUE(is_valid(validate_update(services, old, service(), "default", "svc", false)));
  EXPECT_TRUE(is_status(
      validate_update(services, old, service({{"spec", {{"clusterIP", "10.0.0.2"}}}}), "default",
                      "svc", false),
      422,
      "Service \"svc\" is invalid: spec.clusterIPs[0]: Invalid value: [\"10.0.0.2\"]: may not "
      "change once set"));
}

}  // namespace
}  // namespace kubesim::fakeapi
