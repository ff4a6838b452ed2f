// Built-in kinds are stored as encoding/json renders their Go types: what render_go_json makes of
// a JSON body, and what the server then stores, returns and counts as a change.
#include "fakeapi/internal/encoding/types/go_encoding.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "kubesim/api/resources.h"
#include "tests/fakeapi/fixtures.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;
using testutil::deployment;
using testutil::EventLog;
using testutil::settle;

json rendered(std::string_view group, std::string_view kind, json object) {
  const types::MessageSpec* spec = types::go_type_of(group, kind);
  EXPECT_NE(spec, nullptr) << kind;
  if (spec != nullptr) types::render_go_json(*spec, object);
  return object;
}

TEST(GoEncodingTest, ZeroValuedOmitEmptyScalarsGoAndOtherValuesStay) {
  const json got = rendered("apps", "Deployment",
                            {{"spec", {{"paused", false}, {"minReadySeconds", 0}, {"replicas", 0}}},
                             {"status", {{"replicas", 0}, {"readyReplicas", 2}, {"observedGeneration", 0}}}});
  // paused and minReadySeconds are omitempty values; replicas is a pointer, so its 0 stays.
  EXPECT_FALSE(got["spec"].contains("paused"));
  EXPECT_FALSE(got["spec"].contains("minReadySeconds"));
  EXPECT_EQ(got["spec"]["replicas"], 0);
  EXPECT_EQ(got["status"], json({{"readyReplicas", 2}}));
}

TEST(GoEncodingTest, AbsentValueStructsAppearWithTheirDefaults) {
  // As kube-apiserver 1.33 returns a Deployment: value structs are never omitted, a nil slice
  // without omitempty is null, a nil pointer without omitempty is null, and so is a zero Time
  // without omitzero (creationTimestamp: omitzero only came with 1.34's apimachinery).
  const json got = rendered("apps", "Deployment", {{"spec", {{"replicas", 1}}}});
  const json zero_meta = {{"creationTimestamp", nullptr}};
  EXPECT_EQ(got["status"], json::object());
  EXPECT_EQ(got["metadata"], zero_meta);
  EXPECT_EQ(got["spec"]["strategy"], json::object());
  EXPECT_EQ(got["spec"]["selector"], nullptr);
  EXPECT_EQ(got["spec"]["template"],
            json({{"metadata", zero_meta}, {"spec", {{"containers", nullptr}}}}));
}

TEST(GoEncodingTest, NullsAndEmptyListsAndMapsReadAsAbsent) {
  const json cm = rendered("", "ConfigMap", {{"data", json::object()}, {"binaryData", nullptr}});
  EXPECT_FALSE(cm.contains("data"));
  EXPECT_FALSE(cm.contains("binaryData"));
  EXPECT_EQ(rendered("", "ConfigMap", {{"data", {{"a", ""}}}})["data"], json({{"a", ""}}));
  const json meta = rendered("", "ConfigMap",
                             {{"metadata", {{"name", "a"}, {"labels", json::object()},
                                            {"finalizers", json::array()}, {"generation", 0},
                                            {"namespace", nullptr}}}});
  EXPECT_EQ(meta["metadata"], json({{"name", "a"}, {"creationTimestamp", nullptr}}));
  // containers has no omitempty: an empty list is stored as nil and comes back null.
  const json d = rendered("apps", "Deployment",
                          {{"spec", {{"template", {{"spec", {{"containers", json::array()}}}}}}}});
  EXPECT_EQ(d["spec"]["template"]["spec"]["containers"], nullptr);
}

TEST(GoEncodingTest, PointersKeepTheirZeroValues) {
  // ConfigMap.immutable is *bool: false is a value, null is nil.
  EXPECT_EQ(rendered("", "ConfigMap", {{"immutable", false}})["immutable"], false);
  EXPECT_FALSE(rendered("", "ConfigMap", {{"immutable", nullptr}}).contains("immutable"));
}

