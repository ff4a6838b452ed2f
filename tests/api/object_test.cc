#include "kubesim/api/object.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <thread>
#include <vector>

#include "api/internal/object_access.h"

namespace kubesim::api {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::StartsWith;

const char* const kDeployment = R"({
  "apiVersion": "apps/v1",
  "kind": "Deployment",
  "metadata": {
    "name": "web",
    "namespace": "shop",
    "generateName": "web-",
    "uid": "6b1c3f7e-9d1f-4c55-9a53-0a1f2b3c4d5e",
    "resourceVersion": "42",
    "generation": 3,
    "creationTimestamp": "2025-01-01T00:00:07Z",
    "deletionTimestamp": "2025-01-01T00:01:00Z",
    "deletionGracePeriodSeconds": 30,
    "labels": {"tier": "frontend", "app": "web"},
    "annotations": {"deployment.kubernetes.io/revision": "2"},
    "finalizers": ["example.com/cleanup", "foregroundDeletion"],
    "ownerReferences": [
      {"apiVersion": "v1", "kind": "ConfigMap", "name": "cfg", "uid": "u-1"},
      {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs", "uid": "u-2",
       "controller": true, "blockOwnerDeletion": false}
    ]
  },
  "spec": {"replicas": 2}
})";

ObjectPtr deployment() { return make_object(json::parse(kDeployment)); }

TEST(ObjectTest, AccessorsOnRealisticObject) {
  const ObjectPtr o = deployment();
  EXPECT_EQ(o->api_version(), "apps/v1");
  EXPECT_EQ(o->kind(), "Deployment");
  EXPECT_EQ(o->gvk(), (GroupVersionKind{"apps", "v1", "Deployment"}));
  EXPECT_EQ(o->name(), "web");
  EXPECT_EQ(o->namespace_(), "shop");
  EXPECT_EQ(o->generate_name(), "web-");
  EXPECT_EQ(o->uid(), "6b1c3f7e-9d1f-4c55-9a53-0a1f2b3c4d5e");
  EXPECT_EQ(o->resource_version(), "42");
  EXPECT_EQ(o->generation(), 3);
  EXPECT_EQ(o->creation_timestamp(), "2025-01-01T00:00:07Z");
  EXPECT_EQ(o->deletion_timestamp(), "2025-01-01T00:01:00Z");
  EXPECT_EQ(o->deletion_grace_period_seconds(), 30);
  EXPECT_THAT(o->labels(), ElementsAre(Pair("app", "web"), Pair("tier", "frontend")));
  EXPECT_EQ(o->label("app"), "web");
  EXPECT_EQ(o->label("missing"), std::nullopt);
  EXPECT_TRUE(o->labels().contains("tier"));
  EXPECT_EQ(o->annotation("deployment.kubernetes.io/revision"), "2");
  EXPECT_THAT(o->finalizers(), ElementsAre("example.com/cleanup", "foregroundDeletion"));
  EXPECT_TRUE(o->has_finalizer("foregroundDeletion"));
  EXPECT_FALSE(o->has_finalizer("orphan"));
  ASSERT_EQ(o->owner_references().size(), 2u);
  const OwnerReference& cm = o->owner_references()[0];
  EXPECT_EQ(cm.api_version, "v1");
  EXPECT_EQ(cm.kind, "ConfigMap");
  EXPECT_EQ(cm.name, "cfg");
  EXPECT_EQ(cm.uid, "u-1");
  EXPECT_EQ(cm.controller, std::nullopt);
  EXPECT_EQ(cm.block_owner_deletion, std::nullopt);
  ASSERT_NE(o->controller_of(), nullptr);
  EXPECT_EQ(o->controller_of()->name, "rs");
  EXPECT_EQ(o->controller_of()->block_owner_deletion, false);
  EXPECT_EQ(o->key().view(), "shop/web");
  EXPECT_EQ(o->json()["spec"]["replicas"], 2);
}

TEST(ObjectTest, AccessorsOnMissingFields) {
  for (const char* text : {"{}", R"({"metadata":null})", R"({"metadata":{}})",
                           R"({"apiVersion":null,"metadata":{"name":null,"labels":null,)"
                           R"("finalizers":null,"generation":null,"deletionTimestamp":null,)"
                           R"("ownerReferences":null}})"}) {
    SCOPED_TRACE(text);
    auto r = Object::from_string(text);
    ASSERT_TRUE(r.ok()) << r.status();
    const ObjectPtr& o = r.value();
    EXPECT_EQ(o->api_version(), "");
    EXPECT_EQ(o->kind(), "");
    EXPECT_EQ(o->name(), "");
    EXPECT_EQ(o->namespace_(), "");
    EXPECT_EQ(o->uid(), "");
    EXPECT_EQ(o->resource_version(), "");
    EXPECT_EQ(o->generation(), 0);
    EXPECT_EQ(o->creation_timestamp(), "");
    EXPECT_EQ(o->deletion_timestamp(), std::nullopt);
    EXPECT_EQ(o->deletion_grace_period_seconds(), std::nullopt);
    EXPECT_TRUE(o->labels().empty());
    EXPECT_TRUE(o->annotations().empty());
    EXPECT_TRUE(o->finalizers().empty());
    EXPECT_TRUE(o->owner_references().empty());
    EXPECT_EQ(o->controller_of(), nullptr);
    EXPECT_TRUE(o->key().empty());
  }
}

TEST(ObjectTest, ClusterScopedKeyIsTheName) {
  const ObjectPtr o = make_object({{"kind", "Node"}, {"metadata", {{"name", "node-1"}}}});
  EXPECT_EQ(o->key().view(), "node-1");
}

