// The fixture's conditions: the cluster's (kubesim/cluster/conditions.h) over a SimCluster's
// cluster, and ObjectMatches, which takes a GoogleTest matcher.
#include "kubesim/testing/conditions.h"

#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/match.h"
#include "kubesim/cluster/call_budget.h"
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

namespace {

// The resource is served.
std::function<std::optional<std::string>(const SimCluster&)> served(const api::GroupVersionResource& resource) {
  return [resource](const SimCluster& c) { return cluster::unserved(c.cluster(), resource); };
}

// The resource is served and its kind has every field of `paths`; `integer` fields hold integers.
std::function<std::optional<std::string>(const SimCluster&)> has_fields(const api::GroupVersionResource& resource,
                                                                       std::vector<std::string> paths,
                                                                       bool integer = false) {
  return [resource, paths = std::move(paths), integer](const SimCluster& c) -> std::optional<std::string> {
    for (const std::string& path : paths) {
      if (auto why = cluster::unknown_field(c.cluster(), resource, path, integer)) return why;
    }
    return cluster::unserved(c.cluster(), resource);
  };
}

// Whether the object exists.
std::function<bool(const SimCluster&)> object_present(const api::GroupVersionResource& resource, std::string ns,
                                                     std::string name) {
  return [resource, ns = std::move(ns), name = std::move(name)](const SimCluster& c) {
    return !cluster::exists(c.cluster(), resource, ns, name).has_value();
  };
}

// Whether some object of `resource` exists in `ns` ("" = anywhere).
std::function<bool(const SimCluster&)> any_present(const api::GroupVersionResource& resource, std::string ns = {}) {
  return [resource, ns = std::move(ns)](const SimCluster& c) {
    auto counted = cluster::count(c.cluster(), resource, ns);
    return counted.ok() && counted.value().count > 0;
  };
}

}  // namespace

Condition Exists(const api::GroupVersionResource& resource, std::string ns, std::string name) {
  return Condition{object_text(resource, ns, name) + " exists",
                   [resource, ns, name](const SimCluster& c) { return cluster::exists(c.cluster(), resource, ns, name); },
                   served(resource), object_present(resource, ns, name)};
}

Condition Gone(const api::GroupVersionResource& resource, std::string ns, std::string name) {
  return Condition{object_text(resource, ns, name) + " is gone",
                   [resource, ns, name](const SimCluster& c) { return cluster::gone(c.cluster(), resource, ns, name); },
                   served(resource), object_present(resource, ns, name)};
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
                   },
                   served(resource), object_present(resource, ns, name)};
}

Condition CountIs(const api::GroupVersionResource& resource, std::string ns, std::size_t n) {
  return Condition{std::to_string(n) + " " + resource.resource + " " + where(ns),
                   [resource, ns, n](const SimCluster& c) -> std::optional<std::string> {
                     auto counted = cluster::count(c.cluster(), resource, ns);
                     if (!counted.ok()) return resource.resource + " " + where(ns) + ": " + counted.status().message;
                     const cluster::Counted& have = counted.value();
                     if (static_cast<std::size_t>(have.count) == n) return std::nullopt;
                     std::string why = std::to_string(have.count) + " " + resource.resource + " " + where(ns);
                     if (!have.keys.empty()) why += " (" + cluster::key_list(have.keys) + ")";
                     return why + ", want " + std::to_string(n);
                   },
                   served(resource), any_present(resource, ns)};
}

Condition AllReady(const api::GroupVersionResource& resource, std::string have, std::string want) {
  return Condition{"each of the " + resource.resource + " has " + have + " == " + want,
                   [resource, have, want](const SimCluster& c) {
                     return cluster::all_ready(c.cluster(), resource, have, want);
                   },
                   has_fields(resource, {have, want}), any_present(resource)};
}

Condition OwnedCountAtMost(const api::GroupVersionResource& owner_resource, const api::GroupVersionResource& owned,
                           std::string field) {
  return Condition{"no " + owner_resource.resource + " controls more " + owned.resource + " than its " + field,
                   [owner_resource, owned, field](const SimCluster& c) {
                     return cluster::owned_count_at_most(c.cluster(), owner_resource, owned, field);
                   },
                   [owner_resource, owned, field](const SimCluster& c) -> std::optional<std::string> {
                     if (auto why = cluster::unknown_field(c.cluster(), owner_resource, field, /*integer=*/true)) return why;
                     return cluster::unserved(c.cluster(), owned);
                   },
                   any_present(owned)};
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
                   },
                   nullptr,
                   [lock](const SimCluster& c) {  // some replica led it (the cluster's record)
                     const cluster::Leadership& leadership = c.cluster().leadership();
                     for (std::size_t id = 0; id < leadership.lock_count(); ++id) {
                       if ((lock.empty() || leadership.lock(id).text == lock) && !leadership.lock(id).intervals.empty()) return true;
                     }
                     return false;
                   }};
}

namespace {

// A budget followed through the calls of the cluster it is checked on, from the start of its run.
Condition call_budget_condition(cluster::CallBudget budget) {
  struct Followed {
    cluster::CallBudget fresh;
    cluster::CallBudget budget;
    const SimCluster* cluster = nullptr;
    std::uint64_t last_seq = 0;  // the newest call of that cluster's log when last followed
  };
  const CallPattern pattern = budget.pattern();
  std::string description = budget.describe();
  auto state = std::make_shared<Followed>(Followed{budget, budget});
  // Another cluster, or one at the same address whose log went back: start over.
  const auto follow = [state](const SimCluster& c) -> const cluster::CallBudget& {
    const CallLog log = c.calls();
    const std::uint64_t last = log.empty() ? 0 : log[log.size() - 1].seq;
    if (state->cluster != &c || last < state->last_seq) {
      state->cluster = &c;
      state->budget = state->fresh;
    }
    state->last_seq = last;
    state->budget.follow(log);
    return state->budget;
  };
  Condition out{std::move(description), [follow](const SimCluster& c) { return follow(c).why(); },
                [pattern](const SimCluster& c) -> std::optional<std::string> {
                  if (pattern.any_resource()) return std::nullopt;
                  return cluster::unserved(c.cluster(), pattern.resource());
                },
                [follow](const SimCluster& c) { return follow(c).active(); }};
  out.reads_calls = true;
  return out;
}

}  // namespace

Condition CallsAtMost(CallPattern pattern, std::int64_t n) {
  if (n < 0) throw std::invalid_argument("CallsAtMost: n must be at least 0, got " + std::to_string(n));
  return call_budget_condition(cluster::CallBudget::at_most(std::move(pattern), n));
}

Condition CallsPerSecond(CallPattern pattern, std::int64_t r) {
  if (r < 0) throw std::invalid_argument("CallsPerSecond: r must be at least 0, got " + std::to_string(r));
  return call_budget_condition(cluster::CallBudget::per_second(std::move(pattern), r));
}

}  // namespace kubesim::testing
