#include "api/object.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <charconv>
#include <limits>
#include <system_error>

#include "api/internal/json_text.h"

namespace kubesim::api {
namespace {

using Json = nlohmann::json;
namespace json_text = internal::json_text;

// The metadata fields whose type the Object guarantees.
enum class MetaField {
  kOther,
  kName,
  kNamespace,
  kGenerateName,
  kUid,
  kResourceVersion,
  kCreationTimestamp,
  kDeletionTimestamp,
  kSelfLink,
  kGeneration,
  kDeletionGracePeriodSeconds,
  kLabels,
  kAnnotations,
  kFinalizers,
  kOwnerReferences,
};

MetaField meta_field(std::string_view key) {
  // Dispatch on length first: most keys are rejected by one integer comparison.
  switch (key.size()) {
    case 3:
      return key == "uid" ? MetaField::kUid : MetaField::kOther;
    case 4:
      return key == "name" ? MetaField::kName : MetaField::kOther;
    case 6:
      return key == "labels" ? MetaField::kLabels : MetaField::kOther;
    case 8:
      return key == "selfLink" ? MetaField::kSelfLink : MetaField::kOther;
    case 9:
      return key == "namespace" ? MetaField::kNamespace : MetaField::kOther;
    case 10:
      if (key == "generation") return MetaField::kGeneration;
      return key == "finalizers" ? MetaField::kFinalizers : MetaField::kOther;
    case 11:
      return key == "annotations" ? MetaField::kAnnotations : MetaField::kOther;
    case 12:
      return key == "generateName" ? MetaField::kGenerateName : MetaField::kOther;
    case 15:
      if (key == "resourceVersion") return MetaField::kResourceVersion;
      return key == "ownerReferences" ? MetaField::kOwnerReferences : MetaField::kOther;
    case 17:
      if (key == "creationTimestamp") return MetaField::kCreationTimestamp;
      return key == "deletionTimestamp" ? MetaField::kDeletionTimestamp : MetaField::kOther;
    case 26:
      return key == "deletionGracePeriodSeconds" ? MetaField::kDeletionGracePeriodSeconds
                                                 : MetaField::kOther;
    default:
      return MetaField::kOther;
  }
}

std::string type_error(std::string_view path, std::string_view expected, const Json& got) {
  return std::string(path) + " must be " + std::string(expected) + ", got " + got.type_name();
}

std::string meta_path(std::string_view field) { return "metadata." + std::string(field); }

bool string_or_null(const Json& j) { return j.is_string() || j.is_null(); }

std::optional<std::string> check_integer(const Json& j, std::string_view field) {
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (!j.is_null() && !j.is_number_integer()) return type_error(meta_path(field), "an integer", j);
  if (j.is_number_unsigned() && j.get<std::uint64_t>() > kMax) {
    return meta_path(field) + " is out of the range of a 64-bit integer";
  }
  return std::nullopt;
}

std::optional<std::string> check_string_map(const Json& j, std::string_view field) {
  if (j.is_null()) return std::nullopt;
  if (!j.is_object()) return type_error(meta_path(field), "an object of strings", j);
  for (const auto& [k, v] : j.items()) {
    if (!v.is_string())
      return type_error(meta_path(field) + "[" + Json(k).dump() + "]", "a string", v);
  }
  return std::nullopt;
}

std::optional<std::string> check_finalizers(const Json& j) {
  if (j.is_null()) return std::nullopt;
  if (!j.is_array()) return type_error("metadata.finalizers", "an array", j);
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) {
      return type_error("metadata.finalizers[" + std::to_string(i) + "]", "a string", j[i]);
    }
  }
  return std::nullopt;
}

