#include "fakeapi/internal/fastpath/text_update.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <variant>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "fakeapi/internal/encoding/types/go_time.h"
#include "fakeapi/internal/fastpath/text_members.h"
#include "fakeapi/internal/fastpath/tree_update.h"

namespace kubesim::fakeapi::internal {
namespace {

// Whether the desired metadata text keeps the stored one: equal but for resourceVersion (which
// `desired` may hold as "" or as `stored` holds it) and the fields it may leave out. Sets
// *stored_rv to where stored's resourceVersion is.
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
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && a[i].key == "resourceVersion") {
      ++i;
    } else if (j < b.size() && b[j].key == "resourceVersion") {
      ++j;
    } else if (i < a.size() && j < b.size() && a[i].key == b[j].key) {
      if (a.value(a[i]) != b.value(b[j])) return false;
      ++i;
      ++j;
    } else if (j < b.size() && (i == a.size() || b[j].key < a[i].key) &&
               kept_when_absent(b[j].key)) {
      ++j;  // left out, kept as stored
    } else {
      return false;
    }
  }
  return true;
}

// A string value, reached from the top through object members only, whose contents hold every
// byte in which two texts differ: the rest of both texts is the same bytes, so the change is that
// one string's value. `keys` and `values` give the path: the members' keys and where their values
// begin; the last is the string's.
struct StringChange {
  static constexpr std::size_t kMaxDepth = 8;
  std::array<std::string_view, kMaxDepth> keys;
  std::array<std::size_t, kMaxDepth> values{};
  std::size_t depth = 0;
};

enum class Walk { kFound, kPast, kFail };

// Looks in the object at `pos` of `t` for the string whose contents hold [begin, end); *object_end
// is set to the object's end when the difference is past it (kPast).
Walk find_changed_string(std::string_view t, std::size_t pos, std::size_t begin, std::size_t end,
                         StringChange& c, std::size_t* object_end) {
  Walk result = Walk::kPast;
  *object_end = json_text::walk_members(t, pos, [&](const json_text::Member& m, std::size_t* value_end) {
    if (m.escaped_key || begin < m.value_begin || c.depth == StringChange::kMaxDepth) {
      result = Walk::kFail;  // the difference is in a key, or too deep to follow
      return false;
    }
    c.keys[c.depth] = m.raw_key;
    c.values[c.depth] = m.value_begin;
    if (t[m.value_begin] == '{') {
      ++c.depth;
      const Walk inner = find_changed_string(t, m.value_begin, begin, end, c, value_end);
      if (inner != Walk::kPast) {
        result = inner;
        return false;
      }
      --c.depth;
      return true;
    }
    *value_end = json_text::skip_value(t, m.value_begin);
    if (*value_end <= begin) return true;  // wholly before the difference
    // The difference starts in this value: a string's contents must hold all of it.
    if (t[m.value_begin] != '"' || begin < m.value_begin + 1 || end > *value_end - 1) {
      result = Walk::kFail;
    } else {
      ++c.depth;
      result = Walk::kFound;
    }
    return false;
  });
  return result;
}

// The string change between `d` and `s`, whose common prefix and suffix are given, if there is
// one.
std::optional<StringChange> one_string_differs(std::string_view d, std::string_view s,
                                               std::size_t prefix, std::size_t suffix) {
  StringChange c;
  std::size_t end = 0;
  if (find_changed_string(d, 0, prefix, d.size() - suffix, c, &end) != Walk::kFound) {
    return std::nullopt;
  }
  // `s` has the same string at the same place (the bytes before it are the same); its end must
  // leave the same bytes after it.
  const std::size_t at = c.values[c.depth - 1];
  const std::size_t d_end = json_text::skip_value(d, at);
  const std::size_t s_end = json_text::skip_value(s, at);
  if (s.size() - s_end != d.size() - d_end || s.size() - suffix > s_end - 1) return std::nullopt;
  return c;
}

