#include "fakeapi/http/internal/utf8.h"

#include <nlohmann/json.hpp>

#include "kubesim/api/go_strings.h"

namespace kubesim::fakeapi::http::internal {
bool valid_utf8(std::string_view s) { return api::valid_utf8(s); }

std::string scrub_utf8(std::string_view s) {
  if (valid_utf8(s)) return std::string(s);
  std::string out;
  out.reserve(s.size() + 8);
  std::uint32_t cp = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = api::decode_utf8(s, i, cp);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string quote(std::string_view s) { return nlohmann::json(scrub_utf8(s)).dump(); }

api::Status scrub_status(api::Status status) {
  status.message = scrub_utf8(status.message);
  if (status.details) {
    auto& d = *status.details;
    for (std::string* f : {&d.name, &d.group, &d.kind, &d.uid}) *f = scrub_utf8(*f);
    for (auto& cause : d.causes) {
      cause.type = scrub_utf8(cause.type);
      cause.message = scrub_utf8(cause.message);
      cause.field = scrub_utf8(cause.field);
    }
  }
  return status;
}

}  // namespace kubesim::fakeapi::http::internal
