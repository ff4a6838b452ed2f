// Building an Object: reading its metadata, from the JSON tree or from its compact text, into the
// one buffer that holds every string and map entry the Object hands out.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <system_error>

#include "api/internal/json_text.h"
#include "api/internal/meta_field.h"
#include "api/internal/object_access.h"
#include "kubesim/api/object.h"

namespace kubesim::api {
namespace json_text = internal::json_text;

using Json = nlohmann::json;
using internal::MetaField;

namespace {

// Reused buffers: the text being read, and the strings it cannot give in place.
std::string& scratch_text() {
  thread_local std::string buffer;
  buffer.clear();
  return buffer;
}
std::string& scratch_strings() {
  thread_local std::string buffer;
  buffer.clear();
  return buffer;
}

[[noreturn]] void too_large() {
  std::fprintf(stderr, "kubesim: an object of 4 GiB or more cannot be held\n");
  std::abort();
}

std::uint32_t size32(std::size_t n) {
  if (n >= std::numeric_limits<std::uint32_t>::max()) too_large();
  return static_cast<std::uint32_t>(n);
}

}  // namespace

// Gathers what the Object's metadata holds as spans of a text (kText, read in place) followed
// by the strings it adds, then lays them out in the Object's buffer.
class Object::Builder {
 public:
  struct OwnerSpans {
    Span api_version, kind, name, uid;
    std::optional<bool> controller, block_owner_deletion;
  };

  Builder(Object& object, std::string_view text)
      : object_(object), text_(text), strings_(scratch_strings()) {}

  // The string value at [begin, end) of the text: in place without escapes, decoded otherwise;
  // absent when the value is not a string.
  Span text_string(std::size_t begin, std::size_t end) {
    if (begin >= text_.size() || text_[begin] != '"') return {};
    const std::string_view raw = json_text::raw_string(text_, begin, end);
    if (raw.find('\\') == std::string_view::npos) {
      return {size32(static_cast<std::size_t>(raw.data() - text_.data())), size32(raw.size())};
    }
    return add(json_text::decode_string(raw));
  }
  Span text_key(const json_text::Member& m) {
    if (m.escaped_key) return add(json_text::key_of(m));
    return {size32(static_cast<std::size_t>(m.raw_key.data() - text_.data())),
            size32(m.raw_key.size())};
  }
  // A string the text does not hold.
  Span add(std::string_view s) {
    const Span span{size32(text_.size() + strings_.size()), size32(s.size())};
    strings_.append(s);
    return span;
  }
  std::string_view text() const { return text_; }
  // A span's string while building (the strings may still move).
  std::string_view view(Span s) const {
    if (s.off == Span::kAbsent) return {};
    if (s.off < text_.size()) return text_.substr(s.off, s.len);
    return std::string_view(strings_).substr(s.off - text_.size(), s.len);
  }

  Rare& rare() {
    if (!object_.rare_) object_.rare_ = std::make_unique<Rare>();
    return *object_.rare_;
  }

  // Set when a value read has a type from_json rejects (a TextSource's reads notice it; a tree
  // was checked before it was read).
  void set_mistyped() { mistyped_ = true; }
  bool mistyped() const { return mistyped_; }

  // Reads metadata member `field` from `src`, which gives the value as each kind of field needs
  // it: string() (absent when not a string), integer(), string_map(), strings() and
  // owner_references() (empty when of another type).
  template <typename Source>
  void read(MetaField field, const Source& src);

  // Lays out the buffer and points the Object into it.
  void finish();

  struct TreeSource;
  struct TextSource;

