// Object: an immutable Kubernetes object, shared by pointer and changed only by copying.
//
// An Object owns the object's JSON and, computed once when it is built, the metadata every
// component reads on its hot paths (name, namespace, resourceVersion, labels, …). The string
// views it hands out point into the Object and stay valid as long as it lives; hold the
// ObjectPtr, not the view, to keep one. Nothing can change an Object after construction: the
// `with_*` and `edited` members return a new Object and leave this one as it was.
//
// Two layouts hold the same object. kTree keeps the whole JSON tree (json() is free). kCompact,
// for objects kept long (a store's), keeps only the object's compact JSON text (which is what
// serialized() returns), with the metadata views pointing into it; json() parses the text on its
// first call and keeps the tree from then on. The readers that take no tree (member_value,
// member_equals, metadata_json, metadata_field, metadata_equals, same_as) read the text in place.
//
// Guarantees:
// - Every Object's metadata has the types Kubernetes requires (strings, integers, string maps,
//   arrays of owner references); from_json rejects anything else with a 400 BadRequest Status.
// - serialized() is computed at most once, on first use, and may be called from several threads
//   at once; every caller gets the same bytes (compact JSON, keys sorted).
// - Reading an Object from several threads is safe; there is nothing to write.
#ifndef KUBESIM_API_OBJECT_H_
#define KUBESIM_API_OBJECT_H_

#include <cstddef>
#include <cstdint>
#include <forward_list>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/gvk.h"
#include "api/result.h"
#include "api/status.h"

namespace kubesim::api {
namespace internal::json_text {
struct Member;
}  // namespace internal::json_text

class Object;
using ObjectPtr = std::shared_ptr<const Object>;

// metav1.OwnerReference, as views into the owning Object's JSON.
struct OwnerReference {
  std::string_view api_version;
  std::string_view kind;
  std::string_view name;
  std::string_view uid;
  std::optional<bool> controller;
  std::optional<bool> block_owner_deletion;
};

// A read-only string→string map (labels, annotations) as key-sorted views into an Object's JSON.
// Lookups are binary searches; iteration is in key order.
class StringMapView {
 public:
  using value_type = std::pair<std::string_view, std::string_view>;
  using const_iterator = std::vector<value_type>::const_iterator;

  StringMapView() = default;
  // `j` must be a JSON object whose values are all strings, or null (an empty map).
  explicit StringMapView(const nlohmann::json& j);
  // `entries` must be sorted by key, keys unique.
  explicit StringMapView(std::vector<value_type> entries) : entries_(std::move(entries)) {}

  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  std::optional<std::string_view> find(std::string_view key) const;
  bool contains(std::string_view key) const { return find(key).has_value(); }
  // An owning copy, for callers that build a changed map.
  std::map<std::string, std::string, std::less<>> to_map() const;

 private:
  std::vector<value_type> entries_;  // sorted by key, keys unique
};

class Object {
  struct Passkey {
    explicit Passkey() = default;
  };

 public:
  // Builds an Object from JSON. Fails with 400 BadRequest naming the offending field when `j` is
  // not an object or a metadata field has the wrong type. Does not check names, kinds or
  // apiVersions for validity; that is the API server's job.
  enum class Layout { kTree, kCompact };
  static Result<ObjectPtr> from_json(nlohmann::json j, Layout layout = Layout::kTree);
  // Parses JSON text, then as from_json. Malformed JSON fails with 400 BadRequest giving the
  // parser's position.
  static Result<ObjectPtr> from_string(std::string_view text);

