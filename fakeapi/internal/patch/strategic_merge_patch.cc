// The map half of the strategic merge patch (apimachinery's mergeMap): "$patch" directives on
// maps, "$retainKeys", "$setElementOrder/<list>", "$deleteFromPrimitiveList/<list>", nulls
// deleting fields, and the per-field strategy from the PatchSchema. Patch keys are processed in
// sorted order, where Go's map iteration order is random: no outcome of a valid patch depends on
// it.
#include <string>
#include <utility>
#include <vector>

#include "fakeapi/internal/patch/patch_meta.h"
#include "fakeapi/internal/patch/smp_lists.h"

namespace kubesim::fakeapi::internal {

namespace {

constexpr std::string_view kRetainKeysDirective = "$retainKeys";
constexpr std::string_view kDeleteFromPrimitiveListPrefix = "$deleteFromPrimitiveList";
constexpr std::string_view kSetElementOrderPrefix = "$setElementOrder";

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// extractKey: the list name after "<prefix>/".
api::Result<std::string> extract_key(std::string_view s, std::string_view prefix) {
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos || s.substr(0, slash) != prefix) {
    if (prefix == kDeleteFromPrimitiveListPrefix) {
      return api::new_bad_request("invalid patch format of primitive list");
    }
    return api::new_bad_request("invalid patch format of setElementOrder list");
  }
  return std::string(s.substr(slash + 1));
}

// handleDirectiveInMergeMap.
api::Result<Json> handle_directive(const Json& directive, Json patch) {
  if (directive == kReplaceDirective) {
    patch.erase(std::string(kDirectiveMarker));
    return patch;
  }
  if (directive == kDeleteDirective) return Json::object();
  return err_bad_patch_type(directive, patch);
}

// applyRetainKeysDirective: every patch field must be listed; original fields not listed go.
api::Result<void> apply_retain_keys(Json& original, Json& patch) {
  auto it = patch.find(kRetainKeysDirective);
  if (it == patch.end()) return {};
  const Json retain = std::move(*it);
  patch.erase(it);
  if (!retain.is_array()) return api::new_bad_request("invalid patch format of retainKeys");
  for (const Json& k : retain) {
    if (is_composite(k)) return apiserver_panic();  // an unhashable map key in Go
  }
  const auto listed = [&](const std::string& key) {
    for (const Json& k : retain) {
      if (k.is_string() && k.get_ref<const std::string&>() == key) return true;
    }
    return false;
  };
  for (const auto& [key, value] : patch.items()) {
    if (value.is_null() || starts_with(key, kDeleteFromPrimitiveListPrefix) ||
        starts_with(key, kSetElementOrderPrefix)) {
      continue;
    }
    if (!listed(key)) return api::new_bad_request("invalid patch format of retainKeys");
  }
  for (auto o = original.begin(); o != original.end();) {
    o = listed(o.key()) ? std::next(o) : original.erase(o);
  }
  return {};
}

// mergeKeyValueEqual.
api::Result<bool> merge_key_value_equal(const Json& left, const Json& right,
                                        const std::string& key) {
  if (key.empty()) return go_compare(left, right);
  for (const Json* m : {&left, &right}) {
    if (!m->is_object()) return err_bad_arg_type("map[string]interface {}", *m);
  }
  for (const Json* m : {&left, &right}) {
    if (!m->contains(key)) return err_no_merge_key(*m, key);
  }
  return go_compare(left[key], right[key]);
}

// validatePatchWithSetOrderList: the patch list's items appear in the order list, in order.
api::Result<void> validate_order(const List& patch_list, const List& order,
                                 const std::string& key) {
  if (order.empty() || patch_list.empty()) return {};
  List items;
  for (const Json& v : patch_list) {
    if (!key.empty() && !v.is_object()) return err_bad_arg_type("map[string]interface {}", v);
    if (key.empty() || !has_directive(v, kDeleteDirective)) items.push_back(v);
  }
  std::size_t p = 0, s = 0;
  while (p < items.size() && s < order.size()) {
    if (items[p].is_object() && items[p].contains(kDirectiveMarker)) {
      ++p;
      continue;
    }
    auto equal = merge_key_value_equal(items[p], order[s], key);
    if (!equal) return equal.status();
    if (*equal) ++p;
    ++s;
  }
  if (p < items.size() && s >= order.size()) {
    return plain_server_error("The order in patch list:\n" + go_format_v(Json(patch_list)) +
                              "\n doesn't match $setElementOrder list:\n" +
                              go_format_v(Json(order)) + "\n");
  }
  return {};
}

// One "$setElementOrder/<list>" directive of mergePatchIntoOriginal.
api::Result<void> apply_element_order(Json& original, Json& patch, const std::string& directive,
                                      const Json& order, const PatchSchema& schema) {
  if (!order.is_array()) return err_bad_arg_type("[]interface {}", order);
  auto key = extract_key(directive, kSetElementOrderPrefix);
  if (!key) return key.status();
  auto o = original.find(*key);
  auto p = patch.find(*key);
  if (o != original.end() && !o->is_array()) return err_bad_arg_type("[]interface {}", *o);
  if (p != patch.end() && !p->is_array()) return err_bad_arg_type("[]interface {}", *p);
  const List empty;
  const List& original_list = o != original.end() ? o->get_ref<const List&>() : empty;
  const List& patch_list = p != patch.end() ? p->get_ref<const List&>() : empty;
  const FieldPatchMeta& meta = schema.meta(*key);
  const List& order_list = order.get_ref<const List&>();
  if (auto r = validate_order(patch_list, order_list, meta.merge_key); !r) return r.status();
  List merged;
  List server_view = original_list;  // Go's originalFieldValue, which mergeSlice may alias
  if (o == original.end() && p == patch.end()) return {};
  if (p == patch.end()) {
    merged = original_list;
  } else if (o == original.end()) {
    Json v = patch_list;
    remove_directives(v);
    merged = std::move(v.get_ref<List&>());
  } else {
    auto r = merge_slice_handler(original_list, patch_list, schema.field(*key), meta, false,
                                 &server_view);
    if (!r) return r.status();
    merged = std::move(r.value());
  }
  auto parts = partition_by_presence(merged, order_list, meta.merge_key);
  if (!parts) return parts.status();
  auto kind = slice_element_type({&server_view, &patch_list});
  if (!kind) return kind.status();
  auto both = normalize_element_order(std::move(parts->present), std::move(parts->absent),
                                      order_list, server_view, meta.merge_key, *kind);
  if (!both) return both.status();
  original[*key] = std::move(both.value());
  patch.erase(*key);
  return {};
}

// mergePatchIntoOriginal: all "$setElementOrder/" directives, before the other fields.
api::Result<void> apply_element_orders(Json& original, Json& patch, const PatchSchema& schema) {
  std::vector<std::string> directives;
  for (const auto& [key, value] : patch.items()) {
    if (starts_with(key, kSetElementOrderPrefix)) directives.push_back(key);
  }
  for (const std::string& directive : directives) {
    const Json order = std::move(patch[directive]);
    patch.erase(directive);
    if (auto r = apply_element_order(original, patch, directive, order, schema); !r) return r;
  }
  return {};
}

// discardNullValuesFromPatch.
void discard_null_values(Json& v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      if (it->is_null()) {
        it = v.erase(it);
      } else {
        discard_null_values(*it);
        ++it;
      }
    }
  } else if (v.is_array()) {
    for (Json& e : v) discard_null_values(e);
  }
}