TEST(ObjectTest, RejectsMalformedInput) {
  struct Case {
    const char* text;
    const char* problem;
  };
  const Case cases[] = {
      {R"({"a":)", "malformed JSON at byte 6"},
      {"", "malformed JSON at byte 1"},
      {R"({"a":1} x)", "malformed JSON at byte 9"},
      {"[]", "the object must be a JSON object, got array"},
      {"\"x\"", "the object must be a JSON object, got string"},
      {R"({"kind":3})", "kind must be a string, got number"},
      {R"({"apiVersion":{}})", "apiVersion must be a string, got object"},
      {R"({"metadata":"x"})", "metadata must be an object, got string"},
      {R"({"metadata":{"name":7}})", "metadata.name must be a string, got number"},
      {R"({"metadata":{"namespace":[]}})", "metadata.namespace must be a string, got array"},
      {R"({"metadata":{"resourceVersion":5}})", "metadata.resourceVersion must be a string"},
      {R"({"metadata":{"generation":"1"}})", "metadata.generation must be an integer, got string"},
      {R"({"metadata":{"generation":1.5}})", "metadata.generation must be an integer, got number"},
      {R"({"metadata":{"generation":18446744073709551615}})",
       "metadata.generation is out of the range of a 64-bit integer"},
      {R"({"metadata":{"deletionGracePeriodSeconds":true}})",
       "metadata.deletionGracePeriodSeconds must be an integer, got boolean"},
      {R"({"metadata":{"labels":[]}})", "metadata.labels must be an object of strings, got array"},
      {R"({"metadata":{"labels":{"app":1}}})",
       R"(metadata.labels["app"] must be a string, got number)"},
      {R"({"metadata":{"annotations":{"a":null}}})",
       R"(metadata.annotations["a"] must be a string, got null)"},
      {R"({"metadata":{"finalizers":"f"}})", "metadata.finalizers must be an array, got string"},
      {R"({"metadata":{"finalizers":["a",2]}})", "metadata.finalizers[1] must be a string"},
      {R"({"metadata":{"ownerReferences":{}}})", "metadata.ownerReferences must be an array"},
      {R"({"metadata":{"ownerReferences":[1]}})", "metadata.ownerReferences[0] must be an object"},
      {R"({"metadata":{"ownerReferences":[{"name":1}]}})",
       "metadata.ownerReferences[0].name must be a string"},
      {R"({"metadata":{"ownerReferences":[{},{"controller":"yes"}]}})",
       "metadata.ownerReferences[1].controller must be a boolean, got string"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const auto r = Object::from_string(c.text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code, 400);
    EXPECT_TRUE(is_bad_request(r.status()));
    EXPECT_THAT(r.status().message, HasSubstr(c.problem));
  }
}

void expect_same_object(const Object& tree, const Object& compact);

// Text as serialized() writes it is kept as it is (no tree); any other text is parsed into a
// tree. Either way the Object is the one from_json builds.
TEST(ObjectTest, FromStringKeepsWrittenText) {
  const std::string written =
      R"({"apiVersion":"v1","data":{"k":"v","n":"1"},"kind":"ConfigMap","metadata":)"
      R"({"annotations":{"a":"x\ty"},"finalizers":["f"],"generation":3,"labels":{"app":"web"},)"
      R"("name":"n","namespace":"ns","ownerReferences":[{"apiVersion":"v1","controller":true,)"
      R"("kind":"K","name":"o","uid":"u"}],"selfLink":null,"uid":"1"}})";
  struct Case {
    std::string text;
    internal::Layout layout;
  };
  const Case cases[] = {
      {written, internal::Layout::kText},
      {"{}", internal::Layout::kText},
      {R"({"apiVersion":null,"metadata":null})", internal::Layout::kText},
      {" " + written, internal::Layout::kTree},                                 // space
      {R"({"kind":"ConfigMap","apiVersion":"v1"})", internal::Layout::kTree},  // key order
      {R"({"data":{"n":1.0},"kind":"K"})", internal::Layout::kTree},           // a float
      {"{\"data\":{\"k\":\"caf\xc3\xa9\"}}", internal::Layout::kTree},       // past ASCII
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const auto r = Object::from_string(c.text);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(internal::layout_of(*r.value()), c.layout);
    expect_same_object(*make_object(json::parse(c.text)), *r.value());
  }
}

// An Object built where its text's writer says the metadata lies is the Object read from it.
TEST(ObjectTest, WrittenTextObjectIsTheObjectReadFromTheText) {
  const std::string text =
      R"({"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"creationTimestamp":)"
      R"("2026-01-01T00:00:00Z","generateName":"w-","labels":{"a":"b","c":""},"name":"w-x1",)"
      R"("namespace":"ns","resourceVersion":"7","uid":"u-1"}})";
  const auto at = [&](std::string_view value) {
    const std::size_t off = text.find("\"" + std::string(value) + "\"") + 1;
    return StringMapView::Span{static_cast<std::uint32_t>(off),
                               static_cast<std::uint32_t>(value.size())};
  };
  internal::WrittenMetadata written;
  written.api_version = at("v1");
  written.kind = at("ConfigMap");
  written.creation_timestamp = at("2026-01-01T00:00:00Z");
  written.generate_name = at("w-");
  written.name = at("w-x1");
  written.namespace_ = at("ns");
  written.resource_version = at("7");
  written.uid = at("u-1");
  written.metadata_begin = text.find("\"metadata\":") + 11;
  written.metadata_end = text.size() - 1;
  written.labels = text.find("\"labels\":") + 9;
  const ObjectPtr built = internal::make_written_text_object(text, written);
  const ObjectPtr read = internal::make_text_object(text);
  expect_same_object(*read, *built);
  EXPECT_EQ(built->key().view(), "ns/w-x1");
  EXPECT_EQ(built->label("c"), "");
  EXPECT_EQ(built->metadata_field("uid"), "u-1");
  EXPECT_EQ(built->with_resource_version("8")->resource_version(), "8");
}

