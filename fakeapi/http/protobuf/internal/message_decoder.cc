#include "fakeapi/http/protobuf/internal/message_decoder.h"

#include <cstdint>
#include <utility>

#include "fakeapi/http/protobuf/internal/json_forms.h"
#include "fakeapi/http/protobuf/internal/leaf_values.h"
#include "fakeapi/http/protobuf/internal/wire_reader.h"
#include "fakeapi/internal/encoding/types/go_encoding.h"

namespace kubesim::fakeapi::http::k8s_protobuf {
namespace {

using nlohmann::json;

// Far deeper than any path through the tables; bounds recursion should a table ever loop.
constexpr int kMaxDepth = 48;

bool is_numeric(ValueKind kind) {
  return kind == ValueKind::kBool || kind == ValueKind::kInt32 || kind == ValueKind::kInt64;
}

std::uint32_t wire_type_of(ValueKind kind) { return is_numeric(kind) ? kVarint : kLengthDelimited; }

// The value a map entry without a value field holds (gogo starts from the zero value).
json zero_value(ValueKind kind) {
  switch (kind) {
    case ValueKind::kBool: return false;
    case ValueKind::kInt32:
    case ValueKind::kInt64:
    case ValueKind::kIntOrString: return 0;
    case ValueKind::kQuantity: return "0";
    case ValueKind::kMessage: return json::object();
    case ValueKind::kString:
    case ValueKind::kBytes: return "";
    default: return nullptr;
  }
}

class Walker {
 public:
  explicit Walker(std::string_view bytes) : in_(bytes) {}

  // Reads fields up to the current limit into `out`, an object.
  bool message(const MessageSpec& spec, json& out, int depth);
  std::string error() const {
    return path_.empty() ? in_.error() : in_.error() + " at " + path_.substr(1);
  }

 private:
  bool field(const MessageSpec& spec, const FieldSpec& f, std::uint32_t wire, json& out, int depth);
  bool element(const MessageSpec& spec, const FieldSpec& f, std::uint32_t wire, json& list,
               int depth);
  bool map_entry(const MessageSpec& spec, const FieldSpec& f, json& map, int depth);
  bool value(const FieldSpec& f, json& slot, int depth);
  bool nested(const MessageSpec& spec, json& out, int depth);
  bool leaf(ValueKind kind, std::string_view payload, json& slot);
  bool wrong_wire(const MessageSpec& spec, const FieldSpec& f, std::uint32_t wire) {
    return in_.fail("wrong wire type " + std::to_string(wire) + " for field " +
                    std::to_string(f.number) + " (" + std::string(f.name) + ") of message " +
                    std::string(spec.name));
  }

