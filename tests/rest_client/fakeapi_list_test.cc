// list over both transports, with the expectations of the core suite
// (tests/fakeapi/server_list_test.cc): key order, pages of one snapshot with remainingItemCount,
// selectors, resourceVersion "", "0" and explicit with NotOlderThan/Exact, and 410 Expired after
// a compaction (made with the ApiServer's own compact_now, which api::Client cannot ask for).
#include <gtest/gtest.h>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

class ListTest : public BothTransportsTest {
 protected:
  void SetUp() override { ASSERT_TRUE(create_namespace("other")); }  // 5
  ObjectList must_list(const std::string& ns, const ListOptions& options) {
    auto r = list_cms(ns, options);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : ObjectList();
  }
  static std::vector<std::string> keys(const ObjectList& list) {
    std::vector<std::string> out;
    for (const auto& item : list.items) out.push_back(item->key().str());
    return out;
  }
  static ListOptions paged(std::int64_t limit, std::string continue_token = "") {
    ListOptions o;
    o.limit = limit;
    o.continue_token = std::move(continue_token);
    return o;
  }
  // cm-0 … cm-4 in default, at revisions 6 … 10.
  void create_five() {
    for (int i = 0; i < 5; ++i) create_cm("cm-" + std::to_string(i));
  }
};

TEST_P(ListTest, ItemsComeInKeyOrderWithTheListsRevision) {
  create_cm("b", "v", nlohmann::json::object(), "other");
  create_cm("z");
  create_cm("a");
  auto all = must_list("", ListOptions());
  EXPECT_EQ(keys(all), (std::vector<std::string>{"default/a", "default/z", "other/b"}));
  EXPECT_EQ(all.resource_version, "8");
  EXPECT_TRUE(all.continue_token.empty());
  EXPECT_FALSE(all.remaining_item_count.has_value());
  ASSERT_FALSE(all.items.empty());
  EXPECT_EQ(all.items[0]->kind(), "ConfigMap");
  EXPECT_EQ(all.items[0]->api_version(), "v1");
  EXPECT_EQ(keys(must_list("default", ListOptions())), (std::vector<std::string>{"default/a", "default/z"}));
  auto none = must_list("kube-system", ListOptions());
  EXPECT_TRUE(none.items.empty());
  EXPECT_EQ(none.resource_version, "8");
}

TEST_P(ListTest, PagesCarryContinueTokensAndRemainingItemCounts) {
  create_five();
  auto p1 = must_list("default", paged(2));
  EXPECT_EQ(keys(p1), (std::vector<std::string>{"default/cm-0", "default/cm-1"}));
  EXPECT_EQ(p1.resource_version, "10");
  ASSERT_FALSE(p1.continue_token.empty());
  EXPECT_EQ(p1.remaining_item_count, 3);
  auto p2 = must_list("default", paged(2, p1.continue_token));
  EXPECT_EQ(keys(p2), (std::vector<std::string>{"default/cm-2", "default/cm-3"}));
  EXPECT_EQ(p2.resource_version, "10");
  EXPECT_EQ(p2.remaining_item_count, 1);
  auto p3 = must_list("default", paged(2, p2.continue_token));
  EXPECT_EQ(keys(p3), (std::vector<std::string>{"default/cm-4"}));
  EXPECT_TRUE(p3.continue_token.empty());
  EXPECT_FALSE(p3.remaining_item_count.has_value());
  auto exact = must_list("default", paged(5));
  EXPECT_EQ(exact.items.size(), 5u);
  EXPECT_TRUE(exact.continue_token.empty());
  EXPECT_FALSE(exact.remaining_item_count.has_value());
}

