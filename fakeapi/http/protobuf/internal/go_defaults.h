// The second half of decoding: turns the fields read off the wire into the JSON encoding/json
// writes for the Go struct, by applying each field's Go flags (schema.h):
//   - absent: a nil pointer is omitted (null without omitempty/omitzero); a nil slice or map is
//     omitted under omitempty, else null; a value struct appears with its own defaults (Time:
//     null, or omitted under omitzero; Quantity "0"; IntOrString 0); a scalar is omitted under
//     omitempty, else its zero value ("", 0, false);
//   - present: pointers always stay (zero values included); value scalars equal to zero are
//     omitted under omitempty; empty lists (an empty packed run) count as absent.
// Runs recursively through nested, repeated and map-valued messages and through inlined
// (embedded) structs, whose fields live in the parent object.
#ifndef KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_GO_DEFAULTS_H_
#define KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_GO_DEFAULTS_H_

#include <nlohmann/json.hpp>

#include "fakeapi/http/protobuf/internal/schema.h"

namespace kubesim::fakeapi::http::k8s_protobuf {

// `object` must be a JSON object holding only fields of `spec` as the decoder wrote them.
void apply_go_json_rules(const MessageSpec& spec, nlohmann::json& object);

}  // namespace kubesim::fakeapi::http::k8s_protobuf

#endif  // KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_GO_DEFAULTS_H_
