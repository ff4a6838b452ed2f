#include "kubesim/api/rest/rest_client.h"

#include <algorithm>
#include <cctype>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "api/rest/internal/client_state.h"
#include "api/rest/internal/files.h"
#include "api/rest/internal/paths.h"
#include "api/rest/internal/warnings.h"

namespace kubesim::api::rest {

using internal::HttpRequest;
using internal::HttpResponse;
using internal::RequestInfo;

namespace {

constexpr auto kTokenRefresh = std::chrono::minutes(1);

internal::TransportConfig transport_config(const RestConfig& c, internal::ServerUrl url) {
  internal::TransportConfig t;
  t.url = std::move(url);
  t.tls_server_name = c.tls_server_name;
  t.insecure_skip_tls_verify = c.insecure_skip_tls_verify;
  t.ca_pem = c.ca_pem;
  t.client_cert_pem = c.client_cert_pem;
  t.client_key_pem = c.client_key_pem;
  t.max_idle_connections = c.max_idle_connections;
  t.idle_timeout = c.idle_connection_timeout;
  t.max_response_bytes = c.max_response_bytes;
  return t;
}

RestConfig checked(sim::Loop& loop, RestConfig c) {
  if (loop.options().mode != sim::ClockMode::kReal) {
    throw ConfigError("RestClient needs a real-mode loop (sim::ClockMode::kReal)");
  }
  if (c.server.empty()) throw ConfigError("no server given");
  const bool token = !c.bearer_token.empty() || !c.bearer_token_file.empty();
  if (token && (!c.username.empty() || !c.password.empty())) {
    throw ConfigError("more than one authentication method: a token and basic authentication");
  }
  if (c.qps == 0) c.qps = 5;
  if (c.burst == 0) c.burst = 10;
  if (c.qps > 0 && c.burst < 1) throw ConfigError("burst must be at least 1 when qps is positive");
  if (c.watch_window == 0) throw ConfigError("watch_window must be at least 1");
  return c;
}

sim::Task<Response> fail(Status status) { co_return Response::failure(std::move(status)); }

// The Response of a decoded answer: its value in the member of its kind.
template <class T>
Response response_of(Result<T> result, int code) {
  if (!result.ok()) return Response::failure(std::move(result).status());
  Response r;
  r.code = code;
  if constexpr (std::is_same_v<T, ObjectPtr>) {
    r.object = std::move(result).value();
  } else if constexpr (std::is_same_v<T, ObjectList>) {
    r.list = std::move(result).value();
  } else {
    static_assert(std::is_void_v<T>);
  }
  return r;
}

// Sends `req` (after the rate limiter, unless `throttle` is false) and decodes the answer on the
// I/O thread with `decode`.
template <class T>
sim::Task<Response> call(std::shared_ptr<RestClient::Shared> s, sim::Context ctx, HttpRequest req,
                         RequestInfo info, Result<T> (*decode)(const HttpResponse&, const RequestInfo&)) {
  auto denied = co_await s->limiter.wait(ctx);
  if (denied) co_return Response::failure(std::move(*denied));
  if (ctx.done()) co_return Response::failure(new_context_error(ctx.err()));
  auto headers = s->headers();
  req.headers.insert(req.headers.begin(), headers.begin(), headers.end());
  req.timeout = s->io_timeout(ctx);
  auto pending = std::make_shared<internal::Pending<T>>(*s->loop);
  sim::Loop* loop = s->loop;
  const std::uint64_t id = s->transport->start(
      std::move(req), [handler = s->config.warning_handler, pending, loop, decode,
                       info](HttpResponse response) {
        auto result = std::make_shared<Result<T>>(decode(response, info));
        auto warnings = std::make_shared<std::vector<internal::WarningHeader>>(
            internal::parse_warning_headers(response.warnings));
        const int code = response.code;
        loop->post_external([handler, pending, result, warnings, code] {
          if (handler) {
            for (const auto& w : *warnings) handler(w.code, w.agent, w.text);
          }
          for (const auto& w : *warnings) pending->warnings.push_back(w.text);
          pending->code = code;
          pending->value.emplace(std::move(*result));
          pending->done.set();
        });
      });
  const bool arrived = co_await pending->done.wait(ctx);
  if (!arrived) {
    s->transport->cancel(id);
    co_return Response::failure(new_context_error(ctx.err()));
  }
  Response answer = response_of<T>(std::move(*pending->value), pending->code);
  answer.warnings = std::move(pending->warnings);
  co_return answer;
}

// The checks client-go makes before sending: names and namespaces that fit in a path.
std::optional<Status> check_target(std::string_view ns, std::string_view name, bool needs_name,
                                   std::string_view subresource = {}) {
  if (needs_name && name.empty()) return internal::request_error("resource name may not be empty");
  if (!ns.empty()) {
    if (auto m = internal::check_path_segment("namespace", ns)) return internal::request_error(*m);
  }
  if (!name.empty()) {
    if (auto m = internal::check_path_segment("resource name", name)) return internal::request_error(*m);
  }
  if (!subresource.empty()) {
    if (auto m = internal::check_path_segment("subresource", subresource)) return internal::request_error(*m);
  }
  return std::nullopt;
}

HttpRequest request(std::string method, std::string target, std::string content_type = {},
                    std::string body = {}) {
  HttpRequest r;
  r.method = std::move(method);
  r.target = std::move(target);
  r.body = std::move(body);
  if (!content_type.empty()) r.headers.emplace_back("Content-Type", std::move(content_type));
  return r;
}

}  // namespace

RestClient::Shared::Shared(sim::Loop& loop_, RestConfig config_)
    : loop(&loop_),
      config(checked(loop_, std::move(config_))),
      url(internal::parse_server_url(config.server)),
      limiter(loop_, config.qps, config.burst) {
  token_ = config.bearer_token;
  if (!config.bearer_token_file.empty()) {
    const std::string error = refresh_token();
    if (!error.empty()) throw ConfigError("cannot read the token file: " + error);
    if (token_.empty()) throw ConfigError("the token file " + config.bearer_token_file + " is empty");
  }
  transport = std::make_unique<internal::Transport>(transport_config(config, url));
}

std::string RestClient::Shared::refresh_token() {
  std::string error;
  auto text = internal::read_file(config.bearer_token_file, &error);
  token_read_at_ = loop->now();
  if (!text) return error;  // the caller keeps the last token, as client-go does
  std::string_view t = *text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  token_ = std::string(t);
  return {};
}

std::vector<std::pair<std::string, std::string>> RestClient::Shared::headers() {
  std::vector<std::pair<std::string, std::string>> h;
  h.emplace_back("Accept", "application/json");
  h.emplace_back("User-Agent", config.user_agent);
  if (!config.bearer_token_file.empty() &&
      (!token_read_at_ || loop->now() - *token_read_at_ >= kTokenRefresh)) {
    (void)refresh_token();
  }
  if (!token_.empty()) {
    h.emplace_back("Authorization", "Bearer " + token_);
  } else if (!config.username.empty() || !config.password.empty()) {
    h.emplace_back("Authorization",
                   "Basic " + internal::encode_base64(config.username + ":" + config.password));
  }
  return h;
}

std::optional<std::chrono::nanoseconds> RestClient::Shared::io_timeout(const sim::Context& ctx) const {
  auto deadline = ctx.deadline();
  if (!deadline) return std::nullopt;
  const auto left = std::max(sim::Duration::zero(), *deadline - loop->now());
  return left + std::chrono::seconds(1);
}

RestClient::RestClient(sim::Loop& loop, RestConfig config)
    : shared_(std::make_shared<Shared>(loop, std::move(config))) {}

RestClient::~RestClient() { shared_->transport->shutdown(); }

const RestConfig& RestClient::config() const { return shared_->config; }

RestClient::Stats RestClient::stats() const {
  const auto t = shared_->transport->stats();
  Stats s;
  s.connections_opened = t.connections_opened;
  s.requests = t.exchanges;
  s.idle_connections = t.idle_connections;
  return s;
}

namespace {

using SharedPtr = std::shared_ptr<RestClient::Shared>;

sim::Task<Response> get_object(const SharedPtr& s, sim::Context ctx, const Request& r) {
  if (auto bad = check_target(r.ns, r.name, true, to_string(r.subresource))) return fail(*bad);
  auto path = internal::resource_path(s->url.base_path, r.resource, r.ns, r.name,
                                      to_string(r.subresource));
  auto req = request("GET", internal::with_query(std::move(path), internal::get_query(r.get_options())));
  RequestInfo info("GET", r.resource.group_resource(), r.name);
  return call<ObjectPtr>(s, std::move(ctx), std::move(req), std::move(info),
                         &internal::decode_object_response);
}

sim::Task<Response> list_objects(const SharedPtr& s, sim::Context ctx, const Request& r) {
  if (auto bad = check_target(r.ns, "", false)) return fail(*bad);
  auto path = internal::resource_path(s->url.base_path, r.resource, r.ns);
  auto req = request("GET", internal::with_query(std::move(path),
                                                 internal::list_query(r.list_options(), false)));
  RequestInfo info("GET", r.resource.group_resource(), "");
  return call<ObjectList>(s, std::move(ctx), std::move(req), std::move(info),
                          &internal::decode_list_response);
}

sim::Task<Response> create_object(const SharedPtr& s, sim::Context ctx, const Request& r) {
  if (!r.object) return fail(internal::request_error("create: no object given"));
  if (auto bad = check_target(r.ns, "", false)) return fail(*bad);
  auto path = internal::resource_path(s->url.base_path, r.resource, r.ns);
  const CreateOptions& o = r.create_options();
  auto query = internal::write_query(o.dry_run, o.field_manager, o.field_validation);
  auto req = request("POST", internal::with_query(std::move(path), query), "application/json",
                     std::string(r.object->serialized()));
  RequestInfo info("POST", r.resource.group_resource(), "");
  return call<ObjectPtr>(s, std::move(ctx), std::move(req), std::move(info),
                         &internal::decode_object_response);
}

sim::Task<Response> update_object(const SharedPtr& s, sim::Context ctx, const Request& r) {
  if (!r.object) return fail(internal::request_error("update: no object given"));
  const std::string name(r.object->name());
  const std::string_view subresource = to_string(r.subresource);
  if (auto bad = check_target(r.ns, name, true, subresource)) return fail(*bad);
  auto path = internal::resource_path(s->url.base_path, r.resource, r.ns, name, subresource);
  const UpdateOptions& o = r.update_options();
  auto query = internal::write_query(o.dry_run, o.field_manager, o.field_validation);
  auto req = request("PUT", internal::with_query(std::move(path), query), "application/json",
                     std::string(r.object->serialized()));
  RequestInfo info("PUT", r.resource.group_resource(), name);
  return call<ObjectPtr>(s, std::move(ctx), std::move(req), std::move(info),
                         &internal::decode_object_response);
}

sim::Task<Response> patch_object(const SharedPtr& s, sim::Context ctx, Request& r) {
  const std::string_view subresource = to_string(r.subresource);
  if (auto bad = check_target(r.ns, r.name, true, subresource)) return fail(*bad);
  auto path = internal::resource_path(s->url.base_path, r.resource, r.ns, r.name, subresource);
  const PatchOptions& o = r.patch_options();
  auto query = internal::write_query(o.dry_run, o.field_manager, o.field_validation);
  auto req = request("PATCH", internal::with_query(std::move(path), query),
                     std::string(content_type(r.patch_type)), std::move(r.patch_body));
  RequestInfo info("PATCH", r.resource.group_resource(), r.name);
  return call<ObjectPtr>(s, std::move(ctx), std::move(req), std::move(info),
                         &internal::decode_object_response);
}

sim::Task<Response> delete_object(const SharedPtr& s, sim::Context ctx, const Request& r) {
  if (auto bad = check_target(r.ns, r.name, true)) return fail(*bad);
  auto path = internal::resource_path(s->url.base_path, r.resource, r.ns, r.name);
  auto req = request("DELETE", std::move(path), "application/json",
                     internal::delete_body(r.delete_options()));
  RequestInfo info("DELETE", r.resource.group_resource(), r.name);
  return call<ObjectPtr>(s, std::move(ctx), std::move(req), std::move(info),
                         &internal::decode_object_response);
}

sim::Task<Response> delete_objects(const SharedPtr& s, sim::Context ctx, const Request& r) {
  if (auto bad = check_target(r.ns, "", false)) return fail(*bad);
  auto path = internal::resource_path(s->url.base_path, r.resource, r.ns);
  auto req = request("DELETE",
                     internal::with_query(std::move(path), internal::list_query(r.list_options(), false)),
                     "application/json", internal::delete_body(r.delete_options()));
  RequestInfo info("DELETE", r.resource.group_resource(), "");
  return call<void>(s, std::move(ctx), std::move(req), std::move(info),
                    &internal::decode_empty_response);
}

}  // namespace

// Each verb's HTTP request is built here, before the call's coroutine starts: `request` is not
// kept.
sim::Task<Response> RestClient::send(sim::Context ctx, Request request) {
  switch (request.verb) {
    case Verb::kGet:
      return get_object(shared_, std::move(ctx), request);
    case Verb::kList:
      return list_objects(shared_, std::move(ctx), request);
    case Verb::kWatch:
      return internal::start_watch(shared_, std::move(ctx), request);
    case Verb::kCreate:
      return create_object(shared_, std::move(ctx), request);
    case Verb::kUpdate:
      return update_object(shared_, std::move(ctx), request);
    case Verb::kPatch:
      return patch_object(shared_, std::move(ctx), request);
    case Verb::kDelete:
      return delete_object(shared_, std::move(ctx), request);
    case Verb::kDeleteCollection:
      return delete_objects(shared_, std::move(ctx), request);
  }
  return fail(internal::request_error("unknown verb"));
}

}  // namespace kubesim::api::rest
