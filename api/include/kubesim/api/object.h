// Object: an immutable Kubernetes object, shared by pointer and changed only by copying.
//
// An Object owns the object's JSON and, computed once when it is built, the metadata every
// component reads on its hot paths (name, namespace, resourceVersion, labels, …). The string
// views it hands out point into the Object and stay valid as long as it lives; hold the
// ObjectPtr, not the view, to keep one. Nothing can change an Object after construction: the
// `with_*` and `edited` members return a new Object and leave this one as it was.
//
// Costs: an Object the API server stores (or answers with) may hold only its serialized() text;
// its json() is then built on the first call and kept. The readers that take no tree
// (member_value, member_text, member_equals, value_at, metadata_json, metadata_field,
// metadata_equals, same_as) never build it. from_string keeps text that is already in
// serialized() form the same way. The metadata's strings, the key and the label and annotation
// entries sit in one block, so an Object is a few pointers plus that block.
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
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/api/result.h"
#include "kubesim/api/status.h"

namespace kubesim::api {
namespace internal {
class ObjectAccess;  // the library's own constructors (internal/object_access.h)
}  // namespace internal

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

// A read-only string→string map (labels, annotations) as key-sorted views into an Object, which
// must outlive it. Lookups are binary searches; iteration is in key order and yields pairs of
// views by value.
class StringMapView {
 public:
  using value_type = std::pair<std::string_view, std::string_view>;
  // Where a string is in its Object's buffer; `off` kAbsent is an absent string.
  struct Span {
    static constexpr std::uint32_t kAbsent = 0xffffffffu;
    std::uint32_t off = kAbsent;
    std::uint32_t len = 0;
    std::string_view in(const char* base) const {
      if (off == kAbsent) return {};
      return len == 0 ? std::string_view("", 0) : std::string_view(base + off, len);
    }
  };
  struct Entry {
    Span key;
    Span value;
  };
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = StringMapView::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;

    const_iterator() = default;
    const_iterator(const char* base, const Entry* at) : base_(base), at_(at) {}
    value_type operator*() const { return {at_->key.in(base_), at_->value.in(base_)}; }
    value_type operator[](difference_type n) const { return *(*this + n); }
    const_iterator& operator++() { ++at_; return *this; }
    const_iterator operator++(int) { auto old = *this; ++at_; return old; }
    const_iterator& operator--() { --at_; return *this; }
    const_iterator operator--(int) { auto old = *this; --at_; return old; }
    const_iterator& operator+=(difference_type n) { at_ += n; return *this; }
    const_iterator& operator-=(difference_type n) { at_ -= n; return *this; }
    friend const_iterator operator+(const_iterator i, difference_type n) { return i += n; }
    friend const_iterator operator+(difference_type n, const_iterator i) { return i += n; }
    friend const_iterator operator-(const_iterator i, difference_type n) { return i -= n; }
    friend difference_type operator-(const_iterator a, const_iterator b) { return a.at_ - b.at_; }
    friend bool operator==(const_iterator a, const_iterator b) { return a.at_ == b.at_; }
    friend auto operator<=>(const_iterator a, const_iterator b) { return a.at_ <=> b.at_; }

   private:
    const char* base_ = nullptr;
    const Entry* at_ = nullptr;
  };
  using iterator = const_iterator;

  StringMapView() = default;
  // `entries` (sorted by key, keys unique) and the strings they place relative to `base`.
  StringMapView(const char* base, const Entry* entries, std::uint32_t size)
      : base_(base), entries_(entries), size_(size) {}

  const_iterator begin() const { return {base_, entries_}; }
  const_iterator end() const { return {base_, entries_ + size_}; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  std::optional<std::string_view> find(std::string_view key) const;
  bool contains(std::string_view key) const { return find(key).has_value(); }
  // An owning copy, for callers that build a changed map.
  std::map<std::string, std::string, std::less<>> to_map() const;

 private:
  const char* base_ = nullptr;
  const Entry* entries_ = nullptr;
  std::uint32_t size_ = 0;
};

// An Object's key, "namespace/name" or "name": a view into the Object, which must outlive it.
class ObjectKeyView {
 public:
  ObjectKeyView() = default;
  explicit ObjectKeyView(std::string_view key) : key_(key) {}
  ObjectKeyView(const ObjectKey& key) : key_(key.view()) {}  // NOLINT: a view of it
  std::string_view view() const { return key_; }
  std::string str() const { return std::string(key_); }
  bool empty() const { return key_.empty(); }
  operator ObjectKey() const { return ObjectKey(str()); }  // NOLINT: an owning copy
  friend bool operator==(ObjectKeyView a, ObjectKeyView b) { return a.key_ == b.key_; }
  friend bool operator==(ObjectKeyView a, const ObjectKey& b) { return a.key_ == b.view(); }

