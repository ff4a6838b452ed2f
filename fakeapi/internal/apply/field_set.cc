// FieldSet: fieldpath.Set's operations (set.go) and its FieldsV1 encoding (serialize.go,
// serialize-pe.go) over element texts.
#include "fakeapi/internal/apply/field_set.h"

#include "fakeapi/internal/patch/patch_meta.h"

namespace kubesim::fakeapi::apply {
namespace {

const FieldSet& empty_field_set() {
  static const FieldSet kEmpty;
  return kEmpty;
}

// value.ToString of a key or set value: strings quoted as Go's %q would, others as JSON.
std::string value_to_string(const nlohmann::json& v) {
  if (v.is_string()) return nlohmann::json(v.get<std::string>()).dump();
  return internal::go_marshal(v);
}

// Re-encodes the JSON after a "k:" or "v:" so equal values have equal texts; nullopt when it
// is not JSON (or, for a key, not an object).
std::optional<std::string> canonical_element(std::string_view element) {
  const char kind = element[0];
  const std::string_view text = element.substr(2);
  nlohmann::json v = nlohmann::json::parse(text, nullptr, false);
  if (v.is_discarded()) return std::nullopt;
  if (kind == 'k') {
    if (!v.is_object()) return std::nullopt;
    return key_element(v);
  }
  return value_element(v);
}

// The children of `a` paired with those of `b`: a child `b` lacks is kept as it is when
// `keep_unmatched`; a child both have becomes what `combine` makes of the two (dropped when
// empty).
template <typename Combine>
FieldSet zip_sets(const FieldSet& a, const FieldSet& b, bool keep_unmatched, Combine combine) {
  FieldSet out;
  for (const auto& [element, node] : a.children()) {
    auto it = b.children().find(element);
    if (it == b.children().end()) {
      if (keep_unmatched) out.put(element, node);
    } else {
      out.put(element, combine(node, it->second));
    }
  }
  return out;
}

}  // namespace

std::string field_element(std::string_view name) { return "f:" + std::string(name); }

std::string key_element(const nlohmann::json& key_fields) {
  // nlohmann's objects keep their members sorted, as FieldList.Sort orders the key fields.
  return "k:" + internal::go_marshal(key_fields);
}

std::string value_element(const nlohmann::json& value) {
  return "v:" + internal::go_marshal(value);
}

std::string element_to_string(std::string_view element) {
  if (element.size() < 2) return "{{invalid path element}}";
  const std::string_view text = element.substr(2);
  switch (element[0]) {
    case 'f':
      return "." + std::string(text);
    case 'i':
      return "[" + std::string(text) + "]";
    case 'v': {
      nlohmann::json v = nlohmann::json::parse(text, nullptr, false);
      return "[=" + value_to_string(v) + "]";
    }
    case 'k': {
      nlohmann::json v = nlohmann::json::parse(text, nullptr, false);
      std::string out = "[";
      bool first = true;
      if (v.is_object()) {
        for (const auto& [name, value] : v.items()) {
          if (!first) out += ",";
          first = false;
          out += name + "=" + value_to_string(value);
        }
      }
      return out + "]";
    }
    default:
      return "{{invalid path element}}";
  }
}

std::string path_to_string(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& e : path) out += element_to_string(e);
  return out;
}

std::optional<FieldSet> FieldSet::from_fields_v1(const nlohmann::json& fields, std::string* error) {
  auto fail = [&](std::string text) -> std::optional<FieldSet> {
    if (error != nullptr) *error = std::move(text);
    return std::nullopt;
  };
  if (fields.is_null()) return FieldSet();
  if (!fields.is_object()) return fail("expected a FieldsV1 object, got " + fields.dump());
  FieldSet set;
  for (const auto& [key, value] : fields.items()) {
    if (key == ".") continue;  // the parent's own membership, read by the parent
    if (key.size() < 2) return fail("key must be 2 characters long:");
    if (key[1] != ':') return fail("missing colon: " + key);
    std::string element;
    switch (key[0]) {
      case 'f':
        element = key;
        break;
      case 'i': {
        const std::string digits = key.substr(2);
        if (digits.empty() || digits.find_first_not_of("-0123456789") != std::string::npos) {
          return fail("strconv.Atoi: parsing \"" + digits + "\": invalid syntax");
        }
        element = key;
        break;
      }
      case 'k':
      case 'v': {
        auto canonical = canonical_element(key);
        if (!canonical) return fail("parsing key as path element: " + key);
        element = std::move(*canonical);
        break;
      }
      default:
        continue;  // an unknown kind of element: skipped
    }
    if (!value.is_object()) return fail("expected an object under " + key);
    auto under = from_fields_v1(value, error);
    if (!under) return std::nullopt;
    Node node;
    node.member = value.empty() || value.contains(".");
    node.under = std::move(*under);
    if (!node.member && node.under.empty()) continue;
    set.children_[element] = std::move(node);
  }
  return set;
}

