#include "scenarios/internal/parse_context.h"

#include <algorithm>
#include <cctype>

namespace kubesim::scenarios::internal {
namespace {

const std::vector<std::string> kLockKinds = {"leases", "configmaps", "endpoints"};

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t pos = s.find(sep, start);
    out.emplace_back(
        s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) return out;
    start = pos + 1;
  }
}

bool any_empty(const std::vector<std::string>& parts) {
  return std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); });
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::string replica_names(const ProcessSpec& process) {
  const std::string& n = process.name;
  if (process.replicas <= 4) {
    std::vector<std::string> names;
    for (int i = 0; i < process.replicas; ++i) names.push_back(n + "-" + std::to_string(i));
    return join(names);
  }
  return n + "-0 … " + n + "-" + std::to_string(process.replicas - 1);
}

std::optional<ResolvedResource> ParseContext::find(const std::string& group,
                                                   const std::string& version,
                                                   const std::string& plural) const {
  if (const auto* info = builtins_.find(api::GroupVersionResource{group, version, plural})) {
    return ResolvedResource{ResourceRef{info->gvr, ""}, info->kind, info->namespaced};
  }
  for (const auto& c : scenario.cluster.resources) {
    if (c.group == group && c.version == version && c.plural == plural) {
      return ResolvedResource{ResourceRef{{c.group, c.version, c.plural}, ""}, c.kind,
                              c.namespaced};
    }
  }
  return std::nullopt;
}

std::vector<ResolvedResource> ParseContext::find_plural(const std::string& plural) const {
  std::vector<ResolvedResource> out;
  for (const auto* info : builtins_.all()) {
    if (!info->custom && info->gvr.resource == plural) {
      out.push_back(ResolvedResource{ResourceRef{info->gvr, ""}, info->kind, info->namespaced});
    }
  }
  if (!out.empty()) return out;  // a built-in wins over a custom resource of the same plural
  for (const auto& c : scenario.cluster.resources) {
    if (c.plural == plural) {
      out.push_back(
          ResolvedResource{ResourceRef{{c.group, c.version, c.plural}, ""}, c.kind, c.namespaced});
    }
  }
  return out;
}

std::vector<std::string> ParseContext::resource_names() const {
  std::vector<std::string> out;
  for (const auto* info : builtins_.all()) {
    if (!info->custom) out.push_back(info->gvr.resource);
  }
  for (const auto& c : scenario.cluster.resources) {
    out.push_back(c.plural);
    out.push_back(c.group + "/" + c.version + "/" + c.plural);
  }
  return out;
}

std::optional<ResolvedResource> ParseContext::lookup(const std::string& text,
                                                     std::string& problem) const {
  const auto parts = split(text, '/');
  std::optional<ResolvedResource> found;
  if (parts.size() == 1 && !parts[0].empty()) {
    auto matches = find_plural(parts[0]);
    if (matches.size() > 1) {
      std::vector<std::string> names;
      for (const auto& m : matches) {
        names.push_back(m.ref.gvr.group + "/" + m.ref.gvr.version + "/" + m.ref.gvr.resource);
      }
      problem = "\"" + text + "\" is ambiguous: write group/version/plural (" + join(names) + ")";
      return std::nullopt;
    }
    if (matches.size() == 1) found = matches.front();
  } else if (parts.size() == 3 && !any_empty(parts)) {
    found = find(parts[0], parts[1], parts[2]);
  } else {
    problem = "\"" + text +
              "\" is not a resource: write a plural (configmaps) or group/version/plural "
              "(example.com/v1/widgets)";
    return std::nullopt;
  }
  if (!found) {
    problem = "unknown resource \"" + text +
              "\": not a built-in resource nor one declared in cluster.resources";
    if (auto near = closest(text, resource_names())) problem += "; did you mean \"" + *near + "\"?";
    return std::nullopt;
  }
  found->ref.text = text;
  return found;
}

std::optional<ResolvedResource> ParseContext::resource(const Field& field) {
  auto text = reader.string(field);
  if (!text) return std::nullopt;
  std::string problem;
  auto found = lookup(*text, problem);
  if (!found) reader.error(field, problem);
  return found;
}

std::optional<ResolvedResource> ParseContext::resource_of_kind(const std::string& api_version,
                                                               const std::string& kind) const {
  auto gv = api::parse_api_version(api_version);
  if (!gv) return std::nullopt;
  if (const auto* info = builtins_.find_kind(api::GroupVersionKind{gv->group, gv->version, kind})) {
    return ResolvedResource{ResourceRef{info->gvr, info->gvr.resource}, info->kind,
                            info->namespaced};
  }
  for (const auto& c : scenario.cluster.resources) {
    if (c.group == gv->group && c.version == gv->version && c.kind == kind) {
      return ResolvedResource{ResourceRef{{c.group, c.version, c.plural}, c.plural}, c.kind,
                              c.namespaced};
    }
  }
  return std::nullopt;
}

