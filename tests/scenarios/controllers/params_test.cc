// The built-in types' params validators: what each accepts, and the exact message for each
// mistake a scenario file can make.
#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/scenarios/controllers.h"
#include "kubesim/scenarios/registry.h"

namespace kubesim::scenarios {
namespace {

using nlohmann::json;

struct Case {
  const char* type;
  json params;
  std::optional<std::string> error;
};

class ParamsTest : public ::testing::TestWithParam<Case> {};

TEST_P(ParamsTest, ValidatorSaysExactlyWhatIsWrong) {
  const Case& c = GetParam();
  const Registry registry = Registry::with_builtins();
  const ControllerType* type = registry.find(c.type);
  ASSERT_NE(type, nullptr);
  ASSERT_TRUE(type->validate);
  EXPECT_EQ(type->validate(c.params), c.error) << c.params.dump();
}

const std::string kBadLabel =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
    "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
    "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

INSTANTIATE_TEST_SUITE_P(
    Builtins, ParamsTest,
    ::testing::Values(
        Case{"configmap-mirror", json{{"source", "a"}, {"target", "b"}}, std::nullopt},
        Case{"configmap-mirror", json{{"source", "team-a"}, {"target", "team-b"}}, std::nullopt},
        Case{"configmap-mirror", json::object(),
             "params.source is required: the namespace to mirror from"},
        Case{"configmap-mirror", json(nullptr), "params must be a map {source: NS, target: NS}, not null"},
        Case{"configmap-mirror", json::array({"a", "b"}),
             "params must be a map {source: NS, target: NS}, not [\"a\",\"b\"]"},
        Case{"configmap-mirror", json{{"source", "a"}},
             "params.target is required: the namespace to mirror into"},
        Case{"configmap-mirror", json{{"target", "b"}},
             "params.source is required: the namespace to mirror from"},
        Case{"configmap-mirror", json{{"source", 3}, {"target", "b"}},
             "params.source must be a string (a namespace name), not 3"},
        Case{"configmap-mirror", json{{"source", "a"}, {"target", json{{"ns", "b"}}}},
             "params.target must be a string (a namespace name), not {\"ns\":\"b\"}"},
        Case{"configmap-mirror", json{{"source", ""}, {"target", "b"}},
             "params.source is empty: it names the namespace to mirror from"},
        Case{"configmap-mirror", json{{"source", "team.a"}, {"target", "b"}},
             "params.source: \"team.a\" is not a valid namespace name: must not contain dots"},
        Case{"configmap-mirror", json{{"source", "a"}, {"target", "Team_B"}},
             "params.target: \"Team_B\" is not a valid namespace name: " + kBadLabel},
        Case{"configmap-mirror", json{{"source", "a"}, {"target", "a"}},
             "params.source and params.target are both \"a\": a mirror needs two different namespaces"},
        Case{"configmap-mirror", json{{"source", "a"}, {"target", "b"}, {"labels", true}},
             "params: unknown key \"labels\" (configmap-mirror takes source and target)"},
        Case{"widget", json::object(), std::nullopt},
        Case{"widget", json(nullptr), std::nullopt},
        Case{"widget", json{{"replicas", 3}}, "params: unknown key \"replicas\" (widget takes no params)"},
        Case{"widget", json("x"), "params must be a map (widget takes none), not \"x\""}));

}  // namespace
}  // namespace kubesim::scenarios
