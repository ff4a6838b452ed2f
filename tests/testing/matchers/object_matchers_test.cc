// The object matchers of fields, labels, annotations, conditions, finalizers, owners and names:
// each matching and not, with the text a failure shows; and every one taking an Object, an
// ObjectPtr and a Result<ObjectPtr>.
#include "kubesim/testing/matchers.h"

#include <string>
#include <vector>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/testing/matchers/matchers_util.h"

namespace kubesim::testing {
namespace {

using nlohmann::json;
using testutil::describe;
using testutil::describe_negation;
using testutil::explain;
using ObjectM = ::testing::Matcher<const api::Object&>;

const api::ObjectPtr kDeployment = api::make_object(json::parse(R"({
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "web", "namespace": "default", "uid": "u-1",
               "labels": {"app": "web", "tier": "front"}, "annotations": {"note": "x"},
               "finalizers": ["example.com/cleanup"],
               "ownerReferences": [{"apiVersion": "example.com/v1", "kind": "Widget", "name": "w1",
                                    "uid": "w-1", "controller": true}]},
  "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "main", "image": "nginx:1"}]}}},
  "status": {"conditions": [{"type": "Available", "status": "True"},
                            {"type": "Progressing", "status": "False", "reason": "Stalled", "message": "no progress"}]}
})"));

const api::ObjectPtr kBare = api::make_object(json::parse(R"({
  "apiVersion": "v1", "kind": "ConfigMap",
  "metadata": {"name": "bare", "namespace": "default",
               "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "p", "uid": "p-1"}]}
})"));

api::ObjectPtr widget(const std::string& uid) {
  return api::make_object({{"apiVersion", "example.com/v1"},
                           {"kind", "Widget"},
                           {"metadata", {{"name", "w1"}, {"namespace", "default"}, {"uid", uid}}}});
}

struct Case {
  const char* name;
  ObjectM matcher;
  api::ObjectPtr object;
  bool matched;
  std::string why;
};

void check(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const auto got = explain<api::Object>(c.matcher, *c.object);
    EXPECT_EQ(got.matched, c.matched) << c.name;
    EXPECT_EQ(got.why, c.why) << c.name;
  }
}

TEST(HasFieldTest, NamesTheFieldAndShowsWhatIsThere) {
  check({
      {"equal", HasField("spec.replicas", 2), kDeployment, true, "spec.replicas is 2"},
      {"not equal", HasField("spec.replicas", 3), kDeployment, false, "spec.replicas is 2"},
      {"a number matches by value", HasField("spec.replicas", 2.0), kDeployment, true, "spec.replicas is 2"},
      {"through a list index", HasField("spec.template.spec.containers.0.image", "nginx:1"), kDeployment,
       true, R"(spec.template.spec.containers.0.image is "nginx:1")"},
      {"a tree", HasField("metadata.labels", json{{"app", "web"}, {"tier", "front"}}), kDeployment, true,
       R"(metadata.labels is {"app":"web","tier":"front"})"},
      {"a matcher", HasField("spec.replicas", ::testing::Gt(json(1))), kDeployment, true,
       "spec.replicas is 2"},
      {"absent, with its nearest parent", HasField("spec.template.spec.nodeName", "n1"), kDeployment, false,
       R"(has no field spec.template.spec.nodeName (spec.template.spec is {"containers":[{"image":"nginx:1","name":"main"}]}))"},
      {"absent from the top", HasField("data.k", "v"), kBare, false, "has no field data.k"},
      {"a list index out of range", HasField("spec.template.spec.containers.1", json::object()), kDeployment,
       false,
       R"(has no field spec.template.spec.containers.1 (spec.template.spec.containers is [{"image":"nginx:1","name":"main"}]))"},
  });
  EXPECT_EQ(describe<api::Object>(HasField("spec.replicas", 3)),
            "has field spec.replicas that is equal to 3");
  EXPECT_EQ(describe_negation<api::Object>(HasField("spec.replicas", 3)),
            "has no field spec.replicas, or one that isn't equal to 3");
  EXPECT_EQ(describe<api::Object>(HasField("metadata.name", "web")),
            R"(has field metadata.name that is equal to "web")");
}

TEST(HasFieldTest, PassesOnTheInnerMatchersExplanation) {
  const ObjectM m = HasField("spec.template.spec.containers", ::testing::SizeIs(2));
  const auto got = explain<api::Object>(m, *kDeployment);
  EXPECT_FALSE(got.matched);
  EXPECT_EQ(
      got.why,
      R"(spec.template.spec.containers is [{"image":"nginx:1","name":"main"}], whose size 1 doesn't match)");
}

TEST(HasNoFieldTest, IsTheOppositeOfHasField) {
  check({
      {"absent", HasNoField("spec.paused"), kDeployment, true,
       R"(has no field spec.paused (spec is {"replicas":2,"template":{"spec":{"containers":[{"image":"nginx:1","name":"main"}]}}}))"},
      {"present", HasNoField("spec.replicas"), kDeployment, false, "spec.replicas is 2"},
  });
  EXPECT_EQ(describe<api::Object>(HasNoField("spec.paused")), "has no field spec.paused");
  EXPECT_EQ(describe_negation<api::Object>(HasNoField("spec.paused")), "has field spec.paused");
}

TEST(HasLabelTest, ShowsTheLabelsThereAre) {
  check({
      {"the key", HasLabel("app"), kDeployment, true, R"(label app is "web")"},
      {"key and value", HasLabel("app", "web"), kDeployment, true, R"(label app is "web")"},
      {"another value", HasLabel("app", "api"), kDeployment, false, R"(label app is "web")"},
      {"another key", HasLabel("team"), kDeployment, false,
       R"(has no label team (labels: {"app":"web","tier":"front"}))"},
      {"no labels", HasLabel("team", "a"), kBare, false, "has no label team (no labels)"},
  });
  EXPECT_EQ(describe<api::Object>(HasLabel("app")), "has label app");
  EXPECT_EQ(describe<api::Object>(HasLabel("app", "web")), "has label app=web");
  EXPECT_EQ(describe_negation<api::Object>(HasLabel("app", "web")), "doesn't have label app=web");
}

TEST(HasAnnotationTest, ShowsTheAnnotationsThereAre) {
  check({
      {"the key", HasAnnotation("note"), kDeployment, true, R"(annotation note is "x")"},
      {"key and value", HasAnnotation("note", "x"), kDeployment, true, R"(annotation note is "x")"},
      {"another value", HasAnnotation("note", "y"), kDeployment, false, R"(annotation note is "x")"},
      {"another key", HasAnnotation("other"), kDeployment, false,
       R"(has no annotation other (annotations: {"note":"x"}))"},
      {"no annotations", HasAnnotation("other"), kBare, false, "has no annotation other (no annotations)"},
  });
  EXPECT_EQ(describe<api::Object>(HasAnnotation("note", "x")), "has annotation note=x");
  EXPECT_EQ(describe_negation<api::Object>(HasAnnotation("note")), "doesn't have annotation note");
}

TEST(HasConditionTest, ShowsTheConditionsStatusReasonAndMessage) {
  check({
      {"true", HasCondition("Available", "True"), kDeployment, true, "condition Available is True"},
      {"false, with reason and message", HasCondition("Progressing", "True"), kDeployment, false,
       R"(condition Progressing is False, reason "Stalled", message "no progress")"},
      {"another type", HasCondition("Ready", "True"), kDeployment, false,
       "has no condition Ready (conditions: Available=True, Progressing=False)"},
      {"no conditions", HasCondition("Ready", "True"), kBare, false, "has no status.conditions"},
  });
  EXPECT_EQ(describe<api::Object>(HasCondition("Ready", "True")), "has condition Ready=True");
  EXPECT_EQ(describe_negation<api::Object>(HasCondition("Ready", "True")),
            "doesn't have condition Ready=True");
}

TEST(HasFinalizerTest, ShowsTheFinalizersThereAre) {
  check({
      {"present", HasFinalizer("example.com/cleanup"), kDeployment, true,
       R"(its finalizers are ["example.com/cleanup"])"},
      {"another", HasFinalizer("example.com/other"), kDeployment, false,
       R"(its finalizers are ["example.com/cleanup"])"},
      {"none", HasFinalizer("example.com/cleanup"), kBare, false, "has no finalizers"},
  });
  EXPECT_EQ(describe<api::Object>(HasFinalizer("a/b")), "has finalizer a/b");
  EXPECT_EQ(describe_negation<api::Object>(HasFinalizer("a/b")), "doesn't have finalizer a/b");
}

TEST(IsControlledByTest, ComparesKindApiVersionNameAndUid) {
  const api::ObjectPtr other_kind = api::make_object(
      {{"apiVersion", "example.com/v1"}, {"kind", "Gadget"}, {"metadata", {{"name", "w1"}, {"uid", "w-1"}}}});
  check({
      {"its controller", IsControlledBy(*widget("w-1")), kDeployment, true,
       "is controlled by Widget w1 (example.com/v1, uid w-1)"},
      {"another uid: a new incarnation", IsControlledBy(*widget("w-2")), kDeployment, false,
       "is controlled by Widget w1 (example.com/v1, uid w-1)"},
      {"another kind", IsControlledBy(*other_kind), kDeployment, false,
       "is controlled by Widget w1 (example.com/v1, uid w-1)"},
      {"owners but no controller", IsControlledBy(*widget("w-1")), kBare, false,
       "has no controller owner reference (1 owner reference without controller: true)"},
      {"no owners", IsControlledBy(*widget("w-1")), widget("w-1"), false,
       "has no controller owner reference"},
  });
  EXPECT_EQ(describe<api::Object>(IsControlledBy(*widget("w-1"))),
            "is controlled by Widget w1 (example.com/v1, uid w-1)");
  EXPECT_EQ(describe_negation<api::Object>(IsControlledBy(*widget(""))),
            R"(isn't controlled by Widget w1 (example.com/v1, uid ""))");
}

TEST(IsNamedTest, ComparesNamespaceAndName) {
  const api::ObjectPtr cluster_scoped =
      api::make_object({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "web"}}}});
  check({
      {"its name", IsNamed("default", "web"), kDeployment, true, "is named default/web"},
      {"another name", IsNamed("default", "api"), kDeployment, false, "is named default/web"},
      {"another namespace", IsNamed("", "web"), kDeployment, false, "is named default/web"},
      {"cluster-scoped", IsNamed("", "web"), cluster_scoped, true, "is named web"},
  });
  EXPECT_EQ(describe<api::Object>(IsNamed("default", "web")), "is named default/web");
  EXPECT_EQ(describe_negation<api::Object>(IsNamed("", "web")), "isn't named web");
}

