// ApiServer::list: ordering, selectors, pagination over one snapshot, resourceVersion and
// resourceVersionMatch, compaction.
#include "kubesim/fakeapi/server.h"

#include "fakeapi/internal/server_util.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace testutil;

class ServerListTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.create(kNamespaces, "", namespace_object("other"), api::CreateOptions()).ok());
  }
  api::ObjectPtr create_cm(const std::string& ns, const std::string& name, const StringMap& labels = {},
                           const std::string& value = "v") {
    auto r = server_.create(kConfigMaps, ns, config_map(ns, name, {{"k", value}}, labels), api::CreateOptions());
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : nullptr;
  }
  api::ObjectList must_list(const std::string& ns, const api::ListOptions& options) {
    auto r = server_.list(kConfigMaps, ns, options);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : api::ObjectList();
  }
  static std::vector<std::string> keys(const api::ObjectList& list) {
    std::vector<std::string> out;
    for (const auto& item : list.items) out.push_back(item->key().str());
    return out;
  }
  static std::vector<std::string> keys_and_versions(const api::ObjectList& list) {
    std::vector<std::string> out;
    for (const auto& item : list.items) {
      out.push_back(item->key().str() + "@" + std::string(item->resource_version()));
    }
    return out;
  }
  static api::ListOptions paged(std::int64_t limit, std::string continue_token = "") {
    api::ListOptions o;
    o.limit = limit;
    o.continue_token = std::move(continue_token);
    return o;
  }
  // Five ConfigMaps in default, cm-0 … cm-4, at revisions 6 … 10.
  void create_five() {
    for (int i = 0; i < 5; ++i) create_cm("default", "cm-" + std::to_string(i));
  }

  sim::Loop loop_;
  ApiServer server_{loop_};
};

TEST_F(ServerListTest, ItemsComeInKeyOrderWithTheListsRevision) {
  create_cm("other", "b");
  create_cm("default", "z");
  create_cm("default", "a");
  auto all = must_list("", api::ListOptions());
  EXPECT_EQ(keys(all), (std::vector<std::string>{"default/a", "default/z", "other/b"}));
  EXPECT_EQ(all.resource_version, "8");
  EXPECT_TRUE(all.continue_token.empty());
  EXPECT_FALSE(all.remaining_item_count.has_value());
  auto one = must_list("default", api::ListOptions());
  EXPECT_EQ(keys(one), (std::vector<std::string>{"default/a", "default/z"}));
  EXPECT_EQ(keys(must_list("kube-system", api::ListOptions())), std::vector<std::string>{});
}

TEST_F(ServerListTest, PagesCarryContinueTokensAndRemainingItemCounts) {
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
}

TEST_F(ServerListTest, ALimitThatTakesEverythingGivesNoToken) {
  create_five();
  auto exact = must_list("default", paged(5));
  EXPECT_EQ(exact.items.size(), 5u);
  EXPECT_TRUE(exact.continue_token.empty());
  EXPECT_FALSE(exact.remaining_item_count.has_value());
}

TEST_F(ServerListTest, AllPagesAreOneSnapshotWhateverIsWrittenBetweenThem) {
  create_five();
  auto p1 = must_list("default", paged(2));
  const std::string snapshot = p1.resource_version;
  // Writes between the pages: an update, a delete, a create inside the remaining range.
  auto cm3 = server_.get(kConfigMaps, "default", "cm-3", api::GetOptions());
  ASSERT_TRUE(cm3.ok());
  ASSERT_TRUE(server_.update(kConfigMaps, "default",
                             cm3.value()->edited([](nlohmann::json& j) { j["data"]["k"] = "new"; }),
                             api::UpdateOptions())
                  .ok());
  ASSERT_TRUE(server_.delete_(kConfigMaps, "default", "cm-2", api::DeleteOptions()).ok());
  create_cm("default", "cm-25");
  auto p2 = must_list("default", paged(2, p1.continue_token));
  auto p3 = must_list("default", paged(2, p2.continue_token));
  EXPECT_EQ(keys_and_versions(p2), (std::vector<std::string>{"default/cm-2@8", "default/cm-3@9"}));
  EXPECT_EQ(data_of(p2.items[1], "k"), "v");
  EXPECT_EQ(keys_and_versions(p3), (std::vector<std::string>{"default/cm-4@10"}));
  EXPECT_EQ(p2.resource_version, snapshot);
  EXPECT_EQ(p3.resource_version, snapshot);
  // A fresh list sees the writes.
  EXPECT_EQ(keys(must_list("default", api::ListOptions())),
            (std::vector<std::string>{"default/cm-0", "default/cm-1", "default/cm-25", "default/cm-3",
                                      "default/cm-4"}));
}

