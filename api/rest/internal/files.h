// Small helpers of the REST client: whole-file reads with errno's message, and base64 (the
// kubeconfig's *-data fields, basic authentication).
#ifndef KUBESIM_API_REST_INTERNAL_FILES_H_
#define KUBESIM_API_REST_INTERNAL_FILES_H_

#include <optional>
#include <string>
#include <string_view>

namespace kubesim::api::rest::internal {

// The file's bytes, or nullopt with `*error` set to "open PATH: <strerror>" (Go's wording).
std::optional<std::string> read_file(const std::string& path, std::string* error);

// Standard base64 with padding; line breaks and spaces in the input are skipped. Nullopt on any
// other character or a wrong length.
std::optional<std::string> decode_base64(std::string_view text);
std::string encode_base64(std::string_view data);

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_FILES_H_
