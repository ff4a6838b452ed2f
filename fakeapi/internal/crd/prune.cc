#include "fakeapi/internal/crd/prune.h"

#include <algorithm>
#include <string_view>

#include "fakeapi/internal/encoding/types/go_encoding.h"
#include "fakeapi/internal/encoding/types/schema_tables.h"

namespace kubesim::fakeapi::internal {
namespace {

using Json = nlohmann::json;

bool is_meta_field(std::string_view key) {
  return key == "apiVersion" || key == "kind" || key == "metadata";
}

bool flag(const Json* s, const char* name) {
  if (s == nullptr || !s->is_object()) return false;
  const auto it = s->find(name);
  return it != s->end() && it->is_boolean() && it->get<bool>();
}

// The schema of properties[key], or null when the schema does not declare it.
const Json* property(const Json* s, const std::string& key) {
  if (s == nullptr || !s->is_object()) return nullptr;
  const auto props = s->find("properties");
  if (props == s->end() || !props->is_object()) return nullptr;
  const auto it = props->find(key);
  return it == props->end() ? nullptr : &*it;
}

// additionalProperties: whether the schema has it, and its schema (null for `true`).
bool has_additional(const Json* s, const Json** schema) {
  *schema = nullptr;
  if (s == nullptr || !s->is_object()) return false;
  const auto it = s->find("additionalProperties");
  if (it == s->end()) return false;
  if (it->is_object()) {
    *schema = &*it;
    return true;
  }
  return it->is_boolean() && it->get<bool>();
}

const Json* items(const Json* s) {
  if (s == nullptr || !s->is_object()) return nullptr;
  const auto it = s->find("items");
  return it == s->end() || !it->is_object() ? nullptr : &*it;
}

class Pruner {
 public:
  explicit Pruner(std::vector<std::string>* pruned) : pruned_(pruned) {}

  // `embedded`: `s` describes a resource (the root, or x-kubernetes-embedded-resource), whose
  // apiVersion, kind and metadata are not the schema's to prune.
  void prune(Json& x, const Json* s, bool embedded) {
    if (flag(s, "x-kubernetes-preserve-unknown-fields")) {
      skip_prune(x, s, embedded);
      return;
    }
    if (x.is_object()) {
      if (s == nullptr) {
        for (const auto& [k, v] : x.items()) record(k);
        x = Json::object();
        return;
      }
      coerce_metadata(x, embedded);
      for (auto it = x.begin(); it != x.end();) {
        const std::string& key = it.key();
        if (embedded && is_meta_field(key)) {
          ++it;
          continue;
        }
        const Json* additional = nullptr;
        if (const Json* prop = property(s, key)) {
          descend(key, *it, prop);
        } else if (has_additional(s, &additional)) {
          descend(key, *it, additional);
        } else {
          if (!is_meta_field(key) || !path_.empty()) record(key);
          it = x.erase(it);
          continue;
        }
        ++it;
      }
    } else if (x.is_array()) {
      const Json* item_schema = items(s);
      for (std::size_t i = 0; i < x.size(); ++i) {
        const std::size_t len = path_.size();
        path_ += "[" + std::to_string(i) + "]";
        prune(x[i], item_schema, item_schema != nullptr && flag(item_schema, "x-kubernetes-embedded-resource"));
        path_.resize(len);
      }
    }
  }

  std::vector<std::string> take_paths() {
    std::sort(paths_.begin(), paths_.end());
    std::vector<std::string> out = std::move(meta_paths_);
    out.insert(out.end(), paths_.begin(), paths_.end());
    out.insert(out.end(), embedded_meta_paths_.begin(), embedded_meta_paths_.end());
    return out;
  }

 private:
  // Like prune, for a schema with x-kubernetes-preserve-unknown-fields: nothing is dropped at
  // this level, but the declared members are pruned by their own schemas.
  void skip_prune(Json& x, const Json* s, bool embedded) {
    if (s == nullptr) return;
    if (x.is_object()) {
      coerce_metadata(x, embedded);
      for (auto& [key, value] : x.items()) {
        if (embedded && is_meta_field(key)) continue;
        const Json* additional = nullptr;
        if (const Json* prop = property(s, key)) {
          descend(key, value, prop);
        } else if (has_additional(s, &additional)) {
          descend(key, value, additional);
        }
      }
    } else if (x.is_array()) {
      const Json* item_schema = items(s);
      for (std::size_t i = 0; i < x.size(); ++i) {
        const std::size_t len = path_.size();
        path_ += "[" + std::to_string(i) + "]";
        skip_prune(x[i], item_schema, flag(item_schema, "x-kubernetes-embedded-resource"));
        path_.resize(len);
      }
    }
  }

  void descend(const std::string& key, Json& value, const Json* s) {
    const std::size_t len = path_.size();
    if (!path_.empty()) path_ += ".";
    path_ += key;
    prune(value, s, flag(s, "x-kubernetes-embedded-resource"));
    path_.resize(len);
  }

  // A resource's metadata is decoded as an ObjectMeta: unknown members are dropped.
  void coerce_metadata(Json& x, bool embedded) {
    if (!embedded) return;
    const auto meta = x.find("metadata");
    if (meta == x.end() || !meta->is_object()) return;
    std::vector<std::string> unknown;
    types::render_go_json(types::kMetaV1ObjectMeta, *meta, pruned_ ? &unknown : nullptr);
    const std::string prefix = path_.empty() ? "metadata." : path_ + ".metadata.";
    for (const std::string& u : unknown) {
      (path_.empty() ? meta_paths_ : embedded_meta_paths_).push_back(prefix + u);
    }
  }

  void record(const std::string& key) {
    if (pruned_ == nullptr) return;
    paths_.push_back(path_.empty() ? key : path_ + "." + key);
  }

  std::vector<std::string>* pruned_;
  std::string path_;
  std::vector<std::string> meta_paths_;           // the root's metadata
  std::vector<std::string> paths_;                // pruned by the schema
  std::vector<std::string> embedded_meta_paths_;  // embedded resources' metadata
};

}  // namespace

void prune_custom_resource(const Json& schema, Json& obj, std::vector<std::string>* pruned) {
  if (!schema.is_object() || !obj.is_object()) return;
  Pruner pruner(pruned);
  pruner.prune(obj, &schema, true);
  if (pruned != nullptr) {
    for (std::string& p : pruner.take_paths()) pruned->push_back(std::move(p));
  }
}

}  // namespace kubesim::fakeapi::internal
