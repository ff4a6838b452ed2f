#include "fakeapi/http/internal/request.h"

#include <cctype>
#include <vector>

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::http::internal {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Go's url.unescape: false on a malformed escape.
bool unescape(std::string_view in, bool plus_is_space, std::string& out) {
  out.clear();
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = hex_value(in[i + 1]);
      const int lo = hex_value(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return true;
}

std::string escape_for_message(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 64)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  return out;
}

}  // namespace

api::Result<Query> parse_query(std::string_view raw) {
  Query q;
  std::string key;
  std::string value;
  while (!raw.empty()) {
    const std::size_t amp = raw.find('&');
    std::string_view pair = raw.substr(0, amp);
    raw = amp == std::string_view::npos ? std::string_view() : raw.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    const std::string_view k = pair.substr(0, eq);
    const std::string_view v = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    if (!unescape(k, true, key) || !unescape(v, true, value)) {
      return api::new_bad_request("invalid URL escape in query parameter \"" +
                                  escape_for_message(pair) + "\"");
    }
    q.params.emplace_back(key, value);
  }
  return q;
}

Method parse_method(std::string_view m) {
  if (m == "GET") return Method::kGet;
  if (m == "HEAD") return Method::kHead;
  if (m == "POST") return Method::kPost;
  if (m == "PUT") return Method::kPut;
  if (m == "PATCH") return Method::kPatch;
  if (m == "DELETE") return Method::kDelete;
  return Method::kOther;
}

api::Result<Route> parse_route(std::string_view path) {
  std::string decoded;
  if (!unescape(path, false, decoded)) {
    return api::new_bad_request("invalid URL escape in path \"" + escape_for_message(path) + "\"");
  }
  std::vector<std::string> parts;
  {
    std::string_view p = decoded;
    while (!p.empty() && p.front() == '/') p.remove_prefix(1);
    while (!p.empty() && p.back() == '/') p.remove_suffix(1);
    while (!p.empty()) {
      const std::size_t slash = p.find('/');
      parts.emplace_back(p.substr(0, slash));
      p = slash == std::string_view::npos ? std::string_view() : p.substr(slash + 1);
    }
  }
  Route r;
  std::size_t rest = 0;
  if (parts.size() >= 1 && parts[0] == "api") {
    if (parts.size() == 1) {
      r.kind = Route::Kind::kApiVersions;
      return r;
    }
    r.version = parts[1];
    rest = 2;
  } else if (parts.size() >= 1 && parts[0] == "apis") {
    if (parts.size() == 1) {
      r.kind = Route::Kind::kGroupList;
      return r;
    }
    r.group = parts[1];
    if (parts.size() == 2) {
      r.kind = Route::Kind::kGroup;
      return r;
    }
    r.version = parts[2];
    rest = 3;
  } else if (parts.size() >= 2 && parts[0] == "openapi" && parts[1] == "v3") {
    r.kind = Route::Kind::kOpenApiV3;
    if (parts.size() == 2) return r;
    if (parts.size() == 4 && parts[2] == "api") {
      r.version = parts[3];
    } else if (parts.size() == 5 && parts[2] == "apis") {
      r.group = parts[3];
      r.version = parts[4];
    } else {
      r.kind = Route::Kind::kNotFound;
    }
    return r;
  } else if (parts.size() >= 3 && parts[0] == "kubesim" && parts[1] == "v1") {
    r.kind = Route::Kind::kAdmin;
    for (std::size_t i = 2; i < parts.size(); ++i) r.admin += (i > 2 ? "/" : "") + parts[i];
    return r;
  } else {
    return r;  // kNotFound
  }
  if (parts.size() == rest) {
    r.kind = Route::Kind::kResourceList;
    return r;
  }
  if (parts[rest] == "watch") {
    r.watch_prefix = true;
    ++rest;
  }
  std::vector<std::string> tail(parts.begin() + static_cast<std::ptrdiff_t>(rest), parts.end());
  if (tail.empty()) return r;
  if (tail[0] == "namespaces" && tail.size() > 1) {
    if (tail.size() > 2 && tail[2] != "status" && tail[2] != "finalize") {
      r.ns = tail[1];
      tail.erase(tail.begin(), tail.begin() + 2);
    }
  }
  // A proxy subresource carries a path of its own (pods/NAME/proxy/PATH): the call is the proxy's.
  if (tail.size() > 3 && tail[2] == "proxy") tail.resize(3);
  if (tail.size() > 3) return r;  // kNotFound
  r.kind = Route::Kind::kResource;
  r.resource = tail[0];
  if (tail.size() > 1) r.name = tail[1];
  if (tail.size() > 2) r.subresource = tail[2];
  if (r.name.empty() && tail.size() > 1) r.kind = Route::Kind::kNotFound;
  return r;
}

std::string media_type(std::string_view content_type) {
  std::string out;
  for (char c : content_type.substr(0, content_type.find(';'))) {
    if (c == ' ' || c == '\t') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool accepts_json(std::string_view accept) {
  if (accept.empty()) return true;
  while (!accept.empty()) {
    const std::size_t comma = accept.find(',');
    const std::string type = media_type(accept.substr(0, comma));
    if (type == "application/json" || type == "application/*" || type == "*/*" || type.empty()) {
      return true;
    }
    accept = comma == std::string_view::npos ? std::string_view() : accept.substr(comma + 1);
  }
  return false;
}

bool query_bool(const std::string& value) {
  if (value == "0") return false;
  if (value.size() == 5) {
    std::string lower;
    for (char c : value) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "false") return false;
  }
  return true;
}

}  // namespace kubesim::fakeapi::http::internal
