// The differential oracle (explore/differential.h).
#include "explore/internal/differential.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "explore/internal/perturb.h"

namespace kubesim::explore {

namespace {

using nlohmann::json;

std::string string_at(const json& j, const char* a, const char* b) {
  if (!j.is_object() || !j.contains(a) || !j[a].is_object()) return "";
  const json& m = j[a];
  return m.contains(b) && m[b].is_string() ? m[b].get<std::string>() : "";
}

// Replaces every generated name in strings by its PREFIX* (the prefix masked too), and every
// uid by its placeholder.
class Masker {
 public:
  void add(const std::string& name, const std::string& prefix) {
    if (name.empty()) return;
    names_.emplace(name, Replacement{prefix, true});
    lengths_.insert(name.size());
  }
  void add_uid(const std::string& uid, const std::string& placeholder) {
    if (uid.empty()) return;
    names_.insert_or_assign(uid, Replacement{placeholder, false});
    lengths_.insert(uid.size());
  }
  std::string mask(const std::string& s) const {
    if (names_.empty()) return s;
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
      bool hit = false;
      for (auto it = lengths_.rbegin(); it != lengths_.rend(); ++it) {
        if (i + *it > s.size()) continue;
        auto found = names_.find(s.substr(i, *it));
        if (found == names_.end()) continue;
        const Replacement& r = found->second;
        if (!r.generated) {
          out += r.text;
        } else {
          // The prefix may hold a generated name too (a child named after its source).
          out += (r.text.size() < *it ? mask(r.text) : r.text) + "*";
        }
        i += *it;
        hit = true;
        break;
      }
      if (!hit) out += s[i++];
    }
    return out;
  }
  json mask(const json& j) const {
    if (j.is_string()) return mask(j.get<std::string>());
    if (j.is_array()) {
      json out = json::array();
      for (const json& e : j) out.push_back(mask(e));
      return out;
    }
    if (!j.is_object()) return j;
    json out = json::object();
    for (const auto& [k, v] : j.items()) out[mask(k)] = mask(v);
    return out;
  }

  // The placeholder of a uid: the object it belongs to, with its name masked.
  static std::string uid_placeholder(const std::string& key) { return "<uid of " + key + ">"; }

 private:
  struct Replacement {
    std::string text;
    bool generated = true;  // a generateName name: text is its prefix, "*" follows
  };
  std::unordered_map<std::string, Replacement> names_;
  std::set<std::size_t> lengths_;
};

void erase_path(json& j, const std::vector<std::string>& path, std::size_t at) {
  if (!j.is_object() || at >= path.size()) return;
  if (at + 1 == path.size()) {
    if (path[at] == "*") {
      j = json::object();
    } else {
      j.erase(path[at]);
    }
    return;
  }
  if (path[at] == "*") {
    for (auto& [k, v] : j.items()) erase_path(v, path, at + 1);
  } else if (j.contains(path[at])) {
    erase_path(j[path[at]], path, at + 1);
  }
}

std::vector<std::string> split(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t dot; (dot = path.find('.', start)) != std::string::npos; start = dot + 1) {
    out.push_back(path.substr(start, dot - start));
  }
  out.push_back(path.substr(start));
  return out;
}

struct Entry {
  json normalized;
  const json* raw = nullptr;
  const runner::RunCapture::Object* object = nullptr;
};
using State = std::map<std::string, std::vector<Entry>>;  // masked key → its objects

State normalize(const runner::RunCapture& capture, const Masker& masker, const DiffOptions& options) {
  std::vector<std::vector<std::string>> free;
  for (const auto& f : options.free) free.push_back(split(f));
  State state;
  for (const runner::RunCapture::Object& o : capture.objects) {
    if (o.resource.resource == "events") continue;
    const std::string ns = string_at(o.object, "metadata", "namespace");
    const std::string name = string_at(o.object, "metadata", "name");
    const std::string lock = o.resource.resource + "/" + ns + "/" + name;
    if (std::find(options.locks.begin(), options.locks.end(), lock) != options.locks.end()) continue;
    json j = o.object;
    if (j.contains("metadata") && j["metadata"].is_object()) {
      json& m = j["metadata"];
      for (const char* k : {"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"}) {
        m.erase(k);
      }
      if (m.contains("ownerReferences") && m["ownerReferences"].is_array()) {
        for (json& ref : m["ownerReferences"]) {
          if (ref.is_object()) ref.erase("uid");
        }
      }
    }
    for (const auto& path : free) erase_path(j, path, 0);
    const std::string key =
        resource_text(o.resource) + "/" + (ns.empty() ? "" : masker.mask(ns) + "/") + masker.mask(name);
    state[key].push_back(Entry{masker.mask(j), &o.object, &o});
  }
  for (auto& [key, entries] : state) {
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.normalized.dump() < b.normalized.dump(); });
  }
  return state;
}

