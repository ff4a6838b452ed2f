#include "api/object.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace kubesim::api {
namespace {

using Json = nlohmann::json;

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

// A view of `s`: into `s` itself when `copy_to` is null, else into a copy written at *copy_to (a
// buffer sized beforehand), which is advanced past it. A present empty string is a non-null view.
std::string_view keep(const std::string& s, char** copy_to) {
  if (copy_to == nullptr) return s;
  static constexpr char kEmpty[1] = "";
  if (s.empty()) return {kEmpty, 0};
  std::memcpy(*copy_to, s.data(), s.size());
  const std::string_view out(*copy_to, s.size());
  *copy_to += s.size();
  return out;
}

StringMapView string_map_view(const Json& m, char** copy_to) {
  if (!m.is_object()) return {};
  std::vector<StringMapView::value_type> entries;
  entries.reserve(m.size());
  // A JSON object iterates in key order, so the entries come out sorted.
  for (const auto& [k, v] : m.items()) {
    entries.emplace_back(keep(k, copy_to), keep(v.get_ref<const std::string&>(), copy_to));
  }
  return StringMapView(std::move(entries));
}

}  // namespace

// Reads metadata member `field` (a MetaField) into its accessor's member; values of another type
// than the field's read as absent. See keep() for `copy_to`.
void Object::read_field(int field, const Json& value, char** copy_to) {
  const auto text = [&]() -> std::string_view {
    return value.is_string() ? keep(value.get_ref<const std::string&>(), copy_to) : std::string_view();
  };
  switch (static_cast<MetaField>(field)) {
    case MetaField::kOther:
    case MetaField::kSelfLink:
      break;
    case MetaField::kName:
      name_ = text();
      break;
    case MetaField::kNamespace:
      namespace_name_ = text();
      break;
    case MetaField::kGenerateName:
      generate_name_ = text();
      break;
    case MetaField::kUid:
      uid_ = text();
      break;
    case MetaField::kResourceVersion:
      resource_version_ = text();
      break;
    case MetaField::kCreationTimestamp:
      creation_timestamp_ = text();
      break;
    case MetaField::kDeletionTimestamp:
      deletion_timestamp_ = text();
      break;
    case MetaField::kGeneration:
      if (value.is_number_integer()) generation_ = value.get<std::int64_t>();
      break;
    case MetaField::kDeletionGracePeriodSeconds:
      if (value.is_number_integer()) deletion_grace_period_seconds_ = value.get<std::int64_t>();
      break;
    case MetaField::kLabels:
      labels_ = string_map_view(value, copy_to);
      break;
    case MetaField::kAnnotations:
      annotations_ = string_map_view(value, copy_to);
      break;
    case MetaField::kFinalizers:
      if (value.is_array()) {
        finalizers_.reserve(value.size());
        for (const Json& s : value) finalizers_.push_back(keep(s.get_ref<const std::string&>(), copy_to));
      }
      break;
    case MetaField::kOwnerReferences:
      owner_references_ = owner_references_of(value);
      break;
  }
}

Object::Object(Passkey, nlohmann::json j, Layout layout) {
  if (layout == Layout::kCompact && j.is_object()) {
    compact(std::move(j));
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
      read_field(static_cast<int>(meta_field(key)), value, nullptr);
    }
  }
}


namespace {

// Whether a compact Object holds metadata member `f` with value `v` natively, rather than as
// JSON in meta_extra_: the fields it has accessors for, when they have their usual type.
bool held_natively(MetaField f, const Json& v) {
  switch (f) {
    case MetaField::kOther:
    case MetaField::kSelfLink:
    case MetaField::kOwnerReferences:
      return false;
    case MetaField::kGeneration:
    case MetaField::kDeletionGracePeriodSeconds:
      return v.is_number_integer();
    case MetaField::kLabels:
    case MetaField::kAnnotations:
      return v.is_object();
    case MetaField::kFinalizers:
      return v.is_array();
    default:
      return v.is_string();
  }
}

// Bits of Object::present_: one per MetaField, then the top-level fields.
constexpr std::uint32_t bit(MetaField f) { return 1u << static_cast<unsigned>(f); }
constexpr std::uint32_t kApiVersionBit = 1u << 28;
constexpr std::uint32_t kKindBit = 1u << 29;
constexpr std::uint32_t kMetadataBit = 1u << 30;

std::size_t string_bytes(const Json& v) {
  if (v.is_string()) return v.get_ref<const std::string&>().size();
  std::size_t n = 0;
  if (v.is_object()) {
    for (const auto& [k, e] : v.items()) n += k.size() + e.get_ref<const std::string&>().size();
  } else if (v.is_array()) {
    for (const Json& e : v) n += e.get_ref<const std::string&>().size();
  }
  return n;
}


}  // namespace

