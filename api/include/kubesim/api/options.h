// Request options of the Client interface, mirroring metav1's ListOptions, GetOptions,
// CreateOptions, UpdateOptions, PatchOptions and DeleteOptions. Empty or unset fields mean what
// they mean on the wire: the server's default.
//
// Each struct is an aggregate whose every field has a default, so it can be built with designated
// initialisers: `api::ListOptions{.label_selector = "app=web", .limit = 500}`. With GCC 12, do not
// build one inside a co_await statement (`co_await c.list(ctx, r, ns, {.limit = 1})`, or `{}`):
// GCC 12 destroys an aggregate-initialised temporary there twice. Build it in a named variable
// first, or pass `api::ListOptions()` (value-initialised, which is safe);
// cmake/check_co_await_temporaries.cmake keeps kubesim's own sources to that rule.
#ifndef KUBESIM_API_OPTIONS_H_
#define KUBESIM_API_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kubesim::api {

enum class ResourceVersionMatch { kUnset, kNotOlderThan, kExact };

// "", "NotOlderThan", "Exact".
std::string_view to_string(ResourceVersionMatch match);
std::optional<ResourceVersionMatch> parse_resource_version_match(std::string_view text);

// metav1's fieldValidation: what the server does with fields the kind's type does not have. The
// default (kUnset, sent as nothing) is the server's: Warn. Ignore and Warn drop such fields (Warn
// would add a warning to the response); Strict fails the request with 400 BadRequest.
enum class FieldValidation { kUnset, kIgnore, kWarn, kStrict };

// "", "Ignore", "Warn", "Strict".
std::string_view to_string(FieldValidation validation);
std::optional<FieldValidation> parse_field_validation(std::string_view text);

struct ListOptions {
  std::string label_selector{};  // label selector syntax, parsed by the server
  std::string field_selector{};
  // "" = most recent; "0" = any (possibly cached); otherwise a revision, read with
  // resource_version_match.
  std::string resource_version{};
  ResourceVersionMatch resource_version_match = ResourceVersionMatch::kUnset;
  std::int64_t limit = 0;  // 0 = no limit
  std::string continue_token{};
  // Watch only.
  bool allow_watch_bookmarks = false;
  std::optional<bool> send_initial_events{};
  std::optional<std::int64_t> timeout_seconds{};
};

struct GetOptions {
  std::string resource_version{};
};

struct CreateOptions {
  bool dry_run = false;
  std::string field_manager{};
  FieldValidation field_validation = FieldValidation::kUnset;
};

// (The subresource an update or patch writes is the Request's, not an option: a path segment of
// the URL, not a query parameter.)
struct UpdateOptions {
  bool dry_run = false;
  std::string field_manager{};
  FieldValidation field_validation = FieldValidation::kUnset;
};

// kApply is server-side apply: the body is a whole object (the applied configuration, YAML or
// JSON) and the request needs a field manager. kApplyCbor is its CBOR form, which kubesim
// refuses with 415 as a server without the CBOR feature does.
enum class PatchType { kJsonPatch, kMergePatch, kStrategicMergePatch, kApply, kApplyCbor };

// The patch's Content-Type: "application/json-patch+json", "application/merge-patch+json",
// "application/strategic-merge-patch+json", "application/apply-patch+yaml",
// "application/apply-patch+cbor".
std::string_view content_type(PatchType type);
std::optional<PatchType> patch_type_from_content_type(std::string_view content_type);
// kApply and kApplyCbor.
bool is_apply(PatchType type);

struct PatchOptions {
  bool dry_run = false;
  // Required for apply; for other writes the server falls back on the User-Agent's prefix.
  std::string field_manager{};
  FieldValidation field_validation = FieldValidation::kUnset;
  // Apply only (other patches refuse it when set): take the fields other managers own
  // instead of failing with a conflict.
  std::optional<bool> force{};
};

enum class PropagationPolicy { kUnset, kOrphan, kBackground, kForeground };

// "", "Orphan", "Background", "Foreground".
std::string_view to_string(PropagationPolicy policy);
std::optional<PropagationPolicy> parse_propagation_policy(std::string_view text);

struct Preconditions {
  std::optional<std::string> uid{};
  std::optional<std::string> resource_version{};
};

struct DeleteOptions {
  std::optional<std::int64_t> grace_period_seconds{};
  Preconditions preconditions{};
  PropagationPolicy propagation_policy = PropagationPolicy::kUnset;
  bool dry_run = false;
};

}  // namespace kubesim::api

#endif  // KUBESIM_API_OPTIONS_H_
