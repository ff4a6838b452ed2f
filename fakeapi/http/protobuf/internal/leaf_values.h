// The apimachinery types whose JSON form is hand-written in Go, decoded from their protobuf
// payload (the bytes of the length-delimited field): metav1.Time and MicroTime (Timestamp
// {seconds = 1, nanos = 2}), resource.Quantity ({string = 1}), intstr.IntOrString
// ({type = 1, intVal = 2, strVal = 3}), metav1.FieldsV1 ({Raw = 1}) and the []string that travels
// as ExtraValue ({repeated items = 1}).
#ifndef KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_LEAF_VALUES_H_
#define KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_LEAF_VALUES_H_

#include <string_view>

#include "fakeapi/http/protobuf/internal/message_decoder.h"
#include "fakeapi/http/protobuf/internal/schema.h"

namespace kubesim::fakeapi::http::k8s_protobuf {

// `kind` is one of kTime, kMicroTime, kQuantity, kIntOrString, kFieldsV1, kStringList. The JSON is what Go
// writes after its Unmarshal: Time/MicroTime null for an empty payload (the zero time) and
// otherwise RFC 3339 in UTC (Time without its nanoseconds); a Quantity's string as sent (Go
// prints its canonical form, which kube-apiserver also derives from that string when a JSON
// client sends it) after ParseQuantity's checks; an IntOrString as number or string; FieldsV1's
// raw JSON; a string list as an array of its items in order, null for an empty payload (gogo
// leaves the slice nil). Errors for data Go would refuse to decode or to print.
DecodeResult decode_leaf(ValueKind kind, std::string_view payload);

}  // namespace kubesim::fakeapi::http::k8s_protobuf

#endif  // KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_LEAF_VALUES_H_