void Object::compact(Json j) {
  compact_ = true;
  auto& top = j.get_ref<Json::object_t&>();
  const auto api = top.find("apiVersion");
  const auto kind = top.find("kind");
  const auto meta = top.find("metadata");
  const bool api_native = api != top.end() && api->second.is_string();
  const bool kind_native = kind != top.end() && kind->second.is_string();
  const bool meta_native = meta != top.end() && meta->second.is_object();

  std::size_t size = 0;
  if (api_native) size += api->second.get_ref<const std::string&>().size();
  if (kind_native) size += kind->second.get_ref<const std::string&>().size();
  if (meta_native) {
    for (const auto& [key, value] : meta->second.items()) {
      if (held_natively(meta_field(key), value)) size += string_bytes(value);
    }
  }
  if (size > 0) arena_ = std::make_unique<char[]>(size);
  char* next = arena_.get();

  if (api_native) {
    api_version_ = keep(api->second.get_ref<const std::string&>(), &next);
    present_ |= kApiVersionBit;
    top.erase(api);
  }
  if (kind_native) {
    kind_ = keep(kind->second.get_ref<const std::string&>(), &next);
    present_ |= kKindBit;
    top.erase(kind);
  }
  if (meta_native) {
    present_ |= kMetadataBit;
    for (auto& [key, value] : meta->second.get_ref<Json::object_t&>()) {
      const MetaField f = meta_field(key);
      if (!held_natively(f, value)) {
        if (meta_extra_.is_null()) meta_extra_ = Json::object();
        auto& extra = meta_extra_.get_ref<Json::object_t&>();
        extra.emplace_hint(extra.end(), key, std::move(value));
        continue;
      }
      present_ |= bit(f);
      read_field(static_cast<int>(f), value, &next);
    }
    top.erase(meta);
    if (const auto refs = meta_extra_.find("ownerReferences"); refs != meta_extra_.end()) {
      owner_references_ = owner_references_of(*refs);
    }
  }
  body_ = std::move(j);
}

Json Object::assemble() const {
  Json out = body_;
  auto& top = out.get_ref<Json::object_t&>();
  if ((present_ & kApiVersionBit) != 0) top.emplace("apiVersion", std::string(api_version_));
  if ((present_ & kKindBit) != 0) top.emplace("kind", std::string(kind_));
  if ((present_ & kMetadataBit) != 0) top.emplace("metadata", metadata_json());
  return out;
}

namespace {

// The metadata members a compact Object holds natively, with their keys, in key order.
constexpr std::pair<MetaField, const char*> kNativeFields[] = {
    {MetaField::kAnnotations, "annotations"},
    {MetaField::kCreationTimestamp, "creationTimestamp"},
    {MetaField::kDeletionGracePeriodSeconds, "deletionGracePeriodSeconds"},
    {MetaField::kDeletionTimestamp, "deletionTimestamp"},
    {MetaField::kFinalizers, "finalizers"},
    {MetaField::kGenerateName, "generateName"},
    {MetaField::kGeneration, "generation"},
    {MetaField::kLabels, "labels"},
    {MetaField::kName, "name"},
    {MetaField::kNamespace, "namespace"},
    {MetaField::kResourceVersion, "resourceVersion"},
    {MetaField::kUid, "uid"},
};

constexpr std::uint32_t kNativeBits = [] {
  std::uint32_t bits = 0;
  for (const auto& [f, key] : kNativeFields) bits |= bit(f);
  return bits;
}();

// The "metadata" member of an object held as JSON, or null when it has none.
const Json* metadata_in(const Json& holder) {
  if (!holder.is_object()) return nullptr;
  const auto it = holder.find("metadata");
  return it == holder.end() ? nullptr : &*it;
}

bool same_string_map(const Json& j, const StringMapView& map) {
  if (!j.is_object() || j.size() != map.size()) return false;
  auto e = map.begin();
  for (const auto& [k, v] : j.items()) {
    if (k != e->first || !v.is_string() || v.get_ref<const std::string&>() != e->second) return false;
    ++e;
  }
  return true;
}

}  // namespace

