// decode_protobuf_body: the `k8s\0` envelope and runtime.Unknown around an object, the kind
// lookup, and the Status for each way it can fail. The object itself is decoded by the
// table-driven walker (fakeapi/internal/encoding/types/schema.h explains the design).
#include "kubesim/fakeapi/http/protobuf_body.h"

#include <string>
#include <utility>
#include <variant>

#include "fakeapi/http/protobuf/internal/json_forms.h"
#include "fakeapi/http/protobuf/internal/message_decoder.h"
#include "fakeapi/http/protobuf/internal/schema.h"
#include "fakeapi/http/protobuf/internal/wire_reader.h"

namespace kubesim::fakeapi::http {
namespace {

using k8s_protobuf::WireReader;
using nlohmann::json;

constexpr std::string_view kMagic{"k8s\0", 4};
constexpr std::string_view kProtobufContentType = "application/vnd.kubernetes.protobuf";

// runtime.Unknown: typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3,
// contentType = 4.
struct Envelope {
  std::string api_version;
  std::string kind;
  std::string_view raw;
  std::string content_encoding;
  std::string content_type;
};

bool read_string(WireReader& in, std::uint32_t wire, std::string& out) {
  std::string_view bytes;
  if (wire != k8s_protobuf::kLengthDelimited) return in.fail("wrong wire type " + std::to_string(wire));
  if (!in.read_bytes(bytes)) return false;
  out = k8s_protobuf::go_json_text(bytes);  // it may end up in a Status message
  return true;
}

bool read_type_meta(WireReader& in, Envelope& env) {
  int token = 0;
  if (!in.open_message(token)) return false;
  while (!in.at_limit()) {
    std::uint32_t number = 0, wire = 0;
    if (!in.read_tag(number, wire)) return false;
    if (number == 1 || number == 2) {
      if (!read_string(in, wire, number == 1 ? env.api_version : env.kind)) return false;
    } else {
      return in.fail("unknown field number " + std::to_string(number) + " in runtime.TypeMeta");
    }
  }
  return in.close_message(token);
}

// Reads the envelope after the magic; returns the error text or "".
std::string read_envelope(std::string_view data, Envelope& env) {
  WireReader in(data);
  while (!in.at_limit()) {
    std::uint32_t number = 0, wire = 0;
    if (!in.read_tag(number, wire)) break;
    if (number == 1 && wire == k8s_protobuf::kLengthDelimited) {
      read_type_meta(in, env);
    } else if (number == 2 && wire == k8s_protobuf::kLengthDelimited) {
      in.read_bytes(env.raw);
    } else if (number == 3 || number == 4) {
      read_string(in, wire, number == 3 ? env.content_encoding : env.content_type);
    } else {
      in.fail("unknown field number " + std::to_string(number) + " (wire type " +
              std::to_string(wire) + ") in runtime.Unknown");
    }
  }
  return in.ok() ? "" : "the protobuf envelope (runtime.Unknown): " + in.error();
}

// kube-apiserver's decode errors: "<Kind> in version \"<v>\" cannot be handled as a <Kind>: ..."
// when the body's kind is known, else "the object provided is unrecognized ...".
api::Status decode_error(const api::GroupVersionKind& actual, const api::GroupVersionKind& expected,
                         const std::string& error) {
  const std::string& target = expected.kind.empty() ? actual.kind : expected.kind;
  if (actual.kind.empty() || target.empty()) {
    return api::new_bad_request("the object provided is unrecognized (must be of type " +
                                (target.empty() ? std::string("a known kind") : target) + "): " +
                                error);
  }
  return api::new_bad_request(actual.kind + " in version \"" + actual.version +
                              "\" cannot be handled as a " + target + ": " + error);
}

const k8s_protobuf::KindSpec* find_kind(const api::GroupVersionKind& gvk) {
  for (const auto& k : k8s_protobuf::decodable_kinds()) {
    if (k.group == gvk.group && k.version == gvk.version && k.kind == gvk.kind) return &k;
  }
  return nullptr;
}

std::string supported_kinds_text() {
  std::string text;
  for (const auto& k : k8s_protobuf::decodable_kinds()) {
    if (!text.empty()) text += ", ";
    text += k.group.empty() ? std::string(k.kind) : std::string(k.kind) + "." + std::string(k.group);
  }
  return text;
}

}  // namespace

api::Result<nlohmann::json> decode_protobuf_body(std::string_view body,
                                                 const api::GroupVersionKind& expected_or_empty) {
  const api::GroupVersionKind& expected = expected_or_empty;
  if (body.empty()) return decode_error({}, expected, "empty data");
  if (!body.starts_with(kMagic)) {
    return decode_error({}, expected,
                        "provided data does not appear to be a protobuf message, expected prefix "
                        "[107 56 115 0]");
  }
  if (body.size() == kMagic.size()) return decode_error({}, expected, "empty body");

  Envelope env;
  if (auto error = read_envelope(body.substr(kMagic.size()), env); !error.empty()) {
    return decode_error({}, expected, error);
  }
  if (!env.content_encoding.empty()) {
    return api::new_unsupported_media_type("the protobuf envelope's contentEncoding \"" +
                                           env.content_encoding + "\" is not supported");
  }
  if (!env.content_type.empty() && env.content_type != kProtobufContentType) {
    return api::new_unsupported_media_type("the protobuf envelope's contentType \"" +
                                           env.content_type + "\" is not supported");
  }

  auto gv = api::parse_api_version(env.api_version);
  if (!gv) {
    return decode_error({}, expected, "unexpected GroupVersion string: " + env.api_version);
  }
  // copyKindDefaults: the path's kind and version fill in what the envelope leaves out.
  api::GroupVersionKind actual(gv->group, gv->version, env.kind);
  if (actual.kind.empty()) actual.kind = expected.kind;
  if (actual.version.empty() && !expected.version.empty()) {
    actual.group = expected.group;
    actual.version = expected.version;
  }
  if (actual.kind.empty()) {
    return decode_error(actual, expected, "Object 'Kind' is missing in the protobuf envelope");
  }
  if (actual.version.empty()) {
    return decode_error(actual, expected, "Object 'apiVersion' is missing in the protobuf envelope");
  }

  const k8s_protobuf::KindSpec* kind = find_kind(actual);
  if (kind == nullptr) {
    return api::new_unsupported_media_type(
        "this server cannot decode " + actual.to_string() +
        " from application/vnd.kubernetes.protobuf; send it as application/json (kinds it decodes: " +
        supported_kinds_text() + ")");
  }
  auto decoded = k8s_protobuf::decode_message(env.raw, *kind->message);
  if (auto* error = std::get_if<std::string>(&decoded)) return decode_error(actual, expected, *error);
  json object = std::move(std::get<json>(decoded));
  object["apiVersion"] = actual.api_version();
  object["kind"] = actual.kind;
  return object;
}

}  // namespace kubesim::fakeapi::http
