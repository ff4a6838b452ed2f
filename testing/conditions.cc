// Conditions on a SimCluster's state, read through its public reads (get, list, leaders), so a
// condition sees exactly what a test sees.
#include "kubesim/testing/conditions.h"

#include <map>
#include <sstream>
#include <utility>
#include <variant>

#include "kubesim/api/match.h"
#include "kubesim/api/status.h"
#include "kubesim/testing/cluster.h"

namespace kubesim::testing {

namespace {

// At most this many objects are named in a condition's explanation.
constexpr std::size_t kMaxNamed = 5;
// How much of an object a failed ObjectMatches shows.
constexpr std::size_t kObjectChars = 400;

std::string key_of(std::string_view ns, std::string_view name) {
  return ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name);
}

std::string object_text(const api::GroupVersionResource& resource, std::string_view ns, std::string_view name) {
  return resource.resource + " " + key_of(ns, name);
}

std::string where(std::string_view ns) { return ns.empty() ? "in all namespaces" : "in " + std::string(ns); }

std::string value_text(const nlohmann::json& v) { return v.is_null() ? "absent" : v.dump(); }

// "a, b, c" of the first kMaxNamed keys, then "and N more".
std::string key_list(const std::vector<std::string>& keys) {
  std::string out;
  for (std::size_t i = 0; i < keys.size() && i < kMaxNamed; ++i) out += (i == 0 ? "" : ", ") + keys[i];
  if (keys.size() > kMaxNamed) out += " and " + std::to_string(keys.size() - kMaxNamed) + " more";
  return out;
}

// Whether `s` is the NotFound of an object, rather than of the resource (not served).
bool object_not_found(const api::Status& s) {
  return api::is_not_found(s) && s.details && !s.details->name.empty();
}

// The object, or why there is none ("widgets default/w1 does not exist").
std::variant<api::ObjectPtr, std::string> fetch(const SimCluster& c, const api::GroupVersionResource& resource,
                                                const std::string& ns, const std::string& name) {
  auto got = c.get(resource, ns, name);
  if (got.ok()) return std::move(got).value();
  if (object_not_found(got.status())) return object_text(resource, ns, name) + " does not exist";
  return object_text(resource, ns, name) + ": " + got.status().message;
}

}  // namespace

Condition Holds(std::string description, std::function<bool(const SimCluster&)> pred) {
  std::string why = description;
  return Condition{std::move(description),
                   [pred = std::move(pred), why = std::move(why)](const SimCluster& c) -> std::optional<std::string> {
                     if (pred(c)) return std::nullopt;
                     return why;
                   }};
}

Condition Exists(const api::GroupVersionResource& resource, std::string ns, std::string name) {
  return Condition{object_text(resource, ns, name) + " exists",
                   [resource, ns, name](const SimCluster& c) -> std::optional<std::string> {
                     auto got = fetch(c, resource, ns, name);
                     if (auto* why = std::get_if<std::string>(&got)) return *why;
                     return std::nullopt;
                   }};
}

Condition Gone(const api::GroupVersionResource& resource, std::string ns, std::string name) {
  return Condition{object_text(resource, ns, name) + " is gone",
                   [resource, ns, name](const SimCluster& c) -> std::optional<std::string> {
                     auto got = c.get(resource, ns, name);
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
                         std::vector<std::string> f(o.finalizers().begin(), o.finalizers().end());
                         why += ", finalizers: " + key_list(f);
                       }
                     }
                     return why;
                   }};
}

Condition ObjectMatches(const api::GroupVersionResource& resource, std::string ns, std::string name,
                        ::testing::Matcher<const api::Object&> m) {
  std::ostringstream description;
  description << object_text(resource, ns, name) << " ";
  m.DescribeTo(&description);
  return Condition{description.str(), [resource, ns, name, m](const SimCluster& c) -> std::optional<std::string> {
                     auto got = fetch(c, resource, ns, name);
                     if (auto* why = std::get_if<std::string>(&got)) return *why;
                     const api::Object& o = *std::get<api::ObjectPtr>(got);
                     ::testing::StringMatchResultListener listener;
                     if (m.MatchAndExplain(o, &listener)) return std::nullopt;
                     std::ostringstream why;
                     why << object_text(resource, ns, name) << " does not match: ";
                     if (listener.str().empty()) {
                       m.DescribeTo(&why);
                     } else {
                       why << listener.str();
                     }
                     why << "\n  the object: " << api::short_json(o.json(), kObjectChars);
                     return why.str();
                   }};
}