// Members after the metadata are found past it: a key of the same name inside the metadata is
// not taken for them, in either layout.
TEST(ObjectTest, MembersAfterTheMetadataAreFoundPastIt) {
  const json with_spec = {{"kind", "K"},
                          {"metadata", {{"annotations", {{"spec", "x"}}}, {"name", "n"}}},
                          {"spec", {{"a", 1}}},
                          {"status", {{"b", 2}}}};
  const json without = {{"kind", "K"}, {"metadata", {{"labels", {{"spec", "x"}, {"status", "y"}}}}}};
  for (const auto layout : {internal::Layout::kText, internal::Layout::kTree}) {
    const ObjectPtr o = internal::make_object(with_spec, layout);
    EXPECT_EQ(o->member_value("spec"), (json{{"a", 1}}));
    EXPECT_EQ(o->member_text("status"), R"({"b":2})");
    EXPECT_TRUE(o->member_equals("spec", *internal::make_object(with_spec, internal::Layout::kText)));
    const ObjectPtr none = internal::make_object(without, layout);
    EXPECT_EQ(none->member_value("spec"), json());
    EXPECT_EQ(none->member_text("status"), std::nullopt);
    EXPECT_TRUE(none->member_equals("spec", json()));
  }
}

TEST(ObjectTest, MemberTextIsTheMembersSerializedText) {
  const json j = {{"apiVersion", "v1"},
                  {"kind", "ConfigMap"},
                  {"metadata", {{"name", "n"}}},
                  {"data", {{"b", "2"}, {"a", "1"}}},
                  {"immutable", true}};
  for (const auto layout : {internal::Layout::kText, internal::Layout::kTree}) {
    const ObjectPtr o = internal::make_object(j, layout);
    EXPECT_EQ(o->member_text("data"), R"({"a":"1","b":"2"})");
    EXPECT_EQ(o->member_text("immutable"), "true");
    EXPECT_EQ(o->member_text("kind"), "\"ConfigMap\"");
    EXPECT_EQ(o->member_text("metadata"), R"({"name":"n"})");
    EXPECT_EQ(o->member_text("spec"), std::nullopt);
  }
}

TEST(ObjectTest, FromJsonRejectsNonObjects) {
  const auto r = Object::from_json(json(5));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message, "invalid object: the object must be a JSON object, got number");
}

TEST(ObjectDeathTest, MakeObjectAbortsOnInvalidInput) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(make_object(json::array()), "make_object: invalid object");
  const ObjectPtr o = deployment();
  EXPECT_DEATH(o->edited([](json& j) { j["metadata"]["name"] = 1; }),
               "metadata.name must be a string");
}

TEST(ObjectTest, EditsCopy) {
  const ObjectPtr original = deployment();
  const json before = original->json();

  const ObjectPtr copy = original->with_resource_version("43");
  EXPECT_NE(copy.get(), original.get());
  EXPECT_EQ(copy->resource_version(), "43");
  EXPECT_EQ(original->resource_version(), "42");
  EXPECT_EQ(original->json(), before);
  EXPECT_EQ(copy->name(), "web");
  EXPECT_EQ(copy->json()["spec"], before["spec"]);

  const ObjectPtr edited = original->edited([](json& j) { j["spec"]["replicas"] = 5; });
  EXPECT_EQ(edited->json()["spec"]["replicas"], 5);
  EXPECT_EQ(original->json()["spec"]["replicas"], 2);
  EXPECT_EQ(edited->label("app"), "web");

  const ObjectPtr shared = copy;  // sharing is by pointer; nothing copies the object
  EXPECT_EQ(shared.get(), copy.get());
  EXPECT_EQ(shared->serialized().data(), copy->serialized().data());
}

TEST(ObjectTest, CopyEditHelpers) {
  const ObjectPtr o = deployment();
  EXPECT_EQ(o->with_name("api")->name(), "api");
  EXPECT_EQ(o->with_name("api")->key().view(), "shop/api");
  EXPECT_EQ(o->with_namespace("other")->key().view(), "other/web");
  EXPECT_EQ(o->with_namespace("")->key().view(), "web");
  EXPECT_FALSE(o->with_namespace("")->json()["metadata"].contains("namespace"));
  EXPECT_EQ(o->with_uid("u-9")->uid(), "u-9");
  EXPECT_EQ(o->with_generation(4)->generation(), 4);
  EXPECT_FALSE(o->with_generation(0)->json()["metadata"].contains("generation"));
  EXPECT_EQ(o->with_creation_timestamp("2025-02-01T00:00:00Z")->creation_timestamp(),
            "2025-02-01T00:00:00Z");
  EXPECT_EQ(o->with_deletion_timestamp(std::nullopt)->deletion_timestamp(), std::nullopt);
  EXPECT_EQ(o->with_deletion_timestamp("2025-03-01T00:00:00Z")->deletion_timestamp(),
            "2025-03-01T00:00:00Z");
  EXPECT_FALSE(o->with_resource_version("")->json()["metadata"].contains("resourceVersion"));

  const ObjectPtr relabelled = o->with_labels({{"b", "2"}, {"a", "1"}});
  EXPECT_THAT(relabelled->labels(), ElementsAre(Pair("a", "1"), Pair("b", "2")));
  EXPECT_FALSE(o->with_labels({})->json()["metadata"].contains("labels"));

  auto labels = o->labels().to_map();
  labels["extra"] = "x";
  EXPECT_EQ(o->with_labels(labels)->labels().size(), 3u);

  const ObjectPtr annotated = o->with_annotation("note", "hi");
  EXPECT_EQ(annotated->annotation("note"), "hi");
  EXPECT_EQ(annotated->annotations().size(), 2u);
  EXPECT_EQ(annotated->with_annotation("note", std::nullopt)->annotations().size(), 1u);
  const ObjectPtr bare = o->with_annotations({});
  EXPECT_FALSE(bare->json()["metadata"].contains("annotations"));
  EXPECT_EQ(bare->with_annotation("k", "v")->annotation("k"), "v");
  EXPECT_FALSE(
      bare->with_annotation("k", std::nullopt)->json()["metadata"].contains("annotations"));

  EXPECT_THAT(o->with_finalizers({"x"})->finalizers(), ElementsAre("x"));
  EXPECT_FALSE(o->with_finalizers({})->json()["metadata"].contains("finalizers"));

  // Edits on an object without metadata create it.
  const ObjectPtr empty = make_object(json::object());
  EXPECT_EQ(empty->with_name("n")->key().view(), "n");

  // None of the above touched the original.
  EXPECT_EQ(o->json(), json::parse(kDeployment));
}

