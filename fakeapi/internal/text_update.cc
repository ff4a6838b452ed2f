#include "fakeapi/internal/text_update.h"

#include <array>
#include <cstdint>
#include <optional>

#include "api/json_text.h"
#include "fakeapi/internal/validation_rules.h"

namespace kubesim::fakeapi::internal {
namespace {

namespace json_text = api::json_text;

// The top-level members of an object's text, in key order.
class Members {
 public:
  struct Member {
    std::string_view key;
    std::size_t value_begin;
    std::size_t value_end;
  };

  // False when the text is not an object, has an escaped key or more members than are held.
  bool read(std::string_view text) {
    text_ = text;
    if (text.empty() || text.front() != '{') return false;
    bool ok = true;
    json_text::for_each_member(text, 0, [&](const json_text::Member& m) {
      if (m.escaped_key || size_ == members_.size()) {
        ok = false;
        return false;
      }
      members_[size_++] = {m.raw_key, m.value_begin, m.value_end};
      return true;
    });
    return ok;
  }

  std::string_view text() const { return text_; }
  std::size_t size() const { return size_; }
  const Member& operator[](std::size_t i) const { return members_[i]; }
  std::string_view value(const Member& m) const {
    return text_.substr(m.value_begin, m.value_end - m.value_begin);
  }
  const Member* find(std::string_view key) const {
    for (std::size_t i = 0; i < size_; ++i) {
      if (members_[i].key == key) return &members_[i];
    }
    return nullptr;
  }