// The JSON of native metadata field `f`, which must be present.
Json Object::native_json(int field) const {
  const auto f = static_cast<MetaField>(field);
  const auto string_map = [](const StringMapView& map) {
    Json out = Json::object();
    auto& entries = out.get_ref<Json::object_t&>();
    for (const auto& [k, v] : map) entries.emplace_hint(entries.end(), std::string(k), std::string(v));
    return out;
  };
  switch (f) {
    case MetaField::kName:
      return std::string(name_);
    case MetaField::kNamespace:
      return std::string(namespace_name_);
    case MetaField::kGenerateName:
      return std::string(generate_name_);
    case MetaField::kUid:
      return std::string(uid_);
    case MetaField::kResourceVersion:
      return std::string(resource_version_);
    case MetaField::kCreationTimestamp:
      return std::string(creation_timestamp_);
    case MetaField::kDeletionTimestamp:
      return std::string(deletion_timestamp_);
    case MetaField::kGeneration:
      return generation_;
    case MetaField::kDeletionGracePeriodSeconds:
      return *deletion_grace_period_seconds_;
    case MetaField::kLabels:
      return string_map(labels_);
    case MetaField::kAnnotations:
      return string_map(annotations_);
    case MetaField::kFinalizers: {
      Json list = Json::array();
      for (const std::string_view s : finalizers_) list.push_back(std::string(s));
      return list;
    }
    default:
      return Json();
  }
}

// Whether `j` equals native metadata field `f`, which must be present.
bool Object::native_equals(int field, const Json& j) const {
  const auto f = static_cast<MetaField>(field);
  const auto same_string = [&j](std::string_view mine) {
    return j.is_string() && j.get_ref<const std::string&>() == mine;
  };
  switch (f) {
    case MetaField::kName:
      return same_string(name_);
    case MetaField::kNamespace:
      return same_string(namespace_name_);
    case MetaField::kGenerateName:
      return same_string(generate_name_);
    case MetaField::kUid:
      return same_string(uid_);
    case MetaField::kResourceVersion:
      return same_string(resource_version_);
    case MetaField::kCreationTimestamp:
      return same_string(creation_timestamp_);
    case MetaField::kDeletionTimestamp:
      return same_string(deletion_timestamp_);
    case MetaField::kLabels:
      return same_string_map(j, labels_);
    case MetaField::kAnnotations:
      return same_string_map(j, annotations_);
    case MetaField::kFinalizers:
      if (!j.is_array() || j.size() != finalizers_.size()) return false;
      for (std::size_t i = 0; i < finalizers_.size(); ++i) {
        if (!j[i].is_string() || j[i].get_ref<const std::string&>() != finalizers_[i]) return false;
      }
      return true;
    default:
      return j == native_json(field);  // the integers: compared as numbers, whatever their sign
  }
}

Json Object::metadata_json() const {
  if (!compact_ || (present_ & kMetadataBit) == 0) {
    const Json* meta = metadata_in(compact_ ? body_ : json_);
    return meta == nullptr ? Json() : *meta;
  }
  Json meta = meta_extra_.is_object() ? meta_extra_ : Json::object();
  auto& m = meta.get_ref<Json::object_t&>();
  for (const auto& [f, key] : kNativeFields) {
    if ((present_ & bit(f)) != 0) m.emplace(key, native_json(static_cast<int>(f)));
  }
  return meta;
}

