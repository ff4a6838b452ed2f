// docs/resources.md lists every resource the server serves, as discovery lists it: this test
// reads the page's table and compares each row with the Registry, both ways.
#include "kubesim/fakeapi/registry.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/api/request.h"

namespace kubesim::fakeapi {
namespace {

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line.substr(1));
  std::string cell;
  while (std::getline(in, cell, '|')) {
    const auto b = cell.find_first_not_of(' ');
    const auto e = cell.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

std::string verbs_text(const std::vector<std::string>& verbs) {
  if (verbs.size() == 8) return "all";
  if (verbs.size() == 7) return "all but deletecollection";
  return joined(verbs);
}

TEST(ResourcesDocTest, TheTableIsWhatTheServerServes) {
  const auto path = std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "docs" / "resources.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::map<std::string, std::vector<std::string>> rows;  // "group/version resource" -> cells
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    auto c = cells(line);
    if (c.size() != 8 || c[0] == "API version" || c[0].rfind("---", 0) == 0) continue;
    rows[c[0] + " " + c[1]] = c;
  }
  Registry registry;
  std::size_t served = 0;
  for (const ResourceInfo* info : registry.all()) {
    ++served;
    const std::string key = info->api_version() + " " + info->gvr.resource;
    auto it = rows.find(key);
    ASSERT_NE(it, rows.end()) << key << " is served but not in docs/resources.md";
    const auto& c = it->second;
    EXPECT_EQ(c[2], info->kind) << key;
    EXPECT_EQ(c[3], info->namespaced ? "Namespaced" : "Cluster") << key;
    EXPECT_EQ(c[4], joined(info->short_names)) << key;
    EXPECT_EQ(c[5], verbs_text(info->verbs)) << key;
    std::vector<std::string> subs;
    for (const auto& s : info->subresources) subs.push_back(s.name);
    EXPECT_EQ(c[6], joined(subs)) << key;
  }
  EXPECT_EQ(rows.size(), served) << "docs/resources.md lists resources the server does not serve";
}

// Every stored built-in kind is rendered by its Go type's table of its own version.
TEST(ResourcesDocTest, EveryStoredBuiltinHasItsGoType) {
  Registry registry;
  for (const ResourceInfo* info : registry.all()) {
    if (info->custom || !info->supports(api::Verb::kGet)) continue;
    // CustomResourceDefinition and APIService are not k8s.io/api types: stored as sent.
    if (info->gvr.group == "apiextensions.k8s.io" || info->gvr.group == "apiregistration.k8s.io") continue;
    EXPECT_NE(info->go_type, nullptr) << info->api_version() << " " << info->kind;
  }
}

}  // namespace
}  // namespace kubesim::fakeapi