// The first place where two trees differ: the path (keys, "[i]" for list items) and both values.
bool first_difference(const json& a, const json& b, std::vector<std::string>& path,
                      const json*& va, const json*& vb) {
  if (a == b) return false;
  if (a.is_object() && b.is_object()) {
    std::set<std::string> keys;
    for (const auto& [k, v] : a.items()) keys.insert(k);
    for (const auto& [k, v] : b.items()) keys.insert(k);
    static const json kNull;
    for (const auto& k : keys) {
      const json& x = a.contains(k) ? a[k] : kNull;
      const json& y = b.contains(k) ? b[k] : kNull;
      path.push_back(k);
      if (first_difference(x, y, path, va, vb)) return true;
      path.pop_back();
    }
    return false;
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      path.push_back("[" + std::to_string(i) + "]");
      if (first_difference(a[i], b[i], path, va, vb)) return true;
      path.pop_back();
    }
    return false;
  }
  va = &a;
  vb = &b;
  return true;
}

std::string value_text(const json& j) { return j.is_null() ? "absent" : j.dump(); }

std::string join_path(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& p : path) out += (out.empty() || p.front() == '[' ? "" : ".") + p;
  return out;
}

YAML::Node yaml_of(const json& j) { return YAML::Load(j.dump()); }

// {apiVersion, kind, metadata: {namespace, name}} of a raw object, plus `extra`.
json partial_of(const json& raw) {
  json p = {{"apiVersion", raw.value("apiVersion", "")}, {"kind", raw.value("kind", "")}};
  p["metadata"]["name"] = string_at(raw, "metadata", "name");
  const std::string ns = string_at(raw, "metadata", "namespace");
  if (!ns.empty()) p["metadata"]["namespace"] = ns;
  return p;
}

YAML::Node flow_check(const std::string& key, const json& value) {
  YAML::Node check;
  check[key] = yaml_of(value);
  check.SetStyle(YAML::EmitterStyle::Flow);
  return check;
}

// How many objects of the resource are in the namespace.
std::size_t count_in(const runner::RunCapture& c, const api::GroupVersionResource& gvr, const std::string& ns) {
  return static_cast<std::size_t>(std::count_if(c.objects.begin(), c.objects.end(), [&](const auto& o) {
    return o.resource == gvr && string_at(o.object, "metadata", "namespace") == ns;
  }));
}

std::optional<YAML::Node> count_check(const runner::RunCapture& reference, const runner::RunCapture& run,
                                      const runner::RunCapture::Object& o) {
  const std::string ns = string_at(o.object, "metadata", "namespace");
  const std::size_t want = count_in(reference, o.resource, ns);
  if (want == count_in(run, o.resource, ns)) return std::nullopt;
  YAML::Node query;
  query["resource"] = resource_text(o.resource);
  if (!ns.empty()) query["namespace"] = ns;
  YAML::Node check;
  check["count"] = query;
  check["equals"] = want;
  check.SetStyle(YAML::EmitterStyle::Flow);
  return check;
}

// A key with a masked part: no check can name its object.
bool generated(const std::string& key) {
  return key.find('*') != std::string::npos || key.find("<uid of ") != std::string::npos;
}

Difference differ_in_count(const std::string& key, const std::vector<Entry>& want,
                           const std::vector<Entry>& got, const runner::RunCapture& reference,
                           const runner::RunCapture& run) {
  Difference d;
  const Entry& any = want.empty() ? got.front() : want.front();
  if (got.empty()) {
    d.text = key + ": missing";
  } else if (want.empty()) {
    d.text = key + ": not in the unperturbed run";
  } else {
    d.text = key + ": " + std::to_string(got.size()) + " objects, " + std::to_string(want.size()) +
             " in the unperturbed run";
  }
  d.check = count_check(reference, run, *any.object);
  if (!d.check && !generated(key)) {
    d.check = got.empty() ? flow_check("match", partial_of(*any.raw)) : flow_check("noMatch", partial_of(*any.raw));
  }
  return d;
}

