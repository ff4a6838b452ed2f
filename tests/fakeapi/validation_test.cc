#include "kubesim/fakeapi/validation.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/fakeapi/validation_test_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace validation_testing;  // NOLINT: test helpers

const std::string kStructType =
    "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
    "\"json:\\\"kind,omitempty\\\"\" }";
const std::string kScheme = "\"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30\"";

struct ShapeCase {
  const char* name;
  std::string resource;
  std::string group;
  Json body;
  int code;  // 0: valid
  std::string message;
};

TEST(ValidationShapeTest, CreateBodiesAreDecodedAsTheResourcesKind) {
  const std::vector<ShapeCase> cases = {
      {"configmap", "configmaps", "", config_map(), 0, ""},
      {"no apiVersion or kind", "configmaps", "", {{"metadata", {{"name", "cm"}}}}, 0, ""},
      {"null body decodes as empty", "configmaps", "", Json(), 422,
       "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is "
       "required"},
      {"array", "configmaps", "", Json::array(), 400,
       "the object provided is unrecognized (must be of type ConfigMap): couldn't get "
       "version/kind; json "
       "parse error: json: cannot unmarshal array into Go value of type " +
           kStructType + " (5b5d)"},
      {"string", "configmaps", "", Json("x"), 400,
       "the object provided is unrecognized (must be of type ConfigMap): couldn't get "
       "version/kind; json "
       "parse error: json: cannot unmarshal string into Go value of type " +
           kStructType + " (227822)"},
      {"numeric apiVersion",
       "configmaps",
       "",
       {{"apiVersion", 5}},
       400,
       "the object provided is unrecognized (must be of type ConfigMap): couldn't get "
       "version/kind; json "
       "parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string "
       "({\"apiVersion\":5})"},
      {"three-part apiVersion",
       "configmaps",
       "",
       {{"apiVersion", "a/b/c"}, {"kind", "ConfigMap"}},
       400,
       "the object provided is unrecognized (must be of type ConfigMap): unexpected GroupVersion "
       "string: "
       "a/b/c ({\"apiVersion\":\"a/b/c\",\"kind\":\" ...)"},
      {"unknown version",
       "configmaps",
       "",
       {{"apiVersion", "v2"}, {"kind", "ConfigMap"}},
       400,
       "ConfigMap in version \"v2\" cannot be handled as a ConfigMap: no kind \"ConfigMap\" is "
       "registered for "
       "version \"v2\" in scheme " +
           kScheme},
      {"unknown kind",
       "configmaps",
       "",
       {{"apiVersion", "v1"}, {"kind", "Foo"}},
       400,
       "Foo in version \"v1\" cannot be handled as a ConfigMap: no kind \"Foo\" is registered for "
       "version "
       "\"v1\" in scheme " +
           kScheme},
      {"other kind",
       "configmaps",
       "",
       {{"apiVersion", "v1"}, {"kind", "Secret"}},
       400,
       "Secret in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Secret) to "
       "(core.ConfigMap): "
       "unknown conversion"},
      {"other group's kind",
       "configmaps",
       "",
       {{"apiVersion", "apps/v1"}, {"kind", "Deployment"}},
       400,
       "Deployment in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Deployment) "
       "to "
       "(core.ConfigMap): unknown conversion"},
      {"removed version",
       "deployments",
       "apps",
       {{"apiVersion", "apps/v1beta1"}, {"kind", "Deployment"}},
       400,
       "Deployment in version \"v1beta1\" cannot be handled as a Deployment: no kind "
       "\"Deployment\" is "
       "registered for version \"apps/v1beta1\" in scheme " +
           kScheme},
      {"kind only",
       "deployments",
       "apps",
       {{"kind", "Deployment"}, {"metadata", {{"name", "d"}}}, {"spec", deployment()["spec"]}},
       0,
       ""},
  };
  for (const ShapeCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto s = validate_create(builtin(c.resource, c.group), c.body, "default");
    if (c.code == 0) {
      EXPECT_TRUE(is_valid(s));
    } else {
      EXPECT_TRUE(is_status(s, c.code, c.message));
    }
  }
}

