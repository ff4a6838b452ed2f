#include "api/object.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
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

Result<ObjectPtr> Object::from_json(nlohmann::json j) {
  if (auto error = validate(j)) return new_bad_request("invalid object: " + *error);
  return std::make_shared<const Object>(Passkey{}, std::move(j));
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

Object::Object(Passkey, nlohmann::json j) : json_(std::move(j)) {
  if (!json_.is_object()) return;
  const Json* m = nullptr;
  for (const auto& [key, value] : json_.items()) {
    if (key == "metadata") {
      m = &value;
    } else if (value.is_string()) {
      if (key == "apiVersion") api_version_ = value.get_ref<const std::string&>();
      if (key == "kind") kind_ = value.get_ref<const std::string&>();
    }
  }
  if (m != nullptr && m->is_object()) {
    for (const auto& [key, value] : m->items()) {
      const Json& v = value;  // a structured binding cannot be captured before C++20's P1091
      const auto text = [&v]() -> std::string_view {
        return v.is_string() ? std::string_view(v.get_ref<const std::string&>()) : std::string_view();
      };
      switch (meta_field(key)) {
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
          labels_ = StringMapView(value);
          break;
        case MetaField::kAnnotations:
          annotations_ = StringMapView(value);
          break;
        case MetaField::kFinalizers:
          if (value.is_array()) {
            finalizers_.reserve(value.size());
            for (const Json& s : value) finalizers_.emplace_back(s.get_ref<const std::string&>());
          }
          break;
        case MetaField::kOwnerReferences:
          if (value.is_array()) {
            owner_references_.reserve(value.size());
            for (const Json& r : value) {
              owner_references_.push_back({string_at(r, "apiVersion"), string_at(r, "kind"),
                                           string_at(r, "name"), string_at(r, "uid"),
                                           bool_at(r, "controller"),
                                           bool_at(r, "blockOwnerDeletion")});
            }
          }
          break;
      }
    }
  }
  key_ = meta_namespace_key(namespace_name_, name_);
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
    serialized_ = json_.dump(-1, ' ', false, Json::error_handler_t::replace);
    serialized_.shrink_to_fit();  // it is kept for the object's life; drop the growth slack
  });
  return serialized_;
}

ObjectPtr Object::edited(const std::function<void(nlohmann::json&)>& edit) const {
  Json copy = json_;
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

ObjectPtr make_object(nlohmann::json j) {
  auto result = Object::from_json(std::move(j));
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