TEST(GoEncodingTest, TheRulesReachIntoNestedListsAndInlinedStructs) {
  json container = {{"name", "main"}, {"image", "nginx"}, {"ports", json::array()},
                    {"workingDir", ""}, {"stdin", false}};
  // A Volume's source is an inlined struct; a ConfigMap source's name comes from an inlined
  // LocalObjectReference.
  json volume = {{"name", "v"}, {"configMap", {{"name", ""}, {"items", json::array()}}}};
  const json got = rendered(
      "apps", "Deployment",
      {{"spec",
        {{"template",
          {{"spec", {{"containers", {container}}, {"volumes", {volume}}, {"hostNetwork", false}}}}}}}});
  const json& pod = got["spec"]["template"]["spec"];
  // Container.resources is a value struct: it appears, empty.
  EXPECT_EQ(pod["containers"][0], json({{"name", "main"}, {"image", "nginx"}, {"resources", json::object()}}));
  EXPECT_EQ(pod["volumes"][0], json({{"name", "v"}, {"configMap", json::object()}}));
  EXPECT_FALSE(pod.contains("hostNetwork"));
}

TEST(GoEncodingTest, KindsWithoutATableHaveNoGoType) {
  EXPECT_EQ(types::go_type_of("", "Widget"), nullptr);
  EXPECT_NE(types::go_type_of("", "ConfigMap"), nullptr);
}

TEST(GoEncodingTest, UnknownFieldsAreNamedAsTheStrictDecoderNamesThemAndDropped) {
  const types::MessageSpec* deployment = types::go_type_of("apps", "Deployment");
  ASSERT_NE(deployment, nullptr);
  json d = {{"apiVersion", "apps/v1"},
            {"kind", "Deployment"},
            {"metadata", {{"name", "web"}, {"colour", "red"}}},
            {"spec",
             {{"replica", 2},
              {"template", {{"spec", {{"containers", {{{"name", "c"}, {"imagePullPolicyy", "x"}}}}}}}}}},
            {"extra", true}};
  EXPECT_EQ(types::unknown_fields(*deployment, d),
            (std::vector<std::string>{"extra", "metadata.colour", "spec.replica",
                                      "spec.template.spec.containers[0].imagePullPolicyy"}));
  types::render_go_json(*deployment, d);
  EXPECT_TRUE(types::unknown_fields(*deployment, d).empty());
  EXPECT_EQ(d["apiVersion"], "apps/v1");  // TypeMeta of a whole object is known
  EXPECT_EQ(d["metadata"], json({{"name", "web"}, {"creationTimestamp", nullptr}}));
  EXPECT_FALSE(d["spec"].contains("replica"));
}

// A Deployment reaching every kind of member the walks go into (structs, lists of structs, maps
// of strings, inlined structs), changed at random places: an unknown member added to an object,
// or a value replaced by one of another JSON type.
json mutated_deployment() {
  json d = json::parse(R"({
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "labels": {"app": "web"}},
    "spec": {
      "replicas": 2,
      "selector": {"matchLabels": {"app": "web"}},
      "strategy": {"rollingUpdate": {"maxSurge": 1}},
      "template": {
        "metadata": {"labels": {"app": "web"}},
        "spec": {"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 80}],
                                 "env": [{"name": "A", "value": "1"}]}]}}},
    "status": {"conditions": [{"type": "Available", "status": "True"}]}})");
  std::vector<json::json_pointer> nodes;
  const auto walk = [&nodes](const auto& self, const json& j,
                             const json::json_pointer& at) -> void {
    nodes.push_back(at);
    if (j.is_object()) {
      for (const auto& [k, v] : j.items()) self(self, v, at / k);
    } else if (j.is_array()) {
      for (std::size_t i = 0; i < j.size(); ++i) self(self, j[i], at / i);
    }
  };
  const int changes = *rc::gen::inRange(1, 4);
  for (int c = 0; c < changes; ++c) {
    nodes.clear();
    walk(walk, d, json::json_pointer());
    const json::json_pointer at = *rc::gen::elementOf(nodes);
    json& node = d[at];
    if (node.is_object() && *rc::gen::arbitrary<bool>()) {
      node[*rc::gen::element<std::string>("foo", "nmae", "Name")] = 1;
    } else if (!at.empty()) {
      node = *rc::gen::element<json>(json(), json("x"), json(3), json(true), json::object(),
                                     json::array(), json::array({json::object({{"foo", 1}})}),
                                     json::object({{"foo", json::object()}}));
    }
  }
  return d;
}

