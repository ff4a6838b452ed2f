// Merge (typed/merge.go): an applied configuration merged into a live object, with the list
// order of mergingWalker.visitListItems.
#include <map>

#include "fakeapi/internal/apply/field_walk.h"

namespace kubesim::fakeapi::apply {
namespace {

using nlohmann::json;

bool no_items(const json* v) { return v == nullptr || !v->is_array() || v->empty(); }
bool no_members(const json* v) { return v == nullptr || !v->is_object() || v->empty(); }

std::optional<json> merge_value(const json* lhs, const json* rhs, const TypeRef& t);

// The items of a non-atomic list: pairs the live and applied items by element, keeps the live
// items the configuration does not name where they are, and places the shared ones in the
// configuration's order.
std::optional<json> merge_items(const json* lhs, const json* rhs, const TypeRef& t) {
  static const json kNullItem;
  std::vector<std::string> lhs_elements, rhs_elements;
  std::vector<const json*> lhs_items;
  std::map<std::string, const json*, std::less<>> observed_lhs, observed_rhs;
  if (rhs != nullptr && rhs->is_array()) {
    for (const json& item : *rhs) {
      auto element = item_element(item, t, nullptr);
      if (!element || observed_rhs.contains(*element)) continue;  // refused before the merge
      observed_rhs[*element] = &item;
      rhs_elements.push_back(*element);
    }
  }
  if (lhs != nullptr && lhs->is_array()) {
    for (const json& item : *lhs) {
      auto element = item_element(item, t, nullptr);
      if (!element) continue;
      auto [it, inserted] = observed_lhs.try_emplace(*element, &item);
      if (!inserted) it->second = &kNullItem;  // duplicates are not merged with the new value
      lhs_elements.push_back(*element);
      lhs_items.push_back(&item);
    }
  }
  std::vector<const std::string*> shared;
  for (const std::string& e : rhs_elements) {
    if (observed_lhs.contains(e)) shared.push_back(&e);
  }
  std::size_t next_shared_at = 0;
  auto next_shared = [&]() -> const std::string* {
    return next_shared_at < shared.size() ? shared[next_shared_at] : nullptr;
  };
  const TypeRef element_type = t.element();
  json out = json::array();
  auto emit = [&](const json* l, const json* r) {
    if (auto merged = merge_value(l, r, element_type)) out.push_back(std::move(*merged));
  };
  auto lookup = [](const std::map<std::string, const json*, std::less<>>& m,
                   const std::string& e) -> const json* {
    auto it = m.find(e);
    return it == m.end() ? nullptr : it->second;
  };
  std::map<std::string, bool, std::less<>> merged_rhs;
  const std::size_t l_len = lhs_elements.size(), r_len = rhs_elements.size();
  for (std::size_t li = 0, ri = 0; li < l_len || ri < r_len;) {
    if (li < l_len && ri < r_len) {
      const std::string& e = lhs_elements[li];
      if (e == rhs_elements[ri]) {
        merged_rhs[e] = true;
        emit(lookup(observed_lhs, e), lookup(observed_rhs, e));
        ++li;
        ++ri;
        ++next_shared_at;
        continue;
      }
      const std::string* ns = next_shared();
      if (observed_rhs.contains(e) && ns != nullptr && *ns != e) {
        ++li;  // a shared item: it comes where the configuration puts it
        continue;
      }
    }
    if (li < l_len) {
      const std::string& e = lhs_elements[li];
      if (!observed_rhs.contains(e)) {
        emit(lhs_items[li], nullptr);
        ++li;
        continue;
      }
      if (merged_rhs.contains(e)) ++li;
    }
    if (ri < r_len) {
      const std::string& e = rhs_elements[ri];
      merged_rhs[e] = true;
      emit(lookup(observed_lhs, e), lookup(observed_rhs, e));
      ++ri;
      const std::string* ns = next_shared();
      if (ns != nullptr && *ns == e) ++next_shared_at;
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::optional<json> merge_value(const json* lhs, const json* rhs, const TypeRef& t) {
  if (rhs == nullptr) return *lhs;
  if (lhs == nullptr || lhs->is_null()) return *rhs;
  const Shape shape = t.shape(*rhs);
  if (t.shape(*lhs) != shape) return *rhs;
  switch (shape) {
    case Shape::kScalar:
      return *rhs;
    case Shape::kList:
      if (t.list_type() == ListType::kAtomic || (no_items(lhs) && no_items(rhs))) return *rhs;
      return merge_items(lhs, rhs, t);
    case Shape::kStruct:
    case Shape::kMap: {
      if (t.atomic() || (no_members(lhs) && no_members(rhs))) return *rhs;
      std::map<std::string, std::pair<const json*, const json*>> zipped;
      if (lhs->is_object()) {
        for (const auto& [k, v] : lhs->items()) zipped[k].first = &v;
      }
      if (rhs->is_object()) {
        for (const auto& [k, v] : rhs->items()) zipped[k].second = &v;
      }
      json out = json::object();
      for (const auto& [key, pair] : zipped) {
        if (auto merged = merge_value(pair.first, pair.second, t.member(key))) {
          out[key] = std::move(*merged);
        }
      }
      if (out.empty()) return std::nullopt;
      return out;
    }
  }
  return *rhs;
}

}  // namespace

json merge(const json& live, const json& config, const TypeRef& type) {
  return merge_value(live.is_null() ? nullptr : &live, &config, type).value_or(json::object());
}

}  // namespace kubesim::fakeapi::apply
