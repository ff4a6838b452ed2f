#include "fakeapi/http/internal/loop_side.h"

#include "kubesim/api/go_strings.h"
#include "fakeapi/http/internal/discovery.h"
#include "fakeapi/http/internal/utf8.h"
#include "kubesim/fakeapi/http/protobuf_body.h"
#include "kubesim/fakeapi/watch_delivery.h"

namespace kubesim::fakeapi::http::internal {
namespace {


Reply success_status() {
  return Reply::of_json(200, R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success"})");
}

// The front door's Request for a resource call; the transport's own checks (the route, the
// body's decoding and its name) have passed. On the heap, as serve() carries it.
std::unique_ptr<Request> to_request(ApiCall& call) {
  const Route& r = call.route;
  auto req = std::make_unique<Request>();
  req->verb = api::parse_verb(call.verb).value_or(Verb::kGet);
  req->resource = api::GroupVersionResource{r.group, r.version, r.resource};
  req->ns = r.ns;
  req->name = r.name;
  // Only the subresources the server models get this far (parse_verb_and_options).
  req->subresource = api::parse_subresource(r.subresource).value_or(Subresource::kNone);
  req->process = call.user.name;
  switch (req->verb) {
    case Verb::kGet:
      req->options = call.get;
      break;
    case Verb::kList:
    case Verb::kWatch:
      req->options = call.list;
      break;
    case Verb::kCreate:
      req->options = call.create;
      break;
    case Verb::kUpdate:
      req->options = call.update;
      break;
    case Verb::kPatch:
      req->options = call.patch;
      break;
    case Verb::kDelete:
      req->options = call.del;
      break;
    case Verb::kDeleteCollection:
      req->options = DeleteCollectionOptions{call.del, call.list};
      break;
  }
  req->object = call.object;
  // A create names its object in the body; a subresource's create names its parent in the URL.
  if (req->verb == Verb::kCreate && req->object && req->subresource == Subresource::kNone) {
    req->name = std::string(req->object->name());
  }
  if (call.patch_type) req->patch_type = *call.patch_type;
  req->patch_body = std::move(call.body);
  return req;
}

// Serves one resource call through the server's front door and replies.
sim::Task<void> serve_call(std::shared_ptr<LoopSide> self, ApiCall call,
                           std::weak_ptr<SessionBase> session) {
  const ResourceInfo* info = self->server().registry().find(
      api::GroupVersionResource{call.route.group, call.route.version, call.route.resource});
  const std::string api_version = info != nullptr ? info->api_version() : std::string();
  const std::string list_kind = info != nullptr ? info->list_kind : std::string();
  Response response = co_await self->server().serve(sim::Context(), to_request(call));
  if (self->closed()) {
    if (response.watch) response.watch->stop();
    co_return;
  }
  if (response.watch) {
    self->start_pump(std::move(response.watch), session);
    co_return;
  }
  self->reply(session, LoopSide::reply_of(call.verb, response, api_version, list_kind));
}

// Moves a server-side watch's events into the session's channel until either side ends it.
sim::Task<void> pump(std::shared_ptr<LoopSide> self, std::shared_ptr<api::WatchStream> stream,
                     std::shared_ptr<WatchChannel> channel, sim::Context ctx) {
  bool abrupt = false;
  for (;;) {
    auto event = co_await stream->next(ctx);
    if (!event) {
      // A dropWatch rule or a client too far behind cuts the connection; a watch the server ended
      // closes it cleanly.
      const auto* delivered = dynamic_cast<const DeliveredWatch*>(stream.get());
      abrupt = delivered != nullptr && delivered->cut();
      break;
    }
    if (!channel->push(std::move(*event))) {
      abrupt = true;  // the consumer is gone
      break;
    }
  }
  stream->stop();
  channel->finish(abrupt);
  self->watch_ended(channel->id());
}

}  // namespace

Reply Reply::resource_not_found() {
  api::Status s;
  s.code = 404;
  s.reason = api::StatusReason::kNotFound;
  s.message = "the server could not find the requested resource";
  s.details.emplace();
  return of_status(s);
}

Reply Reply::of_status(const api::Status& status) {
  Reply r;
  r.code = status.code > 0 ? status.code : 500;
  // Messages quote request bytes (names, values), which need not be UTF-8.
  r.body = scrub_status(status).to_json_string();
  if (auto after = api::retry_after_seconds(status)) {
    r.headers.emplace_back("Retry-After", std::to_string(*after));
  }
  return r;
}

Reply Reply::of_json(int code, std::string body) {
  Reply r;
  r.code = code;
  r.body = std::move(body);
  return r;
}

Reply Reply::of_text(int code, std::string body) {
  Reply r;
  r.code = code;
  r.content_type = "text/plain; charset=utf-8";
  r.body = std::move(body);
  return r;
}

void LoopSide::handle(ApiCall call, std::weak_ptr<SessionBase> session) {
  if (closed_) return;
  Reply r = execute(call, session);
  reply(session, std::move(r));
}

void LoopSide::reply(const std::weak_ptr<SessionBase>& session, Reply r) {
  if (r.code == 0) return;  // answered already (a watch)
  gate_->post([session, r = std::move(r)]() mutable {
    if (auto s = session.lock()) s->on_reply(std::move(r));
  });
}

Reply LoopSide::execute(ApiCall& call, const std::weak_ptr<SessionBase>& session) {
  switch (call.route.kind) {
    case Route::Kind::kResource:
      return resource(call, session);
    case Route::Kind::kAdmin:
      return admin(call);
    case Route::Kind::kNotFound:
      return Reply::resource_not_found();
    default:
      return discovery(call);
  }
}

Reply LoopSide::discovery(const ApiCall& call) {
  const Registry& registry = server_->registry();
  const Route& r = call.route;
  std::optional<std::string> body;
  switch (r.kind) {
    case Route::Kind::kApiVersions:
      body = api_versions_json(options_.server_address);
      break;
    case Route::Kind::kGroupList:
      body = group_list_json(registry);
      break;
    case Route::Kind::kGroup:
      body = group_json(registry, r.group);
      break;
    case Route::Kind::kResourceList:
      body = resource_list_json(registry, r.group, r.version);
      break;
    case Route::Kind::kOpenApiV3:
      body = r.version.empty() ? openapi_v3_root_json(registry)
                               : openapi_v3_json(registry, r.group, r.version);
      break;
    default:
      break;
  }
  if (!body) return Reply::resource_not_found();
  return Reply::of_json(200, std::move(*body));
}

Reply LoopSide::resource(ApiCall& call, const std::weak_ptr<SessionBase>& session) {
  const Route& r = call.route;
  const api::GroupVersionResource gvr{r.group, r.version, r.resource};
  const ResourceInfo* info = server_->registry().find(gvr);
  if (info == nullptr || (!info->namespaced && !r.ns.empty())) {
    return Reply::resource_not_found();
  }
  if (call.verb == "create" || call.verb == "update") {
    if (auto refused = decode_write(call, *info)) return std::move(*refused);
  }
  tasks_.spawn(serve_call(shared_from_this(), std::move(call), session), "http-call");
  Reply none;
  none.code = 0;  // answered by serve_call
  return none;
}

Reply LoopSide::reply_of(const std::string& verb, const Response& response,
                         const std::string& api_version, const std::string& list_kind) {
  Reply reply;
  if (response.error) {
    reply = Reply::of_status(*response.error);
  } else if (verb == "list") {
    reply = Reply::of_json(200, api::render_list_json(response.list, api_version, list_kind));
  } else if (verb == "deletecollection") {
    reply = success_status();
  } else {
    reply = Reply::of_json(response.code, std::string(response.object->serialized()));
  }
  // k8s.io/apimachinery's NewWarningHeader: code 299, agent "-", the text as strconv.Quote.
  for (const std::string& text : response.warnings) {
    reply.headers.emplace_back("Warning", "299 - " + api::go_quote(text));
  }
  return reply;
}

std::optional<Reply> LoopSide::decode_write(ApiCall& call, const ResourceInfo& info) {
  const Route& r = call.route;
  if (call.protobuf_body) {
    auto decoded = decode_protobuf_body(call.body, info.gvk());
    if (!decoded) return Reply::of_status(decoded.status());
    auto obj = api::Object::from_json(std::move(decoded.value()));
    if (!obj) return Reply::of_status(obj.status());
    call.object = std::move(obj.value());
  }
  if (call.verb == "create") return std::nullopt;
  // update: the body names the object the URL names (kube-apiserver's checkName).
  if (call.object->name() != r.name) {
    return Reply::of_status(api::new_bad_request("the name of the object (" +
                                                 std::string(call.object->name()) +
                                                 ") does not match the name on the URL (" + r.name + ")"));
  }
  if (!call.object->namespace_().empty() && call.object->namespace_() != r.ns) {
    return Reply::of_status(api::new_bad_request(
        "the namespace of the provided object does not match the namespace sent on the request"));
  }
  return std::nullopt;
}

void LoopSide::start_pump(api::WatchPtr started, const std::weak_ptr<SessionBase>& session) {
  const std::uint64_t id = next_watch_id_++;
  auto channel = std::make_shared<WatchChannel>(gate_, session, id);
  auto cancel = sim::with_cancel(sim::Context());
  watches_[id] = cancel.cancel;
  std::shared_ptr<api::WatchStream> stream(std::move(started));
  if (auto* delivered = dynamic_cast<DeliveredWatch*>(stream.get())) {
    // What the session has not taken yet: the events it takes wait on its socket, bounded by
    // max_watch_buffer_bytes.
    delivered->set_unread([weak = std::weak_ptr<WatchChannel>(channel)]() -> std::size_t {
      const auto queue = weak.lock();
      return queue != nullptr ? queue->queued() : 0;
    });
  }
  Reply answer;
  answer.watch = channel;
  // The answer is posted before the pump's first event, so the session sends its headers first.
  reply(session, std::move(answer));
  tasks_.spawn(pump(shared_from_this(), stream, channel, cancel.ctx), "http-watch");
}

void LoopSide::cancel_watch(std::uint64_t id) {
  auto it = watches_.find(id);
  if (it == watches_.end()) return;
  sim::CancelFunc cancel = it->second;
  cancel();
}

void LoopSide::end_all_watches() {
  std::vector<sim::CancelFunc> all;
  for (const auto& [id, cancel] : watches_) all.push_back(cancel);
  for (const auto& cancel : all) cancel();
}

}  // namespace kubesim::fakeapi::http::internal
