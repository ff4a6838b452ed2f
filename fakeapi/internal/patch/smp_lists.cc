// The list half of the strategic merge patch: merging lists of primitives as ordered sets and
// lists of objects by merge key, the "$patch" directives inside lists, and the ordering rules of
// apimachinery's strategicpatch (patch items keep the patch's order, server-only items the live
// order, interleaved by mergeSortedSlice).
#include "fakeapi/internal/patch/smp_lists.h"

#include <optional>
#include <string>
#include <utility>

#include "fakeapi/internal/patch/patch_meta.h"

namespace kubesim::fakeapi::internal {

namespace {

const Json kNull;

const Json& member(const Json& m, const std::string& key) {
  if (!m.is_object()) return kNull;
  auto it = m.find(key);
  return it == m.end() ? kNull : *it;
}

// index(): the position of `val` in `l`, comparing merge key values for maps.
api::Result<std::ptrdiff_t> index_of(const List& l, const Json& val, const std::string& merge_key,
                                     GoType kind) {
  const Json& v = kind == GoType::kMap ? member(val, merge_key) : val;
  for (std::size_t i = 0; i < l.size(); ++i) {
    const Json& candidate = kind == GoType::kMap ? member(l[i], merge_key) : l[i];
    auto equal = go_compare(v, candidate);
    if (!equal) return equal.status();
    if (*equal) return static_cast<std::ptrdiff_t>(i);
  }
  return std::ptrdiff_t{-1};
}

// The positions of each item of `items` in `order`.
api::Result<std::vector<std::ptrdiff_t>> indices_of(const List& items, const List& order,
                                                    const std::string& merge_key, GoType kind) {
  std::vector<std::ptrdiff_t> pos;
  for (const Json& v : items) {
    auto p = index_of(order, v, merge_key, kind);
    if (!p) return p.status();
    pos.push_back(*p);
  }
  return pos;
}

// findMapInSliceBasedOnKeyValue, over a List or a GoSlice.
template <class Slice>
api::Result<std::ptrdiff_t> find_by_key(const Slice& l, const std::string& key, const Json& value) {
  for (std::size_t i = 0; i < l.size(); ++i) {
    if (!l[i].is_object()) {
      return plain_server_error("value for key " + std::to_string(i) + " is not a map");
    }
    auto it = l[i].find(key);
    if (it == l[i].end()) continue;
    auto equal = go_compare(*it, value);
    if (!equal) return equal.status();
    if (*equal) return static_cast<std::ptrdiff_t>(i);
  }
  return std::ptrdiff_t{-1};
}

// deduplicateScalars, with its habit of moving the last element into a duplicate's place.
List deduplicate_scalars(List s) {
  std::size_t length = s.size();
  for (std::size_t i = 0; i + 1 < length; ++i) {
    for (std::size_t j = i + 1; j < length; ++j) {
      if (go_equal(s[i], s[j])) {
        s[j] = s[length - 1];
        --length;
        --j;
      }
    }
  }
  s.resize(length);
  return s;
}

// deleteFromSlice.
List delete_from_slice(const List& current, const List& to_delete) {
  List out;
  for (const Json& v : current) {
    bool drop = false;
    for (const Json& d : to_delete) drop = drop || go_equal(v, d);
    if (!drop) out.push_back(v);
  }
  return out;
}

// A Go slice of the list mergeSlice received. Go deletes elements by shifting them inside the
// shared array and appends into its spare capacity, and mergePatchIntoOriginal still holds the
// original slice afterwards: it orders the merged list by what that view then shows. `caller`
// is that array; an append beyond its length (Go's capacity, as ToUnstructured allocates it)
// moves the slice to an array of its own, as Go's append does.
class GoSlice {
 public:
  explicit GoSlice(List& caller) : caller_(caller), len_(caller.size()) {}

  std::size_t size() const { return len_; }
  const Json& operator[](std::size_t i) const { return own_ ? (*own_)[i] : caller_[i]; }
  Json& operator[](std::size_t i) { return own_ ? (*own_)[i] : caller_[i]; }
  List list() const {
    const List& a = own_ ? *own_ : caller_;
    return List(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(len_));
  }

  void erase(std::size_t k) {
    if (own_) {
      own_->erase(own_->begin() + static_cast<std::ptrdiff_t>(k));
    } else {
      for (std::size_t i = k; i + 1 < len_; ++i) caller_[i] = caller_[i + 1];
    }
    --len_;
  }
  void append(const Json& v) {
    if (!own_ && len_ < caller_.size()) {
      caller_[len_++] = v;
      return;
    }
    if (!own_) own_ = list();
    own_->push_back(v);
    ++len_;
  }
  void replace(List l) {
    own_ = std::move(l);
    len_ = own_->size();
  }

