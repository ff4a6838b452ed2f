// ToFieldSet (typed/tofieldset.go), Compare (typed/compare.go), RemoveItems (typed/remove.go),
// EnsureNamedFieldsAreMembers (fieldpath/set.go) and list item keys (typed/helpers.go).
#include "fakeapi/internal/apply/field_walk.h"

#include <map>

namespace kubesim::fakeapi::apply {
namespace {

using nlohmann::json;
using Path = std::vector<std::string>;

TypeRef walk_child_type(const TypeRef& t, std::string_view element) {
  return element.substr(0, 2) == "f:" ? t.member(element.substr(2)) : t.element();
}

bool empty_list(const json* v) { return v == nullptr || !v->is_array() || v->empty(); }
bool empty_map(const json* v) { return v == nullptr || !v->is_object() || v->empty(); }

// %q of a []string, as fmt prints it: ["a" "b"].
std::string quoted_keys(const std::vector<std::string>& keys) {
  std::string out = "[";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) out += " ";
    out += json(keys[i]).dump();
  }
  return out + "]";
}

class SetWalk {
 public:
  explicit SetWalk(std::vector<std::string>* errors) : errors_(errors) {}

  void walk(const json& v, const TypeRef& t) {
    switch (t.shape(v)) {
      case Shape::kScalar:
        set_.insert(path_);
        return;
      case Shape::kList:
        if (t.list_type() == ListType::kAtomic) {
          set_.insert(path_);
        } else if (v.is_array()) {
          items(v, t);
        }
        return;
      case Shape::kStruct:
      case Shape::kMap:
        if (t.atomic()) {
          set_.insert(path_);
          return;
        }
        if (!v.is_object()) return;
        for (const auto& [key, member] : v.items()) {
          path_.push_back(field_element(key));
          if (errors_ != nullptr && t.closed() && !t.has_field(key) &&
              !(path_.size() == 1 && (key == "apiVersion" || key == "kind"))) {
            errors_->push_back(path_to_string(path_) + ": field not declared in schema");
            path_.pop_back();
            continue;
          }
          walk(member, t.member(key));
          if (member.is_null() || (member.is_object() && member.empty()) || !t.has_field(key)) {
            set_.insert(path_);
          }
          path_.pop_back();
        }
        return;
    }
  }

  FieldSet take() { return std::move(set_); }

 private:
  void items(const json& list, const TypeRef& t) {
    std::vector<std::optional<std::string>> elements;
    std::map<std::string, int, std::less<>> count;
    for (std::size_t i = 0; i < list.size(); ++i) {
      std::string error;
      elements.push_back(item_element(list[i], t, &error));
      if (!elements.back()) {
        if (errors_ != nullptr) {
          errors_->push_back(path_to_string(path_) + ": element " + std::to_string(i) + ": " + error);
        }
        continue;
      }
      ++count[*elements.back()];
    }
    std::map<std::string, bool, std::less<>> reported;
    for (const auto& e : elements) {
      if (!e || count[*e] < 2 || reported[*e]) continue;
      reported[*e] = true;
      if (errors_ != nullptr) {
        errors_->push_back(path_to_string(path_) + ": duplicate entries for key " + element_to_string(*e));
      } else {
        path_.push_back(*e);
        set_.insert(path_);
        path_.pop_back();
      }
    }
    const TypeRef element_type = t.element();
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!elements[i] || count[*elements[i]] > 1) continue;
      path_.push_back(*elements[i]);
      walk(list[i], element_type);
      set_.insert(path_);
      path_.pop_back();
    }
  }

  FieldSet set_;
  Path path_;
  std::vector<std::string>* errors_;
};

class CompareWalk {
 public:
  void walk(const json* lhs, const json* rhs, const TypeRef& t) {
    const Shape shape = t.shape(rhs != nullptr ? *rhs : *lhs);
    bool leaf = lhs != nullptr && rhs != nullptr && t.shape(*lhs) != shape;
    if (!leaf) {
      switch (shape) {
        case Shape::kScalar:
          leaf = true;
          break;
        case Shape::kList:
          leaf = t.list_type() == ListType::kAtomic || (empty_list(lhs) && empty_list(rhs));
          if (!leaf) items(lhs, rhs, t);
          break;
        case Shape::kStruct:
        case Shape::kMap:
          leaf = t.atomic() || (empty_map(lhs) && empty_map(rhs));
          if (!leaf) members(lhs, rhs, t);
          break;
      }
    }
    if (lhs == nullptr) {
      result_.added.insert(path_);
    } else if (rhs == nullptr) {
      result_.removed.insert(path_);
    } else if (leaf && *lhs != *rhs) {
      result_.modified.insert(path_);
    }
  }

  Comparison take() { return std::move(result_); }

 private:
  void members(const json* lhs, const json* rhs, const TypeRef& t) {
    std::map<std::string, std::pair<const json*, const json*>> zipped;
    if (lhs != nullptr && lhs->is_object()) {
      for (const auto& [k, v] : lhs->items()) zipped[k].first = &v;
    }
    if (rhs != nullptr && rhs->is_object()) {
      for (const auto& [k, v] : rhs->items()) zipped[k].second = &v;
    }
    for (const auto& [key, pair] : zipped) {
      path_.push_back(field_element(key));
      walk(pair.first, pair.second, t.member(key));
      path_.pop_back();
    }
  }