  Object(Passkey, nlohmann::json j, Layout layout);  // use from_json or make_object
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  // --- Type and metadata, computed at construction ---------------------------------------------
  // Absent fields read as "" (or 0, nullopt, empty).
  std::string_view api_version() const { return api_version_; }
  std::string_view kind() const { return kind_; }
  GroupVersionKind gvk() const { return gvk_from_api_version_and_kind(api_version_, kind_); }
  std::string_view name() const { return name_; }
  std::string_view namespace_() const { return namespace_name_; }
  std::string_view generate_name() const { return rare().generate_name; }
  std::string_view uid() const { return uid_; }
  std::string_view resource_version() const { return resource_version_; }
  std::int64_t generation() const { return generation_; }
  std::string_view creation_timestamp() const { return creation_timestamp_; }
  // Set once deletion has been requested (graceful deletion or pending finalizers).
  std::optional<std::string_view> deletion_timestamp() const;
  std::optional<std::int64_t> deletion_grace_period_seconds() const {
    return rare().deletion_grace_period_seconds;
  }
  const StringMapView& labels() const { return labels_; }
  std::optional<std::string_view> label(std::string_view key) const { return labels_.find(key); }
  const StringMapView& annotations() const { return rare().annotations; }
  std::optional<std::string_view> annotation(std::string_view key) const {
    return rare().annotations.find(key);
  }
  const std::vector<std::string_view>& finalizers() const { return rare().finalizers; }
  bool has_finalizer(std::string_view finalizer) const;
  const std::vector<OwnerReference>& owner_references() const {
    return rare().owner_references;
  }
  // The owner reference with controller=true, if any (metav1.GetControllerOf).
  const OwnerReference* controller_of() const;
  // "namespace/name", or "name" when the namespace is empty.
  const ObjectKey& key() const { return key_; }

  // The whole object. Never changes. For a compact Object the first call builds it (safe to
  // race from several threads); to_json() gives a copy without keeping one.
  const nlohmann::json& json() const& {
    if (compact_) assemble_once();
    return json_;
  }
  nlohmann::json to_json() const;
  // A top-level member other than apiVersion, kind and metadata ("spec", "status", "data", …);
  // null when absent. For a compact Object this builds json(): member_value reads in place.
  const nlohmann::json& member(std::string_view key) const;
  // A copy of member(key), read without building json().
  nlohmann::json member_value(std::string_view key) const;
  // Whether member(key) == value (an absent member equals null), decided without building json().
  bool member_equals(std::string_view key, const nlohmann::json& value) const;
  // A copy of the value at a dotted path of object members ("spec.nodeName"), read without
  // building json(); null when a step is absent or not an object.
  nlohmann::json value_at(std::string_view dotted_path) const;
  // A JSON object holding every top-level member but apiVersion, kind and metadata (which it may
  // hold too): what member() looks in. For a compact Object, json().
  const nlohmann::json& members() const { return json(); }
  // json()["metadata"] (null when absent), built without building json().
  nlohmann::json metadata_json() const;
  // json()["metadata"][key], null when absent.
  nlohmann::json metadata_field(std::string_view key) const;
  // Whether `m` equals json()["metadata"] but for the member `except` (none when empty), which
  // either may lack. False when either is not a JSON object.
  bool metadata_equals(const nlohmann::json& m, std::string_view except = {}) const;
  // Whether json() == j, decided without building json().
  bool same_as(const nlohmann::json& j) const;
  // Compact JSON text of json(), built on first call and then shared.
  const std::string& serialized() const;
  std::size_t serialized_size() const { return serialized().size(); }

  // --- Copy-edits: each returns a new Object; this one is unchanged ---------------------------
  // Copies the JSON, applies `edit`, and builds a new Object from the result. The edit must leave
  // valid metadata (this is for trusted code): an invalid result aborts, naming the field.
  ObjectPtr edited(const std::function<void(nlohmann::json&)>& edit) const;
  // The setters below remove the field when given its empty value (as Kubernetes omits it).
  ObjectPtr with_resource_version(std::string resource_version) const;
  ObjectPtr with_name(std::string name) const;
  ObjectPtr with_namespace(std::string ns) const;
  ObjectPtr with_uid(std::string uid) const;
  ObjectPtr with_generation(std::int64_t generation) const;
  ObjectPtr with_creation_timestamp(std::string timestamp) const;
  ObjectPtr with_deletion_timestamp(std::optional<std::string> timestamp) const;
  ObjectPtr with_labels(const std::map<std::string, std::string, std::less<>>& labels) const;
  ObjectPtr with_annotations(
      const std::map<std::string, std::string, std::less<>>& annotations) const;
  // Sets one annotation, or removes it when `value` is nullopt.
  ObjectPtr with_annotation(std::string_view key, std::optional<std::string> value) const;
  ObjectPtr with_finalizers(const std::vector<std::string>& finalizers) const;

