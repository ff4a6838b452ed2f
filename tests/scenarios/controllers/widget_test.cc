// widget against the fake API server with widget_crd() registered: it scales a Widget's owned
// ConfigMaps up and down, brings back one that is deleted, writes status.readyReplicas through
// /status only when it changes, and sets the owner reference and label.
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "fixture.h"
#include "kubesim/controller/builder.h"
#include "kubesim/fakeapi/faults.h"

namespace kubesim::scenarios {
namespace {

using namespace std::chrono_literals;
using testing::Fixture;
using testing::FixtureOptions;

FixtureOptions widget_options(std::uint64_t seed = 1) {
  FixtureOptions options;
  options.seed = seed;
  options.type = "widget";
  return options;
}

class WidgetTest : public ::testing::Test {
 protected:
  WidgetTest() : f_(widget_options()) {
    f_.create_namespace("shop");
    auto crd = f_.server.create(api::kCustomResourceDefinitions, "", api::make_object(widget_crd()),
                                api::CreateOptions());
    EXPECT_TRUE(crd.ok()) << crd.status().message;
  }

  api::ObjectPtr put_widget(const std::string& name, int replicas) {
    auto current = f_.server.get(kWidgets, "shop", name, api::GetOptions());
    if (current.ok()) {
      auto next = current.value()->edited([&](nlohmann::json& j) { j["spec"]["replicas"] = replicas; });
      auto updated = f_.server.update(kWidgets, "shop", next, api::UpdateOptions());
      EXPECT_TRUE(updated.ok()) << updated.status().message;
      return updated.ok() ? updated.value() : nullptr;
    }
    auto made = f_.server.create(kWidgets, "shop",
                                 api::make_object({{"apiVersion", "example.com/v1"},
                                                   {"kind", "Widget"},
                                                   {"metadata", {{"name", name}, {"namespace", "shop"}}},
                                                   {"spec", {{"replicas", replicas}}}}),
                                 api::CreateOptions());
    EXPECT_TRUE(made.ok()) << made.status().message;
    return made.ok() ? made.value() : nullptr;
  }

  // The names of the ConfigMaps in shop.
  std::set<std::string> config_maps() {
    std::set<std::string> out;
    for (const auto& [name, content] : f_.contents("shop")) out.insert(name);
    return out;
  }
  nlohmann::json ready_replicas(const std::string& name) {
    return f_.get(kWidgets, "shop", name)->value_at("status.readyReplicas");
  }
  std::size_t status_writes() { return f_.served(fakeapi::Verb::kUpdate, "widgets", "status", 200); }