TEST_F(ServerListTest, ASelectorPageHasATokenWhileKeysRemainButNoCount) {
  create_cm("default", "a", {{"color", "red"}});
  create_cm("default", "b", {{"color", "blue"}});
  create_cm("default", "c", {{"color", "red"}});
  create_cm("default", "d", {{"color", "blue"}});
  api::ListOptions options = paged(2);
  options.label_selector = "color=red";
  auto p1 = must_list("default", options);
  EXPECT_EQ(keys(p1), (std::vector<std::string>{"default/a", "default/c"}));
  // As etcd3's GetList: more keys follow (none of them selected), so there is a token, and a
  // selector never gets a remainingItemCount.
  EXPECT_FALSE(p1.continue_token.empty());
  EXPECT_FALSE(p1.remaining_item_count.has_value());
  options.continue_token = p1.continue_token;
  auto p2 = must_list("default", options);
  EXPECT_TRUE(p2.items.empty());
  EXPECT_TRUE(p2.continue_token.empty());
}

TEST_F(ServerListTest, ASelectorPageSkipsUnselectedObjectsToFillTheLimit) {
  for (int i = 0; i < 6; ++i) create_cm("default", "cm-" + std::to_string(i), {{"even", i % 2 == 0 ? "yes" : "no"}});
  api::ListOptions options = paged(2);
  options.label_selector = "even=yes";
  auto p1 = must_list("default", options);
  EXPECT_EQ(keys(p1), (std::vector<std::string>{"default/cm-0", "default/cm-2"}));
  options.continue_token = p1.continue_token;
  auto p2 = must_list("default", options);
  EXPECT_EQ(keys(p2), (std::vector<std::string>{"default/cm-4"}));
  EXPECT_TRUE(p2.continue_token.empty());
}

TEST_F(ServerListTest, LabelSelectorsUseTheFullSyntax) {
  create_cm("default", "a", {{"app", "web"}, {"tier", "front"}});
  create_cm("default", "b", {{"app", "db"}});
  create_cm("default", "c", {{"app", "cache"}, {"tier", "back"}});
  create_cm("default", "d");
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"app=web", {"default/a"}},
      {"app!=web", {"default/b", "default/c", "default/d"}},
      {"app in (web,db)", {"default/a", "default/b"}},
      {"app notin (web,db)", {"default/c", "default/d"}},
      {"tier", {"default/a", "default/c"}},
      {"!tier", {"default/b", "default/d"}},
      {"app,tier=back", {"default/c"}},
      {"", {"default/a", "default/b", "default/c", "default/d"}},
  };
  for (const auto& [selector, want] : cases) {
    api::ListOptions options;
    options.label_selector = selector;
    EXPECT_EQ(keys(must_list("default", options)), want) << selector;
  }
}

TEST_F(ServerListTest, FieldSelectorsOnNameAndNamespace) {
  create_cm("default", "a");
  create_cm("default", "b");
  create_cm("other", "a");
  api::ListOptions by_name;
  by_name.field_selector = "metadata.name=a";
  EXPECT_EQ(keys(must_list("", by_name)), (std::vector<std::string>{"default/a", "other/a"}));
  api::ListOptions by_ns;
  by_ns.field_selector = "metadata.namespace!=default";
  EXPECT_EQ(keys(must_list("", by_ns)), (std::vector<std::string>{"other/a"}));
  api::ListOptions unsupported;
  unsupported.field_selector = "data.k=v";
  auto r = server_.list(kConfigMaps, "", unsupported);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_bad_request(r.status()));
}

TEST_F(ServerListTest, ResourceVersionZeroIgnoresTheLimit) {
  create_five();
  api::ListOptions options = paged(2);
  options.resource_version = "0";
  auto all = must_list("default", options);
  EXPECT_EQ(all.items.size(), 5u);
  EXPECT_TRUE(all.continue_token.empty());
  EXPECT_EQ(all.resource_version, "10");
}

