#include "fakeapi/internal/crd/schema_defaults.h"

#include "fakeapi/internal/crd/prune.h"

namespace kubesim::fakeapi::internal {
namespace {

using Json = nlohmann::json;

const Json* member_of(const Json& s, const char* name) {
  if (!s.is_object()) return nullptr;
  const auto it = s.find(name);
  return it == s.end() ? nullptr : &*it;
}

bool nullable(const Json& s) {
  const Json* n = member_of(s, "nullable");
  return n != nullptr && n->is_boolean() && n->get<bool>();
}

// The schema of member `key` of an object `s` describes: its property, else additionalProperties.
const Json* member_schema(const Json* s, const std::string& key) {
  if (s == nullptr) return nullptr;
  const Json* props = member_of(*s, "properties");
  if (const Json* prop = props != nullptr ? member_of(*props, key.c_str()) : nullptr) return prop;
  const Json* additional = member_of(*s, "additionalProperties");
  return additional != nullptr && additional->is_object() ? additional : nullptr;
}

void apply(Json& x, const Json& s) {
  if (x.is_object()) {
    const Json* props = member_of(s, "properties");
    if (props != nullptr && props->is_object()) {
      for (const auto& [key, prop] : props->items()) {
        const Json* def = member_of(prop, "default");
        if (def == nullptr || def->is_null()) continue;
        const auto it = x.find(key);
        if (it == x.end() || (it->is_null() && !nullable(prop))) x[key] = *def;
      }
    }
    for (auto& [key, value] : x.items()) {
      if (const Json* child = member_schema(&s, key)) apply(value, *child);
    }
  } else if (x.is_array()) {
    const Json* items = member_of(s, "items");
    if (items == nullptr || !items->is_object()) return;
    for (Json& v : x) apply(v, *items);
  }
}

void drop_nulls(Json& x, const Json* s) {
  if (x.is_object()) {
    for (auto it = x.begin(); it != x.end();) {
      const Json* child = member_schema(s, it.key());
      const Json* def = child != nullptr ? member_of(*child, "default") : nullptr;
      if (it->is_null() && child != nullptr && !nullable(*child) &&
          (def == nullptr || def->is_null())) {
        it = x.erase(it);
        continue;
      }
      drop_nulls(*it, child);
      ++it;
    }
  } else if (x.is_array()) {
    const Json* items = s != nullptr ? member_of(*s, "items") : nullptr;
    if (items != nullptr && !items->is_object()) items = nullptr;
    for (Json& v : x) drop_nulls(v, items);
  }
}

}  // namespace

void default_custom_resource(const Json& schema, Json& obj) {
  if (schema.is_object()) apply(obj, schema);
}

void drop_non_nullable_nulls(const Json& schema, Json& obj) {
  if (schema.is_object()) drop_nulls(obj, &schema);
}

void decode_custom_resource(const Json& schema, Json& obj, std::vector<std::string>* pruned) {
  prune_custom_resource(schema, obj, pruned);
  drop_non_nullable_nulls(schema, obj);
  default_custom_resource(schema, obj);
}

}  // namespace kubesim::fakeapi::internal
