#include "fakeapi/http/internal/dispatch.h"

#include <cctype>

#include "fakeapi/http/internal/request.h"

namespace kubesim::fakeapi::http::internal {
namespace {

namespace http = boost::beast::http;

std::string upper(std::string_view s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// kube-apiserver's verb label: the HTTP verb for reads and writes, LIST and WATCH for
// collections.
std::string metric_verb(const std::string& verb) {
  if (verb == "get") return "GET";
  if (verb == "create") return "POST";
  if (verb == "update") return "PUT";
  return upper(verb);
}

bool is_health(std::string_view path) {
  for (std::string_view p : {"/healthz", "/livez", "/readyz"}) {
    if (path == p || (path.size() > p.size() && path.substr(0, p.size()) == p && path[p.size()] == '/')) {
      return true;
    }
  }
  return false;
}


// managerOrUserAgent: a create, update or patch that names no field manager is its
// User-Agent's, up to the first "/", without unprintable characters, at most 128 bytes. An apply
// must name its manager (the server says so), so it is left alone.
void default_field_manager(ApiCall& call, std::string_view user_agent) {
  std::string* manager = call.verb == "create"   ? &call.create.field_manager
                         : call.verb == "update" ? &call.update.field_manager
                         : call.verb == "patch" && !(call.patch_type && api::is_apply(*call.patch_type))
                             ? &call.patch.field_manager
                             : nullptr;
  if (manager == nullptr || !manager->empty()) return;
  for (char c : user_agent.substr(0, user_agent.find('/'))) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) continue;
    if (manager->size() == 128) break;
    manager->push_back(c);
  }
}

Reply local(int code, std::string content_type, std::string body) {
  Reply r;
  r.code = code;
  r.content_type = std::move(content_type);
  r.body = std::move(body);
  return r;
}

}  // namespace

std::optional<std::string> version_json(const std::string& git_version) {
  std::string_view v = git_version;
  if (v.empty() || v[0] != 'v') return std::nullopt;
  v.remove_prefix(1);
  const std::size_t dot = v.find('.');
  if (dot == std::string_view::npos || dot == 0) return std::nullopt;
  const std::string_view major = v.substr(0, dot);
  std::string_view rest = v.substr(dot + 1);
  std::size_t n = 0;
  while (n < rest.size() && std::isdigit(static_cast<unsigned char>(rest[n]))) ++n;
  if (n == 0) return std::nullopt;
  for (char c : major) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  return nlohmann::json{{"major", std::string(major)},
                        {"minor", std::string(rest.substr(0, n))},
                        {"gitVersion", git_version},
                        {"gitCommit", "0000000000000000000000000000000000000000"},
                        {"gitTreeState", "clean"},
                        {"buildDate", "2025-01-01T00:00:00Z"},
                        {"goVersion", "go1.24.0"},
                        {"compiler", "gc"},
                        {"platform", "linux/amd64"}}
      .dump();
}

Prepared prepare_request(Frontend& fe, http::request<http::string_body>& req,
                         const UserInfo* cert_user) {
  Prepared p;
  const std::string_view target(req.target().data(), req.target().size());
  const std::size_t qmark = target.find('?');
  const std::string_view path = target.substr(0, qmark);
  const std::string_view raw_query = qmark == std::string_view::npos ? std::string_view() : target.substr(qmark + 1);
  const Method method = parse_method(std::string_view(req.method_string().data(), req.method_string().size()));
  p.metric_verb = upper(std::string_view(req.method_string().data(), req.method_string().size()));
  const bool read_only = method == Method::kGet || method == Method::kHead;

  if (is_health(path)) {
    p.reply = local(200, "text/plain; charset=utf-8", "ok");
    return p;
  }
  const auto auth = req[http::field::authorization];
  auto user = fe.authenticate(std::string_view(auth.data(), auth.size()), cert_user);
  if (!user) {
    p.reply = Reply::of_status(api::new_unauthorized("Unauthorized"));
    return p;
  }
  p.user = user->name;
  if (path == "/version" || path == "/metrics" || path == "/openapi/v2" || path == "/swagger-2.0.0.pb-v1") {
    if (!read_only) {
      p.reply = Reply::of_status(api::Status{405, api::StatusReason::kMethodNotAllowed,
                                             "the server does not allow this method on the requested resource", {}});
    } else if (path == "/version") {
      p.reply = Reply::of_json(200, fe.version_json);
    } else if (path == "/metrics") {
      p.reply = local(200, "text/plain; version=0.0.4; charset=utf-8", fe.metrics.render());
    } else {
      // An empty protobuf Document: kubectl's client-side validation finds no schema and skips.
      p.reply = local(200, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf", "");
    }
    return p;
  }

  ApiCall call;
  call.method = method;
  call.user = std::move(*user);
  auto route = parse_route(path);
  if (!route) {
    p.reply = Reply::of_status(route.status());
    return p;
  }
  call.route = std::move(route.value());
  if (call.route.kind == Route::Kind::kNotFound) {
    p.reply = Reply::resource_not_found();
    return p;
  }
  const auto accept = req[http::field::accept];
  if (!accepts_json(std::string_view(accept.data(), accept.size()))) {
    p.reply = Reply::of_status(api::new_not_acceptable(
        "only the following media types are accepted: application/json, application/json;stream=watch"));
    return p;
  }
  auto query = parse_query(raw_query);
  if (!query) {
    p.reply = Reply::of_status(query.status());
    return p;
  }
  call.query = std::move(query.value());
  if (call.route.kind == Route::Kind::kResource) {
    if (auto error = parse_verb_and_options(call)) {
      p.reply = Reply::of_status(*error);
      return p;
    }
    p.metric_verb = metric_verb(call.verb);
    p.metric_resource = call.route.resource;
    if (!call.route.subresource.empty()) p.metric_resource += "/" + call.route.subresource;
    const auto ct = req[http::field::content_type];
    call.content_type = media_type(std::string_view(ct.data(), ct.size()));
    call.body = std::move(req.body());
    if (auto error = decode_body(call)) {
      p.reply = Reply::of_status(*error);
      return p;
    }
    const auto agent = req[http::field::user_agent];
    default_field_manager(call, std::string_view(agent.data(), agent.size()));
    if (call.verb == "watch") {
      if (static_cast<std::size_t>(fe.metrics.watches()) + fe.watch_starts >= fe.options.max_watches) {
        p.reply = Reply::of_status(api::new_too_many_requests("too many watches; try again later", 1));
        return p;
      }
      ++fe.watch_starts;
    }
  } else if (call.route.kind == Route::Kind::kAdmin) {
    call.body = std::move(req.body());
  } else if (!read_only) {
    p.reply = Reply::of_status(api::Status{405, api::StatusReason::kMethodNotAllowed,
                                           "the server does not allow this method on the requested resource", {}});
    return p;
  }
  p.call = std::move(call);
  return p;
}

}  // namespace kubesim::fakeapi::http::internal
