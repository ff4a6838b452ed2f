#include "fakeapi/http/protobuf/internal/leaf_values.h"

#include <cstdint>
#include <optional>
#include <string>

#include "fakeapi/http/protobuf/internal/json_forms.h"
#include "fakeapi/http/protobuf/internal/wire_reader.h"

namespace kubesim::fakeapi::http::k8s_protobuf {
namespace {

using nlohmann::json;

// Field sets mirror an object's structure, a few levels deep; far deeper nesting only serves to
// exhaust the stack of whoever prints the JSON.
constexpr int kMaxFieldsDepth = 512;

// The fields of a small leaf message: varints by number, and the one string/bytes field.
struct LeafFields {
  std::optional<std::uint64_t> varint[3];  // fields 1..3
  std::optional<std::string_view> bytes;
};

// Reads `payload`, accepting varints at `varint_numbers` (a bit set over 1..3) and bytes at
// `bytes_number` (0 for none). Returns an error text or "".
std::string read_leaf(std::string_view payload, std::string_view type, unsigned varint_numbers,
                      std::uint32_t bytes_number, LeafFields& out) {
  WireReader in(payload);
  while (!in.at_limit()) {
    std::uint32_t number = 0, wire = 0;
    if (!in.read_tag(number, wire)) break;
    if (number <= 3 && (varint_numbers & (1u << number)) != 0 && wire == kVarint) {
      std::uint64_t v = 0;
      if (in.read_varint(v)) out.varint[number - 1] = v;
    } else if (number == bytes_number && wire == kLengthDelimited) {
      std::string_view bytes;
      if (in.read_bytes(bytes)) out.bytes = bytes;
    } else {
      in.fail("unknown field number " + std::to_string(number) + " (wire type " +
              std::to_string(wire) + ")");
    }
  }
  return in.ok() ? "" : std::string(type) + ": " + in.error();
}

DecodeResult time_value(std::string_view payload, bool micro) {
  const std::string_view type = micro ? "MicroTime" : "Time";
  if (payload.empty()) return json(nullptr);  // the zero time
  LeafFields f;
  if (auto error = read_leaf(payload, type, 0b110, 0, f); !error.empty()) return error;
  const auto seconds = static_cast<std::int64_t>(f.varint[0].value_or(0));
  const auto nanos = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.varint[1].value_or(0)));
  auto text = rfc3339(seconds, micro ? nanos : 0, micro);
  if (!text) {
    return std::string(type) + ": " + std::to_string(seconds) +
           " seconds is outside the years 0 to 9999";
  }
  return json(*text);
}

DecodeResult quantity_value(std::string_view payload) {
  LeafFields f;
  if (auto error = read_leaf(payload, "Quantity", 0, 1, f); !error.empty()) return error;
  if (!f.bytes) return json("0");  // the zero Quantity
  if (auto error = quantity_error(*f.bytes)) return *error;
  return json(std::string(*f.bytes));
}

DecodeResult int_or_string_value(std::string_view payload) {
  LeafFields f;
  if (auto error = read_leaf(payload, "IntOrString", 0b1110, 3, f); !error.empty()) return error;
  const auto type = static_cast<std::int64_t>(f.varint[0].value_or(0));
  if (type == 0) {
    return json(static_cast<std::int32_t>(static_cast<std::uint32_t>(f.varint[1].value_or(0))));
  }
  if (type == 1) return json(go_json_text(f.bytes.value_or("")));
  return "IntOrString: impossible type " + std::to_string(type);
}

DecodeResult fields_v1_value(std::string_view payload) {
  LeafFields f;
  if (auto error = read_leaf(payload, "FieldsV1", 0, 1, f); !error.empty()) return error;
  if (!f.bytes) return json(nullptr);
  bool too_deep = false;
  json raw = json::parse(
      *f.bytes,
      [&too_deep](int depth, json::parse_event_t, json&) {
        too_deep = too_deep || depth > kMaxFieldsDepth;
        return !too_deep;
      },
      /*allow_exceptions=*/false);
  if (too_deep) {
    return "FieldsV1: its JSON is nested deeper than " + std::to_string(kMaxFieldsDepth);
  }
  if (raw.is_discarded()) return std::string("FieldsV1: its raw bytes are not JSON");
  return raw;
}

// ExtraValue's Unmarshal appends each `items` occurrence; no items leaves the slice nil.
DecodeResult string_list_value(std::string_view payload) {
  if (payload.empty()) return json(nullptr);
  WireReader in(payload);
  json items = json::array();
  while (!in.at_limit()) {
    std::uint32_t number = 0, wire = 0;
    if (!in.read_tag(number, wire)) break;
    std::string_view item;
    if (number == 1 && wire == kLengthDelimited) {
      if (in.read_bytes(item)) items.push_back(go_json_text(item));
    } else {
      in.fail("unknown field number " + std::to_string(number) + " (wire type " +
              std::to_string(wire) + ")");
    }
  }
  if (!in.ok()) return "ExtraValue: " + in.error();
  return items;
}

}  // namespace

DecodeResult decode_leaf(ValueKind kind, std::string_view payload) {
  switch (kind) {
    case ValueKind::kTime: return time_value(payload, false);
    case ValueKind::kMicroTime: return time_value(payload, true);
    case ValueKind::kQuantity: return quantity_value(payload);
    case ValueKind::kIntOrString: return int_or_string_value(payload);
    case ValueKind::kFieldsV1: return fields_v1_value(payload);
    case ValueKind::kStringList: return string_list_value(payload);
    default: return std::string("not a leaf type");
  }
}

}  // namespace kubesim::fakeapi::http::k8s_protobuf
