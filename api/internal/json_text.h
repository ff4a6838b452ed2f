// Compact JSON text as api::Object keeps it: written from nlohmann::json, read back without the
// general parser.
//
// write() produces exactly the bytes of nlohmann::json::dump() with no indentation and the
// replace error handler (keys in the object's order, strings escaped as nlohmann escapes them),
// so a text written here and a dump() of the same value are interchangeable. Strings of plain
// ASCII and integers are written directly; anything else is handed to dump() for that value.
//
// The readers take text that write() produced (or dump() with the same settings): compact and
// well formed. They do not check it; given anything else their results are unspecified (but
// they never read out of bounds).
//
// Internal to the library: with internal/object_access.h it is the one seam through which the
// fake API server's write fast paths reach Objects' texts; outside api/ only
// fakeapi/internal/fastpath/object_text.h includes it (and tests).
#ifndef KUBESIM_API_INTERNAL_JSON_TEXT_H_
#define KUBESIM_API_INTERNAL_JSON_TEXT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kubesim::api::internal::json_text {

// Appends the text of `j` to `out`.
void write(const nlohmann::json& j, std::string& out);
std::string write(const nlohmann::json& j);
// Appends `s` as a JSON string (quoted and escaped).
void write_string(std::string_view s, std::string& out);

// Whether `text` (one value) is what write(j) writes, decided without writing it.
bool equals(const nlohmann::json& j, std::string_view text);
// The same for two objects, as if neither had the member `except`.
bool equals_except(const nlohmann::json& j, std::string_view text, std::string_view except);

// Parses text written by write() back into the value it was written from (integers: negative
// ones as signed, others as unsigned, as nlohmann's parser reads them).
nlohmann::json parse(std::string_view text);

// Whether `text` is, byte for byte, what write() writes for some JSON object (so that the
// readers below may be given it). It checks the whole text, and errs on the side of no: a text
// holding a non-ASCII byte, a key with an escape, a number other than an integer of at most 18
// digits, or nesting deeper than 256 is not taken, though write() may have written it.
bool is_written_object(std::string_view text);

// The end (one past the last byte) of the value starting at `pos`.
std::size_t skip_value(std::string_view text, std::size_t pos);

// One member of an object: the key's raw text (between the quotes, still escaped), whether the
// key holds an escape, and the value's bytes [value_begin, value_end).
struct Member {
  std::string_view raw_key;
  bool escaped_key;
  std::size_t key_begin;  // the opening quote of the key
  std::size_t value_begin;
  std::size_t value_end;
};

// Calls visit(const Member&) for each member of the object starting at `pos` (a '{'), in order;
// visit returns false to stop. Returns the end of the object, or npos when visit stopped.
template <typename Visit>
std::size_t for_each_member(std::string_view text, std::size_t pos, Visit&& visit);

// Like for_each_member, but visit(const Member& m, std::size_t* value_end) is called before the
// value is skipped, with m.value_end unset: it may walk the value itself and store its end in
// *value_end (left 0, the value is skipped); it returns false to stop. Returns the end of the
// object, or npos when visit stopped.
template <typename Visit>
std::size_t walk_members(std::string_view text, std::size_t pos, Visit&& visit);

// Calls visit(begin, end) for each element of the array starting at `pos` (a '[').
template <typename Visit>
void for_each_element(std::string_view text, std::size_t pos, Visit&& visit);

// The decoded key of `m`.
std::string key_of(const Member& m);
// The member `key` of the object at `pos`, or nullopt. The object's keys must be in order, as
// write() writes them.
std::optional<Member> find_member(std::string_view text, std::size_t pos, std::string_view key);
// The same among the members after the one whose value ends at `after`.
std::optional<Member> find_member_after(std::string_view text, std::size_t after,
                                        std::string_view key);

// The raw text between the quotes of the string value at [begin, end), still escaped;
// decode_string gives the value when it holds a backslash.
std::string_view raw_string(std::string_view text, std::size_t begin, std::size_t end);
std::string decode_string(std::string_view raw);

// --- Template definitions ----------------------------------------------------------------------

namespace detail {
// The end of the string starting at `pos` (its '"'); *escaped tells whether it holds an escape.
std::size_t skip_string(std::string_view text, std::size_t pos, bool* escaped = nullptr);
// The length of the prefix of `s` that a JSON string holds as it is (no control byte, '"', '\\'
// or byte past ASCII).
std::size_t plain_prefix(std::string_view s);
}  // namespace detail

template <typename Visit>
std::size_t walk_members(std::string_view text, std::size_t pos, Visit&& visit) {
  std::size_t p = pos + 1;  // past '{'
  while (p < text.size() && text[p] != '}') {
    const std::size_t key_begin = p;
    bool escaped = false;
    const std::size_t key_end = detail::skip_string(text, p, &escaped);
    const std::string_view raw = text.substr(key_begin + 1, key_end - key_begin - 2);
    const std::size_t value_begin = key_end + 1;  // past ':'
    const Member m{raw, escaped, key_begin, value_begin, 0};
    std::size_t value_end = 0;
    if (!visit(m, &value_end)) return std::string_view::npos;
    p = value_end != 0 ? value_end : skip_value(text, value_begin);
    if (p < text.size() && text[p] == ',') ++p;
  }
  return p + 1;
}

template <typename Visit>
std::size_t for_each_member(std::string_view text, std::size_t pos, Visit&& visit) {
  return walk_members(text, pos, [&](const Member& m, std::size_t* value_end) {
    *value_end = skip_value(text, m.value_begin);
    Member whole = m;
    whole.value_end = *value_end;
    return visit(static_cast<const Member&>(whole));
  });
}

template <typename Visit>
void for_each_element(std::string_view text, std::size_t pos, Visit&& visit) {
  std::size_t p = pos + 1;  // past '['
  while (p < text.size() && text[p] != ']') {
    const std::size_t end = skip_value(text, p);
    visit(p, end);
    p = end;
    if (p < text.size() && text[p] == ',') ++p;
  }
}

}  // namespace kubesim::api::internal::json_text

#endif  // KUBESIM_API_INTERNAL_JSON_TEXT_H_