 private:
  List& caller_;
  std::optional<List> own_;
  std::size_t len_;
};

// mergeSliceWithSpecialElements: applies "$patch: delete" elements to `original`, turns a
// "$patch: replace" element into a replacement, and leaves the plain elements in `patch`.
api::Result<void> merge_special_elements(GoSlice& original, List& patch, const std::string& key) {
  List plain;
  bool replace = false;
  for (const Json& v : patch) {
    auto d = v.find(kDirectiveMarker);
    if (d == v.end()) {
      plain.push_back(v);
    } else if (*d == kDeleteDirective) {
      auto mv = v.find(key);
      if (mv == v.end()) return err_no_merge_key(v, key);
      for (;;) {
        auto found = find_by_key(original, key, *mv);
        if (!found) return found.status();
        if (*found < 0) break;
        original.erase(static_cast<std::size_t>(*found));
      }
    } else if (*d == kReplaceDirective) {
      replace = true;
    } else if (*d == kMergeDirective) {
      return plain_server_error("merging lists cannot yet be specified in the patch");
    } else {
      return err_bad_patch_type(*d, v);
    }
  }
  if (replace) {
    original.replace(std::move(plain));
    patch.clear();
  } else {
    patch = std::move(plain);
  }
  return {};
}

// mergeSliceWithoutSpecialElements: merges each patch element into the original element with
// the same merge key, or appends it.
api::Result<void> merge_plain_elements(GoSlice& original, const List& patch, const std::string& key,
                                       const PatchSchema& schema) {
  for (const Json& v : patch) {
    auto mv = v.find(key);
    if (mv == v.end()) return err_no_merge_key(v, key);
    auto found = find_by_key(original, key, *mv);
    if (!found) return found.status();
    if (*found < 0) {
      original.append(v);
      continue;
    }
    const auto i = static_cast<std::size_t>(*found);
    auto merged = merge_map(std::move(original[i]), v, schema);
    if (!merged) return merged.status();
    original[i] = std::move(merged.value());
  }
  return {};
}

api::Result<List> merge_slice(List original, List patch, const PatchSchema& schema,
                              const std::string& key, bool is_delete_list, List* caller_view) {
  if (original.empty() && patch.empty()) return original;
  auto kind = slice_element_type({&original, &patch});
  if (!kind) return kind.status();
  List merged;
  List server_order;
  if (*kind != GoType::kMap) {
    if (is_delete_list) return delete_from_slice(original, patch);
    List both = original;
    both.insert(both.end(), patch.begin(), patch.end());
    merged = deduplicate_scalars(std::move(both));
    server_order = original;
  } else {
    if (key.empty()) return plain_server_error("cannot merge lists without merge key for struct");
    GoSlice slice(original);
    if (auto r = merge_special_elements(slice, patch, key); !r) return r.status();
    server_order = slice.list();
    if (auto r = merge_plain_elements(slice, patch, key, schema); !r) return r.status();
    merged = slice.list();
    if (caller_view) *caller_view = original;
  }
  auto parts = partition_by_presence(merged, patch, key);
  if (!parts) return parts.status();
  return normalize_element_order(std::move(parts->present), std::move(parts->absent), patch,
                                 server_order, key, *kind);
}

// validateMergeKeyInLists.
api::Result<void> validate_merge_keys(const std::string& key, const List& a, const List& b) {
  for (const List* list : {&a, &b}) {
    for (const Json& item : *list) {
      if (!item.is_object()) return err_bad_arg_type("map[string]interface {}", item);
      if (!item.contains(key)) return err_no_merge_key(item, key);
    }
  }
  return {};
}

// normalizeSliceOrder: a stable sort by position in `order`; "$patch: delete" maps go last.
api::Result<List> normalize_slice_order(List to_sort, const List& order, const std::string& key,
                                        GoType kind) {
  List to_delete;
  if (kind == GoType::kMap) {
    if (auto r = validate_merge_keys(key, to_sort, order); !r) return r.status();
    List keep;
    for (Json& v : to_sort)
      (has_directive(v, kDeleteDirective) ? to_delete : keep).push_back(std::move(v));
    to_sort = std::move(keep);
  }
  auto found = indices_of(to_sort, order, key, kind);
  if (!found) return found.status();
  const std::vector<std::ptrdiff_t>& pos = *found;
  const auto perm = go_stable_order(to_sort.size(), [&](std::size_t i, std::size_t j) {
    return pos[i] >= 0 && pos[j] >= 0 ? pos[i] < pos[j] : true;
  });
  List sorted;
  for (std::size_t i : perm) sorted.push_back(std::move(to_sort[i]));
  for (Json& v : to_delete) sorted.push_back(std::move(v));
  return sorted;
}

}  // namespace

bool is_composite(const Json& v) { return v.is_object() || v.is_array(); }

api::Result<bool> go_compare(const Json& a, const Json& b) {
  if (go_type(a) != go_type(b)) return false;
  if (is_composite(a)) return apiserver_panic();
  return go_equal(a, b);
}

bool has_directive(const Json& v, std::string_view directive) {
  if (!v.is_object()) return false;
  auto it = v.find(kDirectiveMarker);
  return it != v.end() && *it == directive;
}

api::Result<GoType> slice_element_type(const std::vector<const List*>& lists) {
  std::optional<GoType> prev;
  for (const List* list : lists) {
    for (const Json& v : *list) {
      const GoType t = go_type(v);
      if (!prev) {
        // Go reads the Kind of a nil type here and panics; the handler answers 500.
        if (t == GoType::kNil) return apiserver_panic();
        if (t == GoType::kSlice) return err_no_list_of_lists();
        prev = t;
      } else if (*prev != t) {
        Json all = Json::array();
        for (const List* l : lists) all.push_back(*l);
        return plain_server_error("list element types are not identical: " + go_format_v(all));
      }
    }
  }
  if (!prev) return plain_server_error("no elements in any of the given slices");
  return *prev;
}

api::Result<List> merge_slice_handler(List original, List patch, const PatchSchema& schema,
                                      const FieldPatchMeta& meta, bool is_delete_list,
                                      List* caller_view) {
  if (meta.strategy == PatchStrategy::kMerge || is_delete_list) {
    return merge_slice(std::move(original), std::move(patch), schema, meta.merge_key,
                       is_delete_list, caller_view);
  }
  return patch;
}

bool remove_directives(Json& v) {
  if (v.is_object()) {
    if (v.contains(kDirectiveMarker)) return false;
    for (auto it = v.begin(); it != v.end();) {
      if (remove_directives(*it)) {
        ++it;
      } else {
        it = v.erase(it);
      }
    }
  } else if (v.is_array()) {
    List kept;
    for (Json& e : v) {
      if (remove_directives(e)) kept.push_back(std::move(e));
    }
    v = std::move(kept);
  }
  return true;
}

api::Result<Partition> partition_by_presence(const List& original, const List& partition_by,
                                             const std::string& key) {
  Partition p;
  if (key.empty()) {
    // Go puts the items in a map[interface{}]bool: maps and slices cannot be keys.
    for (const List* list : {&partition_by, &original}) {
      for (const Json& v : *list) {
        if (is_composite(v)) return apiserver_panic();
      }
    }
  }
  for (const Json& v : original) {
    bool present = false;
    if (key.empty()) {
      for (const Json& candidate : partition_by) present = present || go_equal(v, candidate);
    } else {
      if (!v.is_object()) return err_bad_arg_type("map[string]interface {}", v);
      auto mv = v.find(key);
      if (mv == v.end()) return err_no_merge_key(v, key);
      auto found = find_by_key(partition_by, key, *mv);
      if (!found) return found.status();
      present = *found >= 0;
    }
    (present ? p.present : p.absent).push_back(v);
  }
  return p;
}

api::Result<List> normalize_element_order(List patch, List server_only, const List& patch_order,
                                          const List& server_order, const std::string& key,
                                          GoType kind) {
  auto right = normalize_slice_order(std::move(patch), patch_order, key, kind);
  if (!right) return right.status();
  auto left = normalize_slice_order(std::move(server_only), server_order, key, kind);
  if (!left) return left.status();
  // mergeSortedSlice: a server-only item goes first only when both items are in the live list
  // and it comes earlier there.
  auto lfound = indices_of(*left, server_order, key, kind);
  if (!lfound) return lfound.status();
  auto rfound = indices_of(*right, server_order, key, kind);
  if (!rfound) return rfound.status();
  const std::vector<std::ptrdiff_t>& lpos = *lfound;
  const std::vector<std::ptrdiff_t>& rpos = *rfound;
  List out;
  std::size_t i = 0, j = 0;
  while (i < left->size() || j < right->size()) {
    const bool take_left = j >= right->size() ||
                           (i < left->size() && lpos[i] >= 0 && rpos[j] >= 0 && lpos[i] < rpos[j]);
    out.push_back(take_left ? std::move((*left)[i++]) : std::move((*right)[j++]));
  }
  return out;
}

}  // namespace kubesim::fakeapi::internal
