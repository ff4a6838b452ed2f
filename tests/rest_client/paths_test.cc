// REST paths, query strings and DeleteOptions bodies, checked against what client-go sends.
#include "api/rest/internal/paths.h"

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"

namespace kubesim::api::rest::internal {
namespace {

const GroupVersionResource& kCrds = api::kCustomResourceDefinitions;

TEST(PathsTest, CoreAndGroupNamespacedAndClusterScoped) {
  EXPECT_EQ(resource_path("", kConfigMaps, "default"), "/api/v1/namespaces/default/configmaps");
  EXPECT_EQ(resource_path("", kConfigMaps, "default", "a"), "/api/v1/namespaces/default/configmaps/a");
  EXPECT_EQ(resource_path("", kConfigMaps, ""), "/api/v1/configmaps");
  EXPECT_EQ(resource_path("", kDeployments, "ns", "web", "status"),
            "/apis/apps/v1/namespaces/ns/deployments/web/status");
  EXPECT_EQ(resource_path("", kNamespaces, "", "kube-system"), "/api/v1/namespaces/kube-system");
  EXPECT_EQ(resource_path("", kCrds, "", "widgets.example.com"),
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com");
  EXPECT_EQ(resource_path("/prefix", kConfigMaps, "d", "a"), "/prefix/api/v1/namespaces/d/configmaps/a");
}

TEST(PathsTest, NamesThatCannotBePathSegmentsAreRefusedAsClientGoRefusesThem) {
  EXPECT_EQ(check_path_segment("resource name", "a/b"), "invalid resource name \"a/b\": [may not contain '/']");
  EXPECT_EQ(check_path_segment("resource name", ".."), "invalid resource name \"..\": [may not be '..']");
  EXPECT_EQ(check_path_segment("namespace", "."), "invalid namespace \".\": [may not be '.']");
  EXPECT_EQ(check_path_segment("resource name", "a/%"),
            "invalid resource name \"a/%\": [may not contain '/' may not contain '%']");
  EXPECT_EQ(check_path_segment("resource name", "a.b-c"), std::nullopt);
  EXPECT_EQ(path_escape("a b:c@d?"), "a%20b:c@d%3F");
}

TEST(PathsTest, QueryEscapeIsGosQueryEscape) {
  EXPECT_EQ(query_escape("app in (a,b)"), "app+in+%28a%2Cb%29");
  EXPECT_EQ(query_escape("metadata.name=x,a!=b"), "metadata.name%3Dx%2Ca%21%3Db");
  EXPECT_EQ(query_escape("AZaz09-_.~"), "AZaz09-_.~");
  EXPECT_EQ(query_escape("\xc3\xa9/"), "%C3%A9%2F");
}

TEST(PathsTest, EveryListOptionIsAParameterSortedByKey) {
  ListOptions o;
  o.label_selector = "app in (a,b)";
  o.field_selector = "metadata.name=x";
  o.resource_version = "10";
  o.resource_version_match = ResourceVersionMatch::kNotOlderThan;
  o.limit = 5;
  o.continue_token = "tok/en==";
  o.allow_watch_bookmarks = true;
  o.send_initial_events = true;
  o.timeout_seconds = 30;
  EXPECT_EQ(list_query(o, true).encode(),
            "allowWatchBookmarks=true&continue=tok%2Fen%3D%3D&fieldSelector=metadata.name%3Dx&"
            "labelSelector=app+in+%28a%2Cb%29&limit=5&resourceVersion=10&"
            "resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=30&watch=true");
}

TEST(PathsTest, UnsetOptionsAreLeftOutAndFalsePointersAreSent) {
  EXPECT_EQ(list_query(ListOptions(), false).encode(), "");
  EXPECT_EQ(list_query(ListOptions(), true).encode(), "watch=true");
  ListOptions o;
  o.send_initial_events = false;
  o.timeout_seconds = 0;
  o.resource_version = "0";
  o.resource_version_match = ResourceVersionMatch::kExact;
  EXPECT_EQ(list_query(o, false).encode(),
            "resourceVersion=0&resourceVersionMatch=Exact&sendInitialEvents=false&timeoutSeconds=0");
  EXPECT_EQ(with_query("/p", list_query(ListOptions(), false)), "/p");
  EXPECT_EQ(with_query("/p", list_query(o, false)).substr(0, 3), "/p?");
}

TEST(PathsTest, GetAndWriteQueries) {
  GetOptions g;
  EXPECT_EQ(get_query(g).encode(), "");
  g.resource_version = "7";
  EXPECT_EQ(get_query(g).encode(), "resourceVersion=7");
  EXPECT_EQ(write_query(false, "", FieldValidation::kUnset).encode(), "");
  EXPECT_EQ(write_query(true, "kubectl client", FieldValidation::kUnset).encode(),
            "dryRun=All&fieldManager=kubectl+client");
  EXPECT_EQ(write_query(false, "", FieldValidation::kStrict).encode(), "fieldValidation=Strict");
}

TEST(PathsTest, DeleteOptionsBody) {
  EXPECT_EQ(delete_body(DeleteOptions()), "{}");
  DeleteOptions o;
  o.grace_period_seconds = 0;
  o.preconditions.uid = "u1";
  o.preconditions.resource_version = "42";
  o.propagation_policy = PropagationPolicy::kForeground;
  o.dry_run = true;
  EXPECT_EQ(delete_body(o),
            R"({"gracePeriodSeconds":0,"preconditions":{"uid":"u1","resourceVersion":"42"},)"
            R"("propagationPolicy":"Foreground","dryRun":["All"]})");
  DeleteOptions only;
  only.propagation_policy = PropagationPolicy::kBackground;
  EXPECT_EQ(delete_body(only), R"({"propagationPolicy":"Background"})");
}

}  // namespace
}  // namespace kubesim::api::rest::internal