  void items(const json* lhs, const json* rhs, const TypeRef& t) {
    std::vector<std::string> order;
    std::map<std::string, std::pair<std::vector<const json*>, std::vector<const json*>>> values;
    auto index = [&](const json* list, bool left) {
      if (list == nullptr || !list->is_array()) return;
      for (const json& item : *list) {
        auto element = item_element(item, t, nullptr);
        if (!element) continue;
        auto [it, inserted] = values.try_emplace(*element);
        if (inserted) order.push_back(*element);
        (left ? it->second.first : it->second.second).push_back(&item);
      }
    };
    index(lhs, true);
    index(rhs, false);
    const TypeRef element_type = t.element();
    for (const std::string& element : order) {
      const auto& [l, r] = values[element];
      path_.push_back(element);
      if (l.size() <= 1 && r.size() <= 1) {
        walk(l.empty() ? nullptr : l[0], r.empty() ? nullptr : r[0], element_type);
      } else if (l.size() >= 2 && r.size() >= 2) {
        bool same = l.size() == r.size();
        for (std::size_t i = 0; same && i < l.size(); ++i) same = *l[i] == *r[i];
        if (!same) result_.modified.insert(path_);
      } else if (l.size() >= 2) {
        if (!r.empty()) walk(nullptr, r[0], element_type);
        result_.removed.insert(path_);
      } else {
        if (!l.empty()) walk(l[0], nullptr, element_type);
        result_.added.insert(path_);
      }
      path_.pop_back();
    }
  }

  Comparison result_;
  Path path_;
};

json remove_from(const json& v, const FieldSet& remove, const TypeRef& t) {
  switch (t.shape(v)) {
    case Shape::kScalar:
      return v;
    case Shape::kList: {
      if (!v.is_array() || v.empty() || t.list_type() == ListType::kAtomic) return v;
      const TypeRef element_type = t.element();
      json out = json::array();
      for (const json& item : v) {
        auto element = item_element(item, t, nullptr);
        if (!element) {
          out.push_back(item);
          continue;
        }
        if (remove.has_member(*element)) continue;
        const FieldSet& under = remove.under(*element);
        if (under.empty()) {
          out.push_back(item);
        } else {
          out.push_back(remove_from(item, under, element_type));
        }
      }
      return out;
    }
    case Shape::kStruct:
    case Shape::kMap: {
      if (!v.is_object() || v.empty() || t.atomic()) return v;
      json out = json::object();
      for (const auto& [key, member] : v.items()) {
        const std::string element = field_element(key);
        if (remove.has_member(element)) continue;
        const FieldSet& under = remove.under(element);
        if (under.empty()) {
          out[key] = member;
        } else {
          out[key] = remove_from(member, under, t.member(key));
        }
      }
      return out;
    }
  }
  return v;
}

}  // namespace

std::optional<std::string> item_element(const json& item, const TypeRef& list, std::string* error) {
  auto fail = [&](const char* text) -> std::optional<std::string> {
    if (error != nullptr) *error = text;
    return std::nullopt;
  };
  const std::vector<std::string> keys =
      list.list_type() == ListType::kMap ? list.list_keys() : std::vector<std::string>{};
  if (!keys.empty()) {
    if (item.is_null()) return fail("associative list with keys may not have a null element");
    if (!item.is_object()) return fail("associative list with keys may not have non-map elements");
    json key_fields = json::object();
    for (const std::string& key : keys) {
      auto it = item.find(key);
      if (it != item.end()) {
        key_fields[key] = *it;
      } else if (json d = list.key_default(key); !d.is_null()) {
        key_fields[key] = std::move(d);
      }
    }
    if (key_fields.empty()) {
      if (error != nullptr) {
        *error = "associative list with keys has an element that omits all key fields " +
                 quoted_keys(keys) + " (and doesn't have default values for any key fields)";
      }
      return std::nullopt;
    }
    return key_element(key_fields);
  }
  if (item.is_object()) return fail("associative list without keys has an element that's a map type");
  if (item.is_array()) return fail("not supported: associative list with lists as elements");
  if (item.is_null()) return fail("associative list without keys has an element that's an explicit null");
  return value_element(item);
}

FieldSet fields_of(const json& value, const TypeRef& type, std::vector<std::string>* errors) {
  SetWalk walk(errors);
  walk.walk(value, type);
  return walk.take();
}

Comparison compare(const json& before, const json& after, const TypeRef& type) {
  CompareWalk walk;
  walk.walk(&before, &after, type);
  return walk.take();
}

json remove_items(const json& value, const FieldSet& remove, const TypeRef& type) {
  return remove_from(value, remove, type);
}

FieldSet ensure_named_fields_are_members(const FieldSet& set, const TypeRef& type) {
  FieldSet out;
  for (const auto& [element, node] : set.children()) {
    FieldSet::Node n;
    n.member = node.member || (element.substr(0, 2) == "f:" && !node.under.empty() &&
                               type.has_field(std::string_view(element).substr(2)));
    n.under = ensure_named_fields_are_members(node.under, walk_child_type(type, element));
    out.put(element, std::move(n));
  }
  return out;
}

}  // namespace kubesim::fakeapi::apply