// Takes the patch's value for a field the original lacks or holds with another type.
void take_patch_value(Json& original, const std::string& key, Json value) {
  discard_null_values(value);
  if (remove_directives(value)) {
    original[key] = std::move(value);
  } else {
    original.erase(key);
  }
}

// One field of mergeMap's main loop.
api::Result<void> merge_field(Json& original, std::string key, Json value,
                              const PatchSchema& schema) {
  bool is_delete_list = false;
  if (starts_with(key, kDeleteFromPrimitiveListPrefix)) {
    auto list_key = extract_key(key, kDeleteFromPrimitiveListPrefix);
    if (!list_key) return list_key.status();
    is_delete_list = true;
    if (!list_key->empty()) key = std::move(list_key.value());
  }
  if (value.is_null()) {
    original.erase(key);
    return {};
  }
  auto it = original.find(key);
  if (it == original.end() || go_type(*it) != go_type(value)) {
    if (!is_delete_list) take_patch_value(original, key, std::move(value));
    return {};
  }
  const FieldPatchMeta& meta = schema.meta(key);
  if (it->is_object()) {
    if (meta.strategy == PatchStrategy::kReplace) {
      *it = std::move(value);
      return {};
    }
    auto merged = merge_map(std::move(*it), std::move(value), schema.field(key));
    if (!merged) return merged.status();
    original[key] = std::move(merged.value());
  } else if (it->is_array()) {
    auto merged =
        merge_slice_handler(std::move(it->get_ref<List&>()), std::move(value.get_ref<List&>()),
                            schema.field(key), meta, is_delete_list);
    if (!merged) return merged.status();
    original[key] = std::move(merged.value());
  } else {
    *it = std::move(value);
  }
  return {};
}

bool is_directive_key(std::string_view key) {
  return key == kDirectiveMarker || key == kRetainKeysDirective ||
         starts_with(key, std::string(kSetElementOrderPrefix) + "/") ||
         starts_with(key, std::string(kDeleteFromPrimitiveListPrefix) + "/");
}

}  // namespace

api::Status err_no_merge_key(const Json& m, std::string_view key) {
  return plain_server_error("map: " + go_format_v(m) +
                            " does not contain declared merge key: " + std::string(key));
}

api::Status err_bad_arg_type(std::string_view expected, const Json& actual) {
  return plain_server_error("expected a " + std::string(expected) + ", but received a " +
                            go_type_name(actual));
}

api::Status err_bad_patch_type(const Json& directive, const Json& m) {
  return plain_server_error("unknown patch type: " + go_format_s(directive) +
                            " in map: " + go_format_v(m));
}

api::Status err_no_list_of_lists() { return generic_unprocessable_entity(); }

api::Result<Json> merge_map(Json original, Json patch, const PatchSchema& schema) {
  if (auto d = patch.find(kDirectiveMarker); d != patch.end()) {
    const Json directive = *d;
    return handle_directive(directive, std::move(patch));
  }
  if (!original.is_object()) original = Json::object();
  if (auto r = apply_retain_keys(original, patch); !r) return r.status();
  if (auto r = apply_element_orders(original, patch, schema); !r) return r.status();
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    if (auto r = merge_field(original, it.key(), std::move(it.value()), schema); !r) {
      return r.status();
    }
  }
  return original;
}

api::Result<Json> strategic_merge_map(Json original, Json patch, const PatchSchema& schema) {
  return merge_map(std::move(original), std::move(patch), schema);
}

void remove_patch_leftovers(Json& v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      if (it->is_null() || is_directive_key(it.key())) {
        it = v.erase(it);
      } else {
        remove_patch_leftovers(*it);
        ++it;
      }
    }
  } else if (v.is_array()) {
    for (Json& e : v) remove_patch_leftovers(e);
  }
}

}  // namespace kubesim::fakeapi::internal