TEST(ValidationShapeTest, NamespaceInTheBodyMustMatchTheRequest) {
  Json cm = config_map();
  cm["metadata"]["namespace"] = "other";
  EXPECT_TRUE(is_status(
      validate_create(builtin("configmaps"), cm, "default"), 400,
      "the namespace of the provided object does not match the namespace sent on the request"));
  cm["metadata"].erase("namespace");
  EXPECT_TRUE(is_valid(validate_create(builtin("configmaps"), cm, "default")));
  // A cluster-scoped object's namespace is cleared, not rejected.
  const Json ns = {{"metadata", {{"name", "team-a"}, {"namespace", "x"}}}};
  EXPECT_TRUE(is_valid(validate_create(builtin("namespaces"), ns, "")));
}

TEST(ValidationShapeTest, UpdateNameMustMatchTheUrl) {
  const Json old = config_map();
  Json renamed = config_map("other");
  EXPECT_TRUE(
      is_status(validate_update(builtin("configmaps"), old, renamed, "default", "cm", false), 400,
                "the name of the object (other) does not match the name on the URL (cm)"));
  renamed["metadata"].erase("name");
  EXPECT_TRUE(
      is_status(validate_update(builtin("configmaps"), old, renamed, "default", "cm", false), 400,
                "the name of the object () does not match the name on the URL (cm)"));
  EXPECT_TRUE(
      is_valid(validate_update(builtin("configmaps"), old, config_map(), "default", "cm", false)));
  Json moved = config_map();
  moved["metadata"]["namespace"] = "other";
  EXPECT_TRUE(is_status(
      validate_update(builtin("configmaps"), old, moved, "default", "cm", false), 400,
      "the namespace of the provided object does not match the namespace sent on the request"));
}

TEST(ValidationShapeTest, CustomResourcesCheckVersionAndKind) {
  const ResourceInfo widget = widget_info();
  Json w = {{"apiVersion", "example.com/v1"},
            {"kind", "Widget"},
            {"metadata", {{"name", "w"}}},
            {"spec", {{"x", 1}}}};
  EXPECT_TRUE(is_valid(validate_create(widget, w, "default")));
  w["apiVersion"] = "example.com/v2";
  EXPECT_TRUE(is_status(
      validate_create(widget, w, "default"), 400,
      "the API version in the data (example.com/v2) does not match the expected API version "
      "(example.com/v1)"));
  w["apiVersion"] = "example.com/v1";
  w["kind"] = "Gadget";
  EXPECT_TRUE(is_status(
      validate_create(widget, w, "default"), 422,
      "Widget.example.com \"w\" is invalid: kind: Invalid value: \"Gadget\": must be Widget"));
  // Custom resources get the generic metadata rules only: any finalizer name is allowed.
  w["kind"] = "Widget";
  w["metadata"]["finalizers"] = {"custom"};
  EXPECT_TRUE(is_valid(validate_create(widget, w, "default")));
  w["metadata"]["name"] = "W";
  EXPECT_TRUE(
      is_status(validate_create(widget, w, "default"), 422,
                "Widget.example.com \"W\" is invalid: metadata.name: Invalid value: \"W\": " +
                    kSubdomainMsg));
}

struct DecodeCase {
  const char* name;
  std::string resource;
  std::string group;
  Json body;
  std::string message;
};

Json with_at(Json base, const Json::json_pointer& at, Json value) {
  base[at] = std::move(value);
  return base;
}