TEST(ObjectTest, SerializedIsCompactJsonComputedOnce) {
  const ObjectPtr o = deployment();
  const std::string_view s = o->serialized();
  EXPECT_EQ(s, o->json().dump());
  EXPECT_EQ(s.data(), o->serialized().data());
  EXPECT_EQ(o->serialized_size(), s.size());
  EXPECT_EQ(json::parse(s), json::parse(kDeployment));
}

TEST(ObjectTest, SerializedIsSafeFromTwoThreads) {
  const ObjectPtr o = deployment();
  std::string_view seen[2];
  std::thread a([&] { seen[0] = o->serialized(); });
  std::thread b([&] { seen[1] = o->serialized(); });
  a.join();
  b.join();
  EXPECT_EQ(seen[0].data(), seen[1].data());
  EXPECT_EQ(seen[0], o->json().dump());
}

TEST(ObjectTest, InvalidUtf8IsReplacedNotThrown) {
  const ObjectPtr o = make_object({{"kind", "ConfigMap"}, {"data", {{"k", "\xff"}}}});
  EXPECT_EQ(json::parse(o->serialized())["data"]["k"], "\xef\xbf\xbd");
}

TEST(ObjectTest, StaysSmall) {
  // A guard against accidental bloat: what an Object adds to its text stays small.
  EXPECT_LE(sizeof(Object), 128u);
}

ObjectPtr config_map(const std::string& name) {
  return make_object({{"apiVersion", "v1"},
                      {"kind", "ConfigMap"},
                      {"metadata", {{"name", name}, {"namespace", "default"}}},
                      {"data", {{"k", "v"}}}});
}

TEST(ObjectListTest, RendersKubernetesListForm) {
  ObjectList list;
  list.items = {config_map("a"), config_map("b")};
  list.resource_version = "17";
  list.continue_token = "tok\"en";
  list.remaining_item_count = 3;
  const std::string text = render_list_json(list, "v1", "ConfigMapList");
  EXPECT_THAT(text, StartsWith(R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":)"
                               R"({"resourceVersion":"17","continue":"tok\"en",)"
                               R"("remainingItemCount":3},"items":[{)"));
  const json j = json::parse(text);
  EXPECT_EQ(j["kind"], "ConfigMapList");
  EXPECT_EQ(j["apiVersion"], "v1");
  EXPECT_EQ(j["metadata"],
            json({{"resourceVersion", "17"}, {"continue", "tok\"en"}, {"remainingItemCount", 3}}));
  ASSERT_EQ(j["items"].size(), 2u);
  EXPECT_EQ(j["items"][0], list.items[0]->json());
  EXPECT_EQ(j["items"][1], list.items[1]->json());
  EXPECT_NE(text.find(list.items[1]->serialized()), std::string::npos);
}

TEST(ObjectListTest, EmptyListHasEmptyItemsAndMetadata) {
  EXPECT_EQ(render_list_json({}, "apps/v1", "DeploymentList"),
            R"({"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{},"items":[]})");
}