TEST_F(ServerListTest, ExactServesAnOlderRevision) {
  create_five();  // revisions 6..10
  ASSERT_TRUE(server_.delete_(kConfigMaps, "default", "cm-0", api::DeleteOptions()).ok());
  api::ListOptions options;
  options.resource_version = "7";
  options.resource_version_match = api::ResourceVersionMatch::kExact;
  auto old = must_list("default", options);
  EXPECT_EQ(keys(old), (std::vector<std::string>{"default/cm-0", "default/cm-1"}));
  EXPECT_EQ(old.resource_version, "7");
  // The legacy form: a resourceVersion with a limit and no match is Exact too.
  api::ListOptions legacy = paged(1);
  legacy.resource_version = "7";
  auto page = must_list("default", legacy);
  EXPECT_EQ(keys(page), (std::vector<std::string>{"default/cm-0"}));
  EXPECT_EQ(page.resource_version, "7");
  EXPECT_EQ(page.remaining_item_count, 1);
  auto rest = must_list("default", paged(1, page.continue_token));
  EXPECT_EQ(keys(rest), (std::vector<std::string>{"default/cm-1"}));
}

TEST_F(ServerListTest, NotOlderThanServesTheLatest) {
  create_five();
  for (const auto match : {api::ResourceVersionMatch::kNotOlderThan, api::ResourceVersionMatch::kUnset}) {
    api::ListOptions options;
    options.resource_version = "6";
    options.resource_version_match = match;
    auto latest = must_list("default", options);
    EXPECT_EQ(latest.items.size(), 5u);
    EXPECT_EQ(latest.resource_version, "10");
  }
}

TEST_F(ServerListTest, AFutureResourceVersionIsTooLarge) {
  create_five();
  for (const auto match : {api::ResourceVersionMatch::kNotOlderThan, api::ResourceVersionMatch::kExact,
                           api::ResourceVersionMatch::kUnset}) {
    api::ListOptions options;
    options.resource_version = "11";
    options.resource_version_match = match;
    auto r = server_.list(kConfigMaps, "default", options);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code, 504);
    EXPECT_TRUE(api::is_timeout(r.status()));
    EXPECT_EQ(r.status().message, "Timeout: Too large resource version: 11, current: 10");
    ASSERT_TRUE(r.status().details.has_value());
    ASSERT_EQ(r.status().details->causes.size(), 1u);
    EXPECT_EQ(r.status().details->causes[0].type, "ResourceVersionTooLarge");
    EXPECT_EQ(r.status().details->retry_after_seconds, 1);
  }
}

TEST_F(ServerListTest, AContinueTokenOfACompactedRevisionIsExpired) {
  create_five();
  auto p1 = must_list("default", paged(2));
  create_cm("default", "later");
  server_.compact_now();
  auto r = server_.list(kConfigMaps, "default", paged(2, p1.continue_token));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_resource_expired(r.status()));
  EXPECT_EQ(r.status().code, 410);
  EXPECT_EQ(r.status().message.rfind("The provided continue parameter is too old", 0), 0u);
}

TEST_F(ServerListTest, TheExpiredStatusOffersTheRestOfTheListAtTheLatestRevision) {
  create_five();
  auto p1 = must_list("default", paged(2));  // cm-0, cm-1 at revision 10
  create_cm("default", "cm-9");              // after the first page: an inconsistent rest shows it
  server_.compact_now();
  auto r = server_.list(kConfigMaps, "default", paged(2, p1.continue_token));
  ASSERT_FALSE(r.ok());
  const std::string offered = r.status().continue_token;
  ASSERT_FALSE(offered.empty());
  EXPECT_NE(r.status().to_json_string().find("\"metadata\":{\"continue\":\"" + offered + "\"}"),
            std::string::npos);
  // The offered token continues after cm-1, at the latest revision, and pages on from there.
  auto p2 = must_list("default", paged(2, offered));
  EXPECT_EQ(keys(p2), (std::vector<std::string>{"default/cm-2", "default/cm-3"}));
  EXPECT_EQ(p2.resource_version, "11");
  auto p3 = must_list("default", paged(2, p2.continue_token));
  EXPECT_EQ(keys(p3), (std::vector<std::string>{"default/cm-4", "default/cm-9"}));
  EXPECT_TRUE(p3.continue_token.empty());
}

TEST_F(ServerListTest, AContinueTokenWithRevisionZeroIsInvalid) {
  create_five();
  // An rv of 0 is refused, as etcd3's store refuses it.
  const std::string zero = internal::encode_continue("default/cm-2", 0);
  auto r = server_.list(kConfigMaps, "default", paged(2, zero));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_bad_request(r.status()));
}