 private:
  Object& object_;
  std::string_view text_;
  std::string& strings_;
  std::vector<Entry> labels_;
  std::vector<Entry> annotations_;
  std::vector<Span> finalizers_;
  std::vector<OwnerSpans> owners_;
  bool mistyped_ = false;
};

Object::Span* Object::span_slot(int field) {
  switch (static_cast<MetaField>(field)) {
    case MetaField::kName:
      return &name_;
    case MetaField::kNamespace:
      return &namespace_name_;
    case MetaField::kUid:
      return &uid_;
    case MetaField::kResourceVersion:
      return &resource_version_;
    case MetaField::kCreationTimestamp:
      return &creation_timestamp_;
    default:
      return nullptr;
  }
}

const Object::Span* Object::span_slot(int field) const {
  switch (static_cast<MetaField>(field)) {
    case MetaField::kGenerateName:
      return &rare().generate_name;
    case MetaField::kDeletionTimestamp:
      return &rare().deletion_timestamp;
    default:
      return const_cast<Object*>(this)->span_slot(field);
  }
}

const Object::Rare& Object::no_rare() {
  static const Rare kNone;
  return kNone;
}

template <typename Source>
void Object::Builder::read(MetaField field, const Source& src) {
  switch (field) {
    case MetaField::kGenerateName:
      if (const Span s = src.string(); s.off != Span::kAbsent) rare().generate_name = s;
      break;
    case MetaField::kDeletionTimestamp:
      if (const Span s = src.string(); s.off != Span::kAbsent) rare().deletion_timestamp = s;
      break;
    case MetaField::kGeneration:
      if (auto v = src.integer()) object_.generation_ = *v;
      break;
    case MetaField::kDeletionGracePeriodSeconds:
      if (auto v = src.integer()) rare().deletion_grace_period_seconds = *v;
      break;
    case MetaField::kLabels:
      labels_ = src.string_map();
      break;
    case MetaField::kAnnotations:
      annotations_ = src.string_map();
      break;
    case MetaField::kFinalizers:
      finalizers_ = src.strings();
      break;
    case MetaField::kOwnerReferences:
      owners_ = src.owner_references();
      break;
    default: {
      const Span s = src.string();  // read also when not kept (selfLink), for its type
      if (Span* slot = object_.span_slot(static_cast<int>(field))) *slot = s;
      break;
    }
  }
}

void Object::Builder::finish() {
  Object& o = object_;
  // The key, "namespace/name" or the bare name (which needs no copy).
  if (const std::string_view ns = view(o.namespace_name_); !ns.empty()) {
    // Appended to the added strings in place. The namespace or the name may be an added string
    // itself: its view is taken after the reserve, which is the only step that may move them.
    const Span name = o.name_;
    const Span space = o.namespace_name_;
    const Span key{size32(text_.size() + strings_.size()), size32(space.len + 1 + name.len)};
    strings_.reserve(strings_.size() + key.len);
    strings_.append(view(space)).push_back('/');
    strings_.append(view(name));
    o.key_ = key;
  } else {
    o.key_ = o.name_;
  }
  const std::size_t strings_end = text_.size() + strings_.size();
  constexpr std::size_t kAlign = alignof(Entry);
  const std::size_t entries_at = (strings_end + kAlign - 1) / kAlign * kAlign;
  const std::size_t entry_count = labels_.size() + annotations_.size();
  const std::size_t total = std::max<std::size_t>(1, entries_at + entry_count * sizeof(Entry));
  size32(total);
  o.buffer_ = std::make_unique_for_overwrite<char[]>(total);
  char* out = o.buffer_.get();
  const auto copy = [](char* to, const void* from, std::size_t n) {
    if (n != 0) std::memcpy(to, from, n);  // `from` may be null when n is 0
  };
  copy(out, text_.data(), text_.size());
  copy(out + text_.size(), strings_.data(), strings_.size());
  copy(out + entries_at, labels_.data(), labels_.size() * sizeof(Entry));
  copy(out + entries_at + labels_.size() * sizeof(Entry), annotations_.data(),
       annotations_.size() * sizeof(Entry));
  o.text_size_ = size32(o.text_form_ ? text_.size() : 0);
  o.entries_at_ = size32(entries_at);
  o.labels_at_ = 0;
  o.labels_size_ = size32(labels_.size());
  if (!annotations_.empty()) {
    rare().annotations_at = o.labels_size_;
    rare().annotations_size = size32(annotations_.size());
  }
  const char* base = o.strings();
  if (!finalizers_.empty()) {
    auto& list = rare().finalizers;
    list.reserve(finalizers_.size());
    for (const Span s : finalizers_) list.push_back(s.in(base));
  }
  if (!owners_.empty()) {
    auto& refs = rare().owner_references;
    refs.reserve(owners_.size());
    for (const OwnerSpans& r : owners_) {
      refs.push_back({r.api_version.in(base), r.kind.in(base), r.name.in(base), r.uid.in(base),
                      r.controller, r.block_owner_deletion});
    }
  }
}

namespace {

std::optional<bool> bool_member(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

}  // namespace

Object::Object(Passkey, nlohmann::json j, Form form) {
  text_form_ = form == Form::kText && j.is_object();
  if (text_form_) {
    std::string& text = scratch_text();
    json_text::write(j, text);
    Builder b(*this, text);
    read_text(b);
    b.finish();
  } else {
    tree_ = std::make_unique<Tree>();
    tree_->json = std::move(j);
    Builder b(*this, {});
    read_tree(b);
    b.finish();
  }
}

Object::Object(Passkey, std::string_view text, bool* well_typed) {
  text_form_ = true;
  Builder b(*this, text);
  read_text(b);
  b.finish();
  if (well_typed != nullptr) *well_typed = !b.mistyped();
}

ObjectPtr Object::spliced(std::span<const Splice> edits, int resource_version_edit) const {
  const std::size_t old_size = text_size_;
  std::size_t new_size = old_size;
  for (const Splice& e : edits) new_size = new_size - (e.end - e.begin) + e.bytes.size();
  size32(new_size);
  // Where a string or position moves to: shifted by the edits before it; nothing may sit inside
  // one.
  const auto moved = [&](std::size_t pos, std::size_t len) -> std::optional<std::size_t> {
    std::size_t at = pos;
    for (const Splice& e : edits) {
      if (pos + len <= e.begin) break;
      if (pos < e.end) return std::nullopt;
      at = at - (e.end - e.begin) + e.bytes.size();
    }
    return at;
  };
  bool overlaps = false;
  const auto move = [&](Span s) {
    if (s.off == Span::kAbsent || s.len == 0) return s;
    const auto at = moved(s.off, s.len);
    if (!at) {
      overlaps = true;
      return s;
    }
    return Span{static_cast<std::uint32_t>(*at), s.len};
  };
  const char* old_base = strings();
  auto out = std::make_shared<Object>(Passkey{});
  Object& o = *out;
  o.text_form_ = true;
  o.api_version_ = move(api_version_);
  o.kind_ = move(kind_);
  o.name_ = move(name_);
  o.namespace_name_ = move(namespace_name_);
  o.uid_ = move(uid_);
  o.creation_timestamp_ = move(creation_timestamp_);
  o.key_ = move(key_);
  o.generation_ = generation_;
  if (resource_version_edit >= 0) {
    const Splice& e = edits[static_cast<std::size_t>(resource_version_edit)];
    if (resource_version_.off != e.begin || resource_version_.off + resource_version_.len != e.end) {
      return nullptr;
    }
    // Its start moves with the edits before it, none of which reaches it.
    const auto at = moved(e.begin, 0);
    if (!at) return nullptr;
    o.resource_version_ = {static_cast<std::uint32_t>(*at), size32(e.bytes.size())};
  } else {
    o.resource_version_ = move(resource_version_);
  }
  const auto meta_begin = moved(metadata_begin_, 0);
  const auto meta_end = moved(metadata_end_, 0);
  if (!meta_begin || !meta_end) return nullptr;
  o.metadata_begin_ = size32(*meta_begin);
  o.metadata_end_ = size32(*meta_end);
  // The buffer: the new text, the same added strings, the entries with their spans moved.
  const std::size_t strings_size = entries_at_ - old_size;  // with the old alignment padding
  constexpr std::size_t kAlign = alignof(Entry);
  const std::size_t entries_at = (new_size + strings_size + kAlign - 1) / kAlign * kAlign;
  const std::size_t entry_count = labels_size_ + rare().annotations_size;
  const std::size_t total = entries_at + entry_count * sizeof(Entry);
  o.buffer_ = std::make_unique_for_overwrite<char[]>(std::max<std::size_t>(1, size32(total)));
  char* buf = o.buffer_.get();
  const std::string_view t = text();
  char* to = buf;
  std::size_t from = 0;
  for (const Splice& e : edits) {
    std::memcpy(to, t.data() + from, e.begin - from);
    to += e.begin - from;
    if (!e.bytes.empty()) std::memcpy(to, e.bytes.data(), e.bytes.size());
    to += e.bytes.size();
    from = e.end;
  }
  std::memcpy(to, t.data() + from, old_size - from);
  if (strings_size != 0) std::memcpy(buf + new_size, old_base + old_size, strings_size);
  Entry* entries = reinterpret_cast<Entry*>(buf + entries_at);
  for (std::size_t i = 0; i < entry_count; ++i) {
    entries[i] = {move(this->entries()[i].key), move(this->entries()[i].value)};
  }
  o.text_size_ = size32(new_size);
  o.entries_at_ = size32(entries_at);
  o.labels_at_ = labels_at_;
  o.labels_size_ = labels_size_;
  if (rare_) {
    o.rare_ = std::make_unique<Rare>();
    Rare& r = *o.rare_;
    r.generate_name = move(rare_->generate_name);
    r.deletion_timestamp = move(rare_->deletion_timestamp);
    r.deletion_grace_period_seconds = rare_->deletion_grace_period_seconds;
    r.annotations_at = rare_->annotations_at;
    r.annotations_size = rare_->annotations_size;
    const auto rebase = [&](std::string_view v) -> std::string_view {
      if (v.data() == nullptr) return v;
      if (v.empty()) return std::string_view("", 0);
      const Span s = move({static_cast<std::uint32_t>(v.data() - old_base), size32(v.size())});
      return s.in(buf);
    };
    r.finalizers.reserve(rare_->finalizers.size());
    for (const std::string_view f : rare_->finalizers) r.finalizers.push_back(rebase(f));
    r.owner_references.reserve(rare_->owner_references.size());
    for (const OwnerReference& ref : rare_->owner_references) {
      r.owner_references.push_back({rebase(ref.api_version), rebase(ref.kind), rebase(ref.name),
                                    rebase(ref.uid), ref.controller, ref.block_owner_deletion});
    }
  }
  if (overlaps) return nullptr;
  return out;
}

// A metadata value of a tree Object, for Builder::read: its strings are copied.
struct Object::Builder::TreeSource {
  Builder& b;
  const Json& value;