// Strings drawn from ASCII (quotes, backslashes, control characters included) and a few
// multi-byte code points, always valid UTF-8.
rc::Gen<std::string> utf8_string() {
  return rc::gen::map(
      rc::gen::container<std::vector<char32_t>>(rc::gen::oneOf(
          rc::gen::inRange<char32_t>(0, 0x80), rc::gen::element<char32_t>(0xe9, 0x4e2d, 0x1f600))),
      [](const std::vector<char32_t>& cps) {
        std::string out;
        for (const char32_t c : cps) {
          if (c < 0x80) {
            out.push_back(static_cast<char>(c));
          } else if (c < 0x800) {
            out.push_back(static_cast<char>(0xc0 | (c >> 6)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
          } else if (c < 0x10000) {
            out.push_back(static_cast<char>(0xe0 | (c >> 12)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
          } else {
            out.push_back(static_cast<char>(0xf0 | (c >> 18)));
            out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
          }
        }
        return out;
      });
}

RC_GTEST_PROP(ObjectProperty, SerializationRoundTrips, ()) {
  const auto labels =
      *rc::gen::container<std::map<std::string, std::string>>(utf8_string(), utf8_string());
  const auto annotations =
      *rc::gen::container<std::map<std::string, std::string>>(utf8_string(), utf8_string());
  json j = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}};
  json& m = j["metadata"];
  m["name"] = *utf8_string();
  m["namespace"] = *utf8_string();
  m["generation"] = *rc::gen::arbitrary<std::int64_t>();
  if (!labels.empty()) m["labels"] = labels;
  if (!annotations.empty()) m["annotations"] = annotations;

  const ObjectPtr o = make_object(j);
  auto back = Object::from_json(json::parse(o->serialized()));
  RC_ASSERT(back.ok());
  RC_ASSERT(back.value()->json() == j);
  RC_ASSERT(back.value()->key() == o->key());
  RC_ASSERT(back.value()->labels().to_map() == o->labels().to_map());
  RC_ASSERT(o->labels().size() == labels.size());
  for (const auto& [k, v] : labels) RC_ASSERT(o->label(k) == std::optional<std::string_view>(v));
  auto reparsed = Object::from_string(o->serialized());
  RC_ASSERT(reparsed.ok());
  RC_ASSERT(reparsed.value()->serialized() == o->serialized());
}


// Both layouts hold the same object: every accessor, json(), to_json(), member() and
// serialized() agree, whatever the metadata holds (nulls, empty values, unknown members).
void expect_same_object(const Object& tree, const Object& compact) {
  EXPECT_EQ(compact.json(), tree.json());
  EXPECT_EQ(compact.to_json(), tree.json());
  EXPECT_EQ(compact.serialized(), tree.serialized());
  EXPECT_EQ(compact.api_version(), tree.api_version());
  EXPECT_EQ(compact.kind(), tree.kind());
  EXPECT_EQ(compact.name(), tree.name());
  EXPECT_EQ(compact.namespace_(), tree.namespace_());
  EXPECT_EQ(compact.generate_name(), tree.generate_name());
  EXPECT_EQ(compact.uid(), tree.uid());
  EXPECT_EQ(compact.resource_version(), tree.resource_version());
  EXPECT_EQ(compact.generation(), tree.generation());
  EXPECT_EQ(compact.creation_timestamp(), tree.creation_timestamp());
  EXPECT_EQ(compact.deletion_timestamp(), tree.deletion_timestamp());
  EXPECT_EQ(compact.deletion_grace_period_seconds(), tree.deletion_grace_period_seconds());
  EXPECT_EQ(compact.labels().to_map(), tree.labels().to_map());
  EXPECT_EQ(compact.annotations().to_map(), tree.annotations().to_map());
  EXPECT_EQ(compact.finalizers(), tree.finalizers());
  ASSERT_EQ(compact.owner_references().size(), tree.owner_references().size());
  for (std::size_t i = 0; i < tree.owner_references().size(); ++i) {
    const OwnerReference& a = compact.owner_references()[i];
    const OwnerReference& b = tree.owner_references()[i];
    EXPECT_EQ(std::tie(a.api_version, a.kind, a.name, a.uid, a.controller, a.block_owner_deletion),
              std::tie(b.api_version, b.kind, b.name, b.uid, b.controller, b.block_owner_deletion));
  }
  EXPECT_EQ(compact.key(), tree.key());
  EXPECT_EQ(compact.metadata_json(), tree.metadata_json());
  EXPECT_TRUE(compact.same_as(tree.json()));
  for (const char* member : {"spec", "status", "data", "missing"}) {
    EXPECT_EQ(compact.member(member), tree.member(member)) << member;
  }
}

TEST(ObjectTest, CompactLayoutHoldsTheSameObject) {
  for (const char* text :
       {kDeployment, "{}", R"({"metadata":null,"kind":null})", R"({"metadata":{}})",
        R"({"apiVersion":null,"metadata":{"name":null,"labels":null,)"
        R"("finalizers":null,"generation":null,"deletionTimestamp":null,)"
        R"("ownerReferences":null}})",
        R"({"apiVersion":"v1","kind":"","metadata":{"name":"","namespace":"","labels":{},)"
        R"("annotations":{"":""},"finalizers":[],"generation":0,"selfLink":"/x",)"
        R"("managedFields":[{"manager":"m"}],"zz":1,"deletionTimestamp":""},"data":{"k":"v"}})"}) {
    SCOPED_TRACE(text);
    const json j = json::parse(text);
    const ObjectPtr tree = make_object(j);
    const ObjectPtr compact = internal::make_object(j, internal::Layout::kText);
    expect_same_object(*tree, *compact);
  }
}

TEST(ObjectTest, CompactObjectKeepsItsTextAndReadsEscapedStrings) {
  const json j = {{"apiVersion", "v1"},
                  {"kind", "ConfigMap"},
                  {"data", {{"k", "v"}}},
                  {"metadata",
                   {{"name", "a\"b"},
                    {"namespace", "tab\there"},
                    {"labels", {{"k\\ey", "v\u00e9"}, {"plain", "x"}}},
                    {"finalizers", {"f/\"1\""}},
                    {"ownerReferences",
                     {{{"apiVersion", "v1"}, {"kind", "K\n"}, {"name", "o"}, {"uid", "u"},
                       {"controller", true}}}}}}};
  const ObjectPtr compact = internal::make_object(j, internal::Layout::kText);
  EXPECT_EQ(compact->serialized(), j.dump());
  EXPECT_EQ(compact->name(), "a\"b");
  EXPECT_EQ(compact->namespace_(), "tab\there");
  EXPECT_EQ(compact->label("k\\ey"), "v\u00e9");
  EXPECT_EQ(compact->label("plain"), "x");
  EXPECT_TRUE(compact->has_finalizer("f/\"1\""));
  ASSERT_NE(compact->controller_of(), nullptr);
  EXPECT_EQ(compact->controller_of()->kind, "K\n");
  EXPECT_EQ(compact->member_value("data"), j["data"]);
  EXPECT_TRUE(compact->member_equals("data", {{"k", "v"}}));
  EXPECT_FALSE(compact->member_equals("data", {{"k", "w"}}));
  EXPECT_TRUE(compact->member_equals("spec", json()));
  EXPECT_EQ(compact->metadata_field("name"), "a\"b");
  EXPECT_TRUE(compact->same_as(j));
  EXPECT_EQ(compact->json(), j);
}

// member_equals with another Object answers as member_equals with the first one's member value,
// in every pair of layouts: alike bytes, values written differently (1.0 and 1), absent against
// null; and members alike are equal.
TEST(ObjectTest, MemberEqualsAnotherObjectsMember) {
  const json meta = {{"name", "a"}};
  const std::vector<json> objects = {
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}, {"data", {{"k", "v"}}}},
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "b"}}}, {"data", {{"k", "v"}}}},
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}, {"data", {{"k", "w"}}}},
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}},
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}, {"data", nullptr}},
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}, {"data", {{"n", 1.0}}}},
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}, {"data", {{"n", 1}}}},
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}, {"data", json::object()}},
  };
  const auto data_text = [](const json& j) { return j.contains("data") ? j.at("data").dump() : ""; };
  for (const json& a : objects) {
    for (const json& b : objects) {
      for (const auto la : {internal::Layout::kText, internal::Layout::kTree}) {
        for (const auto lb : {internal::Layout::kText, internal::Layout::kTree}) {
          SCOPED_TRACE(a.dump() + " against " + b.dump());
          const ObjectPtr oa = internal::make_object(a, la);
          const ObjectPtr ob = internal::make_object(b, lb);
          EXPECT_EQ(oa->member_equals("data", *ob), ob->member_equals("data", oa->member_value("data")));
          if (data_text(a) == data_text(b)) {
            EXPECT_TRUE(oa->member_equals("data", *ob));
          }
          EXPECT_TRUE(oa->member_equals("spec", *ob));
        }
      }
    }
  }
}

