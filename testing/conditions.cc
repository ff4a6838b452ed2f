// The fixture's conditions: the cluster's (kubesim/cluster/conditions.h) over a SimCluster's
// cluster, and ObjectMatches, which takes a GoogleTest matcher.
#include "kubesim/testing/conditions.h"

#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "kubesim/api/match.h"
#include "kubesim/cluster/cluster.h"
#include "kubesim/cluster/conditions.h"
#include "kubesim/testing/cluster.h"

namespace kubesim::testing {

namespace {

// How much of an object a failed ObjectMatches shows.
constexpr std::size_t kObjectChars = 400;

std::string object_text(const api::GroupVersionResource& resource, std::string_view ns, std::string_view name) {
  return resource.resource + " " + (ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name));
}

std::string where(std::string_view ns) { return ns.empty() ? "in all namespaces" : "in " + std::string(ns); }

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
  return Condition{object_text(resource, ns, name) + " exists", [resource, ns, name](const SimCluster& c) {
                     return cluster::exists(c.cluster(), resource, ns, name);
                   }};
}

Condition Gone(const api::GroupVersionResource& resource, std::string ns, std::string name) {
  return Condition{object_text(resource, ns, name) + " is gone", [resource, ns, name](const SimCluster& c) {
                     return cluster::gone(c.cluster(), resource, ns, name);
                   }};
}

Condition ObjectMatches(const api::GroupVersionResource& resource, std::string ns, std::string name,
                        ::testing::Matcher<const api::Object&> m) {
  std::ostringstream description;
  description << object_text(resource, ns, name) << " ";
  m.DescribeTo(&description);
  return Condition{description.str(), [resource, ns, name, m](const SimCluster& c) -> std::optional<std::string> {
                     if (auto missing = cluster::exists(c.cluster(), resource, ns, name)) return missing;
                     const api::ObjectPtr o = c.get(resource, ns, name).value();
                     ::testing::StringMatchResultListener listener;
                     if (m.MatchAndExplain(*o, &listener)) return std::nullopt;
                     std::ostringstream why;
                     why << object_text(resource, ns, name) << " does not match: ";
                     if (listener.str().empty()) {
                       m.DescribeTo(&why);
                     } else {
                       why << listener.str();
                     }
                     why << "\n  the object: " << api::short_json(o->json(), kObjectChars);
                     return why.str();
                   }};
}

Condition CountIs(const api::GroupVersionResource& resource, std::string ns, std::size_t n) {
  return Condition{std::to_string(n) + " " + resource.resource + " " + where(ns),
                   [resource, ns, n](const SimCluster& c) -> std::optional<std::string> {
                     auto counted = cluster::count(c.cluster(), resource, ns);
                     // A resource the server does not serve has no objects.
                     const cluster::Counted none;
                     const cluster::Counted& have = counted.ok() ? counted.value() : none;
                     if (static_cast<std::size_t>(have.count) == n) return std::nullopt;
                     std::string why = std::to_string(have.count) + " " + resource.resource + " " + where(ns);
                     if (!have.keys.empty()) why += " (" + cluster::key_list(have.keys) + ")";
                     return why + ", want " + std::to_string(n);
                   }};
}

Condition AllReady(const api::GroupVersionResource& resource, std::string have, std::string want) {
  return Condition{"each of the " + resource.resource + " has " + have + " == " + want,
                   [resource, have, want](const SimCluster& c) {
                     return cluster::all_ready(c.cluster(), resource, have, want);
                   }};
}

Condition OwnedCountAtMost(const api::GroupVersionResource& owner_resource, const api::GroupVersionResource& owned,
                           std::string field) {
  return Condition{"no " + owner_resource.resource + " controls more " + owned.resource + " than its " + field,
                   [owner_resource, owned, field](const SimCluster& c) {
                     return cluster::owned_count_at_most(c.cluster(), owner_resource, owned, field);
                   }};
}

Condition AtMostOneLeader(std::string lock) {
  return Condition{"at most one leader of " + (lock.empty() ? std::string("every lock") : lock),
                   [lock](const SimCluster& c) -> std::optional<std::string> {
                     const cluster::Leadership& leadership = c.cluster().leadership();
                     for (std::size_t id = 0; id < leadership.lock_count(); ++id) {
                       if (!lock.empty() && leadership.lock(id).text != lock) continue;
                       if (auto broken = cluster::at_most_one_leader(c.cluster(), id)) return broken;
                     }
                     return std::nullopt;
                   }};
}

}  // namespace kubesim::testing