 private:
  std::string_view key_;
};

class Object {
  struct Passkey {
    explicit Passkey() = default;
  };
  // What an Object holds: its JSON tree, or only its text (internal/object_access.h).
  enum class Form : std::uint8_t { kTree, kText };

 public:
  // Builds an Object from JSON. Fails with 400 BadRequest naming the offending field when `j` is
  // not an object or a metadata field has the wrong type. Does not check names, kinds or
  // apiVersions for validity; that is the API server's job.
  static Result<ObjectPtr> from_json(nlohmann::json j);
  // Parses JSON text, then as from_json. Malformed JSON fails with 400 BadRequest giving the
  // parser's position. Text as serialized() writes it (compact, keys in order; an object built
  // by appending other Objects' member_text() in key order is) is kept as it is: no tree is
  // built, which makes this the cheapest way to build an Object.
  static Result<ObjectPtr> from_string(std::string_view text);

  Object(Passkey, nlohmann::json j, Form form);  // use from_json or make_object
  // internal/object_access.h; *well_typed (when given) is set false when a metadata field
  // from_json checks has another type.
  Object(Passkey, std::string_view text, bool* well_typed = nullptr);
  explicit Object(Passkey);  // filled in by spliced()
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  ~Object();

  // --- Type and metadata, computed at construction ---------------------------------------------
  // Absent fields read as "" (or 0, nullopt, empty); an absent string field is an empty view with
  // a null data pointer.
  std::string_view api_version() const { return api_version_.in(strings()); }
  std::string_view kind() const { return kind_.in(strings()); }
  GroupVersionKind gvk() const { return gvk_from_api_version_and_kind(api_version(), kind()); }
  std::string_view name() const { return name_.in(strings()); }
  std::string_view namespace_() const { return namespace_name_.in(strings()); }
  std::string_view generate_name() const { return rare().generate_name.in(strings()); }
  std::string_view uid() const { return uid_.in(strings()); }
  std::string_view resource_version() const { return resource_version_.in(strings()); }
  std::int64_t generation() const { return generation_; }
  std::string_view creation_timestamp() const { return creation_timestamp_.in(strings()); }
  // Set once deletion has been requested (graceful deletion or pending finalizers).
  std::optional<std::string_view> deletion_timestamp() const;
  std::optional<std::int64_t> deletion_grace_period_seconds() const {
    return rare().deletion_grace_period_seconds;
  }
  StringMapView labels() const { return {strings(), entries() + labels_at_, labels_size_}; }
  std::optional<std::string_view> label(std::string_view key) const { return labels().find(key); }
  StringMapView annotations() const {
    return {strings(), entries() + rare().annotations_at, rare().annotations_size};
  }
  std::optional<std::string_view> annotation(std::string_view key) const {
    return annotations().find(key);
  }
  const std::vector<std::string_view>& finalizers() const { return rare().finalizers; }
  bool has_finalizer(std::string_view finalizer) const;
  const std::vector<OwnerReference>& owner_references() const {
    return rare().owner_references;
  }
  // The owner reference with controller=true, if any (metav1.GetControllerOf).
  const OwnerReference* controller_of() const;
  // "namespace/name", or "name" when the namespace is empty.
  ObjectKeyView key() const { return ObjectKeyView(key_.in(strings())); }

  // The whole object. Never changes. For an Object holding only its text the first call builds
  // it (safe to race from several threads); to_json() gives a copy without keeping one.
  const nlohmann::json& json() const&;
  nlohmann::json to_json() const;
  // A top-level member other than apiVersion, kind and metadata ("spec", "status", "data", …);
  // null when absent. This may build json() (see Costs above): member_value never does.
  const nlohmann::json& member(std::string_view key) const;
  // A copy of member(key), read without building json().
  nlohmann::json member_value(std::string_view key) const;
  // The JSON text of member(key) as serialized() holds it (a view into this Object), or nullopt
  // when absent. Any top-level member may be asked for. It never builds json(); an Object built
  // from a tree writes serialized() once for it.
  std::optional<std::string_view> member_text(std::string_view key) const;
  // Whether member(key) == value (an absent member equals null), decided without building json().
  bool member_equals(std::string_view key, const nlohmann::json& value) const;
  // other.member_equals(key, member_value(key)), decided without building either json() and,
  // when both hold their member's text alike, without reading the value.
  bool member_equals(std::string_view key, const Object& other) const;
  // A copy of the value at a dotted path of object members ("spec.nodeName"), read without
  // building json(); null when a step is absent or not an object.
  nlohmann::json value_at(std::string_view dotted_path) const;
  // A JSON object holding every top-level member but apiVersion, kind and metadata (which it may
  // hold too): what member() looks in. It may build json(), as member() does.
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
  // Compact JSON text of json(), built on first call and then shared: the view stays valid as
  // long as the Object lives.
  std::string_view serialized() const;
  std::size_t serialized_size() const { return serialized().size(); }

