#include "kubesim/informer/detail/key_text.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace kubesim::informer::internal {
namespace {

TEST(KeyTextTest, HoldsShortAndLongKeysAndSurvivesMoves) {
  const std::string long_key = "a-long-namespace-name-here/" + std::string(80, 'n');
  std::vector<KeyText> texts;
  texts.emplace_back("ns/a");
  texts.emplace_back(long_key);
  texts.emplace_back("");
  // Growing the vector moves the first three.
  for (int i = 0; i < 100; ++i) texts.emplace_back("ns/" + std::to_string(i));
  EXPECT_EQ(texts[0].view(), "ns/a");
  EXPECT_EQ(texts[1].view(), long_key);
  EXPECT_EQ(texts[2].view(), "");
  texts[1].assign("short");
  EXPECT_EQ(texts[1].view(), "short");
  texts[0].assign(long_key);
  texts[0].clear();
  EXPECT_EQ(texts[0].view(), "");
}

}  // namespace
}  // namespace kubesim::informer::internal