// unknown_fields reads what render_go_json would drop, without copying or rendering.
RC_GTEST_PROP(GoEncodingProperty, UnknownFieldsAreWhatTheRenderingDrops, ()) {
  const types::MessageSpec* deployment = types::go_type_of("apps", "Deployment");
  RC_ASSERT(deployment != nullptr);
  const json j = mutated_deployment();
  json rendered = j;
  std::vector<std::string> dropped;
  try {
    types::render_go_json(*deployment, rendered, &dropped);
  } catch (const json::exception&) {
    RC_DISCARD("a body of a shape the decode step refuses first");
  }
  RC_ASSERT(types::unknown_fields(*deployment, j) == dropped);
}

class GoEncodingServerTest : public testutil::ServerTest {
 protected:
  testutil::WarnedWrites writes_{server_};
};

TEST_F(GoEncodingServerTest, StoredObjectsLeaveOutZeroValuedOmitEmptyFields) {
  auto input = testutil::config_map("default", "a", {{"k", "v"}})->edited([](json& j) {
    j["binaryData"] = json::object();
    j["metadata"]["generation"] = 0;
  });
  auto created = must(writes_.create(testutil::kConfigMaps, "default", input, api::CreateOptions()));
  ASSERT_TRUE(created);
  EXPECT_FALSE(created->json().contains("binaryData"));
  EXPECT_FALSE(created->json()["metadata"].contains("generation"));
  auto got = must(get_cm("a"));
  EXPECT_EQ(got->serialized(), created->serialized());
}

TEST_F(GoEncodingServerTest, AStatusWriteOfZerosToANewDeploymentIsNoWrite) {
  auto d = must(writes_.create(testutil::kDeployments, "default", deployment("default", "web", 0),
                               api::CreateOptions()));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->json()["spec"]["replicas"], 0);  // a pointer: its zero is kept
  auto log = watch_from_now(testutil::kDeployments, "default");
  const auto revision = server_.revision();
  auto zeros = d->edited([](json& j) { j["status"] = {{"replicas", 0}, {"readyReplicas", 0}}; });
  auto same = must(update(zeros, /*status=*/true));
  ASSERT_TRUE(same);
  EXPECT_EQ(same->resource_version(), d->resource_version());
  EXPECT_EQ(server_.revision(), revision);
  // A nonzero count is a change, and only it is stored.
  auto one = d->edited([](json& j) { j["status"] = {{"replicas", 1}, {"readyReplicas", 0}}; });
  auto written = must(update(one, /*status=*/true));
  ASSERT_TRUE(written);
  EXPECT_EQ(written->json()["status"], json({{"replicas", 1}}));
  settle(loop_);
  EXPECT_EQ(log->size(), 1u);
}

TEST_F(GoEncodingServerTest, PodsAndEventsComeBackAsKubeApiserverRendersThem) {
  auto pod = api::make_object({{"apiVersion", "v1"},
                               {"kind", "Pod"},
                               {"metadata", {{"name", "p"}}},
                               {"spec", {{"containers", {{{"name", "c"}, {"image", "nginx"}}}}}}});
  auto p = must(writes_.create(testutil::kPods, "default", pod, api::CreateOptions()));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->json()["spec"]["containers"][0]["resources"], json::object());
  EXPECT_EQ(p->json()["status"], json({{"phase", "Pending"}}));
  auto event = api::make_object({{"apiVersion", "v1"},
                                 {"kind", "Event"},
                                 {"metadata", {{"name", "e"}}},
                                 {"involvedObject", {{"kind", "Pod"}, {"name", "p"}}},
                                 {"reason", "Started"}});
  auto e = must(writes_.create(api::kEvents, "default", event, api::CreateOptions()));
  ASSERT_TRUE(e);
  // Value structs appear, zero Times are null, omitempty zeros are left out.
  EXPECT_EQ(e->json()["source"], json::object());
  EXPECT_EQ(e->json()["firstTimestamp"], nullptr);
  EXPECT_EQ(e->json()["eventTime"], nullptr);
  EXPECT_FALSE(e->json().contains("count"));
}

