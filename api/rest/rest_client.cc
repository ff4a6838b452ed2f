#include "kubesim/api/rest/rest_client.h"

#include <algorithm>
#include <cctype>

#include "kubesim/api/rest/internal/client_state.h"
#include "kubesim/api/rest/internal/files.h"
#include "kubesim/api/rest/internal/paths.h"
#include "kubesim/api/rest/internal/warnings.h"

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

template <class T>
sim::Task<Result<T>> fail(Status status) {
  co_return status;
}

// Sends `req` (after the rate limiter, unless `throttle` is false) and decodes the answer on the
// I/O thread with `decode`.
template <class T>
sim::Task<Result<T>> call(std::shared_ptr<RestClient::Shared> s, sim::Context ctx, HttpRequest req,
                          RequestInfo info, Result<T> (*decode)(const HttpResponse&, const RequestInfo&)) {
  auto denied = co_await s->limiter.wait(ctx);
  if (denied) co_return *denied;
  if (ctx.done()) co_return new_context_error(ctx.err());
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
        loop->post_external([handler, pending, result, warnings] {
          if (handler) {
            for (const auto& w : *warnings) handler(w.code, w.agent, w.text);
          }
          pending->value.emplace(std::move(*result));
          pending->done.set();
        });
      });
  const bool arrived = co_await pending->done.wait(ctx);
  if (!arrived) {
    s->transport->cancel(id);
    co_return new_context_error(ctx.err());
  }
  co_return std::move(*pending->value);
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

sim::Task<Result<ObjectPtr>> RestClient::get(sim::Context ctx, GroupVersionResource resource,
                                             std::string ns, std::string name, GetOptions options) {
  if (auto bad = check_target(ns, name, true)) return fail<ObjectPtr>(*bad);
  auto path = internal::resource_path(shared_->url.base_path, resource, ns, name);
  auto req = request("GET", internal::with_query(std::move(path), internal::get_query(options)));
  RequestInfo info("GET", resource.group_resource(), name);
  return call<ObjectPtr>(shared_, std::move(ctx), std::move(req), std::move(info),
                         &internal::decode_object_response);
}

sim::Task<Result<ObjectList>> RestClient::list(sim::Context ctx, GroupVersionResource resource,
                                               std::string ns, ListOptions options) {
  if (auto bad = check_target(ns, "", false)) return fail<ObjectList>(*bad);
  auto path = internal::resource_path(shared_->url.base_path, resource, ns);
  auto req = request("GET", internal::with_query(std::move(path), internal::list_query(options, false)));
  RequestInfo info("GET", resource.group_resource(), "");
  return call<ObjectList>(shared_, std::move(ctx), std::move(req), std::move(info),
                          &internal::decode_list_response);
}

sim::Task<Result<ObjectPtr>> RestClient::create(sim::Context ctx, GroupVersionResource resource,
                                                std::string ns, ObjectPtr object,
                                                CreateOptions options) {
  if (!object) return fail<ObjectPtr>(internal::request_error("create: no object given"));
  if (auto bad = check_target(ns, "", false)) return fail<ObjectPtr>(*bad);
  auto path = internal::resource_path(shared_->url.base_path, resource, ns);
  auto query = internal::write_query(options.dry_run, options.field_manager, options.field_validation);
  auto req = request("POST", internal::with_query(std::move(path), query), "application/json",
                     std::string(object->serialized()));
  RequestInfo info("POST", resource.group_resource(), "");
  return call<ObjectPtr>(shared_, std::move(ctx), std::move(req), std::move(info),
                         &internal::decode_object_response);
}

namespace {

sim::Task<Result<ObjectPtr>> put(std::shared_ptr<RestClient::Shared> s, sim::Context ctx,
                                 GroupVersionResource resource, std::string ns, ObjectPtr object,
                                 UpdateOptions options) {
  if (!object) return fail<ObjectPtr>(internal::request_error("update: no object given"));
  const std::string name(object->name());
  if (auto bad = check_target(ns, name, true, options.subresource)) return fail<ObjectPtr>(*bad);
  auto path = internal::resource_path(s->url.base_path, resource, ns, name, options.subresource);
  auto query = internal::write_query(options.dry_run, options.field_manager, options.field_validation);
  auto req = request("PUT", internal::with_query(std::move(path), query), "application/json",
                     std::string(object->serialized()));
  RequestInfo info("PUT", resource.group_resource(), name);
  return call<ObjectPtr>(std::move(s), std::move(ctx), std::move(req), std::move(info),
                         &internal::decode_object_response);
}

}  // namespace

sim::Task<Result<ObjectPtr>> RestClient::update(sim::Context ctx, GroupVersionResource resource,
                                                std::string ns, ObjectPtr object,
                                                UpdateOptions options) {
  return put(shared_, std::move(ctx), std::move(resource), std::move(ns), std::move(object),
             std::move(options));
}

sim::Task<Result<ObjectPtr>> RestClient::patch(sim::Context ctx, GroupVersionResource resource,
                                               std::string ns, std::string name, PatchType type,
                                               std::string patch, PatchOptions options) {
  if (auto bad = check_target(ns, name, true, options.subresource)) return fail<ObjectPtr>(*bad);
  auto path = internal::resource_path(shared_->url.base_path, resource, ns, name, options.subresource);
  auto query = internal::write_query(options.dry_run, options.field_manager, options.field_validation);
  auto req = request("PATCH", internal::with_query(std::move(path), query),
                     std::string(content_type(type)), std::move(patch));
  RequestInfo info("PATCH", resource.group_resource(), name);
  return call<ObjectPtr>(shared_, std::move(ctx), std::move(req), std::move(info),
                         &internal::decode_object_response);
}

sim::Task<Result<ObjectPtr>> RestClient::delete_(sim::Context ctx, GroupVersionResource resource,
                                                std::string ns, std::string name,
                                                DeleteOptions options) {
  if (auto bad = check_target(ns, name, true)) return fail<ObjectPtr>(*bad);
  auto path = internal::resource_path(shared_->url.base_path, resource, ns, name);
  auto req = request("DELETE", std::move(path), "application/json", internal::delete_body(options));
  RequestInfo info("DELETE", resource.group_resource(), name);
  return call<ObjectPtr>(shared_, std::move(ctx), std::move(req), std::move(info),
                         &internal::decode_object_response);
}

sim::Task<Result<void>> RestClient::delete_collection(sim::Context ctx, GroupVersionResource resource,
                                                      std::string ns, DeleteOptions options,
                                                      ListOptions list_options) {
  if (auto bad = check_target(ns, "", false)) return fail<void>(*bad);
  auto path = internal::resource_path(shared_->url.base_path, resource, ns);
  auto req = request("DELETE",
                     internal::with_query(std::move(path), internal::list_query(list_options, false)),
                     "application/json", internal::delete_body(options));
  RequestInfo info("DELETE", resource.group_resource(), "");
  return call<void>(shared_, std::move(ctx), std::move(req), std::move(info),
                    &internal::decode_empty_response);
}

}  // namespace kubesim::api::rest
