// kube-openapi's SchemaValidator (pkg/validation/validate: schema.go, schema_props.go,
// object_validator.go, slice_validator.go) over nlohmann JSON, with apiextensions-apiserver's
// ratcheting (pkg/apiserver/validation/ratcheting.go, k8s.io/apiserver's CorrelatedObject) and its
// conversion of the result to field errors (validation.go). The checks of single values (type,
// string, format, number, enum, and the limits on counts) are in schema_checks.cc.
#include "fakeapi/internal/crd/schema_validation.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fakeapi/internal/crd/schema_checks.h"
#include "fakeapi/internal/crd/schema_formats.h"
#include "fakeapi/internal/encoding/go_compat.h"

namespace kubesim::fakeapi::internal {
namespace {

using schema_checks::Code;
using schema_checks::Json;
using schema_checks::keyword;
using schema_checks::Result;
using schema_checks::SchemaError;
using validation::FieldErrors;

bool is_list_map(const Json& s) {
  const Json* type = keyword(s, "type");
  const Json* list_type = keyword(s, "x-kubernetes-list-type");
  const Json* keys = keyword(s, "x-kubernetes-list-map-keys");
  return type != nullptr && *type == "array" && list_type != nullptr && *list_type == "map" &&
         keys != nullptr && keys->is_array() && !keys->empty();
}

// The first element of `old_list` with the map keys of `item` (MapList.Get): keys are scalar
// members compared with their Go types; an item without them corresponds to nothing.
const Json* list_map_match(const Json& s, const Json& old_list, const Json& item) {
  auto scalar = [](const Json& v) { return v.is_boolean() || v.is_number() || v.is_string(); };
  if (!item.is_object()) return nullptr;
  std::vector<std::pair<const std::string*, const Json*>> wanted;
  for (const Json& key : *keyword(s, "x-kubernetes-list-map-keys")) {
    if (!key.is_string()) return nullptr;
    const auto it = item.find(key.get_ref<const std::string&>());
    if (it == item.end() || !scalar(*it)) return nullptr;
    wanted.emplace_back(&key.get_ref<const std::string&>(), &*it);
  }
  for (const Json& candidate : old_list) {
    if (!candidate.is_object()) continue;
    bool same = true;
    for (const auto& want : wanted) {
      const auto it = candidate.find(*want.first);
      if (it == candidate.end() || !go_equal(*it, *want.second)) {
        same = false;
        break;
      }
    }
    if (same) return &candidate;
  }
  return nullptr;
}

// The schema of member `key` of an object described by `s`: its property, else its
// additionalProperties schema; null when it has neither.
const Json* member_schema(const Json& s, const std::string& key) {
  if (const Json* props = keyword(s, "properties"); props != nullptr && props->is_object()) {
    const auto it = props->find(key);
    if (it != props->end()) return &*it;
  }
  const Json* additional = keyword(s, "additionalProperties");
  return additional != nullptr && additional->is_object() ? additional : nullptr;
}

// CorrelatedObject.CachedDeepEqual: `now` equals `before` member by member and, in map lists,
// item by item through their keys; other lists and scalars compare as Go values. An object member
// the schema does not describe makes the objects differ.
bool unchanged(const Json& s, const Json& now, const Json& before) {
  if (now.is_null() || before.is_null()) return now.is_null() && before.is_null();
  if (now.is_array() != before.is_array() || now.is_object() != before.is_object()) return false;
  if (now.is_array()) {
    if (now.size() != before.size()) return false;
    const Json* list_type = keyword(s, "x-kubernetes-list-type");
    if (list_type == nullptr || *list_type != "map") return go_equal(now, before);
    // Items of a map list correspond by their keys; without keys, none does.
    const Json* items = keyword(s, "items");
    for (const Json& item : now) {
      const Json* match = is_list_map(s) ? list_map_match(s, before, item) : nullptr;
      if (match == nullptr || items == nullptr || !items->is_object() ||
          !unchanged(*items, item, *match)) {
        return false;
      }
    }
    return true;
  }
  if (now.is_object()) {
    if (now.size() != before.size()) return false;
    for (const auto& [key, value] : now.items()) {
      const Json* child = member_schema(s, key);
      const auto it = before.find(key);
      if (child == nullptr || it == before.end() || !unchanged(*child, value, *it)) return false;
    }
    return true;
  }
  return go_equal(now, before);
}

class Validator {
 public:
  // SchemaValidator.Validate of `data` at `path` against `s`. `old` is what `data` corresponds to
  // in the stored object when its errors may be ratcheted, null otherwise.
  Result validate(const Json& s, const Json& data, const std::string& path, const Json* old) {
    const schema_checks::Node node(s);
    Result r;
    if (data.is_null()) {
      r.merge(checks_.type(node, data, path));
      r.merge(checks_.enumeration(node, data, path));
    } else {
      const GoType kind = go_type(data);
      auto apply = [&r](Result&& one) {
        r.merge(std::move(one));
        ++r.matches;
      };
      if (!node.types.empty() || !node.format.empty()) apply(checks_.type(node, data, path));
      apply(combinations(s, data, path));
      if (kind == GoType::kString) {
        apply(checks_.string(node, data, path));
        if (is_string_format(node.format)) apply(checks_.format(node, data, path));
      }
      if (kind == GoType::kInt64 || kind == GoType::kFloat64)
        apply(checks_.number(node, data, path));
      if (kind == GoType::kSlice) apply(slice(s, data, path, old));
      apply(checks_.enumeration(node, data, path));
      if (kind == GoType::kMap) apply(object(s, data, path, old));
      ++r.matches;
    }
    // Ratcheting: the errors of a value the update leaves as it was are dropped.
    if (old != nullptr && !r.valid() && unchanged(s, data, *old)) r.drop_errors();
    return r;
  }

