#include "kubesim/api/options.h"

namespace kubesim::api {

std::string_view to_string(ResourceVersionMatch match) {
  switch (match) {
    case ResourceVersionMatch::kUnset:
      return "";
    case ResourceVersionMatch::kNotOlderThan:
      return "NotOlderThan";
    case ResourceVersionMatch::kExact:
      return "Exact";
  }
  return "";
}

std::optional<ResourceVersionMatch> parse_resource_version_match(std::string_view text) {
  if (text.empty()) return ResourceVersionMatch::kUnset;
  if (text == "NotOlderThan") return ResourceVersionMatch::kNotOlderThan;
  if (text == "Exact") return ResourceVersionMatch::kExact;
  return std::nullopt;
}

std::string_view to_string(FieldValidation validation) {
  switch (validation) {
    case FieldValidation::kUnset:
      return "";
    case FieldValidation::kIgnore:
      return "Ignore";
    case FieldValidation::kWarn:
      return "Warn";
    case FieldValidation::kStrict:
      return "Strict";
  }
  return "";
}

std::optional<FieldValidation> parse_field_validation(std::string_view text) {
  if (text.empty()) return FieldValidation::kUnset;
  if (text == "Ignore") return FieldValidation::kIgnore;
  if (text == "Warn") return FieldValidation::kWarn;
  if (text == "Strict") return FieldValidation::kStrict;
  return std::nullopt;
}

std::string_view content_type(PatchType type) {
  switch (type) {
    case PatchType::kJsonPatch:
      return "application/json-patch+json";
    case PatchType::kMergePatch:
      return "application/merge-patch+json";
    case PatchType::kStrategicMergePatch:
      return "application/strategic-merge-patch+json";
    case PatchType::kApply:
      return "application/apply-patch+yaml";
    case PatchType::kApplyCbor:
      return "application/apply-patch+cbor";
  }
  return "";
}

bool is_apply(PatchType type) { return type == PatchType::kApply || type == PatchType::kApplyCbor; }

std::optional<PatchType> patch_type_from_content_type(std::string_view content_type) {
  // Parameters such as "; charset=utf-8" do not change the patch type.
  const auto semicolon = content_type.find(';');
  if (semicolon != std::string_view::npos) content_type = content_type.substr(0, semicolon);
  while (!content_type.empty() && content_type.back() == ' ') content_type.remove_suffix(1);
  if (content_type == "application/json-patch+json") return PatchType::kJsonPatch;
  if (content_type == "application/merge-patch+json") return PatchType::kMergePatch;
  if (content_type == "application/strategic-merge-patch+json") return PatchType::kStrategicMergePatch;
  if (content_type == "application/apply-patch+yaml") return PatchType::kApply;
  if (content_type == "application/apply-patch+cbor") return PatchType::kApplyCbor;
  return std::nullopt;
}

std::string_view to_string(PropagationPolicy policy) {
  switch (policy) {
    case PropagationPolicy::kUnset:
      return "";
    case PropagationPolicy::kOrphan:
      return "Orphan";
    case PropagationPolicy::kBackground:
      return "Background";
    case PropagationPolicy::kForeground:
      return "Foreground";
  }
  return "";
}

std::optional<PropagationPolicy> parse_propagation_policy(std::string_view text) {
  if (text.empty()) return PropagationPolicy::kUnset;
  if (text == "Orphan") return PropagationPolicy::kOrphan;
  if (text == "Background") return PropagationPolicy::kBackground;
  if (text == "Foreground") return PropagationPolicy::kForeground;
  return std::nullopt;
}

}  // namespace kubesim::api