TEST_P(ListTest, AllPagesAreOneSnapshotWhateverIsWrittenBetweenThem) {
  create_five();
  auto p1 = must_list("default", paged(2));
  auto cm3 = must(get_cm("cm-3"));
  ASSERT_TRUE(cm3);
  ASSERT_TRUE(update_cm(cm3->edited([](nlohmann::json& j) { j["data"]["k"] = "new"; })).ok());
  ASSERT_TRUE(delete_cm("cm-2").ok());
  create_cm("cm-25");
  auto p2 = must_list("default", paged(2, p1.continue_token));
  auto p3 = must_list("default", paged(2, p2.continue_token));
  ASSERT_EQ(p2.items.size(), 2u);
  EXPECT_EQ(p2.items[0]->key().str() + "@" + std::string(p2.items[0]->resource_version()), "default/cm-2@8");
  EXPECT_EQ(p2.items[1]->key().str() + "@" + std::string(p2.items[1]->resource_version()), "default/cm-3@9");
  EXPECT_EQ(p2.items[1]->json()["data"]["k"], "v");
  EXPECT_EQ(keys(p3), (std::vector<std::string>{"default/cm-4"}));
  EXPECT_EQ(p2.resource_version, p1.resource_version);
  EXPECT_EQ(p3.resource_version, p1.resource_version);
  EXPECT_EQ(keys(must_list("default", ListOptions())),
            (std::vector<std::string>{"default/cm-0", "default/cm-1", "default/cm-25", "default/cm-3", "default/cm-4"}));
}

TEST_P(ListTest, ASelectorPageSkipsUnselectedObjectsAndNeverCountsTheRest) {
  for (int i = 0; i < 6; ++i) create_cm("cm-" + std::to_string(i), "v", {{"even", i % 2 == 0 ? "yes" : "no"}});
  ListOptions o = paged(2);
  o.label_selector = "even=yes";
  auto p1 = must_list("default", o);
  EXPECT_EQ(keys(p1), (std::vector<std::string>{"default/cm-0", "default/cm-2"}));
  EXPECT_FALSE(p1.continue_token.empty());
  EXPECT_FALSE(p1.remaining_item_count.has_value());
  o.continue_token = p1.continue_token;
  auto p2 = must_list("default", o);
  EXPECT_EQ(keys(p2), (std::vector<std::string>{"default/cm-4"}));
  EXPECT_TRUE(p2.continue_token.empty());
}

TEST_P(ListTest, LabelSelectorsUseTheFullSyntax) {
  create_cm("a", "v", {{"app", "web"}, {"tier", "front"}});
  create_cm("b", "v", {{"app", "db"}});
  create_cm("c", "v", {{"app", "cache"}, {"tier", "back"}});
  create_cm("d");
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"app=web", {"default/a"}},
      {"app==web", {"default/a"}},
      {"app!=web", {"default/b", "default/c", "default/d"}},
      {"app in (web,db)", {"default/a", "default/b"}},
      {"app notin (web,db)", {"default/c", "default/d"}},
      {"tier", {"default/a", "default/c"}},
      {"!tier", {"default/b", "default/d"}},
      {"app,tier=back", {"default/c"}},
      {"", {"default/a", "default/b", "default/c", "default/d"}},
  };
  for (const auto& [selector, want] : cases) {
    ListOptions o;
    o.label_selector = selector;
    EXPECT_EQ(keys(must_list("default", o)), want) << selector;
  }
}

TEST_P(ListTest, FieldSelectorsOnNameAndNamespace) {
  create_cm("a");
  create_cm("b");
  create_cm("a", "v", nlohmann::json::object(), "other");
  ListOptions by_name;
  by_name.field_selector = "metadata.name=a";
  EXPECT_EQ(keys(must_list("", by_name)), (std::vector<std::string>{"default/a", "other/a"}));
  ListOptions by_ns;
  by_ns.field_selector = "metadata.namespace!=default";
  EXPECT_EQ(keys(must_list("", by_ns)), (std::vector<std::string>{"other/a"}));
  ListOptions unsupported;
  unsupported.field_selector = "data.k=v";
  EXPECT_TRUE(is_bad_request(status_of(list_cms("", unsupported))));
}

TEST_P(ListTest, ResourceVersionZeroIgnoresTheLimit) {
  create_five();
  ListOptions o = paged(2);
  o.resource_version = "0";
  auto all = must_list("default", o);
  EXPECT_EQ(all.items.size(), 5u);
  EXPECT_TRUE(all.continue_token.empty());
  EXPECT_EQ(all.resource_version, "10");
}

