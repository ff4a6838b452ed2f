#include "live/internal/identity.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "tests/tools/stubs.h"

namespace kubesim::live {
namespace {

using tools::testing::read_file;
using tools::testing::ScratchDir;

TEST(Identity, EveryReplicaHasItsOwnToken) {
  const auto ids = make_identities({"mirror-0", "mirror-1"});
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[0].replica, "mirror-0");
  EXPECT_EQ(ids[1].replica, "mirror-1");
  EXPECT_EQ(ids[0].token.size(), 48u);
  EXPECT_NE(ids[0].token, ids[1].token);
}

TEST(Identity, TheTokenFileNamesTheReplicaAsUser) {
  const std::vector<Identity> ids = {{"mirror-0", "aaa"}, {"op-1", "bbb"}};
  EXPECT_EQ(token_file_text(ids),
            "aaa,mirror-0,mirror-0,\"kubesim:replicas,system:authenticated\"\n"
            "bbb,op-1,op-1,\"kubesim:replicas,system:authenticated\"\n");
  const auto table = token_table(ids);
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table.at("aaa").name, "mirror-0");
  EXPECT_EQ(table.at("bbb").name, "op-1");
  EXPECT_EQ(table.at("bbb").groups, (std::vector<std::string>{"kubesim:replicas", "system:authenticated"}));
}

TEST(Identity, TheKubeconfigCarriesTheReplicasToken) {
  const std::string text = replica_kubeconfig({"mirror-0", "sekrit"}, "https://127.0.0.1:4443", "");
  EXPECT_NE(text.find("    server: \"https://127.0.0.1:4443\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    token: \"sekrit\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("current-context: \"mirror-0\"\n"), std::string::npos) << text;
}

TEST(Identity, WritesTheTokenFileAndAKubeconfigPerReplica) {
  ScratchDir dir;
  const std::vector<Identity> ids = {{"mirror-0", "aaa"}, {"mirror-1", "bbb"}};
  write_identities(dir.path(""), ids, "https://127.0.0.1:1", "");
  EXPECT_EQ(read_file(dir.path("tokens.csv")), token_file_text(ids));
  EXPECT_EQ(read_file(dir.path("mirror-1/kubeconfig")), replica_kubeconfig(ids[1], "https://127.0.0.1:1", ""));
  struct stat st {};
  ASSERT_EQ(::stat(dir.path("mirror-0/kubeconfig").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(Identity, AFolderThatCannotBeMadeIsAnError) {
  ScratchDir dir;
  dir.write("blocked", "a file, not a folder");
  try {
    write_identities(dir.path("blocked"), {{"mirror-0", "aaa"}}, "https://127.0.0.1:1", "");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + dir.path("blocked") + "/tokens.csv");
  }
}

}  // namespace
}  // namespace kubesim::live
