#include "kubesim/cluster/conditions.h"

#include <map>
#include <set>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "kubesim/api/go_duration.h"
#include "kubesim/api/status.h"
#include "kubesim/cluster/cluster.h"
#include "kubesim/fakeapi/field_paths.h"

namespace kubesim::cluster {

namespace {

// At most this many objects are named in an explanation.
constexpr std::size_t kMaxNamed = 5;

std::string key_of(std::string_view ns, std::string_view name) {
  return ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name);
}

std::string object_text(const api::GroupVersionResource& resource, std::string_view ns,
                        std::string_view name) {
  return resource.resource + " " + key_of(ns, name);
}

std::string value_text(const nlohmann::json& v) { return v.is_null() ? "absent" : v.dump(); }

// Whether `s` is the NotFound of an object, rather than of its resource (not served).
bool object_not_found(const api::Status& s) {
  return api::is_not_found(s) && s.details && !s.details->name.empty();
}

// The server's reads answer through ApiServer::answer, which is not const but changes nothing a
// read can see: a condition reads a const cluster through them.
fakeapi::ApiServer& reader(const Cluster& c) { return const_cast<Cluster&>(c).server(); }

std::vector<api::ObjectPtr> list_all(const Cluster& c, const api::GroupVersionResource& resource,
                                     std::string_view ns = {}) {
  auto listed = reader(c).list(resource, ns, api::ListOptions());
  if (!listed.ok()) return {};
  return std::move(listed.value().items);
}

}  // namespace

std::string key_list(const std::vector<std::string>& keys) {
  std::string out;
  for (std::size_t i = 0; i < keys.size() && i < kMaxNamed; ++i) out += (i == 0 ? "" : ", ") + keys[i];
  if (keys.size() > kMaxNamed) out += " and " + std::to_string(keys.size() - kMaxNamed) + " more";
  return out;
}

Why unserved(const Cluster& c, const api::GroupVersionResource& resource) {
  if (reader(c).registry().find(resource) != nullptr) return std::nullopt;
  return "the API server does not serve " + resource.resource +
         (resource.group.empty() ? "" : "." + resource.group) + "/" + resource.version +
         " (a typo, or a CustomResourceDefinition not installed?)";
}

Why unknown_field(const Cluster& c, const api::GroupVersionResource& resource, std::string_view path, bool integer) {
  if (auto why = unserved(c, resource)) return why;
  const fakeapi::FieldLookup found = fakeapi::lookup_field(*reader(c).registry().find(resource), path);
  if (found.verdict == fakeapi::FieldLookup::Verdict::kUnknown) return found.problem;
  if (integer && found.verdict == fakeapi::FieldLookup::Verdict::kKnown && found.type != fakeapi::FieldType::kInteger &&
      found.type != fakeapi::FieldType::kNumber && found.type != fakeapi::FieldType::kAny) {
    return std::string(path) + " of " + resource.resource + " holds " + std::string(fakeapi::describe(found.type)) +
           ", not an integer";
  }
  return std::nullopt;
}

Why at_most_one_leader(const Cluster& c, std::size_t lock_id) {
  const LockLeadership& lock = c.leadership().lock(lock_id);
  std::set<std::size_t> leaders;
  for (std::size_t i : lock.open) leaders.insert(lock.intervals[i].replica);
  if (leaders.size() <= 1) return std::nullopt;
  std::ostringstream out;
  out << leaders.size() << " replicas believe they lead " << lock.text << " at once:";
  const std::int64_t epoch = c.loop().options().epoch_unix_seconds;
  for (std::size_t i : lock.open) {
    const LeaderInterval& iv = lock.intervals[i];
    const sim::Clock& clock = c.replicas()[iv.replica]->process->clock();
    out << "\n" << iv.name << " leads since " << api::format_go_time(iv.from)
        << " (true time); its clock reads wall " << sim::format_rfc3339_micro(clock.wall_now(), epoch)
        << ", monotonic " << api::format_go_time(clock.now());
  }
  return out.str();
}

