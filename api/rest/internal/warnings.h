// Warning response headers (RFC 7234 5.5) as apimachinery's net.ParseWarningHeaders reads them:
// `code agent "text"` with an optional quoted date, several per header separated by commas. A
// malformed warning ends its header (the warnings before it are kept, the next header is read).
// Text in RFC 2047 encoded words is taken as it is (kube-apiserver never sends them).
#ifndef KUBESIM_API_REST_INTERNAL_WARNINGS_H_
#define KUBESIM_API_REST_INTERNAL_WARNINGS_H_

#include <string>
#include <vector>

namespace kubesim::api::rest::internal {

struct WarningHeader {
  int code = 0;
  std::string agent;
  std::string text;
};

// The warnings of the given Warning header values, in order; `errors` (when given) receives
// apimachinery's message for each header that stopped early.
std::vector<WarningHeader> parse_warning_headers(const std::vector<std::string>& values,
                                                 std::vector<std::string>* errors = nullptr);

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_WARNINGS_H_
