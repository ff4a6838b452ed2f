// ApiServer: the resource table's verbs and the subresources beyond status — /scale, finalize,
// binding, eviction (with PodDisruptionBudgets), the part updates, the node-only 501s — and
// the create-only kinds (bindings, reviews).
#include "kubesim/fakeapi/server.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/fakeapi/fixtures.h"

namespace kubesim::fakeapi {
namespace {

using namespace testutil;
using api::Subresource;
using api::Verb;
using nlohmann::json;

const api::GroupVersionResource kPdbs{"policy", "v1", "poddisruptionbudgets"};

class ServerSubresourcesTest : public ServerTest {
 protected:
  Response send(Verb verb, const api::GroupVersionResource& gvr, const std::string& ns,
                const std::string& name, Subresource sub, json body = nullptr) {
    Request r;
    r.verb = verb;
    r.resource = gvr;
    r.ns = ns;
    r.name = name;
    r.subresource = sub;
    if (!body.is_null()) r.object = api::make_object(std::move(body));
    return server_.answer(r);
  }
  Response patch(const api::GroupVersionResource& gvr, const std::string& name, Subresource sub,
                 const std::string& body) {
    Request r;
    r.verb = Verb::kPatch;
    r.resource = gvr;
    r.ns = "default";
    r.name = name;
    r.subresource = sub;
    r.patch_type = api::PatchType::kMergePatch;
    r.patch_body = body;
    return server_.answer(r);
  }
  api::ObjectPtr create_pod(const std::string& name, json labels = json::object(),
                            const std::string& phase = "Running", bool ready = true) {
    json pod = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", labels}}},
                {"spec", {{"containers", json::array({{{"name", "c"}, {"image", "busybox"}}})}}}};
    auto created = must(server_.create(kPods, "default", api::make_object(pod), api::CreateOptions()));
    json status = {{"phase", phase},
                   {"conditions", json::array({{{"type", "Ready"}, {"status", ready ? "True" : "False"}}})}};
    return must(server_.update(kPods, "default", created->edited([&](json& j) { j["status"] = status; }),
                               api::UpdateOptions(), Subresource::kStatus));
  }
  // A budget over app=web whose status says `allowed` more disruptions are allowed.
  api::ObjectPtr create_pdb(const std::string& name, int allowed, bool observed = true) {
    json pdb = {{"apiVersion", "policy/v1"},
                {"kind", "PodDisruptionBudget"},
                {"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec", {{"minAvailable", 1}, {"selector", {{"matchLabels", {{"app", "web"}}}}}}}};
    auto created = must(server_.create(kPdbs, "default", api::make_object(pdb), api::CreateOptions()));
    json status = {{"observedGeneration", observed ? 1 : 0}, {"disruptionsAllowed", allowed},
                   {"currentHealthy", 2}, {"desiredHealthy", 1}, {"expectedPods", 2}};
    return must(server_.update(kPdbs, "default", created->edited([&](json& j) { j["status"] = status; }),
                               api::UpdateOptions(), Subresource::kStatus));
  }
  Response evict(const std::string& pod) {
    return send(Verb::kCreate, kPods, "default", pod, Subresource::kEviction,
                {{"apiVersion", "policy/v1"}, {"kind", "Eviction"},
                 {"metadata", {{"name", pod}, {"namespace", "default"}}}});
  }
};

TEST_F(ServerSubresourcesTest, AVerbTheResourceLacksIsMethodNotAllowed) {
  // The review kinds are create-only, componentstatuses get and list only.
  auto r = send(Verb::kList, {"authorization.k8s.io", "v1", "selfsubjectaccessreviews"}, "", "",
                Subresource::kNone);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code, 405);
  EXPECT_EQ(r.error->reason, api::StatusReason::kMethodNotAllowed);
  EXPECT_EQ(send(Verb::kCreate, {"", "v1", "componentstatuses"}, "", "",
                 Subresource::kNone, {{"metadata", {{"name", "x"}}}})
                .error->code,
            405);
  // A subresource's verbs: finalize is update only, binding create only.
  EXPECT_EQ(send(Verb::kGet, kNamespaces, "", "default", Subresource::kFinalize).error->code, 405);
  EXPECT_EQ(send(Verb::kGet, kPods, "default", "p", Subresource::kBinding).error->code, 405);
}