TEST_F(ServerListTest, AnExactReadOfACompactedRevisionIsExpired) {
  create_five();
  server_.compact_now();
  create_cm("default", "later");
  api::ListOptions options;
  options.resource_version = "9";
  options.resource_version_match = api::ResourceVersionMatch::kExact;
  auto r = server_.list(kConfigMaps, "default", options);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_resource_expired(r.status()));
  EXPECT_EQ(r.status().message, "The resourceVersion for the provided list is too old.");
  // The compacted revision itself is still readable, as etcd keeps it.
  options.resource_version = "10";
  auto at_compaction = must_list("default", options);
  EXPECT_EQ(at_compaction.items.size(), 5u);
  EXPECT_EQ(at_compaction.resource_version, "10");
}

TEST_F(ServerListTest, AListStartedRightAfterACompactionCanBeContinued) {
  create_five();
  server_.compact_now();
  auto p1 = must_list("default", paged(3));
  ASSERT_FALSE(p1.continue_token.empty());
  auto p2 = must_list("default", paged(3, p1.continue_token));
  EXPECT_EQ(keys(p2), (std::vector<std::string>{"default/cm-3", "default/cm-4"}));
}

TEST_F(ServerListTest, ContinueWithResourceVersionZeroIsAllowed) {
  create_five();
  auto p1 = must_list("default", paged(2));
  api::ListOptions next = paged(2, p1.continue_token);
  next.resource_version = "0";
  auto p2 = must_list("default", next);
  EXPECT_EQ(keys(p2), (std::vector<std::string>{"default/cm-2", "default/cm-3"}));
}

TEST_F(ServerListTest, ClusterScopedResourcesListWithoutANamespace) {
  auto r = server_.list(kNamespaces, "", api::ListOptions());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->items.size(), 5u);
  auto scoped = server_.list(kNamespaces, "default", api::ListOptions());
  ASSERT_FALSE(scoped.ok());
  EXPECT_TRUE(api::is_not_found(scoped.status()));
}

}  // namespace
}  // namespace kubesim::fakeapi

namespace kubesim::fakeapi {
namespace {

// Compaction by the virtual-time window alone, as kube-apiserver has etcd compact: at each tick
// the store is compacted to the revision seen at the previous tick, so history lives between one
// and two intervals; an idle server stops ticking, and the next write starts it again.
TEST(ServerCompactionTest, HistoryIsKeptOneToTwoIntervalsThenCompacted) {
  using namespace testutil;
  using namespace std::chrono_literals;
  sim::Loop loop;
  ServerOptions options;
  options.compaction_interval = 1min;
  ApiServer server(loop, options);
  auto exact = [](std::int64_t rv) {
    api::ListOptions o;
    o.resource_version = std::to_string(rv);
    o.resource_version_match = api::ResourceVersionMatch::kExact;
    return o;
  };
  auto a = server.create(kConfigMaps, "default", config_map("default", "a", {{"k", "1"}}), api::CreateOptions());
  ASSERT_TRUE(a.ok());
  const std::int64_t first = std::stoll(std::string(a.value()->resource_version()));
  loop.run_for(30s);
  auto b = server.update(kConfigMaps, "default",
                         a.value()->edited([](nlohmann::json& j) { j["data"]["k"] = "2"; }), api::UpdateOptions());
  ASSERT_TRUE(b.ok());
  const std::int64_t second = first + 1;
  ASSERT_EQ(b.value()->resource_version(), std::to_string(second));

  loop.run_for(60s);  // t = 90 s: one tick passed, it only marked revision `second`
  EXPECT_TRUE(server.list(kConfigMaps, "default", exact(first)).ok());

  loop.run_for(40s);  // t = 130 s: the second tick compacted to `second`
  auto old = server.list(kConfigMaps, "default", exact(first));
  ASSERT_FALSE(old.ok());
  EXPECT_TRUE(api::is_resource_expired(old.status()));
  EXPECT_TRUE(server.list(kConfigMaps, "default", exact(second)).ok());

  // Nothing more to compact: no timer is left, so the loop goes idle at once.
  loop.run_until_idle();
  const sim::Time idle_at = loop.now();
  EXPECT_LT(idle_at - sim::Time(), 3min);
  // A new write starts the ticks again: two intervals later `second` is gone too.
  auto c = server.update(kConfigMaps, "default",
                         b.value()->edited([](nlohmann::json& j) { j["data"]["k"] = "3"; }), api::UpdateOptions());
  ASSERT_TRUE(c.ok());
  loop.run_for(2min + 1s);
  EXPECT_TRUE(api::is_resource_expired(server.list(kConfigMaps, "default", exact(second)).status()));
}

}  // namespace
}  // namespace kubesim::fakeapi
