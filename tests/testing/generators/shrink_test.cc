// Generators shrink toward the simplest valid value: following shrinks as far as they go (as
// rapidcheck does for a property that keeps failing) ends at a short name, an empty map, the
// minimum of a range — what a counterexample should show.
#include "kubesim/testing/generators.h"

#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "kubesim/scenarios/controllers.h"

namespace kubesim::testing {
namespace {

using nlohmann::json;

// The value a shrink chain ends at when every shrink is taken: the first shrink, again and again.
template <class T>
T smallest(const rc::Gen<T>& gen, std::uint64_t seed) {
  rc::Shrinkable<T> s = gen(rc::Random(seed), 100);
  for (int steps = 0; steps < 10'000; ++steps) {
    auto next = s.shrinks().next();
    if (!next) break;
    s = *next;
  }
  return s.value();
}

class GeneratorShrinking : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(GeneratorShrinking, NamesAndLabelsShrinkToTheShortest) {
  EXPECT_EQ(smallest(gen::dns1123_label(), GetParam()), "a");
  EXPECT_EQ(smallest(gen::dns1123_subdomain(), GetParam()), "a");
  EXPECT_EQ(smallest(gen::label_key(), GetParam()), "a");
  EXPECT_EQ(smallest(gen::label_value(), GetParam()), "");
  EXPECT_EQ(smallest(gen::labels(), GetParam()), gen::Labels{});
  EXPECT_EQ(smallest(gen::selector_text_matching({{"app", "web"}}), GetParam()), "");
}

TEST_P(GeneratorShrinking, ObjectsShrinkToTheirRequiredFields) {
  EXPECT_EQ(smallest(gen::config_map(), GetParam()),
            json::parse(R"({"apiVersion": "v1", "kind": "ConfigMap",
                            "metadata": {"name": "a", "namespace": "default"}})"));
  EXPECT_EQ(smallest(gen::namespace_(), GetParam()),
            json::parse(R"({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}})"));
  EXPECT_EQ(smallest(gen::custom_object(scenarios::widget_crd()), GetParam()),
            json::parse(R"({"apiVersion": "example.com/v1", "kind": "Widget",
                            "metadata": {"name": "a", "namespace": "default"}})"));
}

TEST_P(GeneratorShrinking, IntegersShrinkTowardZeroWithinTheirRange) {
  const auto value = [&](const char* schema) {
    return smallest(gen::schema_value(json::parse(schema)), GetParam());
  };
  EXPECT_EQ(value(R"({"type": "integer"})"), json(0));
  EXPECT_EQ(value(R"({"type": "integer", "minimum": 3, "maximum": 9})"), json(3));
  EXPECT_EQ(value(R"({"type": "integer", "minimum": -9, "maximum": -3})"), json(-3));
  EXPECT_EQ(value(R"({"type": "string", "minLength": 2})"), json("  "));
  EXPECT_EQ(value(R"({"type": "array", "items": {"type": "boolean"}, "minItems": 1})"), json::parse("[false]"));
}

TEST_P(GeneratorShrinking, FaultPlansAndWorkloadsShrinkToNothing) {
  EXPECT_TRUE(smallest(gen::fault_plan(), GetParam()).empty());
  EXPECT_TRUE(smallest(gen::workload(gen::config_map()), GetParam()).empty());
  const fakeapi::FaultRule rule = smallest(gen::fault_rule(), GetParam());
  EXPECT_EQ(rule.kind(), fakeapi::FaultKind::kError);
  EXPECT_EQ(rule.as<fakeapi::ErrorFault>()->status.code, 500);
  EXPECT_TRUE(rule.verbs.empty());
  EXPECT_EQ(rule.probability, 1.0);
  EXPECT_EQ(rule.count, 1);
  EXPECT_FALSE(rule.from.has_value());
}

INSTANTIATE_TEST_SUITE_P(Seeds, GeneratorShrinking, ::testing::Values(1, 2, 3, 42));

}  // namespace
}  // namespace kubesim::testing