// A member of an object's text looked up by key: its value's text, or nullopt when absent.
class Lookup {
 public:
  template <typename F>
  explicit Lookup(const F& f)
      : f_(&f), call_([](const void* f, std::string_view key) { return (*static_cast<const F*>(f))(key); }) {}
  std::optional<std::string_view> operator()(std::string_view key) const { return call_(f_, key); }

 private:
  const void* f_;
  std::optional<std::string_view> (*call_)(const void*, std::string_view);
};

// A kind the fast path serves: the members its Go type has besides apiVersion, kind, metadata
// and status, and whether the desired object's members are ones the general path would accept
// and store as they are (valid, in the form Go's encoding writes, nothing dropped or defaulted).
struct TextKind {
  std::string_view group;
  std::string_view kind;
  std::array<std::string_view, 3> members;
  bool (*accepts)(const Lookup& desired, const Lookup& stored);
  // Whether the general path would accept and store as it is the desired object, which is the
  // stored one (text `s`) but for the contents of the string `change` leads to (its positions
  // are in `s`), written `raw` (between the quotes), in a text of `size` bytes.
  bool (*accepts_string)(const StringChange& change, const api::Object& stored, std::string_view s,
                         std::string_view raw, std::size_t size);
};

// ValidateConfigMap and ValidateConfigMapUpdate (validation/validate_core.cc) for a ConfigMap with string
// data only: every key a config key, the values' bytes within the limit; `immutable` and
// binaryData are left to the general path.
bool config_map_accepts(const Lookup& desired, const Lookup& stored) {
  if (desired("binaryData") || desired("immutable") || stored("immutable")) return false;
  const std::optional<std::string_view> data = desired("data");
  return !data || config_map_data_as_stored(*data);
}

// Whether the data member of `t`, the text of `object`, holds no `immutable` after it: it sits
// between data and kind, whose value the object places, so when the member before kind ends in
// '}' (data) there is none. Failing that, look.
bool no_immutable_after_data(const StringChange& change, const api::Object& object,
                             std::string_view t) {
  constexpr std::string_view kKindKey = ",\"kind\":\"";
  const char* kind = object.kind().data();
  if (kind > t.data() + kKindKey.size() && kind < t.data() + t.size()) {
    const std::size_t at = static_cast<std::size_t>(kind - t.data()) - kKindKey.size();
    if (t.substr(at, kKindKey.size()) == kKindKey && t[at - 1] == '}') return true;
  }
  const std::size_t data_end = json_text::skip_value(t, change.values[0]);
  return !json_text::find_member_after(t, data_end, "immutable");
}

// Standard base64 with its padding, without line breaks: what Go decodes and would write back
// the same.
bool plain_base64(std::string_view s) {
  if (s.size() % 4 != 0) return false;
  std::size_t body = s.size();
  while (body > 0 && s.size() - body < 2 && s[body - 1] == '=') --body;
  return std::all_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(body), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '+' || c == '/';
  });
}

// One data value of an Opaque Secret changed (ValidateSecret, ValidateSecretUpdate): its key was
// valid, the new value is base64 the decoder takes, the bytes cannot pass the limit when the
// whole text does not, and there is no immutable member. The type, the last member, must read
// Opaque (the other types have rules on their values).
bool secret_accepts_string(const StringChange& change, const api::Object& stored,
                           std::string_view s, std::string_view raw, std::size_t size) {
  if (change.depth != 2 || change.keys[0] != "data" || size > kMaxConfigMapSize) return false;
  constexpr std::string_view kOpaque = ",\"type\":\"Opaque\"}";
  if (s.size() < kOpaque.size() || s.substr(s.size() - kOpaque.size()) != kOpaque) return false;
  return plain_base64(raw) && no_immutable_after_data(change, stored, s);
}

// A Secret's members as a whole are left to the general path.
bool secret_accepts(const Lookup&, const Lookup&) { return false; }

