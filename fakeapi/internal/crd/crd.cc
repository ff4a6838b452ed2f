#include "fakeapi/internal/crd/crd.h"

#include <algorithm>
#include <set>

#include "fakeapi/internal/validation/field_errors.h"

namespace kubesim::fakeapi::internal {
namespace {

using nlohmann::json;
using validation::member;
using validation::string_member;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string storage_version(const json& crd) {
  const json& versions = member(member(crd, "spec"), "versions");
  if (!versions.is_array()) return {};
  for (const auto& v : versions) {
    if (v.is_object() && v.value("storage", false)) return string_member(v, "name");
  }
  return {};
}

std::vector<std::string> strings_of(const json& j) {
  std::vector<std::string> out;
  if (!j.is_array()) return out;
  for (const auto& v : j) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

// equalToAcceptedOrFresh: "" when the name may be taken, else the conflict's message.
std::string conflict(const std::string& requested, const std::string& accepted,
                     const std::set<std::string>& used) {
  if (requested == accepted || used.count(requested) == 0) return {};
  return validation::quote(requested) + " is already in use";
}

}  // namespace

bool is_crds(const ResourceInfo& info) {
  return info.gvr.group == "apiextensions.k8s.io" && info.gvr.resource == "customresourcedefinitions";
}

void default_crd_spec(json& crd) {
  if (!crd.is_object() || !crd["spec"].is_object()) return;
  json& spec = crd["spec"];
  if (spec.contains("names") && spec["names"].is_object()) {
    json& names = spec["names"];
    const std::string kind = string_member(names, "kind");
    if (string_member(names, "singular").empty()) names["singular"] = lower(kind);
    if (string_member(names, "listKind").empty() && !kind.empty()) names["listKind"] = kind + "List";
  }
  if (!spec.contains("conversion") || spec["conversion"].is_null()) {
    spec["conversion"] = {{"strategy", "None"}};
  }
}

void initial_crd_status(json& crd) {
  json stored = json::array();
  if (std::string v = storage_version(crd); !v.empty()) stored.push_back(v);
  crd["status"] = {{"conditions", nullptr},
                   {"acceptedNames", {{"plural", ""}, {"kind", ""}}},
                   {"storedVersions", std::move(stored)}};
}

void record_storage_version(json& crd) {
  const std::string v = storage_version(crd);
  if (v.empty()) return;
  json& stored = crd["status"]["storedVersions"];
  if (!stored.is_array()) stored = json::array();
  for (const auto& s : stored) {
    if (s == v) return;
  }
  stored.push_back(v);
}

std::vector<api::StatusCause> crd_update_causes(const json& old_crd, const json& crd) {
  validation::FieldErrors errs;
  const json& spec = member(crd, "spec");
  const json& old_spec = member(old_crd, "spec");
  auto immutable = [&](const std::string& path, const json& now, const json& before) {
    if (now != before) errs.invalid(path, validation::render(now), "field is immutable");
  };
  if (crd_condition_true(old_crd, "Established")) {
    immutable("spec.scope", member(spec, "scope"), member(old_spec, "scope"));
    immutable("spec.names.kind", member(member(spec, "names"), "kind"),
              member(member(old_spec, "names"), "kind"));
  }
  immutable("spec.group", member(spec, "group"), member(old_spec, "group"));
  immutable("spec.names.plural", member(member(spec, "names"), "plural"),
            member(member(old_spec, "names"), "plural"));

  // ValidateCustomResourceDefinitionStoredVersions.
  const json& stored_json = member(member(crd, "status"), "storedVersions");
  const std::vector<std::string> stored = strings_of(stored_json);
  if (stored.empty()) {
    errs.invalid("status.storedVersions", validation::render(stored_json.is_null() ? json::array() : stored_json),
                 "must have at least one stored version");
    return errs.take();
  }
  std::set<std::string> in_spec;
  const json& versions = member(spec, "versions");
  if (versions.is_array()) {
    for (const auto& v : versions) {
      const std::string name = string_member(v, "name");
      in_spec.insert(name);
      if (v.is_object() && v.value("storage", false) &&
          std::find(stored.begin(), stored.end(), name) == stored.end()) {
        errs.invalid("status.storedVersions", validation::render(stored_json),
                     "must have the storage version " + name);
      }
    }
  }
  for (std::size_t i = 0; i < stored.size(); ++i) {
    const std::string& v = stored[i];
    if (in_spec.count(v) != 0) continue;
    errs.invalid(validation::index("status.storedVersions", i), validation::quote(v),
                 "missing from spec.versions; " + v +
                     " was previously a storage version, and must remain in spec.versions until a "
                     "storage migration ensures no data remains persisted in " +
                     v + " and removes " + v + " from status.storedVersions");
  }
  return errs.take();
}

const json* find_crd_condition(const json& crd, std::string_view type) {
  const json& conditions = member(member(crd, "status"), "conditions");
  if (!conditions.is_array()) return nullptr;
  for (const auto& c : conditions) {
    if (string_member(c, "type") == type) return &c;
  }
  return nullptr;
}

bool crd_condition_true(const json& crd, std::string_view type) {
  const json* c = find_crd_condition(crd, type);
  return c != nullptr && string_member(*c, "status") == "True";
}

void set_crd_condition(json& crd, std::string_view type, std::string_view status,
                       std::string_view reason, std::string_view message, const std::string& now) {
  json& conditions = crd["status"]["conditions"];
  if (!conditions.is_array()) conditions = json::array();
  for (auto& c : conditions) {
    if (string_member(c, "type") != type) continue;
    if (string_member(c, "status") != status || string_member(c, "lastTransitionTime").empty()) {
      c["lastTransitionTime"] = now;
    }
    c["status"] = status;
    c["reason"] = reason;
    c["message"] = message;
    return;
  }
  conditions.push_back({{"type", type},
                        {"status", status},
                        {"lastTransitionTime", now},
                        {"reason", reason},
                        {"message", message}});
}

bool crd_names_settled(const json& crd) {
  return validation::semantically_equal(member(member(crd, "spec"), "names"),
                                        member(member(crd, "status"), "acceptedNames"));
}

bool accept_crd_names(json& crd, const std::vector<json>& group, const std::string& now) {
  // getAcceptedNamesForGroup: every name any CRD of the group has accepted.
  std::set<std::string> resources;
  std::set<std::string> kinds;
  for (const auto& other : group) {
    const json& names = member(member(other, "status"), "acceptedNames");
    resources.insert(string_member(names, "plural"));
    resources.insert(string_member(names, "singular"));
    for (const auto& s : strings_of(member(names, "shortNames"))) resources.insert(s);
    kinds.insert(string_member(names, "kind"));
    kinds.insert(string_member(names, "listKind"));
  }
  const json requested = member(member(crd, "spec"), "names");
  const json accepted = member(member(crd, "status"), "acceptedNames");
  json next = accepted.is_object() ? accepted : json::object();
  std::string reason;
  std::string message;
  auto take = [&](const char* field, const std::set<std::string>& used, const char* why) {
    const std::string error = conflict(string_member(requested, field), string_member(accepted, field), used);
    if (!error.empty()) {
      reason = why;
      message = error;
      return;
    }
    const json& value = member(requested, field);
    if (value.is_null()) {
      next.erase(field);
    } else {
      next[field] = value;
    }
  };
  take("plural", resources, "PluralConflict");
  take("singular", resources, "SingularConflict");
  const std::vector<std::string> short_names = strings_of(member(requested, "shortNames"));
  const std::vector<std::string> accepted_short = strings_of(member(accepted, "shortNames"));
  if (short_names != accepted_short) {
    std::vector<std::string> errors;
    for (const auto& s : short_names) {
      if (std::find(accepted_short.begin(), accepted_short.end(), s) != accepted_short.end()) continue;
      if (std::string e = conflict(s, "", resources); !e.empty()) errors.push_back(e);
    }
    if (errors.empty()) {
      if (short_names.empty()) {
        next.erase("shortNames");
      } else {
        next["shortNames"] = short_names;
      }
    } else {
      // utilerrors.NewAggregate: one error bare, several in brackets.
      reason = "ShortNamesConflict";
      message = errors.size() == 1 ? errors[0] : "[";
      for (std::size_t i = 0; errors.size() > 1 && i < errors.size(); ++i) {
        message += (i > 0 ? ", " : "") + errors[i];
      }
      if (errors.size() > 1) message += "]";
    }
  }
  take("kind", kinds, "KindConflict");
  take("listKind", kinds, "ListKindConflict");
  if (member(requested, "categories").is_null()) {
    next.erase("categories");
  } else {
    next["categories"] = requested["categories"];
  }

  const bool accepted_all = reason.empty();
  const json* named = find_crd_condition(crd, "NamesAccepted");
  const bool same_condition = named != nullptr &&
                              string_member(*named, "status") == (accepted_all ? "True" : "False") &&
                              string_member(*named, "reason") == (accepted_all ? "NoConflicts" : reason) &&
                              string_member(*named, "message") == (accepted_all ? "no conflicts found" : message);
  if (next == accepted && same_condition) return false;
  crd["status"]["acceptedNames"] = next;
  if (accepted_all) {
    set_crd_condition(crd, "NamesAccepted", "True", "NoConflicts", "no conflicts found", now);
  } else {
    set_crd_condition(crd, "NamesAccepted", "False", reason, message, now);
  }
  // Established starts False (NotAccepted) and is Installing once the names are accepted; the
  // establishing controller makes it True.
  if (!crd_condition_true(crd, "Established")) {
    if (accepted_all) {
      set_crd_condition(crd, "Established", "False", "Installing", "the initial names have been accepted", now);
    } else if (find_crd_condition(crd, "Established") == nullptr) {
      set_crd_condition(crd, "Established", "False", "NotAccepted", "not all names are accepted", now);
    }
  }
  return true;
}

json crd_serving_view(const json& crd) {
  json view = crd;
  const json& accepted = member(member(crd, "status"), "acceptedNames");
  if (accepted.is_object() && view["spec"].is_object()) view["spec"]["names"] = accepted;
  return view;
}

}  // namespace kubesim::fakeapi::internal
