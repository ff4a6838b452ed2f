// The server URL of a RestConfig, taken apart.
#ifndef KUBESIM_API_REST_INTERNAL_URL_H_
#define KUBESIM_API_REST_INTERNAL_URL_H_

#include <string>
#include <string_view>

namespace kubesim::api::rest::internal {

struct ServerUrl {
  ServerUrl() {}
  bool tls = true;
  std::string host;       // without brackets for IPv6
  std::string port;       // "443" when the URL has none
  std::string authority;  // host[:port] as written: the Host header
  std::string base_path;  // "" or "/prefix" (no trailing '/')
  // "https://host:port" with the base path, for messages.
  std::string origin() const;
};

// Parses "https://host[:port][/path]" (no scheme means https, as in client-go). Throws
// ConfigError naming the problem: another scheme, no host, a bad port, a query or fragment.
ServerUrl parse_server_url(std::string_view url);

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_URL_H_