TEST_F(ServerSubresourcesTest, ASubresourceTheResourceDoesNotHaveIsNotFound) {
  create_cm("a");
  auto r = send(Verb::kGet, kConfigMaps, "default", "a", Subresource::kScale);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code, 404);
  EXPECT_EQ(send(Verb::kGet, kConfigMaps, "default", "a", Subresource::kStatus).error->code, 404);
}

TEST_F(ServerSubresourcesTest, ScaleReadsAndWritesADeploymentsReplicas) {
  auto d = must(server_.create(kDeployments, "default", deployment("default", "web", 3),
                               api::CreateOptions()));
  auto got = send(Verb::kGet, kDeployments, "default", "web", Subresource::kScale);
  ASSERT_TRUE(got.ok()) << *got.error;
  const json scale = got.object->to_json();
  EXPECT_EQ(scale["apiVersion"], "autoscaling/v1");
  EXPECT_EQ(scale["kind"], "Scale");
  EXPECT_EQ(scale["metadata"]["uid"], d->json()["metadata"]["uid"]);
  EXPECT_EQ(scale["metadata"]["resourceVersion"], std::string(d->resource_version()));
  EXPECT_EQ(scale["spec"]["replicas"], 3);
  EXPECT_EQ(scale["status"]["replicas"], 0);
  EXPECT_EQ(scale["status"]["selector"], "app=web");

  json next = scale;
  next["spec"]["replicas"] = 5;
  auto updated = send(Verb::kUpdate, kDeployments, "default", "web", Subresource::kScale, next);
  ASSERT_TRUE(updated.ok()) << *updated.error;
  EXPECT_EQ(updated.object->to_json()["spec"]["replicas"], 5);
  auto stored = must(server_.get(kDeployments, "default", "web", api::GetOptions()));
  EXPECT_EQ(stored->json()["spec"]["replicas"], 5);
  EXPECT_EQ(stored->generation(), 2);  // the Deployment's own update bumped it

  // A stale resourceVersion conflicts on the Deployment; a negative count is invalid.
  auto stale = send(Verb::kUpdate, kDeployments, "default", "web", Subresource::kScale, next);
  ASSERT_FALSE(stale.ok());
  EXPECT_TRUE(api::is_conflict(*stale.error)) << *stale.error;
  auto patched = patch(kDeployments, "web", Subresource::kScale, R"({"spec":{"replicas":-1}})");
  ASSERT_FALSE(patched.ok());
  EXPECT_EQ(patched.error->code, 422);
  EXPECT_EQ(patched.error->message,
            "Scale.autoscaling \"web\" is invalid: spec.replicas: Invalid value: -1: must be "
            "greater than or equal to 0");
  auto ok = patch(kDeployments, "web", Subresource::kScale, R"({"spec":{"replicas":1}})");
  ASSERT_TRUE(ok.ok()) << *ok.error;
  EXPECT_EQ(must(server_.get(kDeployments, "default", "web", api::GetOptions()))->json()["spec"]["replicas"], 1);
}

TEST_F(ServerSubresourcesTest, ScaleOfACustomResourceFollowsItsCrdsPaths) {
  auto crd = widget_crd()->edited([](json& j) {
    j["spec"]["versions"][0]["subresources"]["scale"] = {{"specReplicasPath", ".spec.size"},
                                                         {"statusReplicasPath", ".status.size"},
                                                         {"labelSelectorPath", ".status.selector"}};
  });
  must(server_.create(kCrds, "", crd, api::CreateOptions()));
  must(server_.create(kWidgets, "default", widget("default", "w", 2), api::CreateOptions()));
  auto got = send(Verb::kGet, kWidgets, "default", "w", Subresource::kScale);
  ASSERT_TRUE(got.ok()) << *got.error;
  EXPECT_EQ(got.object->to_json()["spec"]["replicas"], 2);
  EXPECT_EQ(got.object->to_json()["status"]["replicas"], 0);
  auto patched = patch(kWidgets, "w", Subresource::kScale, R"({"spec":{"replicas":7}})");
  ASSERT_TRUE(patched.ok()) << *patched.error;
  EXPECT_EQ(must(server_.get(kWidgets, "default", "w", api::GetOptions()))->json()["spec"]["size"], 7);
  // A CRD without a scale subresource has none.
  EXPECT_EQ(send(Verb::kGet, kConfigMaps, "default", "w", Subresource::kScale).error->code, 404);
}

