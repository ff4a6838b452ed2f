// What a model-based test says when the cluster does not agree with the model: the command, the
// object's key and the server's message or the first difference.
#include "kubesim/testing/commands.h"

#include <functional>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include "kubesim/api/resources.h"

namespace kubesim::testing {
namespace {

using nlohmann::json;
using Commands = std::vector<std::shared_ptr<const ClusterCommand>>;

const json kConfigMap = json::parse(R"({"apiVersion": "v1", "kind": "ConfigMap",
    "metadata": {"name": "a", "namespace": "default"}, "data": {"k": "v"}})");

// One command of type Cmd drawn for `model` (whose only source gives kConfigMap).
template <class Cmd>
std::shared_ptr<const ClusterCommand> draw(const ClusterModel& model) {
  return rc::state::gen::execOneOfWithArgs<Cmd>()(model)(rc::Random(1), 50).value();
}

struct Disagreement {
  const char* name;
  // Done to the cluster behind the model's back, after ApplyObject.
  std::function<void(SimCluster&)> meddle;
  // Which command then runs.
  std::function<std::shared_ptr<const ClusterCommand>(const ClusterModel&)> next;
  const char* message;
};

class CommandFailures : public ::testing::TestWithParam<Disagreement> {};

TEST_P(CommandFailures, NameTheCommandTheObjectAndWhatDiffers) {
  SimCluster c;
  ClusterModel model = ClusterModel().objects(rc::gen::just(kConfigMap));
  const auto apply = draw<ApplyObject>(model);
  apply->run(model, c);
  apply->apply(model);
  GetParam().meddle(c);
  const auto next = GetParam().next(model);
  try {
    next->run(model, c);
    FAIL() << "the command did not fail";
  } catch (const rc::detail::CaseResult& result) {
    EXPECT_EQ(result.type, rc::detail::CaseResult::Type::Failure);
    EXPECT_THAT(result.description, ::testing::EndsWith(GetParam().message));
  }
}

void change_data(SimCluster& c) {
  ASSERT_TRUE(c.patch(api::kConfigMaps, "default", "a", json{{"data", {{"k", "changed"}}}}).ok());
}
void delete_it(SimCluster& c) { ASSERT_TRUE(c.remove(api::kConfigMaps, "default", "a").ok()); }

INSTANTIATE_TEST_SUITE_P(
    Table, CommandFailures,
    ::testing::Values(
        Disagreement{"ChangedBehindTheModel", change_data, draw<AdvanceTime>,
                     "AdvanceTime: v1/ConfigMap/default/a is not as written: data.k: \"changed\", want \"v\""},
        Disagreement{"GoneBeforeTime", delete_it, draw<AdvanceTime>,
                     "AdvanceTime: v1/ConfigMap/default/a: configmaps \"a\" not found"},
        Disagreement{"GoneBeforeRemove", delete_it, draw<RemoveObject>,
                     "RemoveObject v1/ConfigMap/default/a: configmaps \"a\" not found"},
        Disagreement{"GoneBeforePatch", delete_it, draw<PatchObject>,
                     "PatchObject v1/ConfigMap/default/a: configmaps \"a\" not found"}),
    [](const ::testing::TestParamInfo<Disagreement>& info) { return std::string(info.param.name); });

TEST(CommandFailures, AnObjectOfAKindNotServedIsNamed) {
  SimCluster c;
  const json gadget = json::parse(R"({"apiVersion": "example.com/v1", "kind": "Gadget",
      "metadata": {"name": "g", "namespace": "default"}})");
  ClusterModel model = ClusterModel().objects(rc::gen::just(gadget));
  model.objects_written[model_key(gadget)] = {0, gadget};
  try {
    draw<RemoveObject>(model)->run(model, c);
    FAIL() << "the command did not fail";
  } catch (const rc::detail::CaseResult& result) {
    EXPECT_THAT(result.description, ::testing::EndsWith("the cluster serves no example.com/v1 Gadget"));
  }
}

}  // namespace
}  // namespace kubesim::testing
