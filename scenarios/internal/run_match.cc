#include "run_match.h"

namespace kubesim::scenarios::runner {

namespace {

std::size_t leaves(const nlohmann::json& j) {
  if (j.is_object() || j.is_array()) {
    std::size_t n = 0;
    for (const auto& item : j) n += leaves(item);
    return n == 0 ? 1 : n;
  }
  return 1;
}

void note(TreeMatch& out, const nlohmann::json& expected, const std::string& path,
          const std::string& what) {
  if (out.first.empty()) out.first = (path.empty() ? "the object" : path) + ": " + what;
  out.mismatches += leaves(expected);
}

void match(const nlohmann::json& expected, const nlohmann::json* actual, const std::string& path,
           TreeMatch& out) {
  if (expected.is_null()) {
    if (actual != nullptr && !actual->is_null()) note(out, expected, path, short_json(*actual) + ", want null");
    return;
  }
  if (actual == nullptr) {
    note(out, expected, path, "absent, want " + short_json(expected));
    return;
  }
  if (expected.is_object()) {
    if (!actual->is_object()) {
      note(out, expected, path, short_json(*actual) + ", want a map");
      return;
    }
    for (const auto& [key, value] : expected.items()) {
      const auto it = actual->find(key);
      const std::string sub = path.empty() ? key : path + "." + key;
      match(value, it == actual->end() ? nullptr : &*it, sub, out);
    }
    return;
  }
  if (expected.is_array()) {
    if (!actual->is_array() || actual->size() != expected.size()) {
      const std::string got = actual->is_array() ? "a list of " + std::to_string(actual->size())
                                                 : short_json(*actual);
      note(out, expected, path, got + ", want a list of " + std::to_string(expected.size()));
      return;
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      match(expected[i], &(*actual)[i], path + "[" + std::to_string(i) + "]", out);
    }
    return;
  }
  if (expected != *actual) note(out, expected, path, short_json(*actual) + ", want " + short_json(expected));
}

}  // namespace

TreeMatch match_tree(const nlohmann::json& expected, const nlohmann::json& actual) {
  TreeMatch out;
  match(expected, &actual, "", out);
  return out;
}

std::string short_json(const nlohmann::json& value, std::size_t limit) {
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() <= limit) return text;
  // Cut at a character boundary: never inside a UTF-8 sequence.
  while (limit > 0 && (static_cast<unsigned char>(text[limit]) & 0xC0) == 0x80) --limit;
  text.resize(limit);
  return text + "…";
}

}  // namespace kubesim::scenarios::runner
