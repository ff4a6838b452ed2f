#include "kubesim/sim/trace.h"

#include <array>
#include <cassert>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

// Header only: the functions are compiled into this file, nothing is linked.
#define XXH_INLINE_ALL
#include <nlohmann/json.hpp>
#include <xxhash.h>

namespace kubesim::sim {
namespace {

// The bytes a JSON string cannot hold as they are (control characters, '"', '\\'), and those
// left to the library (DEL and everything beyond ASCII, whose UTF-8 it validates).
constexpr auto kNotPlain = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 256; ++c) table[c] = c < 0x20 || c >= 0x7F || c == '"' || c == '\\';
  return table;
}();

// "" when `s` is written as it is between quotes, else `s` as a JSON string exactly as
// nlohmann::json's dump() writes it (which escapes, and validates UTF-8, as the library does).
std::string escaped(std::string_view s) {
  for (char c : s) {
    if (kNotPlain[static_cast<unsigned char>(c)]) return nlohmann::json(s).dump();
  }
  return {};
}

const std::string kNone;  // escaped() of a plain string

// Writes the end of a line through a cursor: `line` grows once by `most` bytes (at least what is
// written), each piece is then a copy, and done() cuts it to what was written.
class LineWriter {
 public:
  LineWriter(std::string& line, std::size_t most) : line_(line) {
    const std::size_t at = line.size();
    line.resize(at + most);
    p_ = line.data() + at;
  }
  void put(std::string_view s) {
    if (s.empty()) return;  // an empty view's data may be null, which memcpy must not get
    std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
  }
  void put(char c) { *p_++ = c; }
  // `s` as a JSON string: quoted as it is, or `escaped` (escaped(s)) when that is not empty.
  void string(std::string_view s, const std::string& escaped) {
    if (!escaped.empty()) {
      put(escaped);
      return;
    }
    put('"');
    put(s);
    put('"');
  }
  static std::size_t string_size(std::string_view s, const std::string& escaped) {
    return escaped.empty() ? s.size() + 2 : escaped.size();
  }
  void number(std::int64_t v) { p_ = std::to_chars(p_, p_ + kMaxDigits, v).ptr; }
  void done() { line_.resize(static_cast<std::size_t>(p_ - line_.data())); }

  static constexpr std::size_t kMaxDigits = 20;  // of an int64_t, with its sign

 private:
  std::string& line_;
  char* p_;
};

}  // namespace

struct Trace::HashState {
  HashState() { XXH3_64bits_reset(&state); }
  XXH3_state_t state;
};

Trace::Trace() : hash_(std::make_unique<HashState>()) {}
Trace::~Trace() = default;

std::uint64_t Trace::hash() const { return XXH3_64bits_digest(&hash_->state); }

void Trace::record(Time t, std::string_view process, std::string_view kind) {
  record(t, process, kind, nlohmann::json::object());
}

void Trace::record(Time t, std::string_view process, std::string_view kind,
                   const nlohmann::json& fields) {
  if (!enabled_) return;
  // {"f":…,"k":…,"p":…,"t":…}: the members in sorted order, as dump() of the object would give,
  // written directly so the fields are not copied.
  line_.assign("{\"f\":");
  line_ += fields.dump();
  finish_line(t, process, kind);
}

void Trace::record_fields(Time t, std::string_view process, std::string_view kind,
                          std::initializer_list<TraceField> fields) {
  if (!enabled_) return;
  line_.assign("{\"f\":{");
  // Nearly every text is plain: escaped copies are made only of the others.
  std::vector<std::string> escapes;
  std::size_t most = 1;
  std::size_t i = 0;
  std::string_view previous;
  for (const TraceField& field : fields) {
    assert((i == 0 || previous < field.key) && "Trace fields must be sorted by key");
    previous = field.key;
    std::size_t value = LineWriter::kMaxDigits;
    if (!field.is_number) {
      std::string e = escaped(field.text);
      if (!e.empty()) {
        escapes.resize(fields.size());
        escapes[i] = std::move(e);
      }
      value = LineWriter::string_size(field.text, escapes.empty() ? kNone : escapes[i]);
    }
    most += field.key.size() + 4 + value;
    ++i;
  }
  LineWriter w(line_, most);
  i = 0;
  for (const TraceField& field : fields) {
    if (i != 0) w.put(',');
    w.string(field.key, kNone);
    w.put(':');
    if (field.is_number) {
      w.number(field.number);
    } else {
      w.string(field.text, escapes.empty() ? kNone : escapes[i]);
    }
    ++i;
  }
  w.put('}');
  w.done();
  finish_line(t, process, kind);
}

void Trace::finish_line(Time t, std::string_view process, std::string_view kind) {
  const std::string kind_escaped = escaped(kind);
  const std::string process_escaped = escaped(process);
  LineWriter w(line_, 17 + LineWriter::string_size(kind, kind_escaped) +
                          LineWriter::string_size(process, process_escaped) + LineWriter::kMaxDigits);
  w.put(",\"k\":");
  w.string(kind, kind_escaped);
  w.put(",\"p\":");
  w.string(process, process_escaped);
  w.put(",\"t\":");
  w.number(t.time_since_epoch().count());
  w.put("}\n");
  w.done();
  XXH3_64bits_update(&hash_->state, line_.data(), line_.size());
  ++count_;
  if (sink_ != nullptr) sink_->write(line_.data(), static_cast<std::streamsize>(line_.size()));
}

std::string Trace::hash_hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash()));
  return buf;
}

}  // namespace kubesim::sim