// One data value of a ConfigMap changed: its key was valid and still is, and the values'
// bytes cannot pass the limit when the whole text does not; an immutable member (true or
// false) is left to the general path.
bool config_map_accepts_string(const StringChange& change, const api::Object& stored,
                               std::string_view s, std::string_view, std::size_t size) {
  if (change.depth != 2 || change.keys[0] != "data" || size > kMaxConfigMapSize) return false;
  return no_immutable_after_data(change, stored, s);
}

// A Lease's spec as a whole is left to the general path.
bool lease_accepts(const Lookup&, const Lookup&) { return false; }

// One of the Lease spec's strings that no rule reads (ValidateLeaseSpec checks the integers and
// preferredHolder against strategy) changed: what leader election writes on every renewal. A
// MicroTime is stored as sent only when that is how the server writes it (UTC, six digits, not
// the zero time); any other is the general path's to refuse or rewrite.
bool lease_accepts_string(const StringChange& change, const api::Object&, std::string_view,
                          std::string_view raw, std::size_t) {
  if (change.depth != 2 || change.keys[0] != "spec") return false;
  const std::string_view field = change.keys[1];
  if (field == "holderIdentity") return true;
  if (field != "renewTime" && field != "acquireTime") return false;
  const auto stored = types::stored_time(raw, types::TimeLayout::kRFC3339Micro);
  const auto* t = std::get_if<types::StoredTime>(&stored);
  return t != nullptr && t->text == raw;
}

constexpr std::array<TextKind, 3> kTextKinds = {{
    {"", "ConfigMap", {"data", "binaryData", "immutable"}, config_map_accepts,
     config_map_accepts_string},
    {"", "Secret", {"data", "immutable", "type"}, secret_accepts, secret_accepts_string},
    {"coordination.k8s.io", "Lease", {"spec", "", ""}, lease_accepts, lease_accepts_string},
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
    if (!m.empty() && m == key) return true;
  }
  return false;
}

// The length of the common prefix of `a` and `b`.
// Equal runs are passed in chunks by memcmp, which the C library runs with the widest vectors
// the machine has; the chunk holding the difference is searched 16 bytes at a time.
constexpr std::size_t kChunk = 128;

std::size_t common_prefix(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  std::size_t i = 0;
  while (i + kChunk <= n && std::memcmp(a.data() + i, b.data() + i, kChunk) == 0) i += kChunk;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data() + i));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.data() + i));
    const unsigned same = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
    if (same != 0xffff) return i + static_cast<std::size_t>(__builtin_ctz(~same));
  }
#endif
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

// The length of the common suffix of `a` and `b`, at most `limit`.
std::size_t common_suffix(std::string_view a, std::string_view b, std::size_t limit) {
  std::size_t i = 0;
  while (i + kChunk <= limit &&
         std::memcmp(a.data() + a.size() - i - kChunk, b.data() + b.size() - i - kChunk, kChunk) == 0) {
    i += kChunk;
  }
#if defined(__SSE2__)
  for (; i + 16 <= limit; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data() + a.size() - i - 16));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.data() + b.size() - i - 16));
    const unsigned same = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
    if (same != 0xffff) return i + static_cast<std::size_t>(__builtin_clz(~same << 16));
  }
#endif
  while (i < limit && a[a.size() - 1 - i] == b[b.size() - 1 - i]) ++i;
  return i;
}

// The top-level member whose value holds every byte in which `d` and `s` differ, when there is
// one: the other members are then the same bytes in both. The spans are in `d` and in `s`.
struct OneMember {
  std::string_view key;
  std::size_t d_begin, d_end;
  std::size_t s_end;
};
std::optional<OneMember> one_member_differs(std::string_view d, std::string_view s,
                                            std::size_t prefix, std::size_t suffix) {
  std::optional<OneMember> found;
  json_text::walk_members(d, 0, [&](const json_text::Member& m, std::size_t* value_end) {
    *value_end = json_text::skip_value(d, m.value_begin);
    if (*value_end <= prefix) return true;  // wholly before the difference
    // The difference starts in this member: it must start and end inside the value, in both.
    if (m.escaped_key || prefix < m.value_begin || d.size() - suffix > *value_end) return false;
    const std::size_t s_end = json_text::skip_value(s, m.value_begin);
    if (s.size() - s_end != d.size() - *value_end || s.size() - suffix > s_end) return false;
    found = OneMember{m.raw_key, m.value_begin, *value_end, s_end};
    return false;
  });
  return found;
}

