// JSON merge patch (RFC 7386) as evanphx/json-patch v4's MergePatch applies it: a null deletes,
// objects merge recursively, anything else replaces. Unlike the RFC, every value the patch
// inserts where the document had nothing (or null, or a non-object) has its null members pruned,
// also in objects nested inside arrays; an array replacing an object is taken as is.
#include "fakeapi/internal/patch/patch_meta.h"

namespace kubesim::fakeapi::internal {
namespace {

using nlohmann::json;

void prune_nulls(json& v);

void prune_object_nulls(json& obj) {
  for (auto it = obj.begin(); it != obj.end();) {
    if (it->is_null()) {
      it = obj.erase(it);
    } else {
      prune_nulls(*it);
      ++it;
    }
  }
}

// pruneNulls: objects lose their null members; arrays keep null elements and prune the others.
void prune_nulls(json& v) {
  if (v.is_object()) {
    prune_object_nulls(v);
  } else if (v.is_array()) {
    for (json& e : v) {
      if (!e.is_null()) prune_nulls(e);
    }
  }
}

// merge(cur, patch): cur is neither missing nor null.
json merge(json cur, json patch) {
  if (!cur.is_object()) {
    prune_nulls(patch);
    return patch;
  }
  if (!patch.is_object()) return patch;
  merge_patch_object(cur, patch);
  return cur;
}

}  // namespace

void merge_patch_object(json& doc, const json& patch) {
  for (const auto& [key, value] : patch.items()) {
    if (value.is_null()) {
      doc.erase(key);
      continue;
    }
    auto it = doc.find(key);
    if (it == doc.end() || it->is_null()) {
      json inserted = value;
      prune_nulls(inserted);
      doc[key] = std::move(inserted);
    } else {
      *it = merge(std::move(*it), value);
    }
  }
}

}  // namespace kubesim::fakeapi::internal
