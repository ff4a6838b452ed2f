#include "fakeapi/types/go_encoding.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kubesim::fakeapi::types {
namespace {

using nlohmann::json;

bool omits_empty(const FieldSpec& f) { return f.has(kOmitEmpty) || f.has(kOmitZero); }

// Go's isEmptyValue for a present value-typed scalar ([]byte included).
bool is_empty_scalar(const json& v) {
  if (v.is_string()) return v.get_ref<const std::string&>().empty();
  if (v.is_boolean()) return !v.get<bool>();
  if (v.is_number_integer()) return v.get<std::int64_t>() == 0;
  return false;
}

bool is_scalar(ValueKind kind) {
  return kind == ValueKind::kString || kind == ValueKind::kBool || kind == ValueKind::kInt32 ||
         kind == ValueKind::kInt64 || kind == ValueKind::kBytes;
}

// What Go writes for a value struct field the wire did not carry; nullopt to omit it.
std::optional<json> absent_value_struct(const FieldSpec& f) {
  if (f.has(kOmitZero)) return std::nullopt;
  switch (f.kind) {
    case ValueKind::kMessage: {
      json object = json::object();
      apply_go_json_rules(*f.message, object);
      return object;
    }
    case ValueKind::kQuantity: return json("0");
    case ValueKind::kIntOrString: return json(0);
    default: return json(nullptr);  // Time, MicroTime, FieldsV1 print null when zero
  }
}

std::optional<json> absent_value(const FieldSpec& f) {
  if (f.has(kPointer) || f.cardinality != Cardinality::kSingular || f.kind == ValueKind::kBytes) {
    if (omits_empty(f)) return std::nullopt;
    return json(nullptr);
  }
  if (!is_scalar(f.kind)) return absent_value_struct(f);
  if (omits_empty(f)) return std::nullopt;
  switch (f.kind) {
    case ValueKind::kString: return json("");
    case ValueKind::kBool: return json(false);
    default: return json(0);
  }
}

// Applies the rules inside a present value; false when the field is to be dropped.
bool keep_present(const FieldSpec& f, json& v) {
  if (f.cardinality == Cardinality::kRepeated) {
    if (v.empty()) return false;
    if (f.kind == ValueKind::kMessage) {
      for (json& element : v) apply_go_json_rules(*f.message, element);
    }
    return true;
  }
  if (f.cardinality == Cardinality::kMap) {
    if (f.kind == ValueKind::kMessage) {
      for (auto& [key, element] : v.items()) apply_go_json_rules(*f.message, element);
    }
    return true;
  }
  if (f.kind == ValueKind::kMessage) {
    apply_go_json_rules(*f.message, v);
    return true;
  }
  if (f.has(kPointer)) return true;
  if (is_scalar(f.kind)) return !(omits_empty(f) && is_empty_scalar(v));
  // A zero Time or MicroTime (null) under omitzero.
  return !(f.has(kOmitZero) && v.is_null());
}

// Whether a JSON member reads as absent once decoded into Go and stored as protobuf.
bool reads_as_absent(const FieldSpec& f, const json& v) {
  if (v.is_null()) return true;
  if (f.cardinality != Cardinality::kSingular) return (v.is_array() || v.is_object()) && v.empty();
  return false;
}

void absent_nulls_and_empties(const MessageSpec& spec, json& object);

void absent_in_value(const FieldSpec& f, json& v) {
  if (f.kind != ValueKind::kMessage) return;
  if (f.cardinality == Cardinality::kRepeated && v.is_array()) {
    for (json& element : v) absent_nulls_and_empties(*f.message, element);
  } else if (f.cardinality == Cardinality::kMap && v.is_object()) {
    for (auto& [key, element] : v.items()) absent_nulls_and_empties(*f.message, element);
  } else if (f.cardinality == Cardinality::kSingular) {
    absent_nulls_and_empties(*f.message, v);
  }
}

void absent_nulls_and_empties(const MessageSpec& spec, json& object) {
  if (!object.is_object()) return;
  for (const FieldSpec& f : spec.fields) {
    if (f.has(kInline)) {
      absent_nulls_and_empties(*f.message, object);
      continue;
    }
    const auto it = object.find(f.name);
    if (it == object.end()) continue;
    if (reads_as_absent(f, *it)) {
      object.erase(it);
    } else {
      absent_in_value(f, *it);
    }
  }
}

}  // namespace

const MessageSpec* go_type_of(std::string_view group, std::string_view kind) {
  for (const KindSpec& k : decodable_kinds()) {
    if (k.group == group && k.kind == kind) return k.message;
  }
  return nullptr;
}

void render_go_json(const MessageSpec& spec, json& object) {
  if (!object.is_object()) return;
  absent_nulls_and_empties(spec, object);
  apply_go_json_rules(spec, object);
}

void apply_go_json_rules(const MessageSpec& spec, json& object) {
  if (!object.is_object()) return;  // a mistyped JSON member: nothing to render into
  for (const FieldSpec& f : spec.fields) {
    if (f.has(kInline)) {
      apply_go_json_rules(*f.message, object);
      continue;
    }
    auto it = object.find(f.name);
    if (it != object.end() && keep_present(f, *it)) continue;
    if (it != object.end()) object.erase(it);
    if (auto value = absent_value(f)) object[std::string(f.name)] = std::move(*value);
  }
}

}  // namespace kubesim::fakeapi::types