TEST(ObjectTest, CompactEditsAndCopyHelpers) {
  const ObjectPtr compact = internal::make_object(json::parse(kDeployment), internal::Layout::kText);
  const ObjectPtr edited = compact->with_labels({{"a", "b"}});
  EXPECT_EQ(edited->label("a"), "b");
  EXPECT_EQ(edited->name(), "web");
  EXPECT_EQ(compact->label("a"), std::nullopt);
  EXPECT_EQ(compact->json(), json::parse(kDeployment));
}

TEST(ObjectTest, CompactJsonIsSafeFromTwoThreads) {
  const ObjectPtr o = internal::make_object(json::parse(kDeployment), internal::Layout::kText);
  const json* seen[2] = {nullptr, nullptr};
  std::thread a([&] { seen[0] = &o->json(); });
  std::thread b([&] { seen[1] = &o->json(); });
  a.join();
  b.join();
  EXPECT_EQ(seen[0], seen[1]);
  EXPECT_EQ(*seen[0], json::parse(kDeployment));
}

// A metadata value of any type Object accepts for `field`, nulls and empties included.
rc::Gen<json> metadata_value(const std::string& field) {
  using rc::gen::just;
  const auto string_map = rc::gen::map(
      rc::gen::container<std::map<std::string, std::string>>(utf8_string(), utf8_string()),
      [](const std::map<std::string, std::string>& m) { return json(m); });
  if (field == "labels" || field == "annotations") return rc::gen::oneOf(just(json()), string_map);
  if (field == "finalizers") {
    return rc::gen::oneOf(just(json()), rc::gen::map(rc::gen::container<std::vector<std::string>>(utf8_string()),
                                                     [](const std::vector<std::string>& v) { return json(v); }));
  }
  if (field == "generation" || field == "deletionGracePeriodSeconds") {
    return rc::gen::oneOf(just(json()), rc::gen::map(rc::gen::arbitrary<std::int64_t>(),
                                                     [](std::int64_t v) { return json(v); }),
                          rc::gen::map(rc::gen::inRange<std::uint64_t>(0, 1000),
                                       [](std::uint64_t v) { return json(v); }));
  }
  if (field == "ownerReferences") {
    return rc::gen::oneOf(just(json()), just(json::array()),
                          just(json::parse(R"([{"apiVersion":"v1","kind":"K","name":"n","uid":"u",)"
                                           R"("controller":true,"extra":1}])")));
  }
  if (field == "managedFields" || field == "other") {
    return rc::gen::oneOf(just(json()), just(json(1)), just(json::parse(R"([{"m":"x"}])")));
  }
  return rc::gen::oneOf(just(json()), rc::gen::map(utf8_string(), [](std::string s) { return json(s); }));
}

// The accessors of `o` give what its JSON `j` holds (the reference the layouts are checked
// against, so that a mistake shared by both layouts is still caught).
void assert_reads_json(const Object& o, const json& j) {
  const json meta = j.contains("metadata") && j["metadata"].is_object() ? j["metadata"] : json();
  const auto field = [&](const char* key) { return meta.is_object() ? meta.value(key, json()) : json(); };
  const auto string_field = [&](const char* key, std::string_view got) {
    const json want = field(key);
    if (want.is_string()) {
      RC_ASSERT(got == want.get<std::string>());
      RC_ASSERT(got.data() != nullptr);
    } else {
      RC_ASSERT(got.data() == nullptr);
    }
  };
  string_field("name", o.name());
  string_field("namespace", o.namespace_());
  string_field("generateName", o.generate_name());
  string_field("uid", o.uid());
  string_field("resourceVersion", o.resource_version());
  string_field("creationTimestamp", o.creation_timestamp());
  const json ns = field("namespace");
  const json name = field("name");
  const std::string want_key = (ns.is_string() && !ns.get<std::string>().empty()
                                    ? ns.get<std::string>() + "/" : std::string()) +
                               (name.is_string() ? name.get<std::string>() : std::string());
  RC_ASSERT(o.key().view() == want_key);
  for (const char* key : {"labels", "annotations"}) {
    const StringMapView map = std::string_view(key) == "labels" ? o.labels() : o.annotations();
    const json want = field(key);
    std::map<std::string, std::string, std::less<>> want_map;
    if (want.is_object()) want_map = want.get<std::map<std::string, std::string, std::less<>>>();
    RC_ASSERT(map.to_map() == want_map);
    RC_ASSERT(map.size() == want_map.size());
    RC_ASSERT(static_cast<std::size_t>(map.end() - map.begin()) == want_map.size());
    for (const auto& [k, v] : want_map) RC_ASSERT(map.find(k) == std::optional<std::string_view>(v));
    RC_ASSERT(!map.find(std::string(1, 1) + "absent").has_value());
  }
  const json finalizers = field("finalizers");
  std::vector<std::string> want_finalizers;
  if (finalizers.is_array()) want_finalizers = finalizers.get<std::vector<std::string>>();
  RC_ASSERT(std::vector<std::string>(o.finalizers().begin(), o.finalizers().end()) ==
            want_finalizers);
  const json refs = field("ownerReferences");
  RC_ASSERT(o.owner_references().size() == (refs.is_array() ? refs.size() : 0u));
  for (std::size_t i = 0; i < o.owner_references().size(); ++i) {
    RC_ASSERT(o.owner_references()[i].name == refs[i].value("name", std::string()));
    RC_ASSERT(o.owner_references()[i].controller.value_or(false) ==
              refs[i].value("controller", false));
  }
}