 private:
  std::string_view text_;
  std::array<Member, 16> members_;
  std::size_t size_ = 0;
};

// Whether two metadata texts are equal but for resourceVersion, which `desired` may lack or
// hold as "" or as `stored` holds it. Sets *stored_rv to where stored's value is.
bool same_metadata(std::string_view desired, std::string_view stored, Members::Member* stored_rv) {
  Members a;
  Members b;
  if (!a.read(desired) || !b.read(stored)) return false;
  const Members::Member* rv = b.find("resourceVersion");
  if (rv == nullptr) return false;
  *stored_rv = *rv;
  if (const Members::Member* asked = a.find("resourceVersion")) {
    const std::string_view v = a.value(*asked);
    if (v != "\"\"" && v != b.value(*rv)) return false;
  }
  std::size_t i = 0;
  std::size_t j = 0;
  for (;;) {
    if (i < a.size() && a[i].key == "resourceVersion") ++i;
    if (j < b.size() && b[j].key == "resourceVersion") ++j;
    if (i == a.size() || j == b.size()) return i == a.size() && j == b.size();
    if (a[i].key != b[j].key || a.value(a[i]) != b.value(b[j])) return false;
    ++i;
    ++j;
  }
}

// A kind the fast path serves: the members its Go type has besides apiVersion, kind, metadata
// and status, and whether the desired object's members are ones the general path would accept
// and store as they are (valid, in the form Go's encoding writes, nothing dropped or defaulted).
struct TextKind {
  std::string_view group;
  std::string_view kind;
  std::array<std::string_view, 3> members;
  bool (*accepts)(const Members& desired, const Members& stored);
};

constexpr std::int64_t kMaxConfigMapSize = 1 * 1024 * 1024;

// ValidateConfigMap and ValidateConfigMapUpdate (validate_core.cc) for a ConfigMap with string
// data only: every key a config key, the values' bytes within the limit; `immutable` and
// binaryData are left to the general path.
bool config_map_accepts(const Members& desired, const Members& stored) {
  if (desired.find("immutable") || stored.find("immutable") || desired.find("binaryData")) {
    return false;
  }
  const Members::Member* data = desired.find("data");
  if (data == nullptr) return true;
  const std::string_view text = desired.text();
  // An empty map is left out when stored (omitempty): not as it is.
  if (text[data->value_begin] != '{' || text[data->value_begin + 1] == '}') return false;
  std::int64_t total = 0;
  bool ok = true;
  json_text::for_each_member(text, data->value_begin, [&](const json_text::Member& m) {
    if (m.escaped_key || !validation::config_key_messages(m.raw_key).empty() || text[m.value_begin] != '"') {
      ok = false;
      return false;
    }
    const std::string_view raw = json_text::raw_string(text, m.value_begin, m.value_end);
    total += static_cast<std::int64_t>(raw.find('\\') == std::string_view::npos
                                           ? raw.size()
                                           : json_text::decode_string(raw).size());
    return true;
  });
  return ok && total <= kMaxConfigMapSize;
}

constexpr std::array<TextKind, 1> kTextKinds = {{
    {"", "ConfigMap", {"data", "binaryData", "immutable"}, config_map_accepts},
}};

const TextKind* text_kind(const ResourceInfo& info) {
  if (info.custom || info.tracks_generation) return nullptr;
  for (const TextKind& k : kTextKinds) {
    if (k.group == info.gvr.group && k.kind == info.kind) return &k;
  }
  return nullptr;
}

bool known_member(const TextKind& kind, std::string_view key) {
  for (const std::string_view m : kind.members) {
    if (m == key) return true;
  }
  return false;
}

}  // namespace

TextUpdate text_update(const ResourceInfo& info, const api::Object& stored,
                       const api::Object& desired, std::string_view resource_version) {
  TextUpdate out;
  const TextKind* kind = text_kind(info);
  if (kind == nullptr || stored.deletion_timestamp()) return out;
  Members d;
  Members s;
  if (!d.read(desired.serialized()) || !s.read(stored.serialized())) return out;
  // Merge the two key-ordered member lists.
  const Members::Member* desired_meta = nullptr;
  Members::Member stored_rv{};
  const Members::Member* stored_meta = s.find("metadata");
  bool changed = false;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < d.size() || j < s.size()) {
    const Members::Member* a = i < d.size() ? &d[i] : nullptr;
    const Members::Member* b = j < s.size() ? &s[j] : nullptr;
    if (a && b && a->key != b->key) {
      if (a->key < b->key) {
        b = nullptr;
      } else {
        a = nullptr;
      }
    }
    const std::string_view key = a ? a->key : b->key;
    if (a) ++i;
    if (b) ++j;
    const bool same = a && b && d.value(*a) == s.value(*b);
    if (key == "metadata") {
      if (!a || !b || !same_metadata(d.value(*a), s.value(*b), &stored_rv)) return out;
      desired_meta = a;
    } else if (key == "apiVersion" || key == "kind" || (key == "status" && info.has_status)) {
      if (!same && (a || b)) return out;
    } else if (!known_member(*kind, key)) {
      return out;
    } else if (!same) {
      changed = true;
    }
  }
  if (desired_meta == nullptr || !kind->accepts(d, s)) return out;
  if (!changed) {
    out.outcome = TextUpdate::Outcome::kUnchanged;
    return out;
  }
  out.outcome = TextUpdate::Outcome::kWrite;
  const std::string_view meta = s.value(*stored_meta);
  if (desired.layout() == api::Object::Layout::kCompact && d.value(*desired_meta) == meta) {
    // The desired object as it is, with the new resourceVersion written in.
    out.object = desired.with_resource_version(std::string(resource_version));
    return out;
  }
  // The desired object's text with the stored metadata, holding the new resourceVersion.
  const std::string_view dt = d.text();
  std::string text;
  text.reserve(dt.size() + resource_version.size() + 8);
  text.append(dt.substr(0, desired_meta->value_begin));
  text.append(meta.substr(0, stored_rv.value_begin));
  text += '"';
  text.append(resource_version);
  text += '"';
  text.append(meta.substr(stored_rv.value_end));
  text.append(dt.substr(desired_meta->value_end));
  out.object = api::make_compact_object(text);
  return out;
}

}  // namespace kubesim::fakeapi::internal
