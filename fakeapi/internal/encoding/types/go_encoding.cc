#include "fakeapi/internal/encoding/types/go_encoding.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "fakeapi/internal/encoding/types/go_time.h"

namespace kubesim::fakeapi::types {
namespace {

using nlohmann::json;

// A message's JSON fields (those of inlined structs included) sorted by name, so that one merge
// walk pairs them with an object's members (nlohmann::json keeps members sorted by key).
using FieldsByName = std::vector<std::pair<std::string_view, const FieldSpec*>>;

void collect_fields(const MessageSpec& spec, FieldsByName& out) {
  for (const FieldSpec& f : spec.fields) {
    if (f.has(kInline)) {
      collect_fields(*f.message, out);
    } else {
      out.emplace_back(f.name, &f);
    }
  }
}

// The sorted fields of every message reachable from the kinds' tables, built once.
class FieldIndex {
 public:
  FieldIndex() {
    for (const KindSpec& k : decodable_kinds()) add(*k.message);
  }
  const FieldsByName& of(const MessageSpec& spec) const { return index_.at(&spec); }

 private:
  void add(const MessageSpec& spec) {
    if (index_.contains(&spec)) return;
    FieldsByName& fields = index_[&spec];  // node-based: stays valid while others are added
    collect_fields(spec, fields);
    std::sort(fields.begin(), fields.end());
    for (const auto& [name, f] : fields) {
      if (f->message != nullptr) add(*f->message);
    }
  }
  std::unordered_map<const MessageSpec*, FieldsByName> index_;
};

const FieldsByName& fields_by_name(const MessageSpec& spec) {
  static const FieldIndex index;
  return index.of(spec);
}

// Where the walk is, as a chain of steps joined only when an unknown field is named.
struct PathNode {
  enum class Step { kMember, kIndex, kKey };
  const PathNode* parent = nullptr;
  Step step = Step::kMember;
  std::string_view name;  // kMember: the member; kKey: the map key
  std::size_t index = 0;  // kIndex

