// Compiled only when fakeapi/http/protobuf/ is absent: protobuf bodies are refused with a 415
// that tells the client what to send instead.
#include "kubesim/fakeapi/http/protobuf_body.h"

namespace kubesim::fakeapi::http {

api::Result<nlohmann::json> decode_protobuf_body(std::string_view /*body*/,
                                                 const api::GroupVersionKind& expected_or_empty) {
  std::string what = expected_or_empty.kind.empty() ? std::string("the object")
                                                    : expected_or_empty.to_string();
  return api::new_unsupported_media_type(
      "protobuf request bodies (application/vnd.kubernetes.protobuf) are not supported by this "
      "build, so " + what + " cannot be decoded; send application/json or application/yaml (for "
      "kubectl >= 1.32 `create <kind>`, use `kubectl create -f` with a manifest)");
}

}  // namespace kubesim::fakeapi::http
