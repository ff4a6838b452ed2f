#include "kubesim/api/object.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <charconv>
#include <limits>
#include <span>
#include <system_error>

#include "api/internal/json_text.h"
#include "api/internal/meta_field.h"
#include "api/internal/object_access.h"

namespace kubesim::api {
namespace json_text = internal::json_text;
namespace {

using Json = nlohmann::json;
using internal::meta_field;
using internal::MetaField;

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

std::optional<std::string_view> StringMapView::find(std::string_view key) const {
  const Entry* end = entries_ + size_;
  const Entry* it = std::lower_bound(entries_, end, key, [this](const Entry& e, std::string_view k) {
    return e.key.in(base_) < k;
  });
  if (it == end || it->key.in(base_) != key) return std::nullopt;
  return it->value.in(base_);
}

std::map<std::string, std::string, std::less<>> StringMapView::to_map() const {
  std::map<std::string, std::string, std::less<>> out;
  for (const auto [k, v] : *this) out.emplace_hint(out.end(), k, v);
  return out;
}

Result<ObjectPtr> Object::from_json(nlohmann::json j) {
  return internal::ObjectAccess::from_json(std::move(j), internal::Layout::kTree);
}

Result<ObjectPtr> Object::from_string(std::string_view text) {
  // Text as serialized() writes it is kept as it is, without a tree, when its metadata has the
  // types it must have; else the tree is built, and from_json says what is wrong.
  if (json_text::is_written_object(text)) {
    bool well_typed = true;
    auto object = std::make_shared<const Object>(Passkey{}, text, &well_typed);
    if (well_typed) return object;
  }
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

std::optional<std::pair<std::size_t, std::size_t>> Object::member_span(std::string_view key) const {
  // The text's keys are in order: a key after "metadata" (spec, status) is looked for past it,
  // without walking the metadata (which may hold managedFields).
  const bool after_metadata = metadata_end_ != 0 && !key.empty() && key[0] >= 'm' && key > "metadata";
  const auto m = after_metadata ? json_text::find_member_after(text(), metadata_end_, key)
                                : json_text::find_member(text(), 0, key);
  if (!m) return std::nullopt;
  return std::make_pair(m->value_begin, m->value_end);
}

Json Object::text_json(std::size_t begin, std::size_t end) const {
  return json_text::parse(text().substr(begin, end - begin));
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
  if (!text_form_) {
    const Json* meta = metadata_in(tree_->json);
    return meta == nullptr ? Json() : *meta;
  }
  if (metadata_end_ == 0) return Json();
  return text_json(metadata_begin_, metadata_end_);
}

Json Object::metadata_field(std::string_view key) const {
  if (!text_form_) {
    const Json* meta = metadata_in(tree_->json);
    if (meta == nullptr || !meta->is_object()) return Json();
    const auto it = meta->find(key);
    return it == meta->end() ? Json() : *it;
  }
  if (metadata_end_ == 0 || text()[metadata_begin_] != '{') return Json();
  // The fields read at construction are answered from their views (a string field is a string
  // or null); the others are found in the text.
  const auto from_view = [](std::string_view v) {
    return v.data() ? Json(std::string(v)) : Json();
  };
  const MetaField f = meta_field(key);
  if (const Span* slot = span_slot(static_cast<int>(f))) return from_view(slot->in(strings()));
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
  const auto m = json_text::find_member(text(), metadata_begin_, key);
  return m ? text_json(m->value_begin, m->value_end) : Json();
}

bool Object::metadata_equals(const Json& m, std::string_view except) const {
  if (!m.is_object()) return false;
  if (!text_form_) {
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
      m, text().substr(metadata_begin_, metadata_end_ - metadata_begin_),
      except);
}

bool Object::same_as(const Json& j) const {
  if (!text_form_) return tree_->json == j;
  return json_text::equals(j, text());
}

void Object::assemble_once() const {
  std::call_once(json_once_, [this] {
    auto tree = std::make_unique<Tree>();
    tree->json = json_text::parse(text());
    tree_ = std::move(tree);
  });
}

nlohmann::json Object::to_json() const {
  return text_form_ ? json_text::parse(text()) : tree_->json;
}

const nlohmann::json& Object::member(std::string_view key) const {
  static const Json kAbsent;
  assert(key != "metadata" && key != "apiVersion" && key != "kind");
  const Json& members = json();
  if (!members.is_object()) return kAbsent;
  const auto it = members.find(key);
  return it == members.end() ? kAbsent : *it;
}

nlohmann::json Object::member_value(std::string_view key) const {
  if (!text_form_) return member(key);
  const auto span = member_span(key);
  return span ? text_json(span->first, span->second) : Json();
}

std::optional<std::string_view> Object::member_text(std::string_view key) const {
  const std::string_view all = serialized();
  if (text_form_) {
    const auto span = member_span(key);
    if (!span) return std::nullopt;
    return all.substr(span->first, span->second - span->first);
  }
  const auto m = json_text::find_member(all, 0, key);
  if (!m) return std::nullopt;
  return all.substr(m->value_begin, m->value_end - m->value_begin);
}

Json Object::value_at(std::string_view dotted_path) const {
  if (!text_form_) {
    const Json* at = &tree_->json;
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
  const std::string_view t = text();
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
  if (!text_form_) return member(key) == value;
  const auto span = member_span(key);
  if (!span) return value.is_null();
  return json_text::equals(value, text().substr(span->first, span->second - span->first));
}

bool Object::member_equals(std::string_view key, const Object& other) const {
  if (text_form_ && other.text_form_) {
    const auto mine = member_span(key);
    const auto theirs = other.member_span(key);
    if (!mine && !theirs) return true;
    // The same bytes are the same value. Other bytes may be too (1.0 and 1, an escaped
    // character), so those are compared as values.
    if (mine && theirs &&
        text().substr(mine->first, mine->second - mine->first) ==
            other.text().substr(theirs->first, theirs->second - theirs->first)) {
      return true;
    }
  }
  return other.member_equals(key, member_value(key));
}

std::optional<std::string_view> Object::deletion_timestamp() const {
  const std::string_view timestamp = rare().deletion_timestamp.in(strings());
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

Object::Object(Passkey) {}
Object::~Object() = default;

const nlohmann::json& Object::json() const& {
  if (text_form_) assemble_once();
  return tree_->json;
}

std::string_view Object::serialized() const {
  if (text_form_) return text();
  std::call_once(tree_->text_once, [this] {
    json_text::write(tree_->json, tree_->text);
    tree_->text.shrink_to_fit();  // it is kept for the object's life; drop the growth slack
  });
  return tree_->text;
}

ObjectPtr Object::edited(const std::function<void(nlohmann::json&)>& edit) const {
  Json copy = to_json();
  edit(copy);
  return make_object(std::move(copy));
}

namespace {

// Whether `key` can be written and compared as it is: ASCII that needs no escape.
bool needs_no_escape(std::string_view key) {
  return std::all_of(key.begin(), key.end(), [](char c) {
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
  });
}

// The steps of a dotted path, held in place for paths of up to 8 steps.
class PathSteps {
 public:
  explicit PathSteps(std::string_view dotted_path) {
    for (std::string_view rest = dotted_path;;) {
      const std::size_t dot = rest.find('.');
      push_back(rest.substr(0, dot));
      if (dot == std::string_view::npos) break;
      rest.remove_prefix(dot + 1);
    }
  }
  std::span<const std::string_view> all() const {
    return more_.empty() ? std::span<const std::string_view>(few_.data(), size_)
                         : std::span<const std::string_view>(more_);
  }

 private:
  void push_back(std::string_view step) {
    if (size_ < few_.size()) {
      few_[size_++] = step;
      return;
    }
    if (more_.empty()) more_.assign(few_.begin(), few_.end());
    more_.push_back(step);
  }
  std::array<std::string_view, 8> few_;
  std::size_t size_ = 0;
  std::vector<std::string_view> more_;
};

// `value` under the keys steps[i..]: {"a":{"b":value}}.
void write_nested(std::span<const std::string_view> steps, std::size_t i, const Json& value,
                  std::string& out) {
  for (std::size_t k = i; k < steps.size(); ++k) {
    out += "{\"";
    out += steps[k];
    out += "\":";
  }
  json_text::write(value, out);
  out.append(steps.size() - i, '}');
}

}  // namespace

ObjectPtr Object::with_value_at(std::string_view dotted_path, const nlohmann::json& value) const {
  const PathSteps path(dotted_path);
  return with_value_at(path.all(), value);
}

ObjectPtr Object::with_value_at(std::span<const std::string_view> steps,
                                const nlohmann::json& value,
                                std::string_view resource_version) const {
  if (steps.empty()) die("with_value_at was given an empty path");
  // Sets the resourceVersion, when asked, in a copy made another way.
  const auto versioned = [&](ObjectPtr copy) {
    if (resource_version.empty()) return copy;
    return copy->with_resource_version(std::string(resource_version));
  };
  const bool in_place = text_form_ && steps[0] != "metadata" && steps[0] != "apiVersion" &&
                        steps[0] != "kind" && std::all_of(steps.begin(), steps.end(), needs_no_escape);
  const auto through_tree = [&] {
    Json copy = to_json();
    Json* at = &copy;
    for (const std::string_view step : steps) {
      if (!at->is_object()) *at = Json::object();
      at = &(*at)[std::string(step)];
    }
    *at = value;
    if (!resource_version.empty()) set_metadata(copy, "resourceVersion", Json(resource_version));
    return internal::make_object(std::move(copy), internal::layout_of(*this));
  };
  if (!in_place) return through_tree();
  // Splice the text: replace the value found at the path, or insert the member where its key
  // sorts, holding what is left of the path.
  const std::string_view t = text();
  std::string bytes;
  std::size_t begin = 0;
  std::size_t end_at = 0;
  std::size_t object = 0;
  for (std::size_t i = 0;; ++i) {
    std::optional<json_text::Member> found;
    std::size_t before = std::string_view::npos;  // the key the new member goes before
    bool escaped = false;
    // The members are visited before their values are skipped: the one found is not skipped.
    const std::size_t end = json_text::walk_members(
        t, object, [&](const json_text::Member& m, std::size_t*) {
          if (m.escaped_key) {
            escaped = true;
            return false;
          }
          const int order = m.raw_key.compare(steps[i]);
          if (order == 0) found = m;
          if (order > 0) before = m.key_begin;
          return order < 0;
        });
    if (escaped) return through_tree();
    if (found && i + 1 < steps.size() && t[found->value_begin] == '{') {
      object = found->value_begin;
      continue;
    }
    if (found) found->value_end = json_text::skip_value(t, found->value_begin);
    if (found) {
      if (i + 1 == steps.size()) {
        json_text::write(value, bytes);
      } else {
        write_nested(steps, i + 1, value, bytes);
      }
      begin = found->value_begin;
      end_at = found->value_end;
      break;
    }
    // The member is new: before the first key past it, or last.
    begin = end_at = before != std::string_view::npos ? before : end - 1;
    if (before == std::string_view::npos && t[object + 1] != '}') bytes += ',';
    bytes += '"';
    bytes += steps[i];
    bytes += "\":";
    write_nested(steps, i + 1, value, bytes);
    if (before != std::string_view::npos) bytes += ',';
    break;
  }
  const Splice edit{begin, end_at, bytes};
  const Span rv = resource_version_;
  if (!resource_version.empty() && rv.off != Span::kAbsent && rv.len != 0 &&
      rv.off < text_size_ && needs_no_escape(resource_version)) {
    // Both edits in one copy, in text order (the value is outside the metadata).
    const Splice version{rv.off, rv.off + rv.len, resource_version};
    const bool value_first = begin < rv.off;
    const std::array<Splice, 2> edits = {value_first ? edit : version, value_first ? version : edit};
    if (ObjectPtr copy = spliced(edits, value_first ? 1 : 0)) return copy;
  } else if (ObjectPtr copy = spliced(std::span<const Splice>(&edit, 1))) {
    return versioned(std::move(copy));
  }
  std::string out;
  out.reserve(t.size() + bytes.size());
  out.append(t.substr(0, begin)).append(bytes).append(t.substr(end_at));
  return versioned(std::make_shared<const Object>(Passkey{}, out));
}

ObjectPtr Object::with_metadata_string(const char* field, std::string value) const {
  return edited([&](Json& j) { set_metadata(j, field, value.empty() ? Json() : Json(value)); });
}

ObjectPtr Object::with_resource_version(std::string resource_version) const {
  // A text-form Object's resourceVersion written in place in its text is replaced there.
  const Span rv = resource_version_;
  if (text_form_ && !resource_version.empty() && rv.off != Span::kAbsent && rv.len != 0 &&
      rv.off < text_size_ && needs_no_escape(resource_version)) {
    const Splice edit{rv.off, rv.off + rv.len, resource_version};
    if (ObjectPtr copy = spliced(std::span<const Splice>(&edit, 1), 0)) return copy;
  }
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
  return internal::ObjectAccess::make(std::move(j), internal::Layout::kTree);
}

namespace internal {

Result<ObjectPtr> ObjectAccess::from_json(nlohmann::json j, Layout layout) {
  if (auto error = validate(j)) return new_bad_request("invalid object: " + *error);
  return std::make_shared<const Object>(Object::Passkey{}, std::move(j), form(layout));
}

ObjectPtr ObjectAccess::make(nlohmann::json j, Layout layout) {
  auto result = from_json(std::move(j), layout);
  if (!result.ok()) die("make_object: " + result.status().message);
  return std::move(result).value();
}

ObjectPtr ObjectAccess::from_text(std::string_view text) {
#ifndef NDEBUG
  Json parsed;
  try {
    parsed = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    die(std::string("make_text_object: not JSON: ") + e.what());
  }
  if (auto error = validate(parsed)) die("make_text_object: " + *error);
  if (json_text::write(parsed) != text) die("make_text_object: not compact, ordered text");
#endif
  return std::make_shared<const Object>(Object::Passkey{}, text);
}

}  // namespace internal

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
