#include "kubesim/sim/trace.h"

#include <array>
#include <cassert>
#include <charconv>
#include <cstdio>

// Header only: the functions are compiled into this file, nothing is linked.
#define XXH_INLINE_ALL
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

// Appends `s` as a JSON string, exactly as nlohmann::json's dump() writes it.
void append_json_string(std::string& out, std::string_view s) {
  for (char c : s) {
    if (kNotPlain[static_cast<unsigned char>(c)]) {
      out += nlohmann::json(s).dump();  // escapes, and validates UTF-8, as the library does
      return;
    }
  }
  out.push_back('"');
  out.append(s);
  out.push_back('"');
}

}  // namespace

struct Trace::HashState {
  HashState() { XXH3_64bits_reset(&state); }
  XXH3_state_t state;
};

Trace::Trace() : hash_(std::make_unique<HashState>()) {}
Trace::~Trace() = default;

std::uint64_t Trace::hash() const { return XXH3_64bits_digest(&hash_->state); }

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
  std::string_view previous;
  bool first = true;
  for (const TraceField& field : fields) {
    assert((first || previous < field.key) && "Trace fields must be sorted by key");
    if (!first) line_.push_back(',');
    line_.push_back('"');
    line_.append(field.key);
    line_ += "\":";
    if (field.is_number) {
      char digits[24];
      const auto end = std::to_chars(digits, digits + sizeof digits, field.number).ptr;
      line_.append(digits, end);
    } else {
      append_json_string(line_, field.text);
    }
    previous = field.key;
    first = false;
  }
  line_.push_back('}');
  finish_line(t, process, kind);
}

void Trace::finish_line(Time t, std::string_view process, std::string_view kind) {
  line_ += ",\"k\":";
  append_json_string(line_, kind);
  line_ += ",\"p\":";
  append_json_string(line_, process);
  line_ += ",\"t\":";
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, t.time_since_epoch().count()).ptr;
  line_.append(digits, end);
  line_ += "}\n";
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