 private:
  ObjectPtr with_metadata_string(const char* field, std::string value) const;
  void read_metadata(const nlohmann::json& j);
  std::string_view* string_slot(int field);
  const std::string_view* string_slot(int field) const;
  template <typename Source>
  void read_from(int field, const Source& src);
  void read_field(int field, const nlohmann::json& value);
  void compact(const nlohmann::json& j);
  void read_text();
  void read_text_field(int field, std::size_t begin, std::size_t end);
  std::string_view text_string(std::size_t begin, std::size_t end);
  std::string_view text_key(const internal::json_text::Member& m);
  std::optional<std::pair<std::size_t, std::size_t>> member_span(std::string_view key) const;
  nlohmann::json text_json(std::size_t begin, std::size_t end) const;
  void assemble_once() const;

  // kTree: the whole object. kCompact: built by the first json() call, under json_once_.
  mutable nlohmann::json json_;
  // What most objects do not have, held apart so that they pay one pointer for it. Absent
  // fields read from a shared empty Rare.
  struct Rare {
    std::string_view generate_name;
    std::string_view deletion_timestamp;
    std::optional<std::int64_t> deletion_grace_period_seconds;
    StringMapView annotations;
    std::vector<std::string_view> finalizers;
    std::vector<OwnerReference> owner_references;
    // kCompact: the strings of the text that hold escapes, decoded.
    std::forward_list<std::string> decoded;
  };
  const Rare& rare() const { return rare_ ? *rare_ : no_rare(); }
  Rare& rare_for_writing() {
    if (!rare_) rare_ = std::make_unique<Rare>();
    return *rare_;
  }
  static const Rare& no_rare();
  std::unique_ptr<Rare> rare_;

  // Views into json_ (kTree) or into serialized_ and Rare::decoded (kCompact), which never
  // change, so they stay valid. An absent field is an empty view with a null data pointer.
  std::string_view api_version_;
  std::string_view kind_;
  std::string_view name_;
  std::string_view namespace_name_;
  std::string_view uid_;
  std::string_view resource_version_;
  std::string_view creation_timestamp_;
  std::int64_t generation_ = 0;
  StringMapView labels_;
  ObjectKey key_;

  // kTree: written once, under serialized_once_. kCompact: the object's text, from the start.
  mutable std::string serialized_;
  // kCompact: where the metadata's value is in serialized_ (end 0: no metadata).
  std::uint32_t metadata_begin_ = 0;
  std::uint32_t metadata_end_ = 0;
  mutable std::once_flag json_once_;
  mutable std::once_flag serialized_once_;
  bool compact_ = false;
};

// Builds an Object from JSON known to be well formed (tests, built-in fixtures, code that just
// produced it). Aborts with the validation message if it is not.
ObjectPtr make_object(nlohmann::json j, Object::Layout layout = Object::Layout::kTree);

// One page of a list: the items plus the list's metadata.
struct ObjectList {
  std::vector<ObjectPtr> items;
  std::string resource_version;
  std::string continue_token;
  std::optional<std::int64_t> remaining_item_count;
};

// Renders `list` in the Kubernetes list form,
// {"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":…,"continue":…,
// "remainingItemCount":…},"items":[…]}, splicing in each item's cached serialization rather than
// re-encoding it. Empty metadata fields are omitted; "items" is always an array.
std::string render_list_json(const ObjectList& list, std::string_view api_version,
                             std::string_view list_kind);

}  // namespace kubesim::api

#endif  // KUBESIM_API_OBJECT_H_
