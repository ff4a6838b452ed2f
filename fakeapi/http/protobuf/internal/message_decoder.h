// Decoding of one table-described protobuf message into the JSON Go would write for it.
//
// The result is what encoding/json produces for the Go struct that gogo-protobuf's Unmarshal
// fills from the same bytes: field names from the json tags; omitempty and omitzero applied;
// nil pointers omitted (or null without omitempty); absent value structs present with their own
// defaults; nil slices and maps null unless omitempty; the special forms of json_forms.h.
// Repeated occurrences of a singular field behave as in gogo: the last scalar wins, messages
// merge, lists append, map entries overwrite.
//
// Unlike gogo (which skips unknown fields), any field number the table does not list, a field
// of a type the decoder cannot render, a wrong wire type, invalid data for a special type
// (a bad Quantity, an IntOrString of an unknown type, FieldsV1 that is not JSON) and any
// truncated or malformed data is an error whose text names the field number, the message and
// the JSON path where it happened. Never throws.
#ifndef KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_MESSAGE_DECODER_H_
#define KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_MESSAGE_DECODER_H_

#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "fakeapi/http/protobuf/internal/schema.h"

namespace kubesim::fakeapi::http::k8s_protobuf {

// Either the decoded JSON object or the error text.
using DecodeResult = std::variant<nlohmann::json, std::string>;

DecodeResult decode_message(std::string_view bytes, const MessageSpec& spec);

}  // namespace kubesim::fakeapi::http::k8s_protobuf

#endif  // KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_MESSAGE_DECODER_H_
