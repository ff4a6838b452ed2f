// Names, labels and label selectors from kubesim::testing::gen pass kubesim's own validation and
// parsers, and selectors match (or not) the label map they were made for.
#include "kubesim/testing/generators.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/api/labels.h"
#include "kubesim/api/validation.h"

namespace kubesim::testing {
namespace {

using Errors = std::vector<std::string>;

RC_GTEST_PROP(GeneratorNames, Dns1123LabelsAreValidNamespaceNames, ()) {
  const auto name = *gen::dns1123_label();
  RC_ASSERT(api::validate_object_name(name, api::NameRule::kDns1123Label) == Errors{});
}

RC_GTEST_PROP(GeneratorNames, Dns1123SubdomainsAreValidObjectNames, ()) {
  const auto name = *gen::dns1123_subdomain();
  RC_ASSERT(api::validate_object_name(name, api::NameRule::kDns1123Subdomain) == Errors{});
}

RC_GTEST_PROP(GeneratorLabels, KeysAndValuesAreValid, ()) {
  RC_ASSERT(api::is_qualified_name(*gen::label_key()) == Errors{});
  RC_ASSERT(api::is_valid_label_value(*gen::label_value()) == Errors{});
}

RC_GTEST_PROP(GeneratorLabels, LabelMapsAreValidMetadataLabels, ()) {
  const auto labels = *gen::labels();
  RC_ASSERT(labels.size() <= 4u);
  RC_ASSERT(api::validate_labels(nlohmann::json(labels)) == Errors{});
}

RC_GTEST_PROP(GeneratorSelectors, AMatchingSelectorMatches, ()) {
  const auto labels = *gen::labels();
  const auto selector = *gen::selector_matching(labels);
  RC_ASSERT(selector.matches(labels));
  RC_ASSERT(selector.matches(nlohmann::json(labels)));
}

RC_GTEST_PROP(GeneratorSelectors, ANonMatchingSelectorDoesNotMatch, ()) {
  const auto labels = *gen::labels();
  const auto selector = *gen::selector_not_matching(labels);
  RC_ASSERT(!selector.matches(labels));
  RC_ASSERT(!selector.empty());
}

// The text forms parse (kubesim's parser, apimachinery's syntax) to selectors that decide the same.
RC_GTEST_PROP(GeneratorSelectors, TextFormsParseAndDecideTheSame, ()) {
  const auto labels = *gen::labels();
  const bool matching = *rc::gen::arbitrary<bool>();
  const std::string text =
      matching ? *gen::selector_text_matching(labels) : *gen::selector_text_not_matching(labels);
  const auto parsed = api::parse_label_selector(text);
  RC_ASSERT((parsed.ok() ? std::string() : parsed.error().message) == std::string());
  RC_ASSERT(parsed->to_string() == text);
  RC_ASSERT(parsed->matches(labels) == matching);
}

}  // namespace
}  // namespace kubesim::testing