TEST_P(ListTest, ExactServesAnOlderRevisionAndSoDoesTheLegacyPagedForm) {
  create_five();  // 6..10
  ASSERT_TRUE(delete_cm("cm-0").ok());
  ListOptions o;
  o.resource_version = "7";
  o.resource_version_match = ResourceVersionMatch::kExact;
  auto old = must_list("default", o);
  EXPECT_EQ(keys(old), (std::vector<std::string>{"default/cm-0", "default/cm-1"}));
  EXPECT_EQ(old.resource_version, "7");
  ListOptions legacy = paged(1);
  legacy.resource_version = "7";
  auto page = must_list("default", legacy);
  EXPECT_EQ(keys(page), (std::vector<std::string>{"default/cm-0"}));
  EXPECT_EQ(page.resource_version, "7");
  EXPECT_EQ(page.remaining_item_count, 1);
  EXPECT_EQ(keys(must_list("default", paged(1, page.continue_token))), (std::vector<std::string>{"default/cm-1"}));
}

TEST_P(ListTest, NotOlderThanServesTheLatest) {
  create_five();
  for (const auto match : {ResourceVersionMatch::kNotOlderThan, ResourceVersionMatch::kUnset}) {
    ListOptions o;
    o.resource_version = "6";
    o.resource_version_match = match;
    auto latest = must_list("default", o);
    EXPECT_EQ(latest.items.size(), 5u);
    EXPECT_EQ(latest.resource_version, "10");
  }
}

TEST_P(ListTest, AContinueTokenOfACompactedRevisionIsExpired) {
  create_five();
  auto p1 = must_list("default", paged(2));
  create_cm("later");
  api_->compact_now();
  auto r = list_cms("default", paged(2, p1.continue_token));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_resource_expired(r.status())) << r.status();
  EXPECT_EQ(r.status().code, 410);
  EXPECT_EQ(r.status().message.rfind("The provided continue parameter is too old", 0), 0u) << r.status();
}

TEST_P(ListTest, AnExactReadOfACompactedRevisionIsExpiredButTheCompactedOneIsNot) {
  create_five();
  api_->compact_now();
  create_cm("later");
  ListOptions o;
  o.resource_version = "9";
  o.resource_version_match = ResourceVersionMatch::kExact;
  auto r = list_cms("default", o);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_resource_expired(r.status()));
  EXPECT_EQ(r.status().message, "The resourceVersion for the provided list is too old.");
  o.resource_version = "10";
  auto at_compaction = must_list("default", o);
  EXPECT_EQ(at_compaction.items.size(), 5u);
  EXPECT_EQ(at_compaction.resource_version, "10");
}

TEST_P(ListTest, AListStartedAfterACompactionCanBeContinuedAlsoWithResourceVersionZero) {
  create_five();
  api_->compact_now();
  auto p1 = must_list("default", paged(3));
  ASSERT_FALSE(p1.continue_token.empty());
  EXPECT_EQ(keys(must_list("default", paged(3, p1.continue_token))),
            (std::vector<std::string>{"default/cm-3", "default/cm-4"}));
  ListOptions zero = paged(2, p1.continue_token);
  zero.resource_version = "0";
  EXPECT_EQ(keys(must_list("default", zero)), (std::vector<std::string>{"default/cm-3", "default/cm-4"}));
}

TEST_P(ListTest, ClusterScopedResourcesListWithoutANamespace) {
  auto r = run(c().list(ctx(), kNamespaces, "", ListOptions()));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->items.size(), 5u);
  EXPECT_EQ(r->items[0]->kind(), "Namespace");
  auto scoped = run(c().list(ctx(), kNamespaces, "default", ListOptions()));
  EXPECT_TRUE(is_not_found(status_of(scoped))) << status_of(scoped);
}

INSTANTIATE_TEST_SUITE_P(Transports, ListTest, both_transports(), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