  static Span string_of(Builder& b, const Json& v) {
    return v.is_string() ? b.add(v.get_ref<const std::string&>()) : Span{};
  }
  Span string() const { return string_of(b, value); }
  std::optional<std::int64_t> integer() const {
    if (!value.is_number_integer()) return std::nullopt;
    return value.get<std::int64_t>();
  }
  std::vector<Entry> string_map() const {
    std::vector<Entry> out;
    if (!value.is_object()) return out;
    out.reserve(value.size());
    // A JSON object iterates in key order, so the entries come out sorted.
    for (const auto& [k, v] : value.items()) out.push_back({b.add(k), string_of(b, v)});
    return out;
  }
  std::vector<Span> strings() const {
    std::vector<Span> out;
    if (!value.is_array()) return out;
    out.reserve(value.size());
    for (const Json& s : value) out.push_back(string_of(b, s));
    return out;
  }
  std::vector<OwnerSpans> owner_references() const {
    std::vector<OwnerSpans> out;
    if (!value.is_array()) return out;
    for (const Json& r : value) {
      if (!r.is_object()) continue;
      const auto member = [&](const char* key) {
        const auto it = r.find(key);
        return it == r.end() ? Span{} : string_of(b, *it);
      };
      out.push_back({member("apiVersion"), member("kind"), member("name"), member("uid"),
                     bool_member(r, "controller"), bool_member(r, "blockOwnerDeletion")});
    }
    return out;
  }
};

// The metadata of a tree Object.
void Object::read_tree(Builder& b) {
  const Json& j = tree_->json;
  if (!j.is_object()) return;
  const auto string_member = [&](const char* key) -> Span {
    const auto it = j.find(key);
    return it == j.end() ? Span{} : Builder::TreeSource::string_of(b, *it);
  };
  api_version_ = string_member("apiVersion");
  kind_ = string_member("kind");
  const auto m = j.find("metadata");
  if (m == j.end() || !m->is_object()) return;
  for (const auto& [key, value] : m->items()) {
    const MetaField field = internal::meta_field(key);
    if (field != MetaField::kOther) b.read(field, Builder::TreeSource{b, value});
  }
}

// A metadata value of a compact Object, at [begin, end) of its text, for Builder::read.
struct Object::Builder::TextSource {
  Builder& b;
  std::string_view t;
  std::size_t begin;
  std::size_t end;

