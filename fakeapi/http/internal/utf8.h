// UTF-8 at the edges of the HTTP front end. Request bytes (paths, query values, headers, YAML
// scalars) are not necessarily UTF-8, and JSON output must be: a message quoting such bytes
// replaces each invalid sequence with U+FFFD, as Go's encoding/json does.
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_UTF8_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_UTF8_H_

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "kubesim/api/status.h"

namespace kubesim::fakeapi::http::internal {

bool valid_utf8(std::string_view s);
// `s` with every invalid sequence replaced by U+FFFD.
std::string scrub_utf8(std::string_view s);
// `s` as a JSON string literal (quotes included), scrubbed: for messages that quote input.
std::string quote(std::string_view s);
// `status` with every text field scrubbed, so that its JSON form can always be written.
api::Status scrub_status(api::Status status);

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_UTF8_H_