std::optional<std::string> check_owner_references(const Json& j) {
  constexpr std::string_view kPath = "metadata.ownerReferences";
  if (j.is_null()) return std::nullopt;
  if (!j.is_array()) return type_error(kPath, "an array", j);
  for (std::size_t i = 0; i < j.size(); ++i) {
    const Json& ref = j[i];
    const auto path = [&] { return std::string(kPath) + "[" + std::to_string(i) + "]"; };
    if (!ref.is_object()) return type_error(path(), "an object", ref);
    for (const char* f : {"apiVersion", "kind", "name", "uid"}) {
      if (const auto it = ref.find(f); it != ref.end() && !string_or_null(*it)) {
        return type_error(path() + "." + f, "a string", *it);
      }
    }
    for (const char* f : {"controller", "blockOwnerDeletion"}) {
      if (const auto it = ref.find(f); it != ref.end() && !it->is_boolean() && !it->is_null()) {
        return type_error(path() + "." + f, "a boolean", *it);
      }
    }
  }
  return std::nullopt;
}

// One pass over the metadata members, in key order (the first bad field in key order is named).
std::optional<std::string> check_metadata(const Json& m) {
  if (m.is_null()) return std::nullopt;
  if (!m.is_object()) return type_error("metadata", "an object", m);
  for (const auto& [key, value] : m.items()) {
    std::optional<std::string> error;
    switch (meta_field(key)) {
      case MetaField::kOther:
        break;
      case MetaField::kGeneration:
      case MetaField::kDeletionGracePeriodSeconds:
        error = check_integer(value, key);
        break;
      case MetaField::kLabels:
      case MetaField::kAnnotations:
        error = check_string_map(value, key);
        break;
      case MetaField::kFinalizers:
        error = check_finalizers(value);
        break;
      case MetaField::kOwnerReferences:
        error = check_owner_references(value);
        break;
      default:  // the string fields
        if (!string_or_null(value)) error = type_error(meta_path(key), "a string", value);
        break;
    }
    if (error) return error;
  }
  return std::nullopt;
}

// Why `j` cannot be an Object, or nullopt when it can.
std::optional<std::string> validate(const Json& j) {
  if (!j.is_object()) return type_error("the object", "a JSON object", j);
  for (const char* f : {"apiVersion", "kind"}) {
    if (const auto it = j.find(f); it != j.end() && !string_or_null(*it)) {
      return type_error(f, "a string", *it);
    }
  }
  if (const auto it = j.find("metadata"); it != j.end()) return check_metadata(*it);
  return std::nullopt;
}

// A view of the string at j[key]; an empty view with a null data pointer when absent or null.
std::string_view string_at(const Json& j, const char* key) {
  if (!j.is_object()) return {};
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return {};
  return it->get_ref<const std::string&>();
}

