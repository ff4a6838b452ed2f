// JSON patch (RFC 6902) as evanphx/json-patch v4 applies it for kube-apiserver, quirks and error
// texts included: paths are split on '/' without further checks (a path with no leading '/'
// addresses the root), "replace" of a missing object member adds it, "copy"/"move" from a
// missing object member carry null, null and missing members are alike, negative array
// indices count from the end, and array indices are read by strconv.Atoi ("+1" and "01" are 1).
#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include "fakeapi/internal/encoding/go_compat.h"
#include "fakeapi/internal/patch/patch_meta.h"

namespace kubesim::fakeapi::internal {
namespace {

using nlohmann::json;
using Error = std::optional<std::string>;

const std::string kMissing = "missing value";
const std::string kInvalidIndex = "invalid index referenced";

// RFC 6901 unescaping with strings.NewReplacer("~1", "/", "~0", "~").
std::string decode_key(std::string_view k) {
  std::string out;
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (k[i] == '~' && i + 1 < k.size() && (k[i + 1] == '1' || k[i + 1] == '0')) {
      out.push_back(k[i + 1] == '1' ? '/' : '~');
      ++i;
    } else {
      out.push_back(k[i]);
    }
  }
  return out;
}

std::vector<std::string_view> split(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      parts.push_back(path.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// strconv.Atoi: an optional sign and decimal digits, within int64.
std::optional<std::int64_t> atoi(std::string_view s, std::string& error) {
  std::string_view digits = s;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) digits.remove_prefix(1);
  bool syntax_ok = !digits.empty();
  for (char c : digits) syntax_ok = syntax_ok && c >= '0' && c <= '9';
  if (!syntax_ok) {
    error = "strconv.Atoi: parsing " + go_quote(s) + ": invalid syntax";
    return std::nullopt;
  }
  std::int64_t v = 0;
  const std::string text = (s[0] == '-' ? "-" : "") + std::string(digits);
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (res.ec != std::errc()) {
    error = "strconv.Atoi: parsing " + go_quote(s) + ": value out of range";
    return std::nullopt;
  }
  return v;
}

std::string invalid_index(std::int64_t idx) {
  return "Unable to access invalid index: " + std::to_string(idx) + ": " + kInvalidIndex;
}

std::int64_t ssize(const json& a) { return static_cast<std::int64_t>(a.size()); }

// Resolves an array index for get/set/remove: negative counts from the end.
Error array_index(const json& a, const std::string& key, std::int64_t& idx, bool check_upper) {
  std::string err;
  auto parsed = atoi(key, err);
  if (!parsed) return err;
  idx = *parsed;
  const std::int64_t n = ssize(a);
  if (!check_upper && idx >= n) return invalid_index(idx);  // remove checks before adjusting
  if (idx < 0) {
    if (idx < -n) return invalid_index(idx);
    idx += n;
  }
  if (check_upper && idx >= n) return invalid_index(idx);
  return std::nullopt;
}

// container.get: the member or element, nullptr for a missing member or a null (Go's nil).
Error get(json& c, const std::string& key, json*& out) {
  out = nullptr;
  if (c.is_object()) {
    auto it = c.find(key);
    if (it != c.end() && !it->is_null()) out = &*it;
    return std::nullopt;
  }
  std::int64_t idx = 0;
  if (Error e = array_index(c, key, idx, true)) return e;
  json& v = c[static_cast<std::size_t>(idx)];
  if (!v.is_null()) out = &v;
  return std::nullopt;
}

Error add(json& c, const std::string& key, json value) {
  if (c.is_object()) {
    c[key] = std::move(value);
    return std::nullopt;
  }
  auto& arr = c.get_ref<json::array_t&>();
  if (key == "-") {
    arr.push_back(std::move(value));
    return std::nullopt;
  }
  std::string err;
  auto parsed = atoi(key, err);
  if (!parsed) return "value was not a proper array index: '" + key + "': " + err;
  std::int64_t idx = *parsed;
  const std::int64_t size = ssize(c) + 1;
  if (idx >= size) return invalid_index(idx);
  if (idx < 0) {
    if (idx < -size) return invalid_index(idx);
    idx += size;
  }
  arr.insert(arr.begin() + idx, std::move(value));
  return std::nullopt;
}

Error remove(json& c, const std::string& key) {
  if (c.is_object()) {
    if (c.erase(key) == 0) return "Unable to remove nonexistent key: " + key + ": " + kMissing;
    return std::nullopt;
  }
  std::int64_t idx = 0;
  if (Error e = array_index(c, key, idx, false)) return e;
  auto& arr = c.get_ref<json::array_t&>();
  arr.erase(arr.begin() + idx);
  return std::nullopt;
}

// replace's set: only called after get succeeded.
void set(json& c, const std::string& key, json value) {
  if (c.is_object()) {
    c[key] = std::move(value);
    return;
  }
  std::int64_t idx = 0;
  (void)array_index(c, key, idx, true);
  c[static_cast<std::size_t>(idx)] = std::move(value);
}

struct Location {
  json* container = nullptr;
  std::string key;
};

// findObject: the container of the path's last token, or no container.
Location find_object(json& doc, std::string_view path) {
  const std::vector<std::string_view> parts = split(path);
  if (parts.size() < 2) return {};
  json* cur = &doc;
  for (std::size_t i = 1; i + 1 < parts.size(); ++i) {
    json* next = nullptr;
    if (get(*cur, decode_key(parts[i]), next) || next == nullptr) return {};
    if (!next->is_object() && !next->is_array()) return {};
    cur = next;
  }
  return {cur, decode_key(parts.back())};
}

// The op's string member, or nullopt when missing or null (validated to be a string).
std::optional<std::string> string_member(const json& op, const char* name) {
  if (!op.is_object()) return std::nullopt;
  auto it = op.find(name);
  if (it == op.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

// The op's "value": nullptr when absent (Go's nil node); a null json when null.
const json* value_member(const json& op) {
  if (!op.is_object()) return nullptr;
  auto it = op.find("value");
  return it == op.end() ? nullptr : &*it;
}

json value_or_null(const json* v) { return v ? *v : json(); }

// lazyNode.equal between a document value and the operation's value: true, false, or nullopt
// where Go dereferences a nil node (a null array element at a compared position). Go compares
// scalars by their JSON text; decoded values compare by Go type and value, which agrees but for
// spellings of the same number ("1.0" and "1.00").
std::optional<bool> patch_equal(const json& doc_value, const json& op_value) {
  if (doc_value.is_object()) {
    if (!op_value.is_object() || op_value.size() != doc_value.size()) return false;
    for (const auto& [key, v] : doc_value.items()) {
      auto it = op_value.find(key);
      if (it == op_value.end()) return false;
      if (v.is_null() || it->is_null()) {
        if (v.is_null() != it->is_null()) return false;
        continue;
      }
      auto equal = patch_equal(v, *it);
      if (!equal || !*equal) return equal;
    }
    return true;
  }
  if (doc_value.is_array()) {
    if (!op_value.is_array() || op_value.size() != doc_value.size()) return false;
    for (std::size_t i = 0; i < doc_value.size(); ++i) {
      if (doc_value[i].is_null() || op_value[i].is_null()) return std::nullopt;
      auto equal = patch_equal(doc_value[i], op_value[i]);
      if (!equal || !*equal) return equal;
    }
    return true;
  }
  return go_equal(doc_value, op_value);
}

// The outcome of a "test" comparison as an error.
Error test_outcome(std::optional<bool> equal, const std::string& path) {
  if (!equal) return std::string(kGoNilDereference);
  if (*equal) return std::nullopt;
  return "testing value " + path + " failed: test failed";
}

Error op_add(json& doc, const json& op) {
  auto path = string_member(op, "path");
  if (!path) return "add operation failed to decode path: " + kMissing;
  Location loc = find_object(doc, *path);
  if (!loc.container)
    return "add operation does not apply: doc is missing path: \"" + *path + "\": " + kMissing;
  if (Error e = add(*loc.container, loc.key, value_or_null(value_member(op)))) {
    return "error in add for path: '" + *path + "': " + *e;
  }
  return std::nullopt;
}

Error op_remove(json& doc, const json& op) {
  auto path = string_member(op, "path");
  if (!path) return "remove operation failed to decode path: " + kMissing;
  Location loc = find_object(doc, *path);
  if (!loc.container)
    return "remove operation does not apply: doc is missing path: \"" + *path + "\": " + kMissing;
  if (Error e = remove(*loc.container, loc.key))
    return "error in remove for path: '" + *path + "': " + *e;
  return std::nullopt;
}

Error op_replace(json& doc, const json& op) {
  auto path = string_member(op, "path");
  if (!path)
    return "replace operation failed to decode path: operation missing path field: " + kMissing;
  const json* value = value_member(op);
  if (path->empty()) {
    if (!value) return std::string(kGoNilDereference);
    if (!(value->is_object() || value->is_array())) {
      return std::string("replace operation value must be object or array: %!w(<nil>)");
    }
    doc = *value;
    return std::nullopt;
  }
  Location loc = find_object(doc, *path);
  if (!loc.container)
    return "replace operation does not apply: doc is missing path: " + *path + ": " + kMissing;
  json* current = nullptr;
  if (get(*loc.container, loc.key, current)) {
    return "replace operation does not apply: doc is missing key: " + *path + ": " + kMissing;
  }
  set(*loc.container, loc.key, value_or_null(value));
  return std::nullopt;
}

Error op_move(json& doc, const json& op) {
  auto from = string_member(op, "from");
  if (!from)
    return "move operation failed to decode from: operation, missing from field: " + kMissing;
  Location src = find_object(doc, *from);
  if (!src.container)
    return "move operation does not apply: doc is missing from path: " + *from + ": " + kMissing;
  json* found = nullptr;
  if (Error e = get(*src.container, src.key, found))
    return "error in move for path: '" + src.key + "': " + *e;
  json value = found ? std::move(*found) : json();
  if (Error e = remove(*src.container, src.key))
    return "error in move for path: '" + src.key + "': " + *e;
  auto path = string_member(op, "path");
  if (!path)
    return "move operation failed to decode path: operation missing path field: " + kMissing;
  Location dst = find_object(doc, *path);
  if (!dst.container)
    return "move operation does not apply: doc is missing destination path: " + *path + ": " +
           kMissing;
  if (Error e = add(*dst.container, dst.key, std::move(value)))
    return "error in move for path: '" + *path + "': " + *e;
  return std::nullopt;
}

Error op_test(json& doc, const json& op) {
  auto path = string_member(op, "path");
  if (!path)
    return "test operation failed to decode path: operation missing path field: " + kMissing;
  const json* value = value_member(op);
  if (path->empty()) {
    if (!value) return std::string(kGoNilDereference);
    return test_outcome(value->is_null() ? false : patch_equal(doc, *value), *path);
  }
  Location loc = find_object(doc, *path);
  if (!loc.container)
    return "test operation does not apply: is missing path: " + *path + ": " + kMissing;
  json* current = nullptr;
  if (Error e = get(*loc.container, loc.key, current))
    return "error in test for path: '" + *path + "': " + *e;
  if (current == nullptr) {
    if (value == nullptr || value->is_null()) return std::nullopt;
    return "testing value " + *path + " failed: test failed";
  }
  if (value == nullptr) return "testing value " + *path + " failed: test failed";
  return test_outcome(value->is_null() ? false : patch_equal(*current, *value), *path);
}

Error op_copy(json& doc, const json& op, std::size_t& copied, std::size_t limit) {
  auto from = string_member(op, "from");
  if (!from)
    return "copy operation failed to decode from: operation, missing from field: " + kMissing;
  Location src = find_object(doc, *from);
  if (!src.container)
    return "copy operation does not apply: doc is missing from path: " + *from + ": " + kMissing;
  json* found = nullptr;
  if (Error e = get(*src.container, src.key, found))
    return "error in copy for from: '" + *from + "': " + *e;
  json value = found ? *found : json();
  auto path = string_member(op, "path");
  if (!path) return "copy operation failed to decode path: " + kMissing;
  Location dst = find_object(doc, *path);
  if (!dst.container)
    return "copy operation does not apply: doc is missing destination path: " + *path + ": " +
           kMissing;
  copied += found ? go_marshal(value).size() : 0;
  if (limit > 0 && copied > limit) {
    return "Unable to complete the copy, the accumulated size increase of copy is " +
           std::to_string(copied) + ", exceeding the limit " + std::to_string(limit);
  }
  if (Error e = add(*dst.container, dst.key, std::move(value)))
    return "error while adding value during copy: " + *e;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> apply_json_patch_operations(json& doc, const json& operations,
                                                       std::size_t max_copy_bytes) {
  std::size_t copied = 0;
  for (const json& op : operations) {
    const std::string kind = string_member(op, "op").value_or("unknown");
    Error e;
    if (kind == "add") {
      e = op_add(doc, op);
    } else if (kind == "remove") {
      e = op_remove(doc, op);
    } else if (kind == "replace") {
      e = op_replace(doc, op);
    } else if (kind == "move") {
      e = op_move(doc, op);
    } else if (kind == "test") {
      e = op_test(doc, op);
    } else if (kind == "copy") {
      e = op_copy(doc, op, copied, max_copy_bytes);
    } else {
      e = "Unexpected kind: " + kind;
    }
    if (e) return e;
  }
  return std::nullopt;
}

}  // namespace kubesim::fakeapi::internal
