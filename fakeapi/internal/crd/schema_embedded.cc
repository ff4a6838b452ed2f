// apiextensions-apiserver's pkg/apiserver/schema/objectmeta (validation.go) over nlohmann JSON.
#include "fakeapi/internal/crd/schema_embedded.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "kubesim/api/validation.h"
#include "fakeapi/internal/crd/schema_checks.h"
#include "fakeapi/internal/encoding/go_compat.h"
#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal {
namespace {

using Json = nlohmann::json;
using schema_checks::keyword;
using namespace validation;  // NOLINT: the field error vocabulary

const Json* subschema(const Json& s, const char* name) {
  const Json* sub = keyword(s, name);
  return sub != nullptr && sub->is_object() ? sub : nullptr;
}

bool embedded(const Json& s) {
  const Json* flag = keyword(s, "x-kubernetes-embedded-resource");
  return flag != nullptr && flag->is_boolean() && flag->get<bool>();
}

std::string joined(const std::vector<std::string>& messages) {
  std::string out;
  for (const std::string& m : messages) {
    if (!out.empty()) out += ',';
    out += m;
  }
  return out;
}

// ValidateObjectMeta of an embedded object's metadata, names being path segments.
void validate_embedded_meta(const Json& meta, const std::string& path, FieldErrors& errs) {
  const std::string generate_name = string_member(meta, "generateName");
  if (!generate_name.empty()) {
    for (const std::string& msg : name_messages(generate_name, api::NameRule::kPathSegment, true)) {
      errs.invalid(child(path, "generateName"), quote(generate_name), msg);
    }
  }
  // An empty name stands for a made-up one, which passes.
  if (const std::string name = string_member(meta, "name"); !name.empty()) {
    for (const std::string& msg : name_messages(name, api::NameRule::kPathSegment, false)) {
      errs.invalid(child(path, "name"), quote(name), msg);
    }
  }
  if (const std::string ns = string_member(meta, "namespace"); !ns.empty()) {
    for (const std::string& msg : dns_label_messages(ns)) {
      errs.invalid(child(path, "namespace"), quote(ns), msg);
    }
  }
  validate_nonnegative(member(meta, "generation"), child(path, "generation"), errs);
  validate_label_map(member(meta, "labels"), child(path, "labels"), errs);
  validate_annotation_map(member(meta, "annotations"), child(path, "annotations"), errs);
  validate_owner_references(member(meta, "ownerReferences"), child(path, "ownerReferences"), errs);
  validate_finalizers(member(meta, "finalizers"), child(path, "finalizers"), errs);
}

void validate_embedded_resource(const Json& x, const std::string& path, FieldErrors& errs) {
  if (!x.contains("apiVersion")) errs.required(child(path, "apiVersion"));
  if (!x.contains("kind")) errs.required(child(path, "kind"));
  for (const auto& [k, v] : x.items()) {
    if (k == "apiVersion") {
      const std::string at = child(path, "apiVersion");
      if (!v.is_string()) {
        errs.invalid(at, render(v), "must be a string");
      } else if (v.get_ref<const std::string&>().empty()) {
        errs.invalid(at, quote(""), "must not be empty");
      } else if (const std::string& gv = v.get_ref<const std::string&>();
                 gv != "/" && std::count(gv.begin(), gv.end(), '/') > 1) {
        errs.invalid(at, quote(gv), "unexpected GroupVersion string: " + gv);
      }
    } else if (k == "kind") {
      const std::string at = child(path, "kind");
      if (!v.is_string()) {
        errs.invalid(at, render(v), "must be a string");
      } else if (const std::string& kind = v.get_ref<const std::string&>(); kind.empty()) {
        errs.invalid(at, quote(""), "must not be empty");
      } else {
        std::string lower = kind;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (const auto msgs = api::is_dns1035_label(lower); !msgs.empty()) {
          errs.invalid(at, quote(kind),
                       "may have mixed case, but should otherwise match: " + joined(msgs));
        }
      }
    } else if (k == "metadata") {
      const std::string at = child(path, "metadata");
      if (v.is_object()) {
        validate_embedded_meta(v, at, errs);
      } else if (!v.is_null()) {
        errs.invalid(at, render(v),
                     "json: cannot unmarshal " + std::string(go_json_kind(v)) +
                         " into Go value of type v1.ObjectMeta");
      }
    }
  }
}

void walk(const Json& s, const Json& x, const std::string& path, FieldErrors& errs) {
  if (x.is_object()) {
    if (embedded(s)) validate_embedded_resource(x, path, errs);
    const Json* properties = subschema(s, "properties");
    const Json* additional = subschema(s, "additionalProperties");
    for (const auto& [k, v] : x.items()) {
      if (properties != nullptr) {
        if (const auto prop = properties->find(k); prop != properties->end()) {
          if (prop->is_object()) walk(*prop, v, child(path, k), errs);
          continue;
        }
      }
      if (additional != nullptr) walk(*additional, v, key(path, k), errs);
    }
  } else if (x.is_array()) {
    if (const Json* items = subschema(s, "items")) {
      for (std::size_t i = 0; i < x.size(); ++i) walk(*items, x[i], index(path, i), errs);
    }
  }
}

}  // namespace

void validate_embedded_resources(const Json& schema, const Json& obj, FieldErrors& errs) {
  if (schema.is_object()) walk(schema, obj, "", errs);
}

}  // namespace kubesim::fakeapi::internal