  std::string str() const {
    std::string head = parent != nullptr ? parent->str() : std::string();
    switch (step) {
      case Step::kIndex: return head + "[" + std::to_string(index) + "]";
      case Step::kKey: return head + "[" + std::string(name) + "]";
      case Step::kMember: break;
    }
    return head.empty() ? std::string(name) : head + "." + std::string(name);
  }
};

// Unknown members, when the caller wants them named: the path of `object`, and where to append.
struct Unknown {
  const PathNode* at = nullptr;
  std::vector<std::string>* out = nullptr;
};

void render(const MessageSpec& spec, json& object, bool top, Unknown unknown);

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

// A string list is a Go slice: nil (null) when it has no items, wherever it sits.
bool is_nil_string_list(const json& v) { return v.is_null() || (v.is_array() && v.empty()); }

// Whether a member reads as absent once decoded into Go and stored as protobuf: null, or an
// empty list or map.
bool reads_as_absent(const FieldSpec& f, const json& v) {
  if (v.is_null()) return true;
  if (f.kind == ValueKind::kStringList && f.cardinality == Cardinality::kSingular) {
    return is_nil_string_list(v);
  }
  return f.cardinality != Cardinality::kSingular && (v.is_array() || v.is_object()) && v.empty();
}

// What Go writes for a value struct field the wire did not carry; nullopt to omit it.
std::optional<json> absent_value_struct(const FieldSpec& f) {
  if (f.has(kOmitZero)) return std::nullopt;
  switch (f.kind) {
    case ValueKind::kMessage: {
      json object = json::object();
      render(*f.message, object, false, {});
      return object;
    }
    case ValueKind::kQuantity: return json("0");
    case ValueKind::kIntOrString: return json(0);
    default: return json(nullptr);  // Time, MicroTime, FieldsV1 print null when zero
  }
}

std::optional<json> absent_value(const FieldSpec& f) {
  if (f.has(kPointer) || f.cardinality != Cardinality::kSingular || f.kind == ValueKind::kBytes ||
      f.kind == ValueKind::kStringList) {
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

bool is_time(ValueKind kind) { return kind == ValueKind::kTime || kind == ValueKind::kMicroTime; }

TimeLayout layout_of(ValueKind kind) {
  return kind == ValueKind::kTime ? TimeLayout::kRFC3339 : TimeLayout::kRFC3339Micro;
}

// A Time or MicroTime as the server keeps it: in UTC, truncated; the zero time reads as absent.
// (kube-apiserver answers the write that stores a zero time behind a pointer with null there,
// and drops it at the next write that sends that null back; here it is left out at once, so
// that every stored object is one the next write renders the same.) A string that does not
// parse is left as it is: the decode step refuses it before anything is stored.
bool keep_time(const FieldSpec& f, json& v) {
  auto stored = stored_time(v.get_ref<const std::string&>(), layout_of(f.kind));
  const auto* t = std::get_if<StoredTime>(&stored);
  if (t == nullptr) return true;
  if (t->text.empty()) return false;
  v = t->text;
  return true;
}

// Applies the rules inside a present, non-absent value at `at`; false when the field is to be
// dropped.
bool keep_present(const FieldSpec& f, json& v, const PathNode& at, std::vector<std::string>* out) {
  if (f.kind == ValueKind::kMessage && f.cardinality == Cardinality::kRepeated) {
    std::size_t i = 0;
    for (json& element : v) {
      const PathNode step{&at, PathNode::Step::kIndex, {}, i++};
      render(*f.message, element, false, {&step, out});
    }
    return true;
  }
  if (f.kind == ValueKind::kMessage && f.cardinality == Cardinality::kMap) {
    for (auto& [key, element] : v.get_ref<json::object_t&>()) {
      const PathNode step{&at, PathNode::Step::kKey, key, 0};
      render(*f.message, element, false, {&step, out});
    }
    return true;
  }
  if (f.kind == ValueKind::kStringList && f.cardinality != Cardinality::kSingular) {
    for (json& element : v) {  // the values of a map, the elements of a list
      if (is_nil_string_list(element)) element = nullptr;
    }
    return true;
  }
  if (f.cardinality != Cardinality::kSingular) return true;
  if (f.kind == ValueKind::kMessage) {
    render(*f.message, v, false, {&at, out});
    return true;
  }
  if (is_time(f.kind) && v.is_string()) return keep_time(f, v);
  if (f.has(kPointer)) return true;
  if (is_scalar(f.kind)) return !(omits_empty(f) && is_empty_scalar(v));
  return true;  // Time, Quantity, IntOrString: structs to Go, never empty
}

// apiVersion and kind: the TypeMeta every top-level object carries outside its message.
bool is_type_meta(std::string_view key) { return key == "apiVersion" || key == "kind"; }

// Renders one level; `top` when `object` is a whole object (its TypeMeta is known).
void render(const MessageSpec& spec, json& object, bool top, Unknown unknown) {
  if (!object.is_object()) return;  // a mistyped JSON member: nothing to render into
  auto& members = object.get_ref<json::object_t&>();
  const FieldsByName& fields = fields_by_name(spec);
  // One merge walk: each member meets its field, if any, in name order. Members of no field are
  // unknown to the Go type, and the decode drops them.
  auto field = fields.begin();
  for (auto member = members.begin(); member != members.end();) {
    const std::string_view key = member->first;
    for (; field != fields.end() && field->first < key; ++field) {
      if (auto value = absent_value(*field->second)) {
        members.emplace_hint(member, std::string(field->first), std::move(*value));
      }
    }
    const PathNode here{unknown.at, PathNode::Step::kMember, key, 0};
    if (field == fields.end() || field->first != key) {
      if (top && is_type_meta(key)) {
        ++member;
        continue;
      }
      if (unknown.out != nullptr) unknown.out->push_back(here.str());
      member = members.erase(member);
      continue;
    }
    const FieldSpec& f = *field->second;
    ++field;
    if (!reads_as_absent(f, member->second) && keep_present(f, member->second, here, unknown.out)) {
      ++member;
      continue;
    }
    member = members.erase(member);
    if (auto value = absent_value(f)) {
      members.emplace_hint(member, std::string(f.name), std::move(*value));
    }
  }
  for (; field != fields.end(); ++field) {
    if (auto value = absent_value(*field->second)) {
      members.emplace_hint(members.end(), std::string(field->first), std::move(*value));
    }
  }
}

// The members render() drops as unknown, named as it names them, read without copying or
// changing `object`: the same walk, into the same members.
void collect_unknown(const MessageSpec& spec, const json& object, bool top, const PathNode* at,
                     std::vector<std::string>& out) {
  if (!object.is_object()) return;
  const FieldsByName& fields = fields_by_name(spec);
  auto field = fields.begin();
  for (const auto& [key, v] : object.get_ref<const json::object_t&>()) {
    while (field != fields.end() && field->first < key) ++field;
    const PathNode here{at, PathNode::Step::kMember, key, 0};
    if (field == fields.end() || field->first != key) {
      if (!(top && is_type_meta(key))) out.push_back(here.str());
      continue;
    }
    const FieldSpec& f = *field->second;
    if (f.kind != ValueKind::kMessage || v.is_null()) continue;
    if (f.cardinality == Cardinality::kRepeated) {
      std::size_t i = 0;
      for (const json& element : v) {
        const PathNode step{&here, PathNode::Step::kIndex, {}, i++};
        collect_unknown(*f.message, element, false, &step, out);
      }
    } else if (f.cardinality == Cardinality::kMap) {
      if (!v.is_object()) continue;
      for (const auto& [k, element] : v.get_ref<const json::object_t&>()) {
        const PathNode step{&here, PathNode::Step::kKey, k, 0};
        collect_unknown(*f.message, element, false, &step, out);
      }
    } else {
      collect_unknown(*f.message, v, false, &here, out);
    }
  }
}

// The name encoding/json gives a struct in its errors: the Go type's, the message's last part.
std::string_view struct_name(const MessageSpec& spec) {
  const std::size_t dot = spec.name.rfind('.');
  return dot == std::string_view::npos ? spec.name : spec.name.substr(dot + 1);
}

// The JSON names from the top down to a field, as encoding/json's error context keeps them (no
// list indices, no map keys).
struct FieldStack {
  const FieldStack* parent = nullptr;
  std::string_view name;

  std::string str() const {
    if (parent == nullptr) return std::string(name);
    return parent->str() + "." + std::string(name);
  }
};

std::string json_word(const json& v) {
  if (v.is_boolean()) return "bool";
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  return "number";
}

std::optional<std::string> time_error_in(const MessageSpec& spec, const json& object,
                                         const FieldStack* at) {
  if (!object.is_object()) return std::nullopt;  // a type error: the decoder does not go in
  const FieldsByName& fields = fields_by_name(spec);
  auto field = fields.begin();
  for (const auto& [key, v] : object.get_ref<const json::object_t&>()) {
    while (field != fields.end() && field->first < key) ++field;
    if (field == fields.end()) break;
    if (field->first != key || v.is_null()) continue;
    const FieldSpec& f = *field->second;
    const FieldStack here{at, key};
    if (is_time(f.kind) && f.cardinality == Cardinality::kSingular) {
      // Time.UnmarshalJSON reads a string, then parses it; either failure ends the decode.
      if (!v.is_string()) {
        return "json: cannot unmarshal " + json_word(v) + " into Go struct field " +
               std::string(struct_name(spec)) + "." + here.str() + " of type string";
      }
      auto parsed = parse_go_time(v.get_ref<const std::string&>(), layout_of(f.kind));
      if (auto* error = std::get_if<std::string>(&parsed)) return std::move(*error);
      continue;
    }
    if (f.kind != ValueKind::kMessage) continue;
    if (f.cardinality == Cardinality::kSingular) {
      if (auto error = time_error_in(*f.message, v, &here)) return error;
    } else if (f.cardinality == Cardinality::kRepeated ? v.is_array() : v.is_object()) {
      for (const json& element : v) {
        if (auto error = time_error_in(*f.message, element, &here)) return error;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> time_error(const MessageSpec& spec, const json& object) {
  return time_error_in(spec, object, nullptr);
}

const MessageSpec* go_type_of(std::string_view group, std::string_view version,
                              std::string_view kind) {
  for (const KindSpec& k : decodable_kinds()) {
    if (k.group == group && k.version == version && k.kind == kind) return k.message;
  }
  return nullptr;
}

const MessageSpec* go_type_of(std::string_view group, std::string_view kind) {
  for (const KindSpec& k : decodable_kinds()) {
    if (k.group == group && k.kind == kind) return k.message;
  }
  return nullptr;
}

void render_go_json(const MessageSpec& spec, json& object, std::vector<std::string>* unknown) {
  render(spec, object, true, {nullptr, unknown});
}

std::vector<std::string> unknown_fields(const MessageSpec& spec, const json& object) {
  std::vector<std::string> out;
  collect_unknown(spec, object, true, nullptr, out);
  return out;
}

}  // namespace kubesim::fakeapi::types

