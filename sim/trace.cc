#include "kubesim/sim/trace.h"

#include <charconv>
#include <cstdio>

namespace kubesim::sim {
namespace {

// Appends `s` as a JSON string, exactly as nlohmann::json's dump() writes it.
void append_json_string(std::string& out, std::string_view s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7F || c == '"' || c == '\\') {
      out += nlohmann::json(s).dump();  // escapes, and validates UTF-8, as the library does
      return;
    }
  }
  out.push_back('"');
  out.append(s);
  out.push_back('"');
}

}  // namespace

void Trace::record(Time t, std::string_view process, std::string_view kind,
                   const nlohmann::json& fields) {
  if (!enabled_) return;
  // {"f":…,"k":…,"p":…,"t":…}: the members in sorted order, as dump() of the object would give,
  // written directly so the fields are not copied.
  std::string text = "{\"f\":";
  text += fields.dump();
  text += ",\"k\":";
  append_json_string(text, kind);
  text += ",\"p\":";
  append_json_string(text, process);
  text += ",\"t\":";
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, t.time_since_epoch().count()).ptr;
  text.append(digits, end);
  text += "}\n";
  for (unsigned char c : text) {
    hash_ ^= c;
    hash_ *= 0x100000001b3ULL;
  }
  ++count_;
  if (sink_ != nullptr) sink_->write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::string Trace::hash_hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash_));
  return buf;
}

}  // namespace kubesim::sim