std::optional<ObjectPath> ParseContext::object_path(const Field& field) {
  auto text = reader.string(field);
  if (!text) return std::nullopt;
  const auto parts = split(*text, '/');
  const std::size_t n = parts.size();
  if (n < 2 || n > 5 || any_empty(parts)) {
    reader.error(field, "\"" + *text +
                            "\" is not an object path: write RESOURCE/NAMESPACE/NAME "
                            "(configmaps/team-a/seed), or RESOURCE/NAME for a cluster-scoped "
                            "resource, where RESOURCE is a plural or group/version/plural");
    return std::nullopt;
  }
  const std::size_t resource_parts = n >= 4 ? 3 : 1;
  std::string resource_text = parts[0];
  for (std::size_t i = 1; i < resource_parts; ++i) resource_text += "/" + parts[i];
  std::string problem;
  auto resource = lookup(resource_text, problem);
  if (!resource) {
    reader.error(field, problem + " (in \"" + *text + "\")");
    return std::nullopt;
  }
  const bool has_ns = n - resource_parts == 2;
  if (resource->namespaced && !has_ns) {
    reader.error(field, "\"" + *text + "\": " + resource_text + " are namespaced: write " +
                            resource_text + "/NAMESPACE/NAME");
    return std::nullopt;
  }
  if (!resource->namespaced && has_ns) {
    reader.error(field, "\"" + *text + "\": " + resource_text + " are cluster-scoped: write " +
                            resource_text + "/NAME");
    return std::nullopt;
  }
  return ObjectPath{*resource, has_ns ? parts[n - 2] : "", parts[n - 1]};
}

std::optional<std::string> ParseContext::replica(const Field& field) {
  auto text = reader.string(field);
  if (!text) return std::nullopt;
  const auto dash = text->rfind('-');
  if (dash != std::string::npos && all_digits(std::string_view(*text).substr(dash + 1))) {
    const std::string name = text->substr(0, dash);
    const int index = std::stoi(text->substr(dash + 1));
    for (const auto& p : scenario.processes) {
      if (p.name != name) continue;
      if (index < p.replicas && text->substr(dash + 1) == std::to_string(index)) return *text;
      reader.error(field, "\"" + *text + "\" does not exist: " + name + " has " +
                              std::to_string(p.replicas) +
                              (p.replicas == 1 ? " replica (" : " replicas (") + replica_names(p) +
                              ")");
      return std::nullopt;
    }
  }
  for (const auto& p : scenario.processes) {
    if (p.name == *text) {
      reader.error(
          field, "\"" + *text + "\" is a process, not a replica: name one of " + replica_names(p));
      return std::nullopt;
    }
  }
  std::vector<std::string> all;
  for (const auto& p : scenario.processes) {
    if (!p.name.empty()) all.push_back(replica_names(p));
  }
  if (all.empty()) {
    reader.error(field, "\"" + *text + "\" does not exist: the scenario has no processes");
  } else {
    reader.error(field, "\"" + *text + "\" does not exist (replicas: " + join(all) + ")");
  }
  return std::nullopt;
}

std::optional<LockRef> ParseContext::lock_ref(const Field& field) {
  auto text = reader.string(field);
  if (!text) return std::nullopt;
  const auto parts = split(*text, '/');
  if (parts.size() != 3 || any_empty(parts)) {
    reader.error(field, "\"" + *text +
                            "\" is not a lock: write leases/NAMESPACE/NAME (or configmaps/… or "
                            "endpoints/…)");
    return std::nullopt;
  }
  if (std::find(kLockKinds.begin(), kLockKinds.end(), parts[0]) == kLockKinds.end()) {
    std::string message = "unknown lock kind \"" + parts[0] + "\" in \"" + *text + "\"";
    if (auto near = closest(parts[0], kLockKinds)) message += "; did you mean \"" + *near + "\"?";
    reader.error(field, message + " (leases, configmaps or endpoints)");
    return std::nullopt;
  }
  return LockRef{parts[0], parts[1], parts[2]};
}

void ParseContext::check_lock_held(const Field& field, const std::string& lock) {
  std::vector<std::string> held;
  for (const auto& p : scenario.processes) {
    if (p.exec && p.exec->lock) {
      if (p.exec->lock->text() == lock) return;
      held.push_back(p.exec->lock->text());
    }
    for (const auto& actor : p.run) {
      const auto* elector = std::get_if<ElectorSpec>(&actor);
      if (elector == nullptr) continue;
      if (elector->lock.answers_to(lock)) return;
      held.push_back(elector->lock.primary.text());
      if (elector->lock.secondary) held.push_back(elector->lock.secondary->text());
    }
  }
  std::sort(held.begin(), held.end());
  held.erase(std::unique(held.begin(), held.end()), held.end());
  reader.error(field, "no elector holds lock \"" + lock + "\"" +
                          (held.empty() ? std::string(" (no process runs an elector)")
                                        : " (electors hold: " + join(held) + ")"));
}

void ParseContext::check_scope(const Field& ns_field, const ResolvedResource& resource) {
  if (ns_field && !resource.namespaced) {
    reader.error(ns_field, resource.ref.text + " are cluster-scoped: leave namespace out");
  }
}

std::optional<nlohmann::json> ParseContext::object(const Field& field) {
  auto object = reader.json(field);
  if (!object) return std::nullopt;
  if (!object->is_object()) {
    reader.error(field, "expected an object (a mapping with apiVersion, kind and metadata), got " +
                            describe(field.value));
    return std::nullopt;
  }
  const auto api_version = object->value("apiVersion", nlohmann::json());
  const auto kind = object->value("kind", nlohmann::json());
  if (!api_version.is_string() || !kind.is_string()) {
    reader.error(field, "an object needs apiVersion and kind (strings)");
    return std::nullopt;
  }
  if (!resource_of_kind(api_version.get<std::string>(), kind.get<std::string>())) {
    reader.error(field, "no resource has kind " + kind.get<std::string>() + " in " +
                            api_version.get<std::string>() +
                            " (declare custom resources in cluster.resources)");
    return std::nullopt;
  }
  const auto metadata = object->value("metadata", nlohmann::json());
  if (!metadata.is_object() || (!metadata.value("name", nlohmann::json()).is_string() &&
                                !metadata.value("generateName", nlohmann::json()).is_string())) {
    reader.error(field, "an object needs metadata.name (or metadata.generateName)");
    return std::nullopt;
  }
  return object;
}

}  // namespace kubesim::scenarios::internal
