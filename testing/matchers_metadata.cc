// The matchers of labels, annotations, conditions and the controller owner reference.
#include <optional>
#include <sstream>
#include <utility>

#include "kubesim/api/match.h"
#include "kubesim/testing/matchers.h"

namespace kubesim::testing {

using matchers_internal::kShownChars;
using matchers_internal::make_object_matcher;
using nlohmann::json;

namespace {

// A string as JSON writes it: "web".
std::string quoted(std::string_view text) { return json(text).dump(); }

// HasLabel and HasAnnotation: `what` is "label" or "annotation", `field` the metadata member.
::testing::PolymorphicMatcher<ObjectMatcher> has_entry(std::string what, std::string field, std::string key,
                                                       std::optional<std::string> value) {
  const std::string entry = key + (value ? "=" + *value : "");
  auto check = [what, field, key, value](const api::Object& object, std::ostream& why) {
    const auto map = field == "labels" ? object.labels() : object.annotations();
    const auto have = map.find(key);
    if (!have) {
      why << "has no " << what << " " << key;
      if (map.empty()) {
        why << " (no " << field << ")";
      } else {
        why << " (" << field << ": " << api::short_json(object.metadata_field(field), kShownChars) << ")";
      }
      return false;
    }
    why << what << " " << key << " is " << quoted(*have);
    return !value || *have == *value;
  };
  return make_object_matcher("has " + what + " " + entry, "doesn't have " + what + " " + entry,
                             std::move(check));
}

// The conditions as "Ready=True, Available=False".
std::string list_conditions(const json& conditions) {
  std::string out;
  for (const auto& c : conditions) {
    if (!out.empty()) out += ", ";
    out += c.is_object() ? c.value("type", std::string("?")) + "=" + c.value("status", std::string("?"))
                         : c.dump();
  }
  return out;
}

}  // namespace

::testing::PolymorphicMatcher<ObjectMatcher> HasLabel(std::string key) {
  return has_entry("label", "labels", std::move(key), std::nullopt);
}
::testing::PolymorphicMatcher<ObjectMatcher> HasLabel(std::string key, std::string value) {
  return has_entry("label", "labels", std::move(key), std::move(value));
}
::testing::PolymorphicMatcher<ObjectMatcher> HasAnnotation(std::string key) {
  return has_entry("annotation", "annotations", std::move(key), std::nullopt);
}
::testing::PolymorphicMatcher<ObjectMatcher> HasAnnotation(std::string key, std::string value) {
  return has_entry("annotation", "annotations", std::move(key), std::move(value));
}

::testing::PolymorphicMatcher<ObjectMatcher> HasCondition(std::string type, std::string status) {
  const std::string condition = type + "=" + status;
  auto check = [type, status](const api::Object& object, std::ostream& why) {
    const json* conditions = api::find_path(object.json(), "status.conditions");
    if (conditions == nullptr || !conditions->is_array() || conditions->empty()) {
      why << "has no status.conditions";
      return false;
    }
    for (const auto& c : *conditions) {
      if (!c.is_object() || c.value("type", json()) != type) continue;
      const json have = c.value("status", json());
      why << "condition " << type << " is " << (have.is_string() ? have.get<std::string>() : have.dump());
      for (const char* detail : {"reason", "message"}) {
        if (c.contains(detail)) why << ", " << detail << " " << api::short_json(c[detail], kShownChars);
      }
      return have == status;
    }
    why << "has no condition " << type << " (conditions: " << list_conditions(*conditions) << ")";
    return false;
  };
  return make_object_matcher("has condition " + condition, "doesn't have condition " + condition,
                             std::move(check));
}

namespace {

// "Widget w1 (example.com/v1, uid u-1)".
std::string describe_owner(std::string_view kind, std::string_view name, std::string_view api_version,
                           std::string_view uid) {
  std::ostringstream os;
  os << kind << " " << name << " (" << api_version << ", uid " << (uid.empty() ? "\"\"" : uid) << ")";
  return os.str();
}

}  // namespace

::testing::PolymorphicMatcher<ObjectMatcher> IsControlledBy(const api::Object& owner) {
  const std::string kind(owner.kind());
  const std::string name(owner.name());
  const std::string api_version(owner.api_version());
  const std::string uid(owner.uid());
  const std::string want = describe_owner(kind, name, api_version, uid);
  auto check = [kind, name, api_version, uid](const api::Object& object, std::ostream& why) {
    const api::OwnerReference* ref = object.controller_of();
    if (ref == nullptr) {
      const std::size_t n = object.owner_references().size();
      why << "has no controller owner reference";
      if (n > 0)
        why << " (" << n << " owner reference" << (n == 1 ? "" : "s") << " without controller: true)";
      return false;
    }
    why << "is controlled by " << describe_owner(ref->kind, ref->name, ref->api_version, ref->uid);
    return ref->kind == kind && ref->name == name && ref->api_version == api_version && ref->uid == uid;
  };
  return make_object_matcher("is controlled by " + want, "isn't controlled by " + want, std::move(check));
}

}  // namespace kubesim::testing