std::optional<bool> bool_at(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

// The metadata object of `j`, created when missing.
Json& metadata_of(Json& j) {
  Json& m = j["metadata"];
  if (!m.is_object()) m = Json::object();
  return m;
}

// Sets metadata[field], or removes it when `value` is null: Kubernetes omits empty fields.
void set_metadata(Json& j, const char* field, Json value) {
  Json& m = metadata_of(j);
  if (value.is_null()) {
    m.erase(field);
  } else {
    m[field] = std::move(value);
  }
}

std::vector<OwnerReference> owner_references_of(const Json& refs) {
  std::vector<OwnerReference> out;
  if (!refs.is_array()) return out;
  out.reserve(refs.size());
  for (const Json& r : refs) {
    out.push_back({string_at(r, "apiVersion"), string_at(r, "kind"), string_at(r, "name"),
                   string_at(r, "uid"), bool_at(r, "controller"), bool_at(r, "blockOwnerDeletion")});
  }
  return out;
}

[[noreturn]] void die(std::string_view what) {
  std::fprintf(stderr, "kubesim: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

}  // namespace

StringMapView::StringMapView(const nlohmann::json& j) {
  if (!j.is_object()) return;
  entries_.reserve(j.size());
  // A JSON object iterates in key order, so entries_ comes out sorted.
  for (const auto& [k, v] : j.items()) {
    entries_.emplace_back(k, v.get_ref<const std::string&>());
  }
  assert(std::is_sorted(entries_.begin(), entries_.end(),
                        [](const auto& a, const auto& b) { return a.first < b.first; }));
}

std::optional<std::string_view> StringMapView::find(std::string_view key) const {
  const auto it =
      std::lower_bound(entries_.begin(), entries_.end(), key,
                       [](const value_type& e, std::string_view k) { return e.first < k; });
  if (it == entries_.end() || it->first != key) return std::nullopt;
  return it->second;
}

std::map<std::string, std::string, std::less<>> StringMapView::to_map() const {
  std::map<std::string, std::string, std::less<>> out;
  for (const auto& [k, v] : entries_) out.emplace_hint(out.end(), k, v);
  return out;
}

Result<ObjectPtr> Object::from_json(nlohmann::json j, Layout layout) {
  if (auto error = validate(j)) return new_bad_request("invalid object: " + *error);
  return std::make_shared<const Object>(Passkey{}, std::move(j), layout);
}

Result<ObjectPtr> Object::from_string(std::string_view text) {
  Json j;
  try {
    j = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line 1, column 9: …".
    std::string_view what = e.what();
    if (const auto close = what.find("] "); close != std::string_view::npos) {
      what.remove_prefix(close + 2);
    }
    return new_bad_request("malformed JSON at byte " + std::to_string(e.byte) + ": " +
                           std::string(what));
  }
  return from_json(std::move(j));
}

namespace {

StringMapView string_map_view(const Json& m) {
  if (!m.is_object()) return {};
  std::vector<StringMapView::value_type> entries;
  entries.reserve(m.size());
  // A JSON object iterates in key order, so the entries come out sorted.
  for (const auto& [k, v] : m.items()) entries.emplace_back(k, v.get_ref<const std::string&>());
  return StringMapView(std::move(entries));
}

}  // namespace

// The view a string metadata field (a MetaField) is read into; null for the other fields.
std::string_view* Object::string_slot(int field) {
  switch (static_cast<MetaField>(field)) {
    case MetaField::kName:
      return &name_;
    case MetaField::kNamespace:
      return &namespace_name_;
    case MetaField::kGenerateName:
      return &rare_for_writing().generate_name;
    case MetaField::kUid:
      return &uid_;
    case MetaField::kResourceVersion:
      return &resource_version_;
    case MetaField::kCreationTimestamp:
      return &creation_timestamp_;
    case MetaField::kDeletionTimestamp:
      return &rare_for_writing().deletion_timestamp;
    default:
      return nullptr;
  }
}

const std::string_view* Object::string_slot(int field) const {
  switch (static_cast<MetaField>(field)) {
    case MetaField::kGenerateName:
      return &rare().generate_name;
    case MetaField::kDeletionTimestamp:
      return &rare().deletion_timestamp;
    default:  // the others are not in Rare: nothing is allocated
      return const_cast<Object*>(this)->string_slot(field);
  }
}

const Object::Rare& Object::no_rare() {
  static const Rare kNone;
  return kNone;
}

// Reads metadata member `field` (a MetaField) into its accessor's member from `src`, which gives
// the value as each kind of field needs it: string() (a null view when it is not a string),
// integer(), string_map(), strings() and owner_references() (empty when of another type).
template <typename Source>
void Object::read_from(int field, const Source& src) {
  if (std::string_view* slot = string_slot(field)) {
    *slot = src.string();
    return;
  }
  switch (static_cast<MetaField>(field)) {
    default:  // the string fields, read above, and the fields not read
      break;
    case MetaField::kGeneration:
      if (auto v = src.integer()) generation_ = *v;
      break;
    case MetaField::kDeletionGracePeriodSeconds:
      if (auto v = src.integer()) rare_for_writing().deletion_grace_period_seconds = *v;
      break;
    case MetaField::kLabels:
      labels_ = src.string_map();
      break;
    case MetaField::kAnnotations:
      if (StringMapView map = src.string_map(); !map.empty()) {
        rare_for_writing().annotations = std::move(map);
      }
      break;
    case MetaField::kFinalizers:
      if (std::vector<std::string_view> list = src.strings(); !list.empty()) {
        rare_for_writing().finalizers = std::move(list);
      }
      break;
    case MetaField::kOwnerReferences:
      if (std::vector<OwnerReference> refs = src.owner_references(); !refs.empty()) {
        rare_for_writing().owner_references = std::move(refs);
      }
      break;
  }
}

// A metadata value of a tree Object, for read_from.
void Object::read_field(int field, const Json& value) {
  struct TreeSource {
    const Json& value;
    std::string_view string() const {
      return value.is_string() ? std::string_view(value.get_ref<const std::string&>())
                               : std::string_view();
    }
    std::optional<std::int64_t> integer() const {
      if (!value.is_number_integer()) return std::nullopt;
      return value.get<std::int64_t>();
    }
    StringMapView string_map() const { return string_map_view(value); }
    std::vector<std::string_view> strings() const {
      std::vector<std::string_view> out;
      if (!value.is_array()) return out;
      out.reserve(value.size());
      for (const Json& s : value) out.push_back(s.get_ref<const std::string&>());
      return out;
    }
    std::vector<OwnerReference> owner_references() const { return owner_references_of(value); }
  };
  read_from(field, TreeSource{value});
}

Object::Object(Passkey, nlohmann::json j, Layout layout) {
  if (layout == Layout::kCompact && j.is_object()) {
    compact(j);
  } else {
    json_ = std::move(j);
    read_metadata(json_);
  }
  key_ = meta_namespace_key(namespace_name_, name_);
}

void Object::read_metadata(const Json& j) {
  if (!j.is_object()) return;
  const Json* m = nullptr;
  for (const auto& [key, value] : j.items()) {
    if (key == "metadata") {
      m = &value;
    } else if (value.is_string()) {
      if (key == "apiVersion") api_version_ = value.get_ref<const std::string&>();
      if (key == "kind") kind_ = value.get_ref<const std::string&>();
    }
  }
  if (m != nullptr && m->is_object()) {
    for (const auto& [key, value] : m->items()) {
      read_field(static_cast<int>(meta_field(key)), value);
    }
  }
}

// --- The compact layout: the object's JSON text, with the metadata read in place --------------

namespace {

// A reused buffer for text that is compared, or copied once at its final size.
std::string& scratch() {
  thread_local std::string buffer;
  buffer.clear();
  return buffer;
}

}  // namespace

void Object::compact(const Json& j) {
  compact_ = true;
  std::string& text = scratch();
  json_text::write(j, text);
  serialized_.assign(text);  // exactly sized: it is kept for the object's life
  read_text();
}

// A view of the string value at [begin, end) of the text: in place when it has no escape, else
// decoded into decoded_. An empty view with a null data pointer when the value is not a string.
std::string_view Object::text_string(std::size_t begin, std::size_t end) {
  const std::string_view t = serialized_;
  if (begin >= t.size() || t[begin] != '"') return {};
  const std::string_view raw = json_text::raw_string(t, begin, end);
  if (raw.find('\\') == std::string_view::npos) return raw;
  return rare_for_writing().decoded.emplace_front(json_text::decode_string(raw));
}

std::string_view Object::text_key(const json_text::Member& m) {
  if (!m.escaped_key) return m.raw_key;
  return rare_for_writing().decoded.emplace_front(json_text::key_of(m));
}

void Object::read_text() {
  const std::string_view t = serialized_;
  // One pass: the metadata's members are read as the metadata is walked.
  json_text::walk_members(t, 0, [&](const json_text::Member& m, std::size_t* value_end) {
    const std::string_view key = text_key(m);
    if (key == "metadata") {
      metadata_begin_ = static_cast<std::uint32_t>(m.value_begin);
      if (t[m.value_begin] == '{') {
        *value_end = json_text::for_each_member(t, m.value_begin, [&](const json_text::Member& f) {
          read_text_field(static_cast<int>(meta_field(text_key(f))), f.value_begin, f.value_end);
          return true;
        });
      } else {
        *value_end = json_text::skip_value(t, m.value_begin);
      }
      metadata_end_ = static_cast<std::uint32_t>(*value_end);
    } else if (key == "apiVersion" || key == "kind") {
      *value_end = json_text::skip_value(t, m.value_begin);
      (key == "kind" ? kind_ : api_version_) = text_string(m.value_begin, *value_end);
    }
    return true;
  });
}

// A metadata value of a compact Object, at [begin, end) of its text, for read_from.
void Object::read_text_field(int field, std::size_t begin, std::size_t end) {
  // A local class, so that it may use the Object's text_string and text_key.
  struct TextSource {
    Object& obj;
    std::string_view t;
    std::size_t begin;
    std::size_t end;

    std::string_view string() const { return obj.text_string(begin, end); }
    std::optional<std::int64_t> integer() const {
      std::int64_t v = 0;
      const auto r = std::from_chars(t.data() + begin, t.data() + end, v);
      if (r.ec != std::errc() || r.ptr != t.data() + end) return std::nullopt;
      return v;
    }
    StringMapView string_map() const {
      std::vector<StringMapView::value_type> entries;
      if (t[begin] == '{') {
        json_text::for_each_member(t, begin, [&](const json_text::Member& e) {
          entries.emplace_back(obj.text_key(e), obj.text_string(e.value_begin, e.value_end));
          return true;
        });
      }
      return StringMapView(std::move(entries));
    }
    std::vector<std::string_view> strings() const {
      std::vector<std::string_view> out;
      if (t[begin] != '[') return out;
      json_text::for_each_element(t, begin, [&](std::size_t b, std::size_t e) {
        out.push_back(obj.text_string(b, e));
      });
      return out;
    }
    std::vector<OwnerReference> owner_references() const {
      std::vector<OwnerReference> out;
      if (t[begin] != '[') return out;
      json_text::for_each_element(t, begin, [&](std::size_t b, std::size_t) {
        if (t[b] != '{') return;
        OwnerReference ref;
        json_text::for_each_member(t, b, [&](const json_text::Member& m) {
          const std::string_view key = obj.text_key(m);
          const char first = t[m.value_begin];
          const std::optional<bool> flag =
              first == 't' ? std::optional<bool>(true)
                           : first == 'f' ? std::optional<bool>(false) : std::nullopt;
          const std::string_view text = obj.text_string(m.value_begin, m.value_end);
          if (key == "apiVersion") ref.api_version = text;
          else if (key == "kind") ref.kind = text;
          else if (key == "name") ref.name = text;
          else if (key == "uid") ref.uid = text;
          else if (key == "controller") ref.controller = flag;
          else if (key == "blockOwnerDeletion") ref.block_owner_deletion = flag;
          return true;
        });
        out.push_back(ref);
      });
      return out;
    }
  };
  read_from(field, TextSource{*this, serialized_, begin, end});
}

std::optional<std::pair<std::size_t, std::size_t>> Object::member_span(std::string_view key) const {
  const auto m = json_text::find_member(serialized_, 0, key);
  if (!m) return std::nullopt;
  return std::make_pair(m->value_begin, m->value_end);
}

Json Object::text_json(std::size_t begin, std::size_t end) const {
  return json_text::parse(std::string_view(serialized_).substr(begin, end - begin));
}

namespace {

// The "metadata" member of an object held as JSON, or null when it has none.
const Json* metadata_in(const Json& holder) {
  if (!holder.is_object()) return nullptr;
  const auto it = holder.find("metadata");
  return it == holder.end() ? nullptr : &*it;
}

}  // namespace

Json Object::metadata_json() const {
  if (!compact_) {
    const Json* meta = metadata_in(json_);
    return meta == nullptr ? Json() : *meta;
  }
  if (metadata_end_ == 0) return Json();
  return text_json(metadata_begin_, metadata_end_);
}

Json Object::metadata_field(std::string_view key) const {
  if (!compact_) {
    const Json* meta = metadata_in(json_);
    if (meta == nullptr || !meta->is_object()) return Json();
    const auto it = meta->find(key);
    return it == meta->end() ? Json() : *it;
  }
  if (metadata_end_ == 0 || serialized_[metadata_begin_] != '{') return Json();
  // The fields read at construction are answered from their views (a string field is a string
  // or null); the others are found in the text.
  const auto from_view = [](std::string_view v) {
    return v.data() ? Json(std::string(v)) : Json();
  };
  const MetaField f = meta_field(key);
  if (const std::string_view* slot = string_slot(static_cast<int>(f))) return from_view(*slot);
  switch (f) {
    case MetaField::kDeletionGracePeriodSeconds:
      return rare().deletion_grace_period_seconds ? Json(*rare().deletion_grace_period_seconds)
                                                  : Json();
    case MetaField::kGeneration:
      if (generation_ != 0) return generation_;
      break;
    default:
      break;
  }
  const auto m = json_text::find_member(serialized_, metadata_begin_, key);
  return m ? text_json(m->value_begin, m->value_end) : Json();
}

bool Object::metadata_equals(const Json& m, std::string_view except) const {
  if (!m.is_object()) return false;
  if (!compact_) {
    const Json mine = metadata_json();
    if (!mine.is_object()) return false;
    Json a = m;
    Json b = mine;
    if (!except.empty()) {
      a.erase(std::string(except));
      b.erase(std::string(except));
    }
    return a == b;
  }
  if (metadata_end_ == 0) return false;
  return json_text::equals_except(
      m, std::string_view(serialized_).substr(metadata_begin_, metadata_end_ - metadata_begin_),
      except);
}

bool Object::same_as(const Json& j) const {
  if (!compact_) return json_ == j;
  return json_text::equals(j, serialized_);
}

void Object::assemble_once() const {
  std::call_once(json_once_, [this] { json_ = json_text::parse(serialized_); });
}

nlohmann::json Object::to_json() const { return compact_ ? json_text::parse(serialized_) : json_; }

const nlohmann::json& Object::member(std::string_view key) const {
  static const Json kAbsent;
  assert(key != "metadata" && key != "apiVersion" && key != "kind");
  const Json& members = json();
  if (!members.is_object()) return kAbsent;
  const auto it = members.find(key);
  return it == members.end() ? kAbsent : *it;
}

nlohmann::json Object::member_value(std::string_view key) const {
  if (!compact_) return member(key);
  const auto span = member_span(key);
  return span ? text_json(span->first, span->second) : Json();
}

Json Object::value_at(std::string_view dotted_path) const {
  if (!compact_) {
    const Json* at = &json_;
    for (std::string_view rest = dotted_path;;) {
      const std::size_t dot = rest.find('.');
      if (!at->is_object()) return Json();
      const auto it = at->find(rest.substr(0, dot));
      if (it == at->end()) return Json();
      at = &*it;
      if (dot == std::string_view::npos) return *at;
      rest.remove_prefix(dot + 1);
    }
  }
  const std::string_view t = serialized_;
  std::size_t begin = 0;
  std::size_t end = t.size();
  for (std::string_view rest = dotted_path;;) {
    const std::size_t dot = rest.find('.');
    if (t[begin] != '{') return Json();
    const auto m = json_text::find_member(t, begin, rest.substr(0, dot));
    if (!m) return Json();
    begin = m->value_begin;
    end = m->value_end;
    if (dot == std::string_view::npos) return text_json(begin, end);
    rest.remove_prefix(dot + 1);
  }
}

bool Object::member_equals(std::string_view key, const nlohmann::json& value) const {
  if (!compact_) return member(key) == value;
  const auto span = member_span(key);
  if (!span) return value.is_null();
  const std::string_view text = serialized_;
  return json_text::equals(value, text.substr(span->first, span->second - span->first));
}

std::optional<std::string_view> Object::deletion_timestamp() const {
  const std::string_view timestamp = rare().deletion_timestamp;
  if (timestamp.data() == nullptr) return std::nullopt;
  return timestamp;
}

bool Object::has_finalizer(std::string_view finalizer) const {
  const std::vector<std::string_view>& finalizers = rare().finalizers;
  return std::find(finalizers.begin(), finalizers.end(), finalizer) != finalizers.end();
}

const OwnerReference* Object::controller_of() const {
  for (const OwnerReference& r : rare().owner_references) {
    if (r.controller.value_or(false)) return &r;
  }
  return nullptr;
}

const std::string& Object::serialized() const {
  if (compact_) return serialized_;
  std::call_once(serialized_once_, [this] {
    json_text::write(json_, serialized_);
    serialized_.shrink_to_fit();  // it is kept for the object's life; drop the growth slack
  });
  return serialized_;
}

ObjectPtr Object::edited(const std::function<void(nlohmann::json&)>& edit) const {
  Json copy = to_json();
  edit(copy);
  return make_object(std::move(copy));
}

ObjectPtr Object::with_metadata_string(const char* field, std::string value) const {
  return edited([&](Json& j) { set_metadata(j, field, value.empty() ? Json() : Json(value)); });
}

ObjectPtr Object::with_resource_version(std::string resource_version) const {
  return with_metadata_string("resourceVersion", std::move(resource_version));
}
ObjectPtr Object::with_name(std::string name) const {
  return with_metadata_string("name", std::move(name));
}
ObjectPtr Object::with_namespace(std::string ns) const {
  return with_metadata_string("namespace", std::move(ns));
}
ObjectPtr Object::with_uid(std::string uid) const {
  return with_metadata_string("uid", std::move(uid));
}
ObjectPtr Object::with_creation_timestamp(std::string timestamp) const {
  return with_metadata_string("creationTimestamp", std::move(timestamp));
}

ObjectPtr Object::with_deletion_timestamp(std::optional<std::string> timestamp) const {
  return edited([&](Json& j) {
    set_metadata(j, "deletionTimestamp", timestamp ? Json(*timestamp) : Json());
  });
}

ObjectPtr Object::with_generation(std::int64_t generation) const {
  return edited(
      [&](Json& j) { set_metadata(j, "generation", generation == 0 ? Json() : Json(generation)); });
}

ObjectPtr Object::with_labels(const std::map<std::string, std::string, std::less<>>& labels) const {
  return edited(
      [&](Json& j) { set_metadata(j, "labels", labels.empty() ? Json() : Json(labels)); });
}

ObjectPtr Object::with_annotations(
    const std::map<std::string, std::string, std::less<>>& annotations) const {
  return edited([&](Json& j) {
    set_metadata(j, "annotations", annotations.empty() ? Json() : Json(annotations));
  });
}

ObjectPtr Object::with_annotation(std::string_view key, std::optional<std::string> value) const {
  return edited([&](Json& j) {
    Json& m = metadata_of(j);
    Json& a = m["annotations"];
    if (!a.is_object()) a = Json::object();
    if (value) {
      a[std::string(key)] = std::move(*value);
    } else {
      a.erase(std::string(key));
    }
    if (a.empty()) m.erase("annotations");
  });
}

ObjectPtr Object::with_finalizers(const std::vector<std::string>& finalizers) const {
  return edited([&](Json& j) {
    set_metadata(j, "finalizers", finalizers.empty() ? Json() : Json(finalizers));
  });
}

ObjectPtr make_object(nlohmann::json j, Object::Layout layout) {
  auto result = Object::from_json(std::move(j), layout);
  if (!result.ok()) die("make_object: " + result.status().message);
  return std::move(result).value();
}

std::string render_list_json(const ObjectList& list, std::string_view api_version,
                             std::string_view list_kind) {
  const auto quote = [](std::string_view s) {
    return Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
  };
  std::string meta;
  const auto add_meta = [&meta](std::string_view key, const std::string& value) {
    if (!meta.empty()) meta += ",";
    meta += "\"";
    meta += key;
    meta += "\":";
    meta += value;
  };
  if (!list.resource_version.empty()) add_meta("resourceVersion", quote(list.resource_version));
  if (!list.continue_token.empty()) add_meta("continue", quote(list.continue_token));
  if (list.remaining_item_count) {
    add_meta("remainingItemCount", std::to_string(*list.remaining_item_count));
  }

  std::size_t size = 64 + list_kind.size() + api_version.size() + meta.size();
  for (const ObjectPtr& item : list.items) size += item->serialized_size() + 1;
  std::string out;
  out.reserve(size);
  out += "{\"kind\":";
  out += quote(list_kind);
  out += ",\"apiVersion\":";
  out += quote(api_version);
  out += ",\"metadata\":{";
  out += meta;
  out += "},\"items\":[";
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    if (i > 0) out += ",";
    out += list.items[i]->serialized();
  }
  out += "]}";
  return out;
}

}  // namespace kubesim::api
