// The seam for Kubernetes protobuf request bodies (Content-Type application/vnd.kubernetes.protobuf).
//
// kubectl >= 1.32's imperative `create` and client-go >= 1.32 typed clients send writes as the
// `k8s\0` envelope around a runtime.Unknown holding a k8s.io/api generated.proto message. The HTTP
// front end calls decode_protobuf_body for such a body, on the loop thread, and goes on with the
// JSON object it returns exactly as if the client had sent that JSON.
//
// Contract for the implementation:
//   - Returns the object as Kubernetes' JSON form (apiVersion and kind set from the envelope's
//     TypeMeta), or a Status: 415 UnsupportedMediaType naming a kind it cannot decode, 400
//     BadRequest naming a malformed field. A field it cannot decode is an error naming it, never
//     silently dropped. It never throws and keeps no state (it may be called from any thread).
//   - `expected_or_empty` is the kind the request's path serves (e.g. v1 Namespace for POST
//     /api/v1/namespaces), or empty when the path does not determine it. A body of another kind is
//     the implementation's to refuse (400) or to return for the server to refuse.
//
// Build: when fakeapi/http/protobuf/CMakeLists.txt exists, fakeapi/http/CMakeLists.txt adds that
// directory, which must define the library target kubesim::k8s_protobuf implementing this function
// (linked into kubesim::fakeapi_http; it may depend on kubesim::api). Otherwise a stub answering
// 415 "protobuf request bodies are not supported by this build" is compiled in its place.
#ifndef KUBESIM_FAKEAPI_HTTP_PROTOBUF_BODY_H_
#define KUBESIM_FAKEAPI_HTTP_PROTOBUF_BODY_H_

#include <string_view>

#include <nlohmann/json.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/api/result.h"

namespace kubesim::fakeapi::http {

api::Result<nlohmann::json> decode_protobuf_body(std::string_view body,
                                                 const api::GroupVersionKind& expected_or_empty);

}  // namespace kubesim::fakeapi::http

#endif  // KUBESIM_FAKEAPI_HTTP_PROTOBUF_BODY_H_
