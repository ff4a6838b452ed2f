// apiextensions-apiserver's pkg/apiserver/schema/listtype (validation.go) over nlohmann JSON.
#include "fakeapi/internal/crd/schema_list_types.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "fakeapi/internal/crd/schema_checks.h"
#include "fakeapi/internal/encoding/go_compat.h"

namespace kubesim::fakeapi::internal {
namespace {

using Json = nlohmann::json;
using schema_checks::keyword;
using validation::FieldErrors;

// A schema keyword that is itself a schema (an object), or null.
const Json* subschema(const Json& s, const char* name) {
  const Json* sub = keyword(s, name);
  return sub != nullptr && sub->is_object() ? sub : nullptr;
}

// The identity of a set item: scalars by Go type and value (int64(1) is not float64(1)),
// compounds by their JSON. `absent` marks a list-map item without the key (Go's
// unspecifiedKeyValue), unlike any value.
std::string set_key(const Json* v) {
  if (v == nullptr) return "u";
  std::string key(1, static_cast<char>('a' + static_cast<int>(go_type(*v))));
  if (v->is_object() || v->is_array()) {
    key = "c" + validation::go_json(*v);
  } else {
    key += v->dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  return key;
}

// The indices of the second appearance of each repeated key (validateListSet).
std::vector<std::size_t> repeated(const std::vector<std::string>& keys) {
  std::unordered_map<std::string_view, int> seen;
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (++seen[keys[i]] == 2) out.push_back(i);
  }
  return out;
}

void check_value(const Json& s, const Json& v, const std::string& path, FieldErrors& errs);

void check_map_list(const Json& s, const Json& list, const std::string& path, FieldErrors& errs) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_null() && !list[i].is_object()) {
      errs.invalid(validation::index(path, i), validation::render(list[i]),
                   "must be an object for an array of list-type map");
      return;
    }
  }
  if (list.size() <= 1) return;
  std::vector<std::string> key_fields;
  if (const Json* names = keyword(s, "x-kubernetes-list-map-keys"); names && names->is_array()) {
    for (const Json& n : *names) {
      if (n.is_string()) key_fields.push_back(n.get<std::string>());
    }
  }
  // Each item's keys, as the object Go reports for a duplicate: the key fields it has.
  std::vector<Json> shown;
  std::vector<std::string> keys;
  for (const Json& item : list) {
    Json present = Json::object();
    for (const std::string& f : key_fields) {
      if (item.is_object() && item.contains(f)) present[f] = item[f];
    }
    if (key_fields.size() == 1) {
      const auto it = present.find(key_fields[0]);
      keys.push_back(set_key(it == present.end() ? nullptr : &*it));
    } else {
      keys.push_back(set_key(&present));
    }
    shown.push_back(std::move(present));
  }
  for (const std::size_t i : repeated(keys)) {
    errs.duplicate(validation::index(path, i), validation::render(shown[i]));
  }
}

void check_list(const Json& s, const Json& list, const std::string& path, FieldErrors& errs) {
  if (const Json* type = keyword(s, "x-kubernetes-list-type"); type != nullptr) {
    if (*type == "set" && list.size() > 1) {
      std::vector<std::string> keys;
      keys.reserve(list.size());
      for (const Json& item : list) keys.push_back(set_key(&item));
      for (const std::size_t i : repeated(keys)) {
        errs.duplicate(validation::index(path, i), validation::render(list[i]));
      }
    } else if (*type == "map") {
      check_map_list(s, list, path, errs);
    }
  }
  if (const Json* items = subschema(s, "items")) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      check_value(*items, list[i], validation::index(path, i), errs);
    }
  }
}

void check_object(const Json& s, const Json& obj, const std::string& path, FieldErrors& errs) {
  if (const Json* additional = subschema(s, "additionalProperties")) {
    for (const auto& [k, v] : obj.items()) {
      check_value(*additional, v, validation::key(path, k), errs);
    }
  }
  if (const Json* properties = subschema(s, "properties")) {
    for (const auto& [k, v] : obj.items()) {
      const auto sub = properties->find(k);
      if (sub != properties->end() && sub->is_object()) {
        check_value(*sub, v, validation::child(path, k), errs);
      }
    }
  }
}

void check_value(const Json& s, const Json& v, const std::string& path, FieldErrors& errs) {
  if (v.is_array()) check_list(s, v, path, errs);
  if (v.is_object()) check_object(s, v, path, errs);
}

}  // namespace

void validate_list_sets_and_maps(const Json& schema, const Json& obj, FieldErrors& errs) {
  if (schema.is_object() && obj.is_object()) check_object(schema, obj, "", errs);
}

bool has_list_set_or_map_errors(const Json& schema, const Json& obj) {
  FieldErrors errs;
  validate_list_sets_and_maps(schema, obj, errs);
  return !errs.empty();
}

}  // namespace kubesim::fakeapi::internal