TEST(ValidationDecodeTest, WrongJsonTypesAreDecodeErrors) {
  const std::string cm = "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: ";
  const std::string deploy = "Deployment in version \"v1\" cannot be handled as a Deployment: ";
  const std::string pod_prefix = "Pod in version \"v1\" cannot be handled as a Pod: ";
  const std::vector<DecodeCase> cases = {
      {"number in data", "configmaps", "", with_at(config_map(), "/data/a"_json_pointer, 1),
       cm + "json: cannot unmarshal number into Go struct field ConfigMap.data of type string"},
      {"object in data", "configmaps", "", with_at(config_map(), "/data/a"_json_pointer, {{"x", 1}}),
       cm + "json: cannot unmarshal object into Go struct field ConfigMap.data of type string"},
      {"string data", "configmaps", "", with_at(config_map(), "/data"_json_pointer, "x"),
       cm + "json: cannot unmarshal string into Go struct field ConfigMap.data of type "
            "map[string]string"},
      {"number label", "configmaps", "",
       with_at(config_map(), "/metadata/labels"_json_pointer, {{"a", 1}}),
       cm + "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type "
            "string"},
      {"bool immutable as string", "configmaps", "",
       with_at(config_map(), "/immutable"_json_pointer, "yes"),
       cm + "json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool"},
      {"string replicas", "deployments", "apps",
       with_at(deployment(), "/spec/replicas"_json_pointer, "3"),
       deploy + "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas "
                "of type int32"},
      {"fractional replicas", "deployments", "apps",
       with_at(deployment(), "/spec/replicas"_json_pointer, 1.5),
       deploy + "json: cannot unmarshal number 1.5 into Go struct field "
                "DeploymentSpec.spec.replicas of type int32"},
      {"string selector", "deployments", "apps",
       with_at(deployment(), "/spec/selector"_json_pointer, "app=web"),
       deploy + "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.selector "
                "of type "
                "v1.LabelSelector"},
      {"template container image", "deployments", "apps",
       with_at(deployment(), "/spec/template/spec/containers/0/image"_json_pointer, 7),
       deploy + "json: cannot unmarshal number into Go struct field "
                "Container.spec.template.spec.containers.image "
                "of type string"},
      {"containers not a list", "pods", "", with_at(pod(), "/spec/containers"_json_pointer, "x"),
       pod_prefix + "json: cannot unmarshal string into Go struct field PodSpec.spec.containers of "
                    "type []v1.Container"},
      {"restartPolicy number", "pods", "", with_at(pod(), "/spec/restartPolicy"_json_pointer, 1),
       pod_prefix +
           "json: cannot unmarshal number into Go struct field PodSpec.spec.restartPolicy of type "
           "v1.RestartPolicy"},
      {"service targetPort bool",
       "services",
       "",
       {{"metadata", {{"name", "svc"}}},
        {"spec", {{"ports", {{{"port", 80}, {"targetPort", true}}}}}}},
       "Service in version \"v1\" cannot be handled as a Service: json: cannot unmarshal bool into "
       "Go struct field "
       "ServicePort.spec.ports.targetPort of type int32"},
      {"secret bad base64",
       "secrets",
       "",
       {{"metadata", {{"name", "s"}}}, {"data", {{"a", "YWJj!"}}}},
       "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte "
       "4"},
      {"secret missing padding",
       "secrets",
       "",
       {{"metadata", {{"name", "s"}}}, {"data", {{"a", "YQ="}}}},
       "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte "
       "3"},
      {"secret number",
       "secrets",
       "",
       {{"metadata", {{"name", "s"}}}, {"data", {{"a", 1}}}},
       "Secret in version \"v1\" cannot be handled as a Secret: json: cannot unmarshal number into "
       "Go struct field "
       "Secret.data of type []uint8"},
  };
  for (const DecodeCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(is_status(validate_create(builtin(c.resource, c.group), c.body, "default"), 400,
                          c.message));
  }
}

TEST(ValidationDecodeTest, ValidBase64AndIntOrStringsDecode) {
  const Json secret = {{"metadata", {{"name", "s"}}},
                       {"data", {{"a", "YWJj"}, {"b", "YQ=="}, {"c", "YW\nJj"}}}};
  EXPECT_TRUE(is_valid(validate_create(builtin("secrets"), secret, "default")));
  const Json svc = {{"metadata", {{"name", "svc"}}},
                    {"spec",
                     {{"ports",
                       {{{"name", "a"}, {"port", 80}, {"targetPort", "http"}},
                        {{"name", "b"}, {"port", 81}, {"targetPort", 8081}}}}}}};
  EXPECT_TRUE(is_valid(validate_create(builtin("services"), svc, "default")));
}

}  // namespace
}  // namespace kubesim::fakeapi