TEST_F(ServerSubresourcesTest, FinalizeWritesOnlyTheNamespacesFinalizers) {
  must(server_.create(kNamespaces, "", namespace_object("team"), api::CreateOptions()));
  json body = namespace_object("team")->to_json();
  body["spec"]["finalizers"] = json::array({"example.com/hold"});
  body["metadata"]["labels"] = {{"ignored", "yes"}};
  auto r = send(Verb::kUpdate, kNamespaces, "", "team", Subresource::kFinalize, body);
  ASSERT_TRUE(r.ok()) << *r.error;
  auto ns = must(server_.get(kNamespaces, "", "team", api::GetOptions()));
  EXPECT_EQ(ns->json()["spec"]["finalizers"], json::array({"example.com/hold"}));
  EXPECT_FALSE(ns->json()["metadata"]["labels"].contains("ignored"));
}

TEST_F(ServerSubresourcesTest, BindingAssignsANodeOnceAndMarksThePodScheduled) {
  create_pod("p");
  json binding = {{"apiVersion", "v1"}, {"kind", "Binding"},
                  {"metadata", {{"name", "p"}, {"annotations", {{"a", "b"}}}}},
                  {"target", {{"kind", "Node"}, {"name", "node-1"}}}};
  auto r = send(Verb::kCreate, kPods, "default", "p", Subresource::kBinding, binding);
  ASSERT_TRUE(r.ok()) << *r.error;
  EXPECT_EQ(r.code, 201);
  EXPECT_EQ(r.object->to_json()["status"], "Success");
  auto pod = must(server_.get(kPods, "default", "p", api::GetOptions()))->json();
  EXPECT_EQ(pod["spec"]["nodeName"], "node-1");
  EXPECT_EQ(pod["metadata"]["annotations"]["a"], "b");
  bool scheduled = false;
  for (const auto& c : pod["status"]["conditions"]) {
    if (c["type"] == "PodScheduled") scheduled = c["status"] == "True";
  }
  EXPECT_TRUE(scheduled);

  auto again = send(Verb::kCreate, kPods, "default", "p", Subresource::kBinding, binding);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error->code, 409);
  EXPECT_EQ(again.error->message,
            "Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to "
            "node \"node-1\"");
  // The core bindings resource binds the pod the Binding names.
  create_pod("q");
  binding["metadata"]["name"] = "q";
  auto core = send(Verb::kCreate, {"", "v1", "bindings"}, "default", "", Subresource::kNone, binding);
  ASSERT_TRUE(core.ok()) << *core.error;
  EXPECT_EQ(must(server_.get(kPods, "default", "q", api::GetOptions()))->json()["spec"]["nodeName"],
            "node-1");
  // ValidatePodBinding's error is an internal error, as kube-apiserver answers it.
  create_pod("r");
  binding["metadata"]["name"] = "r";
  binding["target"]["name"] = "";
  auto bad = send(Verb::kCreate, kPods, "default", "r", Subresource::kBinding, binding);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error->code, 500);
  EXPECT_EQ(bad.error->message, "Internal error occurred: target.name: Required value");
}

TEST_F(ServerSubresourcesTest, EvictionDeletesAPodNoBudgetCovers) {
  create_pod("lonely", {{"app", "db"}});
  create_pdb("web", 0);
  auto r = evict("lonely");
  ASSERT_TRUE(r.ok()) << *r.error;
  EXPECT_EQ(r.code, 201);
  EXPECT_TRUE(api::is_not_found(server_.get(kPods, "default", "lonely", api::GetOptions()).status()));
}