  // --- Copy-edits: each returns a new Object; this one is unchanged ---------------------------
  // Copies the JSON, applies `edit`, and builds a new Object from the result. The edit must leave
  // valid metadata (this is for trusted code): an invalid result aborts, naming the field.
  ObjectPtr edited(const std::function<void(nlohmann::json&)>& edit) const;
  // Sets the value at a dotted path of object members ("data.gen", "spec.replicas"), creating
  // the objects missing along the path and replacing a step that holds anything but an object.
  // The copy holds what this Object holds (its tree, or only its text: then, unless the path
  // starts at apiVersion, kind or metadata, it is made without building the tree).
  // Like edited, for trusted code: a copy with invalid metadata aborts.
  ObjectPtr with_value_at(std::string_view dotted_path, const nlohmann::json& value) const;
  // The same for a path given as its keys, which may hold dots (a ConfigMap's "app.properties");
  // an empty path aborts. A non-empty `resource_version` is set in the same copy.
  ObjectPtr with_value_at(std::span<const std::string_view> path, const nlohmann::json& value,
                          std::string_view resource_version = {}) const;
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
  using Span = StringMapView::Span;
  using Entry = StringMapView::Entry;
  class Builder;
  friend class Builder;
  friend class internal::ObjectAccess;

  ObjectPtr with_metadata_string(const char* field, std::string value) const;
  // One edit of a text-form Object's text: the bytes [begin, end) replaced by `bytes`.
  struct Splice {
    std::size_t begin;
    std::size_t end;
    std::string_view bytes;
  };
  // A text-form Object's copy with `edits` (in text order, apart) made, its metadata moved rather
  // than read again. No string the Object hands out may overlap an edit but resourceVersion,
  // when edits[resource_version_edit] is its new value (the edit is then that string's bytes,
  // unescaped). Null when an edit overlaps another string.
  ObjectPtr spliced(std::span<const Splice> edits, int resource_version_edit = -1) const;
  Span* span_slot(int field);
  const Span* span_slot(int field) const;
  std::optional<std::pair<std::size_t, std::size_t>> member_span(std::string_view key) const;
  nlohmann::json text_json(std::size_t begin, std::size_t end) const;
  std::string_view text() const { return {buffer_.get(), text_size_}; }
  const char* strings() const { return buffer_.get(); }
  const Entry* entries() const {
    return reinterpret_cast<const Entry*>(buffer_.get() + entries_at_);
  }
  void assemble_once() const;
  void read_tree(Builder& b);
  void read_text(Builder& b);

  // The tree of the object (internal/object_access.h).
  struct Tree;
  mutable std::unique_ptr<Tree> tree_;

  // What most objects do not have, held apart so that they pay one pointer for it. Absent
  // fields read from a shared empty Rare.
  struct Rare {
    Span generate_name;
    Span deletion_timestamp;
    std::optional<std::int64_t> deletion_grace_period_seconds;
    std::uint32_t annotations_at = 0;  // in entries()
    std::uint32_t annotations_size = 0;
    std::vector<std::string_view> finalizers;
    std::vector<OwnerReference> owner_references;
  };
  const Rare& rare() const { return rare_ ? *rare_ : no_rare(); }
  static const Rare& no_rare();
  std::unique_ptr<Rare> rare_;

  // One block for every string the Object hands out and the entries of its maps: kText's text
  // (at 0, text_size_ bytes), then strings the text cannot give in place (decoded escapes, the
  // key; for kTree every metadata string, copied), then the label and annotation entries (at
  // entries_at_, 4-aligned). Written at construction, never changed, never moved.
  std::unique_ptr<char[]> buffer_;
  Span api_version_;
  Span kind_;
  Span name_;
  Span namespace_name_;
  Span uid_;
  Span resource_version_;
  Span creation_timestamp_;
  Span key_;
  std::int64_t generation_ = 0;
  std::uint32_t labels_at_ = 0;  // in entries()
  std::uint32_t labels_size_ = 0;
  std::uint32_t entries_at_ = 0;
  std::uint32_t text_size_ = 0;
  // kText: where the metadata's value is in text() (end 0: no metadata).
  std::uint32_t metadata_begin_ = 0;
  std::uint32_t metadata_end_ = 0;
  mutable std::once_flag json_once_;
  bool text_form_ = false;  // Form::kText
};

// Builds an Object from JSON known to be well formed (tests, built-in fixtures, code that just
// produced it). Aborts with the validation message if it is not.
ObjectPtr make_object(nlohmann::json j);

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