 private:
  // schemaPropsValidator: anyOf, oneOf, allOf, not. Their schemas are checked without ratcheting.
  Result combinations(const Json& s, const Json& data, const std::string& path) {
    Result main;
    const std::string where = validation::quote(path);
    if (const Json* any = keyword(s, "anyOf"); any != nullptr && any->is_array() && !any->empty()) {
      std::optional<Result> best;
      std::optional<Result> success;
      for (const Json& sub : *any) {
        Result r = validate(sub, data, path, nullptr);
        if (r.valid()) {
          best.reset();
          success = std::move(r);
          break;
        }
        if (!best || r.matches > best->matches) best = std::move(r);
      }
      if (!success)
        main.add(schema_checks::plain(where + " must validate at least one schema (anyOf)"));
      if (best)
        main.merge(std::move(*best));
      else if (success)
        main.merge(std::move(*success));
    }
    if (const Json* one = keyword(s, "oneOf"); one != nullptr && one->is_array() && !one->empty()) {
      std::optional<Result> best;
      std::optional<Result> success;
      int valid = 0;
      for (const Json& sub : *one) {
        Result r = validate(sub, data, path, nullptr);
        if (r.valid()) {
          ++valid;
          best.reset();
          if (!success) success = std::move(r);
          continue;
        }
        if (valid == 0 && (!best || r.matches > best->matches)) best = std::move(r);
      }
      if (valid != 1) {
        main.add(schema_checks::plain(
            where + " must validate one and only one schema (oneOf). " +
            (valid == 0 ? std::string("Found none valid")
                        : "Found " + std::to_string(valid) + " valid alternatives")));
        if (best) main.merge(std::move(*best));
      } else {
        main.merge(std::move(*success));
      }
    }
    if (const Json* all = keyword(s, "allOf"); all != nullptr && all->is_array() && !all->empty()) {
      std::size_t valid = 0;
      for (const Json& sub : *all) {
        Result r = validate(sub, data, path, nullptr);
        if (r.valid()) ++valid;
        main.merge(std::move(r));
      }
      if (valid != all->size()) {
        main.add(schema_checks::plain(where + " must validate all the schemas (allOf)" +
                                      (valid == 0 ? ". None validated" : "")));
      }
    }
    if (const Json* no = keyword(s, "not"); no != nullptr && no->is_object()) {
      if (validate(*no, data, path, nullptr).valid()) {
        main.add(schema_checks::plain(where + " must not validate the schema (not)"));
      }
    }
    ++main.matches;
    return main;
  }

  // schemaSliceValidator: items, then minItems, maxItems and uniqueItems.
  Result slice(const Json& s, const Json& data, const std::string& path, const Json* old) {
    Result r;
    if (const Json* items = keyword(s, "items"); items != nullptr && items->is_object()) {
      const bool correlate = old != nullptr && old->is_array() && is_list_map(s);
      for (std::size_t i = 0; i < data.size(); ++i) {
        const Json* before = correlate ? list_map_match(s, *old, data[i]) : nullptr;
        r.merge(validate(*items, data[i], path + "[" + std::to_string(i) + "]", before));
      }
    }
    checks_.list_limits(s, data, path, r);
    ++r.matches;
    return r;
  }

