// The defaulting of every built-in kind against golden files (tests/fakeapi/defaulting/*.json):
// each case a minimal object and the defaulted object kube-apiserver 1.33 returns, written from
// the SetDefaults_* functions the file cites. Both sides are compared as the server stores them
// (render_go_json), and defaulting the expected object must change nothing.
#include "fakeapi/internal/defaulting/walker.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fakeapi/internal/encoding/types/go_encoding.h"

namespace kubesim::fakeapi::defaulting {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path golden_dir() { return fs::path(__FILE__).parent_path() / "defaulting"; }

std::vector<fs::path> golden_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(golden_dir())) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

const types::MessageSpec* type_of(const json& object) {
  const std::string api_version = object.value("apiVersion", "");
  const std::size_t slash = api_version.find('/');
  const std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
  return types::go_type_of(group, object.value("kind", ""));
}

json stored_form(const types::MessageSpec& spec, json object) {
  types::render_go_json(spec, object);
  return object;
}

TEST(DefaultingGolden, EveryFileCitesItsSourcesAndHasCases) {
  const auto files = golden_files();
  ASSERT_GE(files.size(), 20u);
  for (const fs::path& file : files) {
    std::ifstream in(file);
    const json golden = json::parse(in);
    EXPECT_FALSE(golden.value("source", json::array()).empty()) << file;
    EXPECT_FALSE(golden.value("cases", json::array()).empty()) << file;
  }
}

TEST(DefaultingGolden, EveryCaseDefaultsToWhatKubeApiserverReturns) {
  int checked = 0;
  std::vector<std::string> without_table;
  for (const fs::path& file : golden_files()) {
    std::ifstream in(file);
    const json golden = json::parse(in);
    for (const json& c : golden["cases"]) {
      const std::string where = file.filename().string() + ": " + c.value("name", "");
      const types::MessageSpec* spec = type_of(c["input"]);
      if (spec == nullptr) {
        without_table.push_back(where);
        continue;
      }
      json defaulted = c["input"];
      apply_defaults(*spec, defaulted);
      EXPECT_EQ(stored_form(*spec, defaulted), stored_form(*spec, c["output"])) << where;
      json again = c["output"];
      apply_defaults(*spec, again);
      EXPECT_EQ(stored_form(*spec, again), stored_form(*spec, c["output"])) << where << " (idempotent)";
      ++checked;
    }
  }
  EXPECT_GE(checked, 25);
  // Kinds the Go type tables do not describe yet are not defaulted by the server either.
  for (const std::string& skipped : without_table) std::cout << "no Go type table: " << skipped << "\n";
}

}  // namespace
}  // namespace kubesim::fakeapi::defaulting
