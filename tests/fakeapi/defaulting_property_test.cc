// Properties of the defaulting walker (fakeapi/internal/defaulting/walker.h) over objects made
// from the golden cases with members removed, nulled or zeroed at random: defaulting is
// idempotent, and the tables are well formed and leave the fast-path kinds alone.
#include "fakeapi/internal/defaulting/walker.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "fakeapi/internal/defaulting/rule_tables.h"
#include "fakeapi/internal/encoding/types/go_encoding.h"

namespace kubesim::fakeapi::defaulting {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct GoldenObject {
  const types::MessageSpec* spec;
  json object;
};

// Every input and output of the golden files whose kind has a Go type table.
const std::vector<GoldenObject>& golden_objects() {
  static const std::vector<GoldenObject> objects = [] {
    std::vector<GoldenObject> out;
    for (const auto& entry : fs::directory_iterator(fs::path(__FILE__).parent_path() / "defaulting")) {
      std::ifstream in(entry.path());
      const json golden = json::parse(in);
      for (const json& c : golden["cases"]) {
        const std::string api_version = c["input"].value("apiVersion", "");
        const std::size_t slash = api_version.find('/');
        const std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
        const types::MessageSpec* spec = types::go_type_of(group, c["input"].value("kind", ""));
        if (spec == nullptr) continue;
        out.push_back({spec, c["input"]});
        out.push_back({spec, c["output"]});
      }
    }
    return out;
  }();
  return objects;
}

// Removes, nulls or zeroes members of `j` at random, all the way down.
void perturb(json& j, int depth) {
  if (depth > 8) return;
  if (j.is_array()) {
    for (json& e : j) perturb(e, depth + 1);
    return;
  }
  if (!j.is_object()) return;
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  for (const std::string& k : keys) {
    if (k == "apiVersion" || k == "kind") continue;
    switch (*rc::gen::inRange(0, 8)) {
      case 0: j.erase(k); break;
      case 1: j[k] = nullptr; break;
      case 2:
        if (j[k].is_string()) j[k] = "";
        else if (j[k].is_number()) j[k] = 0;
        else if (j[k].is_boolean()) j[k] = false;
        break;
      default: perturb(j[k], depth + 1);
    }
  }
}

RC_GTEST_PROP(DefaultingProperty, DefaultingADefaultedObjectChangesNothing, ()) {
  const auto& objects = golden_objects();
  RC_PRE(!objects.empty());
  const GoldenObject& golden = objects[*rc::gen::inRange<std::size_t>(0, objects.size())];
  json object = golden.object;
  perturb(object, 0);
  apply_defaults(*golden.spec, object);
  json again = object;
  apply_defaults(*golden.spec, again);
  RC_ASSERT(again == object);
  // And as stored: rendering the defaulted object, then defaulting it, changes nothing either.
  types::render_go_json(*golden.spec, object);
  json stored = object;
  apply_defaults(*golden.spec, stored);
  types::render_go_json(*golden.spec, stored);
  RC_ASSERT(stored == object);
}

TEST(DefaultingTables, StepsAreWellFormed) {
  for (const TypeRules& rules : type_rules()) {
    EXPECT_TRUE(rules.type.starts_with("k8s.io.api.")) << rules.type;
    EXPECT_FALSE(rules.source.empty()) << rules.type;
    for (const Step& step : rules.steps) {
      if (step.op == Op::kHook) {
        EXPECT_NE(step.hook, nullptr) << rules.type;
      } else {
        EXPECT_FALSE(step.path.empty()) << rules.type;
        EXPECT_TRUE(json::accept(step.value)) << rules.type << " " << step.path;
      }
      for (const Condition& c : step.when) {
        EXPECT_FALSE(c.path.empty()) << rules.type;
        if (c.test == defaulting::Test::kEquals || c.test == defaulting::Test::kIn) {
          EXPECT_TRUE(json::accept(c.value)) << rules.type;
        }
      }
    }
  }
}

TEST(DefaultingTables, KindsOfTheTextFastPathsHaveNoDefaults) {
  // The text fast paths store ConfigMap writes without parsing them (fastpath/); a kind with
  // defaults must go through the general path.
  for (const auto& [group, kind] : std::vector<std::pair<std::string, std::string>>{
           {"", "ConfigMap"}, {"coordination.k8s.io", "Lease"}}) {
    const types::MessageSpec* spec = types::go_type_of(group, kind);
    ASSERT_NE(spec, nullptr) << kind;
    EXPECT_FALSE(has_defaults(*spec)) << kind;
  }
  for (const char* kind : {"Pod", "Service", "Secret", "Namespace", "Endpoints"}) {
    EXPECT_TRUE(has_defaults(*types::go_type_of("", kind))) << kind;
  }
  EXPECT_TRUE(has_defaults(*types::go_type_of("apps", "Deployment")));
  EXPECT_TRUE(has_defaults(*types::go_type_of("batch", "CronJob")));
}

TEST(DefaultingWalker, AbsentValueStructsAreDefaultedAsGoZeroStructs) {
  // A Service without spec: SetDefaults_Service fills the value struct Go always has.
  json svc = {{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", "s"}}}};
  apply_defaults(*types::go_type_of("", "Service"), svc);
  EXPECT_EQ(svc["spec"]["type"], "ClusterIP");
  EXPECT_EQ(svc["spec"]["sessionAffinity"], "None");
}

TEST(DefaultingWalker, MembersOfTheWrongTypeAreLeftForValidation) {
  json pod = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}}},
              {"spec", {{"containers", "not a list"}, {"volumes", {42, nullptr}}}}};
  apply_defaults(*types::go_type_of("", "Pod"), pod);
  EXPECT_EQ(pod["spec"]["containers"], "not a list");
  EXPECT_EQ(pod["spec"]["volumes"], json({42, nullptr}));
  json not_object = "x";
  apply_defaults(*types::go_type_of("", "Pod"), not_object);
  EXPECT_EQ(not_object, "x");
}

}  // namespace
}  // namespace kubesim::fakeapi::defaulting
