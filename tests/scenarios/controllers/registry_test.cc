// The registry with the built-in types: both are there, described, validated; a name cannot be
// registered twice; and widget_crd() is a CRD the fake API server serves as the contract says.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture.h"
#include "kubesim/scenarios/controllers.h"
#include "kubesim/scenarios/registry.h"

namespace kubesim::scenarios {
namespace {

TEST(RegistryTest, WithBuiltinsHoldsBothTypes) {
  const Registry registry = Registry::with_builtins();
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"configmap-mirror", "widget"}));
  for (const char* name : {"configmap-mirror", "widget"}) {
    const ControllerType* type = registry.find(name);
    ASSERT_NE(type, nullptr) << name;
    EXPECT_EQ(type->name, name);
    EXPECT_FALSE(type->description.empty()) << name;
    EXPECT_TRUE(type->make) << name;
    EXPECT_TRUE(type->validate) << name;
  }
  EXPECT_EQ(registry.find("nope"), nullptr);
}

TEST(RegistryTest, BuiltinsCannotBeRegisteredTwice) {
  Registry registry = Registry::with_builtins();
  try {
    register_builtin_controllers(registry);
    FAIL() << "registered the built-ins twice";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "register_controller: type \"configmap-mirror\" is already registered");
  }
  try {
    registry.register_controller("widget", registry.find("widget")->make);
    FAIL() << "registered widget twice";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "register_controller: type \"widget\" is already registered");
  }
  EXPECT_EQ(registry.names().size(), 2u);
}

TEST(RegistryTest, UserTypesJoinTheBuiltins) {
  Registry registry = Registry::with_builtins();
  registry.register_controller("mine", registry.find("widget")->make);
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"configmap-mirror", "mine", "widget"}));
}

// A factory given params its validator refuses throws what the validator says.
TEST(RegistryTest, FactoriesRefuseWhatTheirValidatorRefuses) {
  struct Case {
    std::string type;
    nlohmann::json params;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"configmap-mirror", {{"source", "a"}, {"target", "a"}},
       "configmap-mirror: params.source and params.target are both \"a\": a mirror needs two different "
       "namespaces"},
      {"configmap-mirror", nlohmann::json::object(),
       "configmap-mirror: params.source is required: the namespace to mirror from"},
      {"widget", {{"x", 1}}, "widget: params: unknown key \"x\" (widget takes no params)"},
  };
  for (const auto& c : cases) {
    testing::FixtureOptions options;
    options.type = c.type;
    options.params = c.params;
    testing::Fixture f(options);
    informer::SharedInformerFactory factory(f.client, f.process.clock());
    ControllerEnv env{f.process, f.client, factory, f.options().params, 1};
    try {
      (void)f.type().make(env);
      ADD_FAILURE() << c.type << " accepted " << c.params.dump();
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(e.what(), c.error);
    }
  }
}

TEST(RegistryTest, WidgetCrdIsServedWithItsSchemaAndStatus) {
  testing::Fixture f;
  auto crd = f.server.create(api::kCustomResourceDefinitions, "", api::make_object(widget_crd()),
                             api::CreateOptions());
  ASSERT_TRUE(crd.ok()) << crd.status().message;
  auto widget = [](nlohmann::json spec) {
    return api::make_object({{"apiVersion", "example.com/v1"},
                             {"kind", "Widget"},
                             {"metadata", {{"name", "w"}, {"namespace", "default"}}},
                             {"spec", std::move(spec)}});
  };
  auto negative = f.server.create(kWidgets, "default", widget({{"replicas", -1}}), api::CreateOptions());
  ASSERT_FALSE(negative.ok());
  EXPECT_TRUE(api::is_invalid(negative.status())) << negative.status().message;
  auto text = f.server.create(kWidgets, "default", widget({{"replicas", "two"}}), api::CreateOptions());
  ASSERT_FALSE(text.ok());
  EXPECT_TRUE(api::is_invalid(text.status())) << text.status().message;

  auto made = f.server.create(kWidgets, "default", widget({{"replicas", 2}}), api::CreateOptions());
  ASSERT_TRUE(made.ok()) << made.status().message;
  // The main resource ignores status; /status writes it.
  auto with_status = made.value()->edited([](nlohmann::json& j) { j["status"]["readyReplicas"] = 2; });
  auto updated = f.server.update(kWidgets, "default", with_status, api::UpdateOptions());
  ASSERT_TRUE(updated.ok()) << updated.status().message;
  EXPECT_TRUE(updated.value()->value_at("status.readyReplicas").is_null());
  auto written = f.server.update(kWidgets, "default",
                                 updated.value()->edited([](nlohmann::json& j) { j["status"]["readyReplicas"] = 2; }),
                                 api::UpdateOptions(), api::Subresource::kStatus);
  ASSERT_TRUE(written.ok()) << written.status().message;
  EXPECT_EQ(written.value()->value_at("status.readyReplicas"), 2);
  EXPECT_EQ(written.value()->value_at("spec.replicas"), 2);
}

}  // namespace
}  // namespace kubesim::scenarios