// The desired object, whose text is `text`, as it is but for a new resourceVersion.
api::ObjectPtr with_resource_version(const api::Object& desired, std::string_view text,
                                     std::string_view resource_version) {
  if (layout_of(desired) == Layout::kText) {
    return desired.with_resource_version(std::string(resource_version));
  }
  const auto meta = json_text::find_member(text, 0, "metadata");
  const auto rv = json_text::find_member(text, meta->value_begin, "resourceVersion");
  std::string out;
  out.reserve(text.size() + resource_version.size());
  out.append(text.substr(0, rv->value_begin)).append(1, '"').append(resource_version);
  out.append(1, '"').append(text.substr(rv->value_end));
  return make_text_object(out);
}

// Whether a change of one string's contents, under the top-level member `top`, is one the
// kind may vouch for: outside what the server keeps or sets itself, in a member of the kind.
bool string_member(const ResourceInfo& info, const TextKind& kind, std::string_view top) {
  return top != "metadata" && top != "apiVersion" && top != "kind" &&
         !(top == "status" && info.has_status) && known_member(kind, top);
}

// text_update for a kind the fast path serves, from the two objects' texts.
TextUpdate from_texts(const ResourceInfo& info, const TextKind* kind, const api::Object& stored,
                      std::string_view st, const api::Object& desired,
                      std::string_view resource_version) {
  TextUpdate out;
  const std::string_view dt = desired.serialized();
  if (dt.empty() || st.empty() || dt.front() != '{' || st.front() != '{') return out;
  const std::size_t prefix = common_prefix(dt, st);
  if (prefix == dt.size() && prefix == st.size()) {
    out.outcome = TextUpdate::Outcome::kUnchanged;
    return out;
  }
  // The common cases, one string's value or one member changed and the metadata as stored
  // (resourceVersion included): found without reading the rest of either text.
  const std::size_t suffix = common_suffix(dt, st, std::min(dt.size(), st.size()) - prefix);
  if (const auto change = one_string_differs(dt, st, prefix, suffix)) {
    // The positions along the path precede the difference: they are the same in both texts.
    const std::size_t at = change->values[change->depth - 1];
    const std::string_view raw = json_text::raw_string(dt, at, json_text::skip_value(dt, at));
    if (string_member(info, *kind, change->keys[0]) &&
        kind->accepts_string(*change, stored, st, raw, dt.size())) {
      out.outcome = TextUpdate::Outcome::kWrite;
      out.object = with_resource_version(desired, dt, resource_version);
      return out;
    }
  }
  if (const auto one = one_member_differs(dt, st, prefix, suffix); one && one->key != "metadata") {
    if (one->key == "apiVersion" || one->key == "kind" ||
        (one->key == "status" && info.has_status) || !known_member(*kind, one->key)) {
      return out;
    }
    // Members other than the changed one are the same bytes in both texts; those after it are
    // looked for from its end.
    const auto other = [&](std::string_view key) -> std::optional<std::string_view> {
      const auto m = key < one->key ? json_text::find_member(dt, 0, key)
                                    : json_text::find_member_after(dt, one->d_end, key);
      if (!m) return std::nullopt;
      return dt.substr(m->value_begin, m->value_end - m->value_begin);
    };
    const auto d_lookup = [&](std::string_view key) -> std::optional<std::string_view> {
      if (key == one->key) return dt.substr(one->d_begin, one->d_end - one->d_begin);
      return other(key);
    };
    const auto s_lookup = [&](std::string_view key) -> std::optional<std::string_view> {
      if (key == one->key) return st.substr(one->d_begin, one->s_end - one->d_begin);
      return other(key);
    };
    if (!kind->accepts(Lookup(d_lookup), Lookup(s_lookup))) return out;
    out.outcome = TextUpdate::Outcome::kWrite;
    out.object = with_resource_version(desired, dt, resource_version);
    return out;
  }
  Members d;
  Members s;
  if (!d.read(dt) || !s.read(st)) return out;
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
  const auto in = [](const Members& m) {
    return [&m](std::string_view key) -> std::optional<std::string_view> {
      const Members::Member* found = m.find(key);
      if (found == nullptr) return std::nullopt;
      return m.value(*found);
    };
  };
  const auto d_lookup = in(d);
  const auto s_lookup = in(s);
  if (desired_meta == nullptr || !kind->accepts(Lookup(d_lookup), Lookup(s_lookup))) return out;
  if (!changed) {
    out.outcome = TextUpdate::Outcome::kUnchanged;
    return out;
  }
  out.outcome = TextUpdate::Outcome::kWrite;
  const std::string_view meta = s.value(*stored_meta);
  if (d.value(*desired_meta) == meta) {
    out.object = with_resource_version(desired, dt, resource_version);
    return out;
  }
  // The desired object's text with the stored metadata, holding the new resourceVersion.
  std::string text;
  text.reserve(dt.size() + resource_version.size() + 8);
  text.append(dt.substr(0, desired_meta->value_begin));
  text.append(meta.substr(0, stored_rv.value_begin));
  text += '"';
  text.append(resource_version);
  text += '"';
  text.append(meta.substr(stored_rv.value_end));
  text.append(dt.substr(desired_meta->value_end));
  out.object = make_text_object(text);
  return out;
}

}  // namespace