TEST_F(ServerSubresourcesTest, EvictionHonoursTheBudgetsDisruptionsAllowed) {
  create_pod("a", {{"app", "web"}});
  create_pod("b", {{"app", "web"}});
  create_pdb("web", 1);
  auto first = evict("a");
  ASSERT_TRUE(first.ok()) << *first.error;
  auto pdb = must(server_.get(kPdbs, "default", "web", api::GetOptions()))->json();
  EXPECT_EQ(pdb["status"]["disruptionsAllowed"], 0);
  EXPECT_TRUE(pdb["status"]["disruptedPods"].contains("a"));
  EXPECT_EQ(pdb["status"]["conditions"][0]["reason"], "InsufficientPods");
  // The budget allows no more: 429 with the DisruptionBudget cause, and the pod stays.
  auto second = evict("b");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error->code, 429);
  EXPECT_EQ(second.error->message, "Cannot evict pod as it would violate the pod's disruption budget.");
  ASSERT_TRUE(second.error->details);
  ASSERT_EQ(second.error->details->causes.size(), 1u);
  EXPECT_EQ(second.error->details->causes[0].type, "DisruptionBudget");
  EXPECT_EQ(second.error->details->causes[0].message,
            "The disruption budget web needs 1 healthy pods and has 2 currently");
  EXPECT_TRUE(server_.get(kPods, "default", "b", api::GetOptions()).ok());
}

TEST_F(ServerSubresourcesTest, EvictionWaitsForABudgetTheControllerHasNotSeen) {
  create_pod("a", {{"app", "web"}});
  create_pdb("web", 1, /*observed=*/false);
  auto r = evict("a");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code, 429);
  EXPECT_EQ(r.error->details->causes[0].message,
            "The disruption budget web is still being processed by the server.");
}

TEST_F(ServerSubresourcesTest, EvictionOfAPendingOrUnreadyPodNeedsNoDisruption) {
  create_pod("pending", {{"app", "web"}}, "Pending");
  create_pod("unready", {{"app", "web"}}, "Running", /*ready=*/false);
  create_pdb("web", 0);
  ASSERT_TRUE(evict("pending").ok());
  // Unready, and the budget is met (2 healthy, 1 desired): deleted without a decrement.
  auto r = evict("unready");
  ASSERT_TRUE(r.ok()) << *r.error;
  EXPECT_EQ(must(server_.get(kPdbs, "default", "web", api::GetOptions()))->json()["status"]["disruptionsAllowed"], 0);
}

TEST_F(ServerSubresourcesTest, TwoBudgetsOverOnePodAreRefused) {
  create_pod("a", {{"app", "web"}});
  create_pdb("one", 1);
  create_pdb("two", 1);
  auto r = evict("a");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code, 500);
  EXPECT_EQ(r.error->message,
            "This pod has more than one PodDisruptionBudget, which the eviction subresource does "
            "not support.");
}

TEST_F(ServerSubresourcesTest, NodeOnlySubresourcesAnswer501) {
  create_pod("p");
  for (Subresource sub : {Subresource::kLog, Subresource::kExec, Subresource::kPortForward}) {
    auto r = send(Verb::kGet, kPods, "default", "p", sub);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, 501);
    EXPECT_NE(r.error->message.find("needs a kubelet on a real node"), std::string::npos);
  }
}

TEST_F(ServerSubresourcesTest, ReviewsAreAnsweredAndNotStored) {
  const api::GroupVersionResource ssar{"authorization.k8s.io", "v1", "selfsubjectaccessreviews"};
  json review = {{"apiVersion", "authorization.k8s.io/v1"},
                 {"kind", "SelfSubjectAccessReview"},
                 {"spec", {{"resourceAttributes", {{"verb", "create"}, {"resource", "pods"}}}}}};
  auto r = send(Verb::kCreate, ssar, "", "", Subresource::kNone, review);
  ASSERT_TRUE(r.ok()) << *r.error;
  EXPECT_EQ(r.code, 201);
  EXPECT_EQ(r.object->to_json()["status"]["allowed"], true);
  review["spec"] = json::object();
  auto bad = send(Verb::kCreate, ssar, "", "", Subresource::kNone, review);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error->code, 422);
}

TEST_F(ServerSubresourcesTest, EveryNewBuiltinKindIsServed) {
  // RBAC and the rest of 1.33's resources take creates and lists like any other.
  const api::GroupVersionResource roles{"rbac.authorization.k8s.io", "v1", "roles"};
  json role = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
               {"kind", "Role"},
               {"metadata", {{"name", "reader"}, {"namespace", "default"}}},
               {"rules", json::array({{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get"}}}})}};
  auto created = server_.create(roles, "default", api::make_object(role), api::CreateOptions());
  ASSERT_TRUE(created.ok()) << created.status();
  // Every resource of kube-apiserver 1.33 but autoscaling/v1.
  EXPECT_EQ(server_.registry().all().size(), 60u);
}

}  // namespace
}  // namespace kubesim::fakeapi
