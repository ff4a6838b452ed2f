#include "fakeapi/internal/schema_defaults.h"

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
    const Json* additional = member_of(s, "additionalProperties");
    for (auto& [key, value] : x.items()) {
      const Json* prop = props != nullptr && props->is_object() ? member_of(*props, key.c_str()) : nullptr;
      if (prop != nullptr) {
        apply(value, *prop);
      } else if (additional != nullptr && additional->is_object()) {
        apply(value, *additional);
      }
    }
  } else if (x.is_array()) {
    const Json* items = member_of(s, "items");
    if (items == nullptr || !items->is_object()) return;
    for (Json& v : x) apply(v, *items);
  }
}

}  // namespace

void default_custom_resource(const Json& schema, Json& obj) {
  if (schema.is_object()) apply(obj, schema);
}

}  // namespace kubesim::fakeapi::internal