  // objectValidator: min/maxProperties, additionalProperties, properties, required.
  Result object(const Json& s, const Json& data, const std::string& path, const Json* old) {
    Result r;
    checks_.property_limits(s, data, path, r);
    const Json* props = keyword(s, "properties");
    auto declared = [props](const std::string& key) {
      return props != nullptr && props->is_object() && props->contains(key);
    };
    // The stored value a member corresponds to; apiVersion and kind at the root never do.
    auto before = [&](const std::string& key) -> const Json* {
      if (old == nullptr || !old->is_object()) return nullptr;
      if (path.empty() && (key == "apiVersion" || key == "kind")) return nullptr;
      const auto it = old->find(key);
      return it == old->end() ? nullptr : &*it;
    };
    const Json* additional = keyword(s, "additionalProperties");
    if (additional != nullptr && additional->is_boolean() && !additional->get<bool>()) {
      for (const auto& [key, value] : data.items()) {
        if (declared(key)) continue;
        SchemaError e = schema_checks::error(Code::kOther, path,
                                             path + "." + key + " in body is a forbidden property");
        e.value = key;
        r.add(std::move(e));
      }
    } else if (additional != nullptr && additional->is_object()) {
      for (const auto& [key, value] : data.items()) {
        if (!declared(key)) r.merge(validate(*additional, value, path + "." + key, before(key)));
      }
    }
    if (props != nullptr && props->is_object()) {
      for (const auto& [key, schema] : props->items()) {
        const auto it = data.find(key);
        if (it == data.end()) continue;
        r.merge(validate(schema, *it, path.empty() ? key : path + "." + key, before(key)));
      }
    }
    if (const Json* required = keyword(s, "required");
        required != nullptr && required->is_array()) {
      for (const Json& key : *required) {
        if (!key.is_string() || data.contains(key.get_ref<const std::string&>())) continue;
        const std::string name = path + "." + key.get<std::string>();
        r.add(schema_checks::error(Code::kRequired, name, name + " in body is required"));
      }
    }
    return r;
  }

  schema_checks::ValueChecks checks_;
};

// kubeOpenAPIResultToFieldErrors: each error at `root` (the field path the validated value has;
// "" for the object itself, which apiextensions-apiserver names by a nil path, "<nil>") joined
// with the error's name.
void to_field_errors(const Result& result, const std::string& root, FieldErrors& errs) {
  const std::string bare = root.empty() ? "<nil>" : root;
  for (const SchemaError& e : result.errors) {
    if (e.code == Code::kPlain) {
      errs.invalid(bare, validation::quote(""), e.message);
      continue;
    }
    std::string name = e.name;
    if (!name.empty() && name[0] == '.') name.erase(0, 1);
    const std::string field =
        e.name.empty() || e.name == "." ? bare : validation::child(root, name);
    // Values print as field.Error prints them; a missing one as "".
    const std::string value =
        e.value.is_null() ? validation::quote("") : schema_checks::print(e.value);
    switch (e.code) {
      case Code::kRequired:
        errs.required(field);
        break;
      case Code::kEnum: {
        std::vector<std::string> allowed;
        for (const Json& v : e.values)
          allowed.push_back(v.is_string() ? v.get<std::string>() : validation::go_json(v));
        errs.not_supported(field, schema_checks::print(e.value), allowed);
        break;
      }
      case Code::kTooLong:
        errs.too_long(field, e.valid);
        break;
      case Code::kMaxItems:
      case Code::kTooManyProperties:
        errs.too_many(field, e.value.is_number_integer() ? e.value.get<std::int64_t>() : -1,
                      e.valid);
        break;
      case Code::kInvalidType:
        errs.type_invalid(field, value, e.message);
        break;
      default:
        errs.invalid(field, value, e.message);
    }
  }
}

}  // namespace

void validate_custom_resource(const nlohmann::json& schema, const nlohmann::json& obj,
                              const nlohmann::json* old, FieldErrors& errs) {
  if (!schema.is_object()) return;
  to_field_errors(Validator().validate(schema, obj, "", old), "", errs);
}

void validate_custom_resource_status(const nlohmann::json& schema, const nlohmann::json& status,
                                     const nlohmann::json* old_status, FieldErrors& errs) {
  const Json* props = keyword(schema, "properties");
  if (props == nullptr || !props->is_object()) return;
  const auto it = props->find("status");
  if (it == props->end() || !it->is_object()) return;
  to_field_errors(Validator().validate(*it, status, "", old_status), "status", errs);
}

}  // namespace kubesim::fakeapi::internal
