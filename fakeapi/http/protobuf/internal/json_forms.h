// The JSON forms Go gives the values the decoder meets: []byte, strings with invalid UTF-8,
// metav1.Time and MicroTime, resource.Quantity. Pure functions; none throws.
#ifndef KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_JSON_FORMS_H_
#define KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_JSON_FORMS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kubesim::fakeapi::http::k8s_protobuf {

// Standard base64 with padding (encoding/json's form of []byte).
std::string base64(std::string_view bytes);

// The string encoding/json writes for a Go string holding these bytes: valid UTF-8 is kept, and
// each byte that does not start a valid sequence (overlong forms, surrogates and code points past
// U+10FFFF included) becomes U+FFFD. The result is always valid UTF-8.
std::string go_json_text(std::string_view bytes);

// "2006-01-02T15:04:05Z" for Unix `seconds` (metav1.Time drops nanoseconds on both the
// protobuf and the JSON side), or with `micro` "2006-01-02T15:04:05.000000Z" including the
// microseconds of `nanos` (metav1.MicroTime). nullopt for a year outside 0..9999, which
// RFC 3339 cannot write.
std::optional<std::string> rfc3339(std::int64_t seconds, std::int64_t nanos, bool micro);

// resource.ParseQuantity's verdict on `text`: nullopt when it parses, else the error message it
// gives ("quantities must match the regular expression ...", "unable to parse quantity's
// suffix").
std::optional<std::string> quantity_error(std::string_view text);

}  // namespace kubesim::fakeapi::http::k8s_protobuf

#endif  // KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_JSON_FORMS_H_
