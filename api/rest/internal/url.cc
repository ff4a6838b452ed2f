#include "api/rest/internal/url.h"

#include <charconv>

#include "kubesim/api/rest/rest_config.h"

namespace kubesim::api::rest::internal {
namespace {

[[noreturn]] void bad(std::string_view url, const std::string& why) {
  throw ConfigError("invalid server URL \"" + std::string(url) + "\": " + why);
}

}  // namespace

std::string ServerUrl::origin() const {
  return (tls ? "https://" : "http://") + authority + base_path;
}

ServerUrl parse_server_url(std::string_view url) {
  ServerUrl out;
  std::string_view rest = url;
  if (auto pos = rest.find("://"); pos != std::string_view::npos) {
    const std::string_view scheme = rest.substr(0, pos);
    if (scheme == "https") {
      out.tls = true;
    } else if (scheme == "http") {
      out.tls = false;
    } else {
      bad(url, "the scheme must be http or https, not \"" + std::string(scheme) + "\"");
    }
    rest.remove_prefix(pos + 3);
  }
  if (rest.find_first_of("?#") != std::string_view::npos) bad(url, "it may not have a query or fragment");
  const std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  if (authority.find('@') != std::string_view::npos) bad(url, "user information is not supported");
  out.authority = std::string(authority);
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) bad(url, "unclosed '[' in the host");
    out.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') bad(url, "unexpected text after the IPv6 address");
      port = after.substr(1);
    }
  } else {
    const std::size_t colon = authority.rfind(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
  }
  if (out.host.empty()) bad(url, "it has no host");
  if (port.empty()) {
    out.port = out.tls ? "443" : "80";
  } else {
    int value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535) {
      bad(url, "invalid port \"" + std::string(port) + "\"");
    }
    out.port = std::string(port);
  }
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  out.base_path = std::string(path);
  return out;
}

}  // namespace kubesim::api::rest::internal