Condition CountIs(const api::GroupVersionResource& resource, std::string ns, std::size_t n) {
  return Condition{std::to_string(n) + " " + resource.resource + " " + where(ns),
                   [resource, ns, n](const SimCluster& c) -> std::optional<std::string> {
                     const auto objects = c.list(resource, ns);
                     if (objects.size() == n) return std::nullopt;
                     std::vector<std::string> keys;
                     for (const auto& o : objects) keys.push_back(o->key().str());
                     std::string why = std::to_string(objects.size()) + " " + resource.resource + " " + where(ns);
                     if (!keys.empty()) why += " (" + key_list(keys) + ")";
                     return why + ", want " + std::to_string(n);
                   }};
}

Condition AllReady(const api::GroupVersionResource& resource, std::string have, std::string want) {
  return Condition{"each of the " + resource.resource + " has " + have + " == " + want,
                   [resource, have, want](const SimCluster& c) -> std::optional<std::string> {
                     const auto objects = c.list(resource);
                     std::vector<std::string> not_ready;
                     for (const auto& o : objects) {
                       const nlohmann::json h = o->value_at(have);
                       const nlohmann::json w = o->value_at(want);
                       if (!h.is_null() && h == w) continue;
                       not_ready.push_back(o->key().str() + " (" + have + " " + value_text(h) + ", " + want + " " +
                                           value_text(w) + ")");
                     }
                     if (not_ready.empty()) return std::nullopt;
                     return std::to_string(not_ready.size()) + " of " + std::to_string(objects.size()) + " " +
                            resource.resource + " not ready: " + key_list(not_ready);
                   }};
}

namespace {

// Per owner uid, the keys of the objects of `owned` it controls.
std::map<std::string, std::vector<std::string>, std::less<>> controlled(const SimCluster& c,
                                                                       const api::GroupVersionResource& owned) {
  std::map<std::string, std::vector<std::string>, std::less<>> out;
  for (const auto& o : c.list(owned)) {
    if (const api::OwnerReference* ref = o->controller_of()) {
      out[std::string(o->namespace_()) + "\n" + std::string(ref->uid)].push_back(o->key().str());
    }
  }
  return out;
}

}  // namespace

Condition OwnedCountAtMost(const api::GroupVersionResource& owner_resource, const api::GroupVersionResource& owned,
                           std::string field) {
  return Condition{
      "no " + owner_resource.resource + " controls more " + owned.resource + " than its " + field,
      [owner_resource, owned, field](const SimCluster& c) -> std::optional<std::string> {
        const auto by_owner = controlled(c, owned);
        for (const auto& owner : c.list(owner_resource)) {
          const nlohmann::json limit = owner->value_at(field);
          // An owner without an integer limit has none to break.
          if (!limit.is_number_integer()) continue;
          auto it = by_owner.find(std::string(owner->namespace_()) + "\n" + std::string(owner->uid()));
          if (it == by_owner.end() || static_cast<std::int64_t>(it->second.size()) <= limit.get<std::int64_t>()) continue;
          return owner_resource.resource + " " + owner->key().str() + " controls " +
                 std::to_string(it->second.size()) + " " + owned.resource + " (" + key_list(it->second) + "), " +
                 field + " is " + limit.dump();
        }
        return std::nullopt;
      }};
}

Condition AtMostOneLeader(std::string lock) {
  return Condition{"at most one leader of " + (lock.empty() ? std::string("every lock") : lock),
                   [lock](const SimCluster& c) -> std::optional<std::string> {
                     const std::vector<std::string> locks = lock.empty() ? c.locks() : std::vector<std::string>{lock};
                     for (const std::string& l : locks) {
                       const auto leaders = c.leaders(l);
                       if (leaders.size() > 1) return key_list(leaders) + " all lead " + l;
                     }
                     return std::nullopt;
                   }};
}

}  // namespace kubesim::testing