RC_GTEST_PROP(ObjectProperty, CompactLayoutHoldsTheSameObject, ()) {
  static const char* const kFields[] = {
      "name", "namespace", "generateName", "uid", "resourceVersion", "creationTimestamp",
      "deletionTimestamp", "selfLink", "generation", "deletionGracePeriodSeconds", "labels",
      "annotations", "finalizers", "ownerReferences", "managedFields", "other"};
  json j = json::object();
  if (*rc::gen::arbitrary<bool>()) j["apiVersion"] = *metadata_value("name");
  if (*rc::gen::arbitrary<bool>()) j["kind"] = *metadata_value("name");
  if (*rc::gen::arbitrary<bool>()) j["spec"] = {{"replicas", *rc::gen::inRange(0, 5)}};
  const int meta_form = *rc::gen::inRange(0, 3);  // absent, null, an object
  if (meta_form == 1) j["metadata"] = nullptr;
  if (meta_form == 2) {
    json& m = j["metadata"] = json::object();
    for (const char* field : kFields) {
      if (*rc::gen::arbitrary<bool>()) m[field] = *metadata_value(field);
    }
  }
  const ObjectPtr tree = make_object(j);
  const ObjectPtr compact = internal::make_object(j, internal::Layout::kText);
  assert_reads_json(*tree, j);
  assert_reads_json(*compact, j);
  RC_ASSERT(compact->json() == j);
  RC_ASSERT(compact->to_json() == j);
  RC_ASSERT(compact->serialized() == tree->serialized());
  RC_ASSERT(compact->key() == tree->key());
  RC_ASSERT(compact->generation() == tree->generation());
  RC_ASSERT(compact->deletion_timestamp() == tree->deletion_timestamp());
  RC_ASSERT(compact->deletion_grace_period_seconds() == tree->deletion_grace_period_seconds());
  RC_ASSERT(compact->labels().to_map() == tree->labels().to_map());
  RC_ASSERT(compact->annotations().to_map() == tree->annotations().to_map());
  RC_ASSERT(compact->finalizers() == tree->finalizers());
  RC_ASSERT(compact->owner_references().size() == tree->owner_references().size());
  RC_ASSERT(compact->member("spec") == tree->member("spec"));
  RC_ASSERT(compact->member_value("spec") == tree->member("spec"));
  RC_ASSERT(tree->member_value("spec") == tree->member("spec"));
  RC_ASSERT(compact->member_value("absent").is_null());
  for (const char* path : {"spec.replicas", "spec", "metadata.name", "metadata.labels",
                           "spec.replicas.deeper", "absent.x"}) {
    RC_ASSERT(compact->value_at(path) == tree->value_at(path));
  }
  RC_ASSERT(tree->value_at("spec") == tree->member("spec"));
  for (const json& candidate : {tree->member("spec"), json{{"replicas", 3}}, json()}) {
    const bool expected = tree->member("spec") == candidate;
    RC_ASSERT(compact->member_equals("spec", candidate) == expected);
    RC_ASSERT(tree->member_equals("spec", candidate) == expected);
  }
  RC_ASSERT(compact->metadata_json() == tree->metadata_json());
  RC_ASSERT(compact->same_as(j));
  for (const char* field : kFields) {
    RC_ASSERT(compact->metadata_field(field) == tree->metadata_field(field));
  }
  // metadata_equals agrees with comparing the JSON, with and without a member left out.
  json other = tree->metadata_json();
  if (other.is_object() && *rc::gen::arbitrary<bool>()) {
    const std::string field = *rc::gen::elementOf(std::vector<std::string>(std::begin(kFields), std::end(kFields)));
    other[field] = *metadata_value(field);
  }
  for (const std::string_view except : {std::string_view(), std::string_view("resourceVersion"),
                                        std::string_view("labels"), std::string_view("other")}) {
    bool expected = other.is_object() && tree->metadata_json().is_object();
    if (expected) {
      json a = other;
      json b = tree->metadata_json();
      a.erase(std::string(except));
      b.erase(std::string(except));
      expected = a == b;
    }
    RC_ASSERT(compact->metadata_equals(other, except) == expected);
    RC_ASSERT(tree->metadata_equals(other, except) == expected);
  }
  // One change anywhere makes it differ.
  json changed = j;
  const int where = *rc::gen::inRange(0, 4);
  if (where == 0) changed["apiVersion"] = "changed/v1";
  if (where == 1) changed["spec"] = {{"replicas", 9}};
  if (where == 2) changed["metadata"]["resourceVersion"] = "changed";
  if (where == 3) changed.erase("kind");
  if (changed != j) RC_ASSERT(!compact->same_as(changed));
}