TextUpdate text_update(const ResourceInfo& info, const api::Object& stored,
                       const api::Object& desired, std::string_view resource_version) {
  const TextKind* kind = text_kind(info);
  if (kind == nullptr || stored.deletion_timestamp()) return {};
  const std::string_view st = stored.serialized();
  // A tree is compared with the stored text as it is. When it changes one string, the stored
  // object with that string and the new resourceVersion set is the answer; the kind decides
  // from the stored text and the string's new bytes.
  if (layout_of(desired) == Layout::kTree &&
      layout_of(stored) == Layout::kText) {
    const TreeUpdate tree = tree_update(st, desired.json());
    switch (tree.outcome) {
      case TreeUpdate::Outcome::kSame:
        return {TextUpdate::Outcome::kUnchanged, nullptr};
      case TreeUpdate::Outcome::kOneString: {
        const std::span<const std::string_view> path(tree.keys.data(), tree.depth);
        if (!string_member(info, *kind, path[0])) return {};
        static_assert(TreeUpdate::kMaxDepth <= StringChange::kMaxDepth);
        StringChange change;
        std::copy(path.begin(), path.end(), change.keys.begin());
        std::copy_n(tree.values.begin(), tree.depth, change.values.begin());
        change.depth = tree.depth;
        std::string quoted;
        json_text::write_string(*tree.value, quoted);
        const std::size_t at = tree.values[tree.depth - 1];
        const std::size_t size = st.size() - (json_text::skip_value(st, at) - at) + quoted.size();
        const std::string_view raw(quoted.data() + 1, quoted.size() - 2);
        if (kind->accepts_string(change, stored, st, raw, size)) {
          return {TextUpdate::Outcome::kWrite,
                  stored.with_value_at(path, *tree.value, resource_version)};
        }
        // Left to the kind's other checks, on the stored object with the string set.
        return from_texts(info, kind, stored, st, *stored.with_value_at(path, *tree.value),
                          resource_version);
      }
      case TreeUpdate::Outcome::kOther:
        break;
    }
  }
  return from_texts(info, kind, stored, st, desired, resource_version);
}

}  // namespace kubesim::fakeapi::internal