TEST_F(GoEncodingServerTest, StrictFieldValidationFailsWritesWithUnknownFieldsOthersDropThem) {
  auto typo = testutil::config_map("default", "a", {{"k", "v"}})->edited([](json& j) {
    j["dta"] = {{"k", "w"}};
    j["metadata"]["lables"] = {{"x", "y"}};
  });
  api::CreateOptions strict;
  strict.field_validation = api::FieldValidation::kStrict;
  auto refused = writes_.create(testutil::kConfigMaps, "default", typo, strict);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code, 400);
  EXPECT_EQ(refused.status().message,
            "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: "
            "unknown field \"dta\", unknown field \"metadata.lables\"");
  // A type error is the decoder's first pass, so it is answered before unknown fields.
  auto mistyped = typo->edited([](json& j) { j["data"]["k"] = 1; });
  auto type_error = writes_.create(testutil::kConfigMaps, "default", mistyped, strict);
  ASSERT_FALSE(type_error.ok());
  EXPECT_NE(type_error.status().message.find("cannot unmarshal number"), std::string::npos)
      << type_error.status().message;
  EXPECT_EQ(server_.revision(), 4);  // nothing was written
  EXPECT_TRUE(writes_.warnings().empty());
  // The default (Warn) and Ignore drop the unknown fields and store the rest; Warn says so.
  auto created = must(writes_.create(testutil::kConfigMaps, "default", typo, api::CreateOptions()));
  ASSERT_TRUE(created);
  EXPECT_EQ(writes_.warnings(),
            (std::vector<std::string>{"unknown field \"dta\"", "unknown field \"metadata.lables\""}));
  EXPECT_FALSE(created->json().contains("dta"));
  EXPECT_FALSE(created->json()["metadata"].contains("lables"));
  // An update only adding an unknown field is no write; under Strict it fails.
  api::UpdateOptions ignore;
  ignore.field_validation = api::FieldValidation::kIgnore;
  auto same = must(writes_.update(testutil::kConfigMaps, "default",
                                  typo->with_resource_version(std::string(created->resource_version())),
                                  ignore));
  ASSERT_TRUE(same);
  EXPECT_EQ(same->resource_version(), created->resource_version());
  EXPECT_TRUE(writes_.warnings().empty());
  api::UpdateOptions strict_update;
  strict_update.field_validation = api::FieldValidation::kStrict;
  auto refused_update = writes_.update(testutil::kConfigMaps, "default", typo, strict_update);
  ASSERT_FALSE(refused_update.ok());
  EXPECT_EQ(refused_update.status().code, 400);
  // A patch's result is checked too; its message has no preamble.
  api::PatchOptions strict_patch;
  strict_patch.field_validation = api::FieldValidation::kStrict;
  auto patched = writes_.patch(testutil::kConfigMaps, "default", "a", api::PatchType::kMergePatch,
                               R"({"metadata":{"app":"x"}})", strict_patch);
  ASSERT_FALSE(patched.ok());
  EXPECT_EQ(patched.status().code, 400);
  EXPECT_EQ(patched.status().message, "strict decoding error: unknown field \"metadata.app\"");
}