Difference differ_in_content(const std::string& key, const Entry& want, const Entry& got) {
  Difference d;
  std::vector<std::string> path;
  const json* va = nullptr;
  const json* vb = nullptr;
  first_difference(want.normalized, got.normalized, path, va, vb);
  d.text = key + ": " + join_path(path) + " is " + value_text(*vb) + ", " + value_text(*va) +
           " in the unperturbed run";
  if (generated(key)) return d;
  // match: the reference's value at the path, down to the first list — unless masking or the
  // ignored fields changed that value (a generated name in it): then no check says it.
  json partial = partial_of(*want.raw);
  json* at = &partial;
  const json* raw = want.raw;
  const json* normalized = &want.normalized;
  for (const auto& segment : path) {
    if (segment.front() == '[' || !raw->is_object() || !raw->contains(segment) ||
        !normalized->is_object() || !normalized->contains(segment)) {
      break;
    }
    raw = &(*raw)[segment];
    normalized = &(*normalized)[segment];
    at = &(*at)[segment];
  }
  if (raw == want.raw || *raw != *normalized) return d;
  *at = *raw;
  d.check = flow_check("match", partial);
  return d;
}

// `masker` plus the uids of the run's objects. Uids inside strings (a volume named pvc-<claim
// uid>, a record of the uid an object was made for) stand for their object, which both runs name
// alike; each run's own, since two runs may hand the same uid to different objects. Twice, so
// that a name holding another object's uid is masked in the placeholder too.
Masker with_uids(Masker masker, const runner::RunCapture& capture) {
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& o : capture.objects) {
      const std::string ns = string_at(o.object, "metadata", "namespace");
      const std::string key = resource_text(o.resource) + "/" + (ns.empty() ? "" : masker.mask(ns) + "/") +
                              masker.mask(string_at(o.object, "metadata", "name"));
      masker.add_uid(string_at(o.object, "metadata", "uid"), Masker::uid_placeholder(key));
    }
  }
  return masker;
}

}  // namespace

DiffOptions diff_options(const scenarios::Scenario& scenario) {
  DiffOptions options;
  options.free = scenario.explore.free;
  // What a workload's random updates set follows its picks, which a perturbation moves (the
  // names generateName makes, and so the objects picked from, change).
  for (const scenarios::WorkloadEntry& entry : scenario.workload) {
    const auto* update = std::get_if<scenarios::UpdateAction>(&entry.action);
    if (update != nullptr && update->pick == scenarios::Pick::kRandom) {
      for (const auto& [path, value] : update->set) options.free.push_back(path);
    }
  }
  for (const scenarios::ProcessSpec& process : scenario.processes) {
    for (const scenarios::Actor& actor : process.run) {
      if (const auto* e = std::get_if<scenarios::ElectorSpec>(&actor)) {
        options.locks.push_back(e->lock.primary.text());
        if (e->lock.secondary) options.locks.push_back(e->lock.secondary->text());
      }
    }
  }
  return options;
}

std::vector<Difference> compare_end_states(const runner::RunCapture& reference, const runner::RunCapture& run,
                                           const DiffOptions& options) {
  Masker masker;
  for (const runner::RunCapture* c : {&reference, &run}) {
    for (const auto& [name, prefix] : c->generated_names) masker.add(name, prefix);
    for (const auto& o : c->objects) {
      const std::string prefix = string_at(o.object, "metadata", "generateName");
      if (!prefix.empty()) masker.add(string_at(o.object, "metadata", "name"), prefix);
    }
  }
  const State want = normalize(reference, with_uids(masker, reference), options);
  const State got = normalize(run, with_uids(masker, run), options);
  std::set<std::string> keys;
  for (const auto& [k, v] : want) keys.insert(k);
  for (const auto& [k, v] : got) keys.insert(k);
  static const std::vector<Entry> kNone;
  std::vector<Difference> out;
  for (const std::string& key : keys) {
    auto w = want.find(key);
    auto g = got.find(key);
    const auto& a = w == want.end() ? kNone : w->second;
    const auto& b = g == got.end() ? kNone : g->second;
    if (a.size() != b.size()) {
      out.push_back(differ_in_count(key, a, b, reference, run));
      continue;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].normalized != b[i].normalized) {
        out.push_back(differ_in_content(key, a[i], b[i]));
        break;
      }
    }
  }
  return out;
}

std::string describe_differences(const std::vector<Difference>& differences, std::size_t shown) {
  std::string out = "end state differs from the unperturbed run: ";
  for (std::size_t i = 0; i < differences.size() && i < shown; ++i) {
    out += (i == 0 ? "" : "; ") + differences[i].text;
  }
  if (differences.size() > shown) out += " (" + std::to_string(differences.size() - shown) + " more)";
  return out;
}

}  // namespace kubesim::explore
