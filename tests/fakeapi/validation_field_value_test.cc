#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api/internal/object_access.h"
#include "kubesim/fakeapi/validation.h"
#include "tests/fakeapi/validation_test_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace validation_testing;  // NOLINT: test helpers

struct FieldCase {
  std::string resource;
  std::string group;
  Json obj;
  std::string path;
  std::string value;
};

TEST(ValidationFieldValueTest, SelectableFieldsOfBuiltins) {
  const Json running = {
      {"metadata", {{"name", "p"}, {"namespace", "ns"}}},
      {"spec", {{"nodeName", "node-1"}, {"restartPolicy", "Never"}, {"hostNetwork", true}}},
      {"status", {{"phase", "Running"}, {"podIPs", {{{"ip", "10.0.0.1"}}, {{"ip", "fd00::1"}}}}}}};
  const Json legacy_ip = {{"status", {{"podIP", "10.0.0.9"}}}};
  const Json event = {{"involvedObject", {{"kind", "Pod"}, {"name", "p"}, {"uid", "u"}}},
                      {"reason", "Started"},
                      {"reportingComponent", "kubelet"},
                      {"type", "Normal"}};
  const std::vector<FieldCase> cases = {
      {"pods", "", running, "metadata.name", "p"},
      {"pods", "", running, "metadata.namespace", "ns"},
      {"pods", "", running, "spec.nodeName", "node-1"},
      {"pods", "", running, "spec.restartPolicy", "Never"},
      {"pods", "", running, "spec.schedulerName", ""},
      {"pods", "", running, "spec.hostNetwork", "true"},
      {"pods", "", pod(), "spec.hostNetwork", "false"},
      {"pods", "", running, "status.phase", "Running"},
      {"pods", "", running, "status.podIP", "10.0.0.1"},
      {"pods", "", running, "status.podIPs", "10.0.0.1,fd00::1"},
      {"pods", "", legacy_ip, "status.podIP", "10.0.0.9"},
      {"pods", "", legacy_ip, "status.podIPs", "10.0.0.9"},
      {"pods", "", pod(), "status.nominatedNodeName", ""},
      {"events", "", event, "involvedObject.kind", "Pod"},
      {"events", "", event, "involvedObject.uid", "u"},
      {"events", "", event, "involvedObject.namespace", ""},
      {"events", "", event, "reportingComponent", "kubelet"},
      {"events", "", event, "source", "kubelet"},
      {"events",
       "",
       {{"source", {{"component", "scheduler"}}}, {"reportingComponent", "x"}},
       "source",
       "scheduler"},
      {"events", "", event, "type", "Normal"},
      {"secrets", "", {{"type", "kubernetes.io/tls"}}, "type", "kubernetes.io/tls"},
      {"namespaces",
       "",
       {{"metadata", {{"name", "a"}, {"namespace", "x"}}}, {"status", {{"phase", "Active"}}}},
       "status.phase",
       "Active"},
      {"namespaces",
       "",
       {{"metadata", {{"name", "a"}, {"namespace", "x"}}}},
       "metadata.namespace",
       ""},
      {"nodes", "", Json::object(), "spec.unschedulable", "false"},
      {"nodes", "", {{"spec", {{"unschedulable", true}}}}, "spec.unschedulable", "true"},
      {"replicationcontrollers", "", Json::object(), "status.replicas", "0"},
      {"replicasets", "apps", {{"status", {{"replicas", 3}}}}, "status.replicas", "3"},
      {"jobs", "batch", {{"status", {{"succeeded", 2}}}}, "status.successful", "2"},
      {"jobs", "batch", Json::object(), "status.successful", "0"},
      {"configmaps", "", Json("not an object"), "metadata.name", ""},
  };
  for (const FieldCase& c : cases) {
    SCOPED_TRACE(c.resource + " " + c.path);
    const ResourceInfo info = builtin(c.resource, c.group);
    EXPECT_EQ(field_value(info, c.obj, c.path), c.value);
    if (!c.obj.is_object()) continue;
    // A stored object gives the same value, reading only the fields it is made of.
    for (const auto layout : {api::internal::Layout::kTree, api::internal::Layout::kText}) {
      const api::ObjectPtr stored = api::internal::make_object(c.obj, layout);
      EXPECT_EQ(field_value(info, *stored, c.path), c.value);
    }
  }
}

TEST(ValidationFieldValueTest, CustomResourcesReadTheDottedPath) {
  const ResourceInfo widget = widget_info();
  const Json w = {{"metadata", {{"name", "w"}, {"namespace", "ns"}}},
                  {"spec", {{"color", "red"}, {"size", 3}}}};
  EXPECT_EQ(field_value(widget, w, "metadata.namespace"), "ns");
  EXPECT_EQ(field_value(widget, w, "spec.color"), "red");
  EXPECT_EQ(field_value(widget, w, "spec.size"), "3");
  EXPECT_EQ(field_value(widget, w, "spec.missing"), "");
  const api::ObjectPtr stored = api::internal::make_object(w, api::internal::Layout::kText);
  EXPECT_EQ(field_value(widget, *stored, "spec.color"), "red");
  EXPECT_EQ(field_value(widget, *stored, "spec.size"), "3");
  EXPECT_EQ(field_value(widget, *stored, "spec.color.deeper"), "");
  EXPECT_EQ(field_value(widget, *stored, "metadata.namespace"), "ns");
}

}  // namespace
}  // namespace kubesim::fakeapi