// Warn's warnings come once the body has decoded, with whatever answer follows, as
// kube-apiserver adds them to the response headers while it decodes.
TEST_F(GoEncodingServerTest, UnknownFieldWarningsComeWithFailuresAfterTheDecode) {
  const std::vector<std::string> dta = {"unknown field \"dta\""};
  const auto with_dta = [](const api::ObjectPtr& o) {
    return o->edited([](json& j) { j["dta"] = {{"k", "w"}}; });
  };
  auto a = must(writes_.create(testutil::kConfigMaps, "default",
                               testutil::config_map("default", "a", {{"k", "v"}}), {}));
  ASSERT_TRUE(a);
  const Revision before = server_.revision();
  // 409: the name is taken.
  auto taken = writes_.create(testutil::kConfigMaps, "default",
                              with_dta(a->with_resource_version("")), {});
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.status().code, 409);
  EXPECT_EQ(writes_.warnings(), dta);
  // 422: the name is invalid.
  auto invalid = writes_.create(
      testutil::kConfigMaps, "default",
      with_dta(testutil::config_map("default", "Not_A_Name", {{"k", "v"}})), {});
  ASSERT_FALSE(invalid.ok());
  EXPECT_EQ(invalid.status().code, 422);
  EXPECT_EQ(writes_.warnings(), dta);
  // 404: the handler decodes the body before the store looks for the object.
  auto missing = writes_.update(testutil::kConfigMaps, "default",
                                with_dta(testutil::config_map("default", "nope", {})), {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code, 404);
  EXPECT_EQ(writes_.warnings(), dta);
  // 409: a stale resourceVersion.
  auto stale = writes_.update(testutil::kConfigMaps, "default",
                              with_dta(a)->with_resource_version("1"), {});
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.status().code, 409);
  EXPECT_EQ(writes_.warnings(), dta);
  // 422 from a merge patch: the patched object is what decodes.
  auto patched = writes_.patch(testutil::kConfigMaps, "default", "a", api::PatchType::kMergePatch,
                               R"({"dta":{"k":"w"},"data":{"bad key":"x"}})", {});
  ASSERT_FALSE(patched.ok());
  EXPECT_EQ(patched.status().code, 422);
  EXPECT_EQ(writes_.warnings(), dta);
  // A body that does not decode gets no warnings.
  auto mistyped = writes_.create(testutil::kConfigMaps, "default",
                                 with_dta(a)->edited([](json& j) { j["data"]["k"] = 1; }), {});
  ASSERT_FALSE(mistyped.ok());
  EXPECT_EQ(mistyped.status().code, 400);
  EXPECT_TRUE(writes_.warnings().empty());
  EXPECT_EQ(server_.revision(), before);
}

// The whole body decodes, so a status the main resource ignores is read for unknown fields too.
TEST_F(GoEncodingServerTest, UnknownFieldsOfAnIgnoredStatusAreWarnedOf) {
  auto d = must(writes_.create(testutil::kDeployments, "default",
                               testutil::deployment("default", "d", 1), {}));
  ASSERT_TRUE(d);
  auto updated = must(writes_.update(
      testutil::kDeployments, "default",
      d->edited([](json& j) { j["status"]["replicaz"] = 3; j["spec"]["replicas"] = 2; }), {}));
  ASSERT_TRUE(updated);
  EXPECT_EQ(writes_.warnings(), (std::vector<std::string>{"unknown field \"status.replicaz\""}));
}

TEST_F(GoEncodingServerTest, AnUpdateThatOnlyAddsZeroValuedFieldsIsNoWrite) {
  auto d = must(writes_.create(testutil::kDeployments, "default", deployment("default", "web", 1),
                               api::CreateOptions()));
  ASSERT_TRUE(d);
  auto padded = d->edited([](json& j) {
    j["spec"]["paused"] = false;
    j["spec"]["minReadySeconds"] = 0;
  });
  auto same = must(update(padded));
  ASSERT_TRUE(same);
  EXPECT_EQ(same->resource_version(), d->resource_version());
  EXPECT_EQ(same->generation(), 1);
}

}  // namespace
}  // namespace kubesim::fakeapi
