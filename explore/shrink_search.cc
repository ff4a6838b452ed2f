// The shrinker's search state and its value searches (see shrink_search.h).
#include "explore/internal/shrink_search.h"

#include <algorithm>

#include "kubesim/api/go_duration.h"

namespace kubesim::explore::shrink {

Path operator/(Path path, const std::string& key) {
  path.push_back(PathStep{key, 0});
  return path;
}

Path operator/(Path path, std::size_t index) {
  path.push_back(PathStep{"", index});
  return path;
}

std::string path_text(const Path& path) {
  std::string out;
  for (const auto& step : path) {
    if (step.key.empty()) {
      out += "[" + std::to_string(step.index) + "]";
    } else {
      out += (out.empty() ? "" : ".") + step.key;
    }
  }
  return out;
}

YAML::Node find(const YAML::Node& doc, const Path& path) {
  YAML::Node node = doc;
  for (const auto& step : path) {
    if (step.key.empty()) {
      if (!node.IsSequence() || step.index >= node.size())
        return YAML::Node(YAML::NodeType::Undefined);
      node.reset(node[step.index]);
    } else {
      if (!node.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
      const YAML::Node& map = node;
      const YAML::Node next = map[step.key];
      if (!next.IsDefined()) return YAML::Node(YAML::NodeType::Undefined);
      node.reset(next);
    }
  }
  return node;
}

YAML::Node child(const YAML::Node& map, const std::string& key) { return find(map, Path{} / key); }

YAML::Node with_key(const YAML::Node& map, const std::string& key, const YAML::Node& value,
                    const std::vector<std::string>& after) {
  auto key_of = [](const YAML::Node& k) { return k.IsScalar() ? k.Scalar() : std::string(); };
  YAML::Node out(YAML::NodeType::Map);
  bool present = false;
  std::size_t insert_after = 0;  // how many pairs come before the new key
  std::size_t i = 0;
  for (const auto& kv : map) {
    ++i;
    present = present || key_of(kv.first) == key;
    if (std::find(after.begin(), after.end(), key_of(kv.first)) != after.end()) insert_after = i;
  }
  if (insert_after == 0) insert_after = map.size();
  if (!present && insert_after == 0) out.force_insert(key, value);
  i = 0;
  for (const auto& kv : map) {
    out.force_insert(kv.first, key_of(kv.first) == key ? value : kv.second);
    if (!present && ++i == insert_after) out.force_insert(key, value);
  }
  return out;
}

std::string duration_text(std::int64_t nanoseconds) {
  std::string s = api::format_go_duration(sim::Duration(nanoseconds));
  if (s.size() > 3 && s.ends_with("m0s")) s.resize(s.size() - 2);
  if (s.size() > 3 && s.ends_with("h0m")) s.resize(s.size() - 2);
  return s;
}

std::optional<std::int64_t> duration_at(const YAML::Node& doc, const Path& path) {
  const YAML::Node node = find(doc, path);
  if (!node.IsScalar()) return std::nullopt;
  auto d = api::parse_go_duration(node.Scalar());
  if (!d) return std::nullopt;
  return d->count();
}

std::optional<std::int64_t> integer_at(const YAML::Node& doc, const Path& path) {
  const YAML::Node node = find(doc, path);
  if (!node.IsScalar() || node.Tag() == "!") return std::nullopt;
  const std::string& s = node.Scalar();
  const bool digits = std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (s.empty() || s.size() > 12 || !digits) return std::nullopt;
  return std::stoll(s);
}

Search::Search(const YAML::Node& doc, const StillFails& fails, std::size_t max_runs)
    : doc_(YAML::Clone(doc)), text_(scenarios::emit_scenario(doc)), fails_(fails), max_runs_(max_runs) {
  tried_.insert(text_);
}

bool Search::attempt(const YAML::Node& candidate, const std::string& step, bool structural) {
  if (exhausted()) return false;
  std::string text = scenarios::emit_scenario(candidate);
  if (!tried_.insert(text).second) return false;
  YAML::Node read;
  try {
    read = YAML::Load(text);
  } catch (const YAML::Exception&) {
    return false;  // not a document: it cannot fail as a scenario
  }
  ++runs_;
  if (!fails_(read)) return false;
  doc_ = read;
  text_ = std::move(text);
  steps_.push_back(step);
  if (structural) floors_.clear();
  return true;
}

ShrinkResult Search::finish() && {
  ShrinkResult result;
  result.doc = std::move(doc_);
  result.runs = runs_;
  result.entries = scenario_entries(result.doc);
  result.steps = std::move(steps_);
  return result;
}

bool Search::search_down(const std::string& key, std::int64_t lo, std::int64_t hi,
                         std::int64_t quantum, const Make& make, const Describe& step) {
  if (lo >= hi || exhausted()) return false;
  const auto floor = floors_.find(key);
  bool changed = false;
  if (floor != floors_.end() && floor->second >= lo && floor->second < hi) {
    lo = floor->second;
  } else if (attempt(make(lo), step(lo))) {
    return true;
  }
  while (!exhausted()) {
    const std::int64_t first = lo / quantum + 1;   // the first multiple above lo
    const std::int64_t last = (hi - 1) / quantum;  // the last multiple below hi
    if (first > last) break;
    const std::int64_t v = (first + (last - first) / 2) * quantum;
    if (attempt(make(v), step(v))) {
      hi = v;
      changed = true;
    } else {
      lo = v;
    }
  }
  floors_[key] = lo;
  return changed;
}

bool Search::search_up(std::int64_t value, std::int64_t limit, const Make& make,
                       const Describe& step) {
  bool changed = false;
  while (value <= limit / 2 && !exhausted()) {
    if (!attempt(make(value * 2), step(value * 2))) break;
    value *= 2;
    changed = true;
  }
  return changed;
}

}  // namespace kubesim::explore::shrink