Json Object::metadata_field(std::string_view key) const {
  if (compact_ && (present_ & kMetadataBit) != 0) {
    const MetaField f = meta_field(key);
    if ((present_ & bit(f) & kNativeBits) != 0) return native_json(static_cast<int>(f));
    const auto it = meta_extra_.is_object() ? meta_extra_.find(key) : meta_extra_.end();
    return it == meta_extra_.end() ? Json() : *it;
  }
  const Json* meta = metadata_in(compact_ ? body_ : json_);
  if (meta == nullptr || !meta->is_object()) return Json();
  const auto it = meta->find(key);
  return it == meta->end() ? Json() : *it;
}

bool Object::metadata_equals(const Json& m, std::string_view except) const {
  if (!m.is_object()) return false;
  if (!compact_ || (present_ & kMetadataBit) == 0) {
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
  std::uint32_t expected = present_ & kNativeBits;
  std::size_t expected_extra = meta_extra_.is_object() ? meta_extra_.size() : 0;
  if (!except.empty()) {
    expected &= ~bit(meta_field(except));
    if (meta_extra_.is_object() && meta_extra_.contains(except)) --expected_extra;
  }
  std::uint32_t seen = 0;
  std::size_t seen_extra = 0;
  for (const auto& [key, value] : m.items()) {
    if (key == except) continue;
    const MetaField f = meta_field(key);
    if ((expected & bit(f)) != 0) {
      if (!native_equals(static_cast<int>(f), value)) return false;
      seen |= bit(f);
      continue;
    }
    const auto it = meta_extra_.is_object() ? meta_extra_.find(key) : meta_extra_.end();
    if (it == meta_extra_.end() || *it != value) return false;
    ++seen_extra;
  }
  return seen == expected && seen_extra == expected_extra;
}

bool Object::same_as(const Json& j) const {
  if (!compact_) return json_ == j;
  if (!j.is_object()) return false;
  // Every member of j must match one of this object's, and the counts must agree.
  std::size_t own = body_.size();
  for (const std::uint32_t b : {kApiVersionBit, kKindBit, kMetadataBit}) own += (present_ & b) != 0;
  if (j.size() != own) return false;
  for (const auto& [key, value] : j.items()) {
    const Json& v = value;  // clang cannot capture a structured binding
    const auto same_string = [&v](std::string_view mine) {
      return v.is_string() && v.get_ref<const std::string&>() == mine;
    };
    if (key == "apiVersion" && (present_ & kApiVersionBit) != 0) {
      if (!same_string(api_version_)) return false;
    } else if (key == "kind" && (present_ & kKindBit) != 0) {
      if (!same_string(kind_)) return false;
    } else if (key == "metadata" && (present_ & kMetadataBit) != 0) {
      if (!metadata_equals(value)) return false;
    } else {
      const auto it = body_.find(key);
      if (it == body_.end() || *it != value) return false;
    }
  }
  return true;
}

void Object::assemble_once() const {
  std::call_once(json_once_, [this] { json_ = assemble(); });
}

const nlohmann::json& Object::member(std::string_view key) const {
  static const Json kAbsent;
  assert(key != "metadata" && key != "apiVersion" && key != "kind");
  const Json& members = compact_ ? body_ : json_;
  if (!members.is_object()) return kAbsent;
  const auto it = members.find(key);
  return it == members.end() ? kAbsent : *it;
}

std::optional<std::string_view> Object::deletion_timestamp() const {
  if (deletion_timestamp_.data() == nullptr) return std::nullopt;
  return deletion_timestamp_;
}

bool Object::has_finalizer(std::string_view finalizer) const {
  return std::find(finalizers_.begin(), finalizers_.end(), finalizer) != finalizers_.end();
}

const OwnerReference* Object::controller_of() const {
  for (const OwnerReference& r : owner_references_) {
    if (r.controller.value_or(false)) return &r;
  }
  return nullptr;
}

const std::string& Object::serialized() const {
  std::call_once(serialized_once_, [this] {
    // Invalid UTF-8 (only possible in JSON built in code) is replaced rather than thrown on.
    const auto dump = [](const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); };
    serialized_ = compact_ ? dump(assemble()) : dump(json_);
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