  Fixture f_;
};

TEST_F(WidgetTest, ScalesUpAndWritesReadyReplicasThroughStatus) {
  auto widget = put_widget("w", 3);
  f_.start();
  f_.loop.run_for(30s);
  EXPECT_EQ(config_maps(), (std::set<std::string>{"w-0", "w-1", "w-2"}));
  EXPECT_EQ(ready_replicas("w"), 3);
  EXPECT_GE(status_writes(), 1u);
  // Only /status was written: the Widget's spec and generation are as created.
  EXPECT_EQ(f_.served(fakeapi::Verb::kUpdate, "widgets", "", 200), 0u);
  EXPECT_EQ(f_.get(kWidgets, "shop", "w")->generation(), widget->generation());
}

TEST_F(WidgetTest, OwnedConfigMapsCarryTheOwnerReferenceAndLabel) {
  auto widget = put_widget("w", 1);
  f_.start();
  f_.loop.run_for(30s);
  auto cm = f_.get(api::kConfigMaps, "shop", "w-0");
  ASSERT_NE(cm, nullptr);
  EXPECT_EQ(cm->label(kWidgetLabel), "w");
  ASSERT_EQ(cm->owner_references().size(), 1u);
  const api::OwnerReference& owner = cm->owner_references()[0];
  EXPECT_EQ(owner.api_version, "example.com/v1");
  EXPECT_EQ(owner.kind, "Widget");
  EXPECT_EQ(owner.name, "w");
  EXPECT_EQ(owner.uid, widget->uid());
  EXPECT_EQ(owner.controller, true);
  EXPECT_EQ(owner.block_owner_deletion, true);
}

TEST_F(WidgetTest, AWidgetWhoseNameIsTooLongForALabelValueGetsItsConfigMapsWithAShortenedLabel) {
  const std::string name(70, 'w');  // a valid object name, longer than a label value's 63
  put_widget(name, 2);
  f_.start();
  f_.loop.run_for(30s);
  EXPECT_EQ(config_maps(), (std::set<std::string>{name + "-0", name + "-1"}));
  EXPECT_EQ(ready_replicas(name), 2);
  auto cm = f_.get(api::kConfigMaps, "shop", name + "-0");
  ASSERT_NE(cm, nullptr);
  EXPECT_EQ(cm->label(kWidgetLabel), controller::label_value(name));
  EXPECT_EQ(cm->label(kWidgetLabel).value_or("").size(), 63u);
}

TEST_F(WidgetTest, ScalesDownAndDeletesExtras) {
  put_widget("w", 4);
  put_widget("other", 1);
  f_.start();
  f_.loop.run_for(30s);
  EXPECT_EQ(ready_replicas("w"), 4);
  put_widget("w", 1);
  f_.loop.run_for(10s);
  EXPECT_EQ(config_maps(), (std::set<std::string>{"other-0", "w-0"}));
  EXPECT_EQ(ready_replicas("w"), 1);
  put_widget("w", 0);
  f_.loop.run_for(10s);
  EXPECT_EQ(config_maps(), (std::set<std::string>{"other-0"}));
  EXPECT_EQ(ready_replicas("w"), 0);
  EXPECT_EQ(ready_replicas("other"), 1);
}

TEST_F(WidgetTest, ADeletedOwnedConfigMapComesBack) {
  put_widget("w", 2);
  f_.start();
  f_.loop.run_for(30s);
  auto before = f_.get(api::kConfigMaps, "shop", "w-1");
  f_.delete_config_map("shop", "w-1");
  f_.loop.run_for(10s);
  auto after = f_.get(api::kConfigMaps, "shop", "w-1");
  ASSERT_NE(after, nullptr);
  EXPECT_NE(after->uid(), before->uid());
  EXPECT_EQ(ready_replicas("w"), 2);
}

TEST_F(WidgetTest, StatusIsWrittenOnlyWhenItChanges) {
  put_widget("w", 2);
  f_.start();
  f_.loop.run_for(30s);
  const std::size_t writes = status_writes();
  // A spec change that leaves the count alone, an unrelated ConfigMap: no status write.
  f_.put_config_map("shop", "unrelated", {{"k", "v"}});
  auto current = f_.get(kWidgets, "shop", "w");
  auto labelled = current->edited([](nlohmann::json& j) { j["metadata"]["labels"]["x"] = "y"; });
  ASSERT_TRUE(f_.server.update(kWidgets, "shop", labelled, api::UpdateOptions()).ok());
  f_.loop.run_for(10s);
  EXPECT_EQ(status_writes(), writes);
  EXPECT_EQ(ready_replicas("w"), 2);
}

TEST_F(WidgetTest, LeavesAForeignConfigMapOfAnOwnedNameAlone) {
  f_.put_config_map("shop", "w-1", {{"mine", "yes"}});
  put_widget("w", 2);
  f_.start();
  f_.loop.run_for(30s);
  EXPECT_EQ(config_maps(), (std::set<std::string>{"w-0", "w-1"}));
  EXPECT_EQ(f_.get(api::kConfigMaps, "shop", "w-1")->value_at("data.mine"), "yes");
  EXPECT_EQ(ready_replicas("w"), 1);
}

TEST_F(WidgetTest, ADeletedWidgetsConfigMapsGoAndARecreatedOneGetsItsOwn) {
  auto first = put_widget("w", 2);
  f_.start();
  f_.loop.run_for(30s);
  ASSERT_TRUE(f_.server.delete_(kWidgets, "shop", "w", api::DeleteOptions()).ok());
  f_.loop.run_for(10s);
  EXPECT_EQ(config_maps(), std::set<std::string>{});
  auto second = put_widget("w", 1);
  f_.loop.run_for(10s);
  EXPECT_EQ(config_maps(), (std::set<std::string>{"w-0"}));
  EXPECT_EQ(f_.get(api::kConfigMaps, "shop", "w-0")->owner_references()[0].uid, second->uid());
  EXPECT_EQ(ready_replicas("w"), 1);
}

TEST_F(WidgetTest, RetriesThroughFaultsAndACrash) {
  fakeapi::FaultRule creates;
  creates.verbs = {fakeapi::Verb::kCreate};
  creates.resource = "configmaps";
  creates.effect = fakeapi::ErrorFault{api::new_internal_error("injected")};
  creates.probability = 0.5;
  creates.count = 10;
  f_.server.faults().add(creates);
  fakeapi::FaultRule status;
  status.verbs = {fakeapi::Verb::kUpdate};
  status.resource = "widgets";
  status.subresource = "status";
  status.effect = fakeapi::ErrorFault{api::new_conflict({"example.com", "widgets"}, "w", "injected")};
  status.count = 2;
  f_.server.faults().add(status);
  put_widget("w", 5);
  f_.start();
  f_.loop.run_for(20s);
  f_.process.crash();
  put_widget("w", 3);
  f_.loop.run_for(2s);
  f_.process.restart();
  f_.loop.run_for(1min);
  EXPECT_EQ(config_maps(), (std::set<std::string>{"w-0", "w-1", "w-2"}));
  EXPECT_EQ(ready_replicas("w"), 3);
  EXPECT_EQ(f_.served(fakeapi::Verb::kUpdate, "widgets", "status", 409), 2u);
}

// Many seeds: random scaling of three Widgets, deleted owned ConfigMaps, 500s on creates and a
// crash; afterwards every Widget has exactly its ConfigMaps and the right readyReplicas.
TEST(WidgetSeedsTest, ConvergeOverManySeeds) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Fixture f(widget_options(seed));
    f.create_namespace("shop");
    ASSERT_TRUE(f.server.create(api::kCustomResourceDefinitions, "", api::make_object(widget_crd()),
                                api::CreateOptions()).ok());
    fakeapi::FaultRule creates;
    creates.verbs = {fakeapi::Verb::kCreate};
    creates.resource = "configmaps";
    creates.effect = fakeapi::ErrorFault{api::new_internal_error("injected")};
    creates.probability = 0.3;
    creates.until = f.loop.now() + 60s;
    f.server.faults().add(creates);
    std::map<std::string, int> want;
    f.start();
    sim::Rng& rng = f.loop.rng();
    for (int step = 0; step < 40; ++step) {
      f.loop.run_for(std::chrono::milliseconds(rng.uniform(2000)));
      const std::string name = "w" + std::to_string(rng.uniform(3));
      const auto action = rng.uniform(10);
      if (action < 6) {
        const int replicas = static_cast<int>(rng.uniform(5));
        auto current = f.server.get(kWidgets, "shop", name, api::GetOptions());
        nlohmann::json object = {{"apiVersion", "example.com/v1"},
                                 {"kind", "Widget"},
                                 {"metadata", {{"name", name}, {"namespace", "shop"}}},
                                 {"spec", {{"replicas", replicas}}}};
        if (current.ok()) {
          object["metadata"]["resourceVersion"] = std::string(current.value()->resource_version());
          ASSERT_TRUE(f.server.update(kWidgets, "shop", api::make_object(object), api::UpdateOptions()).ok());
        } else {
          ASSERT_TRUE(f.server.create(kWidgets, "shop", api::make_object(object), api::CreateOptions()).ok());
        }
        want[name] = replicas;
      } else if (action < 9) {
        const std::string cm = name + "-" + std::to_string(rng.uniform(4));
        if (f.get(api::kConfigMaps, "shop", cm)) f.delete_config_map("shop", cm);
      } else if (f.process.alive()) {
        f.process.crash();
      } else {
        f.process.restart();
      }
    }
    if (!f.process.alive()) f.process.restart();
    f.loop.run_for(3min);
    std::set<std::string> expected;
    for (const auto& [name, replicas] : want) {
      for (int i = 0; i < replicas; ++i) expected.insert(name + "-" + std::to_string(i));
      EXPECT_EQ(f.get(kWidgets, "shop", name)->value_at("status.readyReplicas"), replicas)
          << "seed " << seed << " widget " << name;
    }
    std::set<std::string> actual;
    for (const auto& [name, content] : f.contents("shop")) actual.insert(name);
    EXPECT_EQ(actual, expected) << "seed " << seed;
  }
}

}  // namespace
}  // namespace kubesim::scenarios