Why exists(const Cluster& c, const api::GroupVersionResource& resource, std::string_view ns,
           std::string_view name) {
  auto got = reader(c).get(resource, ns, name, api::GetOptions());
  if (got.ok()) return std::nullopt;
  if (object_not_found(got.status())) return object_text(resource, ns, name) + " does not exist";
  return object_text(resource, ns, name) + ": " + got.status().message;
}

Why gone(const Cluster& c, const api::GroupVersionResource& resource, std::string_view ns,
         std::string_view name) {
  auto got = reader(c).get(resource, ns, name, api::GetOptions());
  if (!got.ok()) {
    if (object_not_found(got.status())) return std::nullopt;
    return object_text(resource, ns, name) + ": " + got.status().message;
  }
  const api::Object& o = *got.value();
  std::string why = object_text(resource, ns, name) + " still exists (resourceVersion " +
                    std::string(o.resource_version()) + ")";
  if (o.deletion_timestamp()) {
    why += ", being deleted since " + std::string(*o.deletion_timestamp());
    if (!o.finalizers().empty()) {
      why += ", finalizers: " + key_list(std::vector<std::string>(o.finalizers().begin(), o.finalizers().end()));
    }
  }
  return why;
}

api::Result<Counted> count(const Cluster& c, const api::GroupVersionResource& resource, std::string_view ns,
                           std::string_view label_selector) {
  api::ListOptions options;
  options.label_selector = std::string(label_selector);
  auto listed = reader(c).list(resource, ns, options);
  if (!listed.ok()) return listed.status();
  Counted out;
  out.count = static_cast<std::int64_t>(listed.value().items.size());
  out.keys.reserve(listed.value().items.size());
  for (const auto& o : listed.value().items) out.keys.push_back(o->key().str());
  return out;
}

Why all_ready(const Cluster& c, const api::GroupVersionResource& resource, std::string_view have,
              std::string_view want) {
  const auto objects = list_all(c, resource);
  std::vector<std::string> not_ready;
  for (const auto& o : objects) {
    const nlohmann::json h = o->value_at(have);
    const nlohmann::json w = o->value_at(want);
    if (!h.is_null() && h == w) continue;
    not_ready.push_back(o->key().str() + " (" + std::string(have) + " " + value_text(h) + ", " +
                        std::string(want) + " " + value_text(w) + ")");
  }
  if (not_ready.empty()) return std::nullopt;
  return std::to_string(not_ready.size()) + " of " + std::to_string(objects.size()) + " " + resource.resource +
         " not ready: " + key_list(not_ready);
}

Why owned_count_at_most(const Cluster& c, const api::GroupVersionResource& owner,
                        const api::GroupVersionResource& owned, std::string_view field) {
  // Per namespace and owner uid, the keys of the objects of `owned` it controls.
  std::map<std::string, std::vector<std::string>, std::less<>> by_owner;
  for (const auto& o : list_all(c, owned)) {
    if (const api::OwnerReference* ref = o->controller_of()) {
      by_owner[std::string(o->namespace_()) + "\n" + std::string(ref->uid)].push_back(o->key().str());
    }
  }
  for (const auto& o : list_all(c, owner)) {
    const nlohmann::json limit = o->value_at(field);
    if (!limit.is_number_integer()) continue;
    auto it = by_owner.find(std::string(o->namespace_()) + "\n" + std::string(o->uid()));
    if (it == by_owner.end() || static_cast<std::int64_t>(it->second.size()) <= limit.get<std::int64_t>()) continue;
    return owner.resource + " " + o->key().str() + " controls " + std::to_string(it->second.size()) + " " +
           owned.resource + " (" + key_list(it->second) + "), " + std::string(field) + " is " + limit.dump();
  }
  return std::nullopt;
}

}  // namespace kubesim::cluster