TEST(ObjectMatcherTest, TakesAnObjectPtrAndAResult) {
  const auto m = HasLabel("app", "web");
  EXPECT_TRUE(explain<api::ObjectPtr>(m, kDeployment).matched);
  EXPECT_TRUE(explain<api::Result<api::ObjectPtr>>(m, api::Result<api::ObjectPtr>(kDeployment)).matched);

  const auto null = explain<api::ObjectPtr>(m, api::ObjectPtr());
  EXPECT_FALSE(null.matched);
  EXPECT_EQ(null.why, "is a null ObjectPtr");

  const api::Result<api::ObjectPtr> failed = api::new_not_found({"", "configmaps"}, "x");
  const auto got = explain<api::Result<api::ObjectPtr>>(m, failed);
  EXPECT_FALSE(got.matched);
  EXPECT_EQ(got.why, R"(is a failed result: 404 NotFound: configmaps "x" not found)");
  // Negated, a failure still shows why.
  const auto negated = explain<api::Result<api::ObjectPtr>>(::testing::Not(m), failed);
  EXPECT_TRUE(negated.matched);
  EXPECT_EQ(negated.why, R"(is a failed result: 404 NotFound: configmaps "x" not found)");
}

TEST(ObjectMatcherTest, CombinesWithGoogleMocksOwn) {
  EXPECT_THAT(kDeployment, ::testing::AllOf(HasLabel("app", "web"), IsControlledBy(*widget("w-1")),
                                            HasFinalizer("example.com/cleanup")));
  EXPECT_THAT(*kDeployment, ::testing::Not(HasLabel("team")));
  const std::vector<api::ObjectPtr> objects = {kBare, kDeployment};
  EXPECT_THAT(objects, ::testing::Contains(HasField("spec.replicas", 2)));
  // What conditions.h's ObjectMatches takes.
  const ObjectM m = HasCondition("Available", "True");
  EXPECT_TRUE(m.Matches(*kDeployment));
}

TEST(ObjectMatcherTest, AFailureShowsTheObjectAndWhy) {
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(kDeployment, HasField("spec.replicas", 3)),
                          "Expected: has field spec.replicas that is equal to 3\n"
                          "  Actual: {\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\"");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(kDeployment, HasField("spec.replicas", 3)), "}, spec.replicas is 2");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(api::ObjectPtr(), HasLabel("app")),
                          "Expected: has label app\n  Actual: null ObjectPtr, is a null ObjectPtr");
}

}  // namespace
}  // namespace kubesim::testing