  // Each read notes a value of another type than the field's (null is absent, and fine).
  Span string() const { return string_in(b, t, begin, end); }
  std::optional<std::int64_t> integer() const {
    if (t[begin] == 'n') return std::nullopt;
    std::int64_t v = 0;
    const auto r = std::from_chars(t.data() + begin, t.data() + end, v);
    if (r.ec != std::errc() || r.ptr != t.data() + end) {
      b.set_mistyped();
      return std::nullopt;
    }
    return v;
  }
  std::vector<Entry> string_map() const {
    std::vector<Entry> out;
    if (!is(begin, '{')) return out;
    json_text::for_each_member(t, begin, [&](const json_text::Member& e) {
      if (t[e.value_begin] != '"') b.set_mistyped();
      out.push_back({b.text_key(e), b.text_string(e.value_begin, e.value_end)});
      return true;
    });
    return out;
  }
  std::vector<Span> strings() const {
    std::vector<Span> out;
    if (!is(begin, '[')) return out;
    json_text::for_each_element(t, begin, [&](std::size_t vb, std::size_t ve) {
      if (t[vb] != '"') b.set_mistyped();
      out.push_back(b.text_string(vb, ve));
    });
    return out;
  }
  std::vector<OwnerSpans> owner_references() const {
    std::vector<OwnerSpans> out;
    if (!is(begin, '[')) return out;
    json_text::for_each_element(t, begin, [&](std::size_t vb, std::size_t) {
      if (t[vb] != '{') {
        b.set_mistyped();
        return;
      }
      OwnerSpans ref;
      json_text::for_each_member(t, vb, [&](const json_text::Member& m) {
        const std::string key(b.view(b.text_key(m)));
        const char first = t[m.value_begin];
        const std::optional<bool> flag =
            first == 't' ? std::optional<bool>(true)
                         : first == 'f' ? std::optional<bool>(false) : std::nullopt;
        const bool is_flag = key == "controller" || key == "blockOwnerDeletion";
        if (is_flag && !flag && first != 'n') b.set_mistyped();
        if (key == "apiVersion") ref.api_version = string_at(m);
        else if (key == "kind") ref.kind = string_at(m);
        else if (key == "name") ref.name = string_at(m);
        else if (key == "uid") ref.uid = string_at(m);
        else if (key == "controller") ref.controller = flag;
        else if (key == "blockOwnerDeletion") ref.block_owner_deletion = flag;
        return true;
      });
      out.push_back(ref);
    });
    return out;
  }
  Span string_at(const json_text::Member& m) const {
    return string_in(b, t, m.value_begin, m.value_end);
  }
  // The string at [vb, ve), absent when null or (noted) of another type.
  static Span string_in(Builder& b, std::string_view t, std::size_t vb, std::size_t ve) {
    if (t[vb] != '"' && t[vb] != 'n') b.set_mistyped();
    return b.text_string(vb, ve);
  }
  // Whether the value at `at` starts with `open`; other than that or null, it is noted.
  bool is(std::size_t at, char open) const {
    if (t[at] == open) return true;
    if (t[at] != 'n') b.set_mistyped();
    return false;
  }
};

// The metadata of a compact Object, read from its text in one pass.
void Object::read_text(Builder& b) {
  const std::string_view t = b.text();
  json_text::walk_members(t, 0, [&](const json_text::Member& m, std::size_t* value_end) {
    const std::string_view key = b.view(b.text_key(m));
    if (key == "metadata") {
      metadata_begin_ = size32(m.value_begin);
      if (t[m.value_begin] != '{' && t[m.value_begin] != 'n') b.set_mistyped();
      if (t[m.value_begin] == '{') {
        *value_end = json_text::for_each_member(t, m.value_begin, [&](const json_text::Member& f) {
          const MetaField field = internal::meta_field(b.view(b.text_key(f)));
          if (field != MetaField::kOther) {
            b.read(field, Builder::TextSource{b, t, f.value_begin, f.value_end});
          }
          return true;
        });
      } else {
        *value_end = json_text::skip_value(t, m.value_begin);
      }
      metadata_end_ = size32(*value_end);
    } else if (key == "apiVersion" || key == "kind") {
      Span& slot = key == "kind" ? kind_ : api_version_;  // before text_string moves `key`
      *value_end = json_text::skip_value(t, m.value_begin);
      slot = Builder::TextSource::string_in(b, t, m.value_begin, *value_end);
    }
    return true;
  });
}

namespace internal {

ObjectPtr ObjectAccess::from_written_text(std::string_view text, const WrittenMetadata& written) {
  auto out = std::make_shared<Object>(Object::Passkey{});
  Object& o = *out;
  o.text_form_ = true;
  Object::Builder b(o, text);
  o.api_version_ = written.api_version;
  o.kind_ = written.kind;
  o.name_ = written.name;
  o.namespace_name_ = written.namespace_;
  o.uid_ = written.uid;
  o.resource_version_ = written.resource_version;
  o.creation_timestamp_ = written.creation_timestamp;
  if (written.generate_name.off != StringMapView::Span::kAbsent) {
    b.rare().generate_name = written.generate_name;
  }
  o.metadata_begin_ = size32(written.metadata_begin);
  o.metadata_end_ = size32(written.metadata_end);
  if (written.labels != std::string_view::npos) {
    const std::size_t end = json_text::skip_value(text, written.labels);
    b.read(MetaField::kLabels, Object::Builder::TextSource{b, text, written.labels, end});
  }
  b.finish();
#ifndef NDEBUG
  const ObjectPtr read = from_text(text);
  const bool same =
      read->api_version() == o.api_version() && read->kind() == o.kind() &&
      read->name() == o.name() && read->namespace_() == o.namespace_() &&
      read->generate_name() == o.generate_name() && read->uid() == o.uid() &&
      read->resource_version() == o.resource_version() &&
      read->creation_timestamp() == o.creation_timestamp() && read->key() == o.key() &&
      read->labels().to_map() == o.labels().to_map() && read->annotations().empty() &&
      read->finalizers().empty() && read->owner_references().empty() &&
      read->generation() == 0 && !read->deletion_timestamp() &&
      read->metadata_begin_ == o.metadata_begin_ && read->metadata_end_ == o.metadata_end_;
  if (!same) {
    std::fprintf(stderr, "kubesim: make_written_text_object: the metadata is not where written: %.*s\n",
                 static_cast<int>(text.size()), text.data());
    std::abort();
  }
#endif
  return out;
}

}  // namespace internal

}  // namespace kubesim::api
