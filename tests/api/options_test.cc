#include "kubesim/api/options.h"

#include <gtest/gtest.h>

namespace kubesim::api {
namespace {

TEST(OptionsTest, ResourceVersionMatchRoundTrips) {
  for (auto m : {ResourceVersionMatch::kUnset, ResourceVersionMatch::kNotOlderThan,
                 ResourceVersionMatch::kExact}) {
    EXPECT_EQ(parse_resource_version_match(to_string(m)), m);
  }
  EXPECT_FALSE(parse_resource_version_match("exact").has_value());
  EXPECT_FALSE(parse_resource_version_match("Newest").has_value());
}

TEST(OptionsTest, PropagationPolicyRoundTrips) {
  for (auto p : {PropagationPolicy::kUnset, PropagationPolicy::kOrphan,
                 PropagationPolicy::kBackground, PropagationPolicy::kForeground}) {
    EXPECT_EQ(parse_propagation_policy(to_string(p)), p);
  }
  EXPECT_FALSE(parse_propagation_policy("background").has_value());
}

TEST(OptionsTest, PatchContentTypes) {
  struct Case {
    const char* content_type;
    std::optional<PatchType> want;
  };
  const Case cases[] = {
      {"application/json-patch+json", PatchType::kJsonPatch},
      {"application/merge-patch+json", PatchType::kMergePatch},
      {"application/strategic-merge-patch+json", PatchType::kStrategicMergePatch},
      {"application/merge-patch+json; charset=utf-8", PatchType::kMergePatch},
      {"application/json", std::nullopt},
      {"application/apply-patch+yaml", PatchType::kApply},
      {"application/apply-patch+cbor", PatchType::kApplyCbor},
      {"", std::nullopt},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(patch_type_from_content_type(c.content_type), c.want) << c.content_type;
  }
  for (auto t : {PatchType::kJsonPatch, PatchType::kMergePatch, PatchType::kStrategicMergePatch,
                 PatchType::kApply, PatchType::kApplyCbor}) {
    EXPECT_EQ(patch_type_from_content_type(content_type(t)), t);
  }
}

}  // namespace
}  // namespace kubesim::api