// with_value_at gives what setting the path in the JSON gives, for either layout, whether the
// copy is spliced from the text or built from the tree.
RC_GTEST_PROP(ObjectProperty, WithValueAtSetsThePath, ()) {
  const auto small_value = rc::gen::oneOf(
      rc::gen::map(utf8_string(), [](std::string s) { return json(s); }),
      rc::gen::map(rc::gen::inRange(-3, 3), [](int i) { return json(i); }),
      rc::gen::just(json()), rc::gen::just(json::object()), rc::gen::just(json{{"k", "v"}}),
      rc::gen::just(json::array({1, "x"})));
  const std::vector<std::string> keys = {"a", "data", "gen", "spec", "zz", "", "\u00e9", "q\"x",
                                         "b.c"};
  json j = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}};
  json& meta = j["metadata"] = json::object();
  for (const char* field : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp",
                            "deletionTimestamp", "generation", "labels", "annotations",
                            "finalizers", "ownerReferences", "other"}) {
    if (*rc::gen::arbitrary<bool>()) meta[field] = *metadata_value(field);
  }
  for (const char* k : {"a", "data", "spec", "zz"}) {
    if (*rc::gen::arbitrary<bool>()) {
      json member = *small_value;
      if (*rc::gen::arbitrary<bool>()) member = {{"gen", *small_value}, {"b", *small_value}};
      j[k] = member;
    }
  }
  std::vector<std::string> steps;
  const int form = *rc::gen::inRange(0, 3);
  if (form == 0) steps = {"metadata", "other"};
  if (form == 1) steps = {"kind"};
  if (form == 2) {
    steps = *rc::gen::resize(3, rc::gen::nonEmpty(
        rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(keys))));
  }
  std::string path;
  for (std::size_t i = 0; i < steps.size(); ++i) path += (i ? "." : "") + steps[i];
  json value = form == 1 ? json("Other") : *small_value;
  json expected = j;
  json* at = &expected;
  for (std::string_view rest = path;;) {
    const std::size_t dot = rest.find('.');
    if (!at->is_object()) *at = json::object();
    at = &(*at)[std::string(rest.substr(0, dot))];
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  *at = value;
  for (const auto layout : {internal::Layout::kTree, internal::Layout::kText}) {
    ObjectPtr o = internal::make_object(j, layout);
    ObjectPtr copy = o->with_value_at(path, value);
    RC_ASSERT(o->to_json() == j);
    o.reset();  // the copy holds all it hands out
    RC_ASSERT(copy->to_json() == expected);
    RC_ASSERT(copy->serialized() == expected.dump(-1, ' ', false, json::error_handler_t::replace));
    assert_reads_json(*copy, expected);
    // And a new resourceVersion, replaced in place when the text holds one.
    const std::string rv = *rc::gen::element<std::string>("1", "123456789012", "x y", "\u00e9");
    json with_rv = expected;
    with_rv["metadata"]["resourceVersion"] = rv;
    const ObjectPtr versioned = copy->with_resource_version(rv);
    copy.reset();
    RC_ASSERT(versioned->to_json() == with_rv);
    RC_ASSERT(versioned->serialized() == with_rv.dump(-1, ' ', false, json::error_handler_t::replace));
    assert_reads_json(*versioned, with_rv);
  }
}

TEST(ObjectTest, WithValueAtTakesLongPaths) {
  const ObjectPtr o = internal::make_object({{"kind", "K"}, {"a", {{"b", 1}}}}, internal::Layout::kText);
  const ObjectPtr copy = o->with_value_at("a.b.c.d.e.f.g.h.i.j", "deep");
  EXPECT_EQ(copy->value_at("a.b.c.d.e.f.g.h.i.j"), "deep");
  EXPECT_EQ(copy->serialized(),
            R"({"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":"deep"}}}}}}}}},"kind":"K"})");
}

TEST(ObjectTest, WithValueAtTakesKeysHoldingDots) {
  for (const auto layout : {internal::Layout::kText, internal::Layout::kTree}) {
    const ObjectPtr o = internal::make_object({{"kind", "K"}, {"data", {{"a.b", "1"}, {"a", "2"}}}}, layout);
    const std::array<std::string_view, 2> path = {"data", "a.b"};
    const ObjectPtr copy = o->with_value_at(path, "3");
    EXPECT_EQ(copy->serialized(), R"({"data":{"a":"2","a.b":"3"},"kind":"K"})");
    EXPECT_EQ(internal::layout_of(*copy), layout);
  }
}

// The resourceVersion given with the value is set in the same copy, as if set after it, wherever
// the value sits against it in the text.
TEST(ObjectTest, WithValueAtSetsTheResourceVersionToo) {
  const nlohmann::json j = {
      {"apiVersion", "v1"},
      {"kind", "ConfigMap"},
      {"metadata",
       {{"name", "a"}, {"resourceVersion", "7"}, {"labels", {{"x", "y"}}}, {"uid", "u-1"}}},
      {"data", {{"gen", "1"}}},
      {"zeta", {{"k", "v"}}}};
  for (const auto layout : {internal::Layout::kText, internal::Layout::kTree}) {
    const ObjectPtr o = internal::make_object(j, layout);
    for (const std::array<std::string_view, 2>& path :
         {std::array<std::string_view, 2>{"data", "gen"}, {"zeta", "k"}, {"data", "new"},
          {"metadata", "name"}}) {
      const ObjectPtr copy = o->with_value_at(path, "22", "12345");
      const ObjectPtr expected = o->with_value_at(path, "22")->with_resource_version("12345");
      EXPECT_EQ(copy->serialized(), expected->serialized());
      EXPECT_EQ(copy->resource_version(), "12345");
      EXPECT_EQ(copy->name(), path[1] == "name" ? "22" : "a");
      EXPECT_EQ(copy->labels().find("x"), "y");
      EXPECT_EQ(copy->uid(), "u-1");  // after both edits when the value is in data
      EXPECT_EQ(internal::layout_of(*copy), layout);
    }
  }
}

}  // namespace
}  // namespace kubesim::api
