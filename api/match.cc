#include "kubesim/api/match.h"

#include <charconv>
#include <set>

namespace kubesim::api {

namespace {

using nlohmann::json;

std::size_t leaves(const json& j) {
  if (j.is_object() || j.is_array()) {
    std::size_t n = 0;
    for (const auto& item : j) n += leaves(item);
    return n == 0 ? 1 : n;
  }
  return 1;
}

// One walk of both trees; `exact` also looks at the keys only the actual tree has.
class Walk {
 public:
  explicit Walk(bool exact) : exact_(exact) {}

  void match(const json& expected, const json* actual, const std::string& path);
  TreeMatch take() { return std::move(out_); }

 private:
  void note(const json& counted, const std::string& path, const std::string& what) {
    if (out_.found.size() < TreeMatch::kMaxDescribed) {
      out_.found.push_back((path.empty() ? "the object" : path) + ": " + what);
    }
    out_.mismatches += leaves(counted);
  }
  void match_map(const json& expected, const json& actual, const std::string& path);

  bool exact_;
  TreeMatch out_;
};

void Walk::match(const json& expected, const json* actual, const std::string& path) {
  if (expected.is_null()) {
    if (actual != nullptr && !actual->is_null()) note(expected, path, short_json(*actual) + ", want null");
    return;
  }
  if (actual == nullptr) {
    note(expected, path, "absent, want " + short_json(expected));
    return;
  }
  if (expected.is_object()) {
    if (!actual->is_object()) {
      note(expected, path, short_json(*actual) + ", want a map");
      return;
    }
    match_map(expected, *actual, path);
    return;
  }
  if (expected.is_array()) {
    if (!actual->is_array() || actual->size() != expected.size()) {
      const std::string got = actual->is_array() ? "a list of " + std::to_string(actual->size())
                                                 : short_json(*actual);
      note(expected, path, got + ", want a list of " + std::to_string(expected.size()));
      return;
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      match(expected[i], &(*actual)[i], path + "[" + std::to_string(i) + "]");
    }
    return;
  }
  if (expected != *actual) note(expected, path, short_json(*actual) + ", want " + short_json(expected));
}

void Walk::match_map(const json& expected, const json& actual, const std::string& path) {
  // The keys in order, so that the mismatches are described in document order either way.
  std::set<std::string> keys;
  for (const auto& [key, value] : expected.items()) keys.insert(key);
  if (exact_) {
    for (const auto& [key, value] : actual.items()) keys.insert(key);
  }
  for (const std::string& key : keys) {
    const auto want = expected.find(key);
    const auto have = actual.find(key);
    const std::string sub = path.empty() ? key : path + "." + key;
    if (want != expected.end()) {
      match(*want, have == actual.end() ? nullptr : &*have, sub);
    } else if (!have->is_null()) {  // only the actual tree has it (exact_)
      note(*have, sub, short_json(*have) + ", want absent");
    }
  }
}

}  // namespace

TreeMatch match_tree(const json& expected, const json& actual) {
  Walk walk(/*exact=*/false);
  walk.match(expected, &actual, "");
  return walk.take();
}

TreeMatch compare_trees(const json& expected, const json& actual) {
  Walk walk(/*exact=*/true);
  walk.match(expected, &actual, "");
  return walk.take();
}

const json* find_path(const json& root, std::string_view dotted_path) {
  const json* at = &root;
  while (!dotted_path.empty()) {
    const std::size_t dot = dotted_path.find('.');
    const std::string_view step = dotted_path.substr(0, dot);
    dotted_path = dot == std::string_view::npos ? std::string_view() : dotted_path.substr(dot + 1);
    if (at->is_object()) {
      const auto it = at->find(step);
      if (it == at->end()) return nullptr;
      at = &*it;
    } else if (at->is_array()) {
      std::size_t index = 0;
      const auto [end, error] = std::from_chars(step.data(), step.data() + step.size(), index);
      if (error != std::errc() || end != step.data() + step.size() || index >= at->size()) return nullptr;
      at = &(*at)[index];
    } else {
      return nullptr;
    }
  }
  return at;
}

std::string short_json(const json& value, std::size_t limit) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() <= limit) return text;
  // Cut at a character boundary: never inside a UTF-8 sequence.
  while (limit > 0 && (static_cast<unsigned char>(text[limit]) & 0xC0) == 0x80) --limit;
  text.resize(limit);
  return text + "…";
}

}  // namespace kubesim::api