  WireReader in_;
  std::string path_;  // JSON path of the value being read; left as is on failure
};

bool Walker::message(const MessageSpec& spec, json& out, int depth) {
  if (depth > kMaxDepth) return in_.fail("messages nested too deeply");
  while (!in_.at_limit()) {
    std::uint32_t number = 0, wire = 0;
    if (!in_.read_tag(number, wire)) return false;
    const FieldSpec* f = spec.find(number);
    if (f == nullptr) {
      return in_.fail("unknown field number " + std::to_string(number) + " (wire type " +
                      std::to_string(wire) + ") in message " + std::string(spec.name));
    }
    if (!field(spec, *f, wire, out, depth)) return false;
  }
  return in_.ok();
}

bool Walker::field(const MessageSpec& spec, const FieldSpec& f, std::uint32_t wire, json& out,
                   int depth) {
  if (f.kind == ValueKind::kUnsupported) {
    return in_.fail("field " + std::to_string(f.number) + " (" + std::string(f.name) +
                    ") of message " + std::string(spec.name) +
                    " has a type this server cannot decode");
  }
  if (f.has(kInline)) {
    if (wire != kLengthDelimited) return wrong_wire(spec, f, wire);
    return nested(*f.message, out, depth);
  }
  const std::size_t mark = path_.size();
  path_ += '.';
  path_ += f.name;
  json& slot = out[std::string(f.name)];
  bool ok = false;
  if (f.cardinality == Cardinality::kRepeated) {
    if (!slot.is_array()) slot = json::array();
    ok = element(spec, f, wire, slot, depth);
  } else if (f.cardinality == Cardinality::kMap) {
    if (!slot.is_object()) slot = json::object();
    ok = wire == kLengthDelimited ? map_entry(spec, f, slot, depth) : wrong_wire(spec, f, wire);
  } else {
    ok = wire == wire_type_of(f.kind) ? value(f, slot, depth) : wrong_wire(spec, f, wire);
  }
  if (ok) path_.resize(mark);
  return ok;
}

bool Walker::element(const MessageSpec& spec, const FieldSpec& f, std::uint32_t wire, json& list,
                     int depth) {
  if (is_numeric(f.kind) && wire == kLengthDelimited) {  // a packed run
    int token = 0;
    if (!in_.open_message(token)) return false;
    while (!in_.at_limit()) {
      list.push_back(nullptr);
      if (!value(f, list.back(), depth)) return false;
    }
    return in_.close_message(token);
  }
  if (wire != wire_type_of(f.kind)) return wrong_wire(spec, f, wire);
  path_ += '[' + std::to_string(list.size()) + ']';
  list.push_back(f.kind == ValueKind::kMessage ? json::object() : json());
  return value(f, list.back(), depth);
}

bool Walker::map_entry(const MessageSpec& spec, const FieldSpec& f, json& map, int depth) {
  int token = 0;
  if (!in_.open_message(token)) return false;
  std::string key;
  json entry_value = zero_value(f.kind);
  while (!in_.at_limit()) {
    std::uint32_t number = 0, wire = 0;
    if (!in_.read_tag(number, wire)) return false;
    if (number == 1 && wire == kLengthDelimited) {
      std::string_view bytes;
      if (!in_.read_bytes(bytes)) return false;
      key = go_json_text(bytes);
    } else if (number == 2 && wire == wire_type_of(f.kind)) {
      const std::size_t mark = path_.size();
      path_ += "[" + json(key).dump() + "]";
      if (!value(f, entry_value, depth)) return false;
      path_.resize(mark);
    } else {
      return in_.fail("unknown field number " + std::to_string(number) + " (wire type " +
                      std::to_string(wire) + ") in a map entry of field " +
                      std::to_string(f.number) + " (" + std::string(f.name) + ") of message " +
                      std::string(spec.name));
    }
  }
  map[key] = std::move(entry_value);
  return in_.close_message(token);
}

bool Walker::value(const FieldSpec& f, json& slot, int depth) {
  std::uint64_t number = 0;
  std::string_view bytes;
  switch (f.kind) {
    case ValueKind::kBool:
      if (!in_.read_varint(number)) return false;
      slot = number != 0;
      return true;
    case ValueKind::kInt32:  // gogo keeps the low 32 bits
      if (!in_.read_varint(number)) return false;
      slot = static_cast<std::int32_t>(static_cast<std::uint32_t>(number));
      return true;
    case ValueKind::kInt64:
      if (!in_.read_varint(number)) return false;
      slot = static_cast<std::int64_t>(number);
      return true;
    case ValueKind::kString:
      if (!in_.read_bytes(bytes)) return false;
      slot = go_json_text(bytes);
      return true;
    case ValueKind::kBytes:
      if (!in_.read_bytes(bytes)) return false;
      slot = base64(bytes);
      return true;
    case ValueKind::kMessage:
      if (!slot.is_object()) slot = json::object();
      return nested(*f.message, slot, depth);
    case ValueKind::kUnsupported:
      return in_.fail("unsupported field");
    default:
      return in_.read_bytes(bytes) && leaf(f.kind, bytes, slot);
  }
}

bool Walker::nested(const MessageSpec& spec, json& out, int depth) {
  int token = 0;
  return in_.open_message(token) && message(spec, out, depth + 1) && in_.close_message(token);
}

bool Walker::leaf(ValueKind kind, std::string_view payload, json& slot) {
  auto decoded = decode_leaf(kind, payload);
  if (auto* error = std::get_if<std::string>(&decoded)) return in_.fail(std::move(*error));
  slot = std::move(std::get<json>(decoded));
  return true;
}

}  // namespace

DecodeResult decode_message(std::string_view bytes, const MessageSpec& spec) {
  Walker walker(bytes);
  json out = json::object();
  if (!walker.message(spec, out, 0)) return walker.error();
  types::render_go_json(spec, out);
  return out;
}

}  // namespace kubesim::fakeapi::http::k8s_protobuf
