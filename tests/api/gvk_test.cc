#include "kubesim/api/gvk.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <sstream>
#include <unordered_set>

namespace kubesim::api {
namespace {

TEST(GvkTest, PrintsLikeApimachinery) {
  EXPECT_EQ((GroupVersionKind{"apps", "v1", "Deployment"}).to_string(), "apps/v1, Kind=Deployment");
  EXPECT_EQ((GroupVersionKind{"", "v1", "ConfigMap"}).to_string(), "/v1, Kind=ConfigMap");
  EXPECT_EQ((GroupVersionResource{"apps", "v1", "deployments"}).to_string(),
            "apps/v1, Resource=deployments");
  EXPECT_EQ((GroupResource{"apps", "deployments"}).to_string(), "deployments.apps");
  EXPECT_EQ((GroupResource{"", "configmaps"}).to_string(), "configmaps");
  EXPECT_EQ((GroupKind{"apps", "Deployment"}).to_string(), "Deployment.apps");
  EXPECT_EQ((GroupKind{"", "Pod"}).to_string(), "Pod");
  EXPECT_EQ((GroupVersion{"", "v1"}).to_string(), "v1");
  EXPECT_EQ((GroupVersion{"coordination.k8s.io", "v1"}).to_string(), "coordination.k8s.io/v1");
  EXPECT_EQ(GroupVersion{}.to_string(), "");

  std::ostringstream os;
  os << GroupVersionKind{"apps", "v1", "Deployment"} << "|" << GroupResource{"", "pods"};
  EXPECT_EQ(os.str(), "apps/v1, Kind=Deployment|pods");
}

TEST(GvkTest, ApiVersion) {
  EXPECT_EQ((GroupVersionKind{"", "v1", "ConfigMap"}).api_version(), "v1");
  EXPECT_EQ((GroupVersionKind{"apps", "v1", "Deployment"}).api_version(), "apps/v1");
  EXPECT_EQ((GroupVersionKind{"apps", "v1", "Deployment"}).group_kind(),
            (GroupKind{"apps", "Deployment"}));
  EXPECT_EQ((GroupVersionResource{"apps", "v1", "deployments"}).group_resource(),
            (GroupResource{"apps", "deployments"}));
  EXPECT_EQ((GroupVersion{"apps", "v1"}).with_kind("Deployment"),
            (GroupVersionKind{"apps", "v1", "Deployment"}));
  EXPECT_EQ((GroupVersion{"apps", "v1"}).with_resource("deployments"),
            (GroupVersionResource{"apps", "v1", "deployments"}));
}

TEST(GvkTest, ParseApiVersion) {
  struct Case {
    std::string_view text;
    std::optional<GroupVersion> want;
  };
  const Case cases[] = {
      {"v1", GroupVersion{"", "v1"}},
      {"apps/v1", GroupVersion{"apps", "v1"}},
      {"coordination.k8s.io/v1", GroupVersion{"coordination.k8s.io", "v1"}},
      {"", GroupVersion{}},
      {"apps/", GroupVersion{"apps", ""}},
      {"a/b/c", std::nullopt},
      {"//", std::nullopt},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(parse_api_version(c.text), c.want) << c.text;
  }
}

TEST(GvkTest, FromApiVersionAndKind) {
  EXPECT_EQ(gvk_from_api_version_and_kind("apps/v1", "Deployment"),
            (GroupVersionKind{"apps", "v1", "Deployment"}));
  EXPECT_EQ(gvk_from_api_version_and_kind("v1", "Pod"), (GroupVersionKind{"", "v1", "Pod"}));
  EXPECT_EQ(gvk_from_api_version_and_kind("a/b/c", "Pod"), (GroupVersionKind{"", "", "Pod"}));
}

TEST(GvkTest, OrderingAndHashing) {
  const GroupVersionKind a{"", "v1", "ConfigMap"};
  const GroupVersionKind b{"apps", "v1", "Deployment"};
  EXPECT_LT(a, b);
  EXPECT_NE(a, b);
  std::unordered_set<GroupVersionKind> set{a, b, a};
  EXPECT_EQ(set.size(), 2u);
  std::unordered_set<GroupResource> grs{{"", "pods"}, {"pods", ""}};
  EXPECT_EQ(grs.size(), 2u);
  EXPECT_EQ(std::hash<GroupVersionResource>{}({"apps", "v1", "deployments"}),
            std::hash<GroupVersionResource>{}({"apps", "v1", "deployments"}));
}

TEST(ObjectKeyTest, Join) {
  EXPECT_EQ(meta_namespace_key("default", "web").view(), "default/web");
  EXPECT_EQ(meta_namespace_key("", "node-1").view(), "node-1");
  EXPECT_EQ(meta_namespace_key("", "").view(), "");
  EXPECT_TRUE(ObjectKey().empty());
}

TEST(ObjectKeyTest, Split) {
  struct Case {
    std::string_view key;
    std::optional<NamespacedName> want;
  };
  const Case cases[] = {
      {"default/web", NamespacedName{"default", "web"}},
      {"node-1", NamespacedName{"", "node-1"}},
      {"/name", NamespacedName{"", "name"}},
      {"ns/", NamespacedName{"ns", ""}},
      {"", NamespacedName{"", ""}},
      {"a/b/c", std::nullopt},
      {"//", std::nullopt},
      {"ns/name/", std::nullopt},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(split_meta_namespace_key(c.key), c.want) << c.key;
  }
  EXPECT_EQ(split_meta_namespace_key(ObjectKey("kube-system/coredns")),
            (NamespacedName{"kube-system", "coredns"}));
}

TEST(ObjectKeyTest, ComparesAndHashes) {
  const ObjectKey a("a/x");
  const ObjectKey b("b/x");
  EXPECT_LT(a, b);
  EXPECT_EQ(a, ObjectKey("a/x"));
  std::set<ObjectKey> ordered{b, a};
  EXPECT_EQ(ordered.begin()->view(), "a/x");
  std::unordered_set<ObjectKey> hashed{a, b, ObjectKey("a/x")};
  EXPECT_EQ(hashed.size(), 2u);
  std::ostringstream os;
  os << a << " " << NamespacedName{"ns", "n"};
  EXPECT_EQ(os.str(), "a/x ns/n");
}

RC_GTEST_PROP(ObjectKeyProperty, SplitInvertsJoin, ()) {
  const auto name_char = rc::gen::elementOf(std::string("abcxyz019-."));
  const auto name = rc::gen::container<std::string>(name_char);
  const std::string ns = *name;
  const std::string n = *name;
  const ObjectKey key = meta_namespace_key(ns, n);
  const auto parts = split_meta_namespace_key(key);
  RC_ASSERT(parts.has_value());
  RC_ASSERT(parts->ns == ns);
  RC_ASSERT(parts->name == n);
}

}  // namespace
}  // namespace kubesim::api
