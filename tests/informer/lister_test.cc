#include "kubesim/informer/lister.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/api/labels.h"
#include "kubesim/api/resources.h"
#include "test_util.h"

namespace kubesim::informer {
namespace {

const api::GroupResource kConfigMapsGroup = api::kConfigMaps.group_resource();

TEST(ListerTest, ListsAndGetsByNamespaceAndName) {
  Indexer indexer(Indexers{{kNamespaceIndex, meta_namespace_index_func}});
  indexer.add(testing::config_map("n1", "a", "1", {{"app", "web"}}));
  indexer.add(testing::config_map("n1", "b", "1", {{"app", "db"}}));
  indexer.add(testing::config_map("n2", "c", "1", {{"app", "web"}}));
  Lister lister(indexer, kConfigMapsGroup);
  auto web = api::parse_label_selector("app=web");
  ASSERT_TRUE(web);
  EXPECT_EQ(testing::keys_of(lister.list(web.value())), (std::vector<std::string>{"n1/a", "n2/c"}));
  EXPECT_EQ(testing::keys_of(lister.list()), (std::vector<std::string>{"n1/a", "n1/b", "n2/c"}));
  EXPECT_EQ(testing::keys_of(lister.by_namespace("n1").list()), (std::vector<std::string>{"n1/a", "n1/b"}));
  EXPECT_EQ(testing::keys_of(lister.by_namespace("n1").list(web.value())), (std::vector<std::string>{"n1/a"}));
  auto got = lister.by_namespace("n2").get("c");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got.value()->key().str(), "n2/c");
  auto missing = lister.by_namespace("n2").get("a");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(api::is_not_found(missing.status()));
  EXPECT_EQ(missing.status().message, "configmaps \"a\" not found");
  Indexer plain;  // no namespace index: the lister filters
  plain.add(testing::config_map("n1", "a"));
  plain.add(testing::config_map("n2", "b"));
  EXPECT_EQ(testing::keys_of(Lister(plain, kConfigMapsGroup).by_namespace("n2").list()),
            (std::vector<std::string>{"n2/b"}));
}

}  // namespace
}  // namespace kubesim::informer