nlohmann::json FieldSet::to_fields_v1() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [element, node] : children_) {
    nlohmann::json sub = node.under.to_fields_v1();
    if (node.member && !node.under.empty()) sub["."] = nlohmann::json::object();
    out[element] = std::move(sub);
  }
  return out;
}

void FieldSet::insert(const std::vector<std::string>& path) {
  FieldSet* set = this;
  for (std::size_t i = 0; i < path.size(); ++i) {
    Node& node = set->children_[path[i]];
    if (i + 1 == path.size()) node.member = true;
    set = &node.under;
  }
}

bool FieldSet::has(const std::vector<std::string>& path) const {
  const FieldSet* set = this;
  for (std::size_t i = 0; i < path.size(); ++i) {
    auto it = set->children_.find(path[i]);
    if (it == set->children_.end()) return false;
    if (i + 1 == path.size()) return it->second.member;
    set = &it->second.under;
  }
  return false;
}

FieldSet FieldSet::union_with(const FieldSet& other) const {
  FieldSet out = *this;
  for (const auto& [element, node] : other.children_) {
    auto it = out.children_.find(element);
    if (it == out.children_.end()) {
      out.children_.emplace(element, node);
    } else {
      it->second.member = it->second.member || node.member;
      it->second.under = it->second.under.union_with(node.under);
    }
  }
  return out;
}

FieldSet FieldSet::difference(const FieldSet& other) const {
  return zip_sets(*this, other, true, [](const Node& a, const Node& b) {
    return Node{a.member && !b.member, a.under.difference(b.under)};
  });
}

FieldSet FieldSet::recursive_difference(const FieldSet& other) const {
  return zip_sets(*this, other, true, [](const Node& a, const Node& b) {
    if (b.member) return Node{};  // the whole subtree goes
    return Node{a.member, a.under.recursive_difference(b.under)};
  });
}

FieldSet FieldSet::intersection(const FieldSet& other) const {
  return zip_sets(*this, other, false, [](const Node& a, const Node& b) {
    return Node{a.member && b.member, a.under.intersection(b.under)};
  });
}

const FieldSet& FieldSet::under(std::string_view element) const {
  auto it = children_.find(element);
  return it == children_.end() ? empty_field_set() : it->second.under;
}

bool FieldSet::has_member(std::string_view element) const {
  auto it = children_.find(element);
  return it != children_.end() && it->second.member;
}

void FieldSet::for_each(const std::function<void(const std::vector<std::string>&)>& visit) const {
  std::vector<std::string> prefix;
  for_each_under(prefix, visit);
}

void FieldSet::for_each_under(std::vector<std::string>& prefix,
                              const std::function<void(const std::vector<std::string>&)>& visit) const {
  for (const auto& [element, node] : children_) {
    if (!node.member) continue;
    prefix.push_back(element);
    visit(prefix);
    prefix.pop_back();
  }
  for (const auto& [element, node] : children_) {
    if (node.under.empty()) continue;
    prefix.push_back(element);
    node.under.for_each_under(prefix, visit);
    prefix.pop_back();
  }
}

void FieldSet::put(std::string element, Node node) {
  if (!node.member && node.under.empty()) return;
  children_[std::move(element)] = std::move(node);
}

bool FieldSet::operator==(const FieldSet& other) const { return children_ == other.children_; }

}  // namespace kubesim::fakeapi::apply
