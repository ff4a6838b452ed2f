#include "fakeapi/http/internal/loop_side.h"

#include "fakeapi/http/internal/discovery.h"
#include "fakeapi/internal/field_errors.h"
#include "fakeapi/http/internal/utf8.h"
#include "fakeapi/http/protobuf_body.h"
#include "sim/sleep.h"

namespace kubesim::fakeapi::http::internal {
namespace {


Reply success_status() {
  return Reply::of_json(200, R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success"})");
}

RequestInfo request_info(const ApiCall& c) {
  RequestInfo ri;
  ri.verb = parse_verb(c.verb).value_or(Verb::kGet);
  ri.resource = c.route.resource;
  ri.ns = c.route.ns;
  ri.name = c.route.name;
  ri.process = c.user.name;
  return ri;
}

// The revision a get or list waits for before it is served: kube-apiserver serves a read at
// resourceVersion N > 0 from its watch cache once that reaches N (ApiServer::read_revision), as
// InProcessClient does; 0 for every other call.
Revision read_revision(const ApiCall& c) {
  if (c.route.kind != Route::Kind::kResource) return 0;
  if (c.verb == "get") return ApiServer::read_revision(c.get);
  if (c.verb == "list") return ApiServer::read_revision(c.list);
  return 0;
}

// A call that waits first: an injected latency, then the revision it reads at (at most the
// watch cache's fresh_wait; the call then answers its 504 itself).
sim::Task<void> delayed(std::shared_ptr<LoopSide> self, ApiCall call,
                        std::weak_ptr<SessionBase> session, sim::Duration latency,
                        Revision wait_for) {
  if (latency > sim::Duration::zero()) {
    co_await sim::sleep_for(sim::Context(), self->loop(), latency);
    if (self->closed()) co_return;
  }
  if (wait_for > self->server().revision()) {
    const bool reached = co_await self->server().wait_for_revision(wait_for, sim::Context());
    (void)reached;
    if (self->closed()) co_return;
  }
  Reply r = self->execute(call, session);
  self->reply(session, std::move(r));
}

// Moves a server-side watch's events into the session's channel until either side ends it.
sim::Task<void> pump(std::shared_ptr<LoopSide> self, std::shared_ptr<api::WatchStream> stream,
                     std::shared_ptr<WatchChannel> channel, sim::Context ctx,
                     std::optional<std::int64_t> drop_after, bool stalled) {
  std::int64_t sent = 0;
  bool abrupt = false;
  for (;;) {
    if (drop_after && sent >= *drop_after) {
      abrupt = true;
      break;
    }
    auto event = co_await stream->next(ctx);
    if (!event) break;
    if (stalled) continue;
    if (!channel->push(std::move(*event))) {
      abrupt = true;  // the consumer is gone or too slow
      break;
    }
    ++sent;
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
  if (call.route.kind == Route::Kind::kResource) {
    const FaultRule* rule = server_->faults().fire(FaultKind::kLatency, request_info(call));
    const Revision wait_for = read_revision(call);
    if (rule != nullptr || wait_for > server_->revision()) {
      const sim::Duration latency = rule != nullptr ? rule->latency : sim::Duration::zero();
      loop_->spawn(delayed(shared_from_this(), std::move(call), session, latency, wait_for),
                   "http-delayed");
      return;
    }
  }
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
  if (const FaultRule* rule = server_->faults().fire(FaultKind::kError, request_info(call))) {
    return Reply::of_status(rule->status);
  }
  const ApiServer::CallerScope scope(*server_, call.user.name);
  const bool status = r.subresource == "status";
  if (call.verb == "get") {
    auto got = server_->get(gvr, r.ns, r.name, call.get);
    if (!got) return Reply::of_status(got.status());
    return Reply::of_json(200, std::string(got.value()->serialized()));
  }
  if (call.verb == "list") {
    auto listed = server_->list(gvr, r.ns, call.list);
    if (!listed) return Reply::of_status(listed.status());
    return Reply::of_json(200, api::render_list_json(listed.value(), info->api_version(), info->list_kind));
  }
  if (call.verb == "watch") return start_watch(call, *info, session);
  if (call.verb == "delete") {
    auto deleted = server_->delete_(gvr, r.ns, r.name, call.del);
    if (!deleted) return Reply::of_status(deleted.status());
    return Reply::of_json(200, std::string(deleted.value()->serialized()));
  }
  if (call.verb == "deletecollection") {
    auto done = server_->delete_collection(gvr, r.ns, call.del, call.list);
    if (!done) return Reply::of_status(done.status());
    return success_status();
  }
  if (call.verb == "patch") {
    auto patched = server_->patch(gvr, r.ns, r.name, *call.patch_type, call.body, call.patch, status);
    if (!patched) return with_warnings(Reply::of_status(patched.status()));
    return with_warnings(Reply::of_json(200, std::string(patched.value()->serialized())));
  }
  return write(call, *info);
}

Reply LoopSide::with_warnings(Reply reply) const {
  // k8s.io/apimachinery's NewWarningHeader: code 299, agent "-", the text as strconv.Quote.
  for (const std::string& text : server_->warnings()) {
    reply.headers.emplace_back("Warning", "299 - " + fakeapi::internal::validation::quote(text));
  }
  return reply;
}

Reply LoopSide::write(ApiCall& call, const ResourceInfo& info) {
  const Route& r = call.route;
  if (call.protobuf_body) {
    auto decoded = decode_protobuf_body(call.body, info.gvk());
    if (!decoded) return Reply::of_status(decoded.status());
    auto obj = api::Object::from_json(std::move(decoded.value()));
    if (!obj) return Reply::of_status(obj.status());
    call.object = std::move(obj.value());
  }
  if (call.verb == "create") {
    auto created = server_->create(info.gvr, r.ns, call.object, call.create);
    if (!created) return with_warnings(Reply::of_status(created.status()));
    return with_warnings(Reply::of_json(201, std::string(created.value()->serialized())));
  }
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
  auto updated = server_->update(info.gvr, r.ns, call.object, call.update, r.subresource == "status");
  if (!updated) return with_warnings(Reply::of_status(updated.status()));
  return with_warnings(Reply::of_json(200, std::string(updated.value()->serialized())));
}

Reply LoopSide::start_watch(ApiCall& call, const ResourceInfo& info,
                            const std::weak_ptr<SessionBase>& session) {
  const Route& r = call.route;
  const RequestInfo ri = request_info(call);
  auto started = server_->watch(info.gvr, r.ns, call.list);
  if (!started) return Reply::of_status(started.status());
  std::optional<std::int64_t> drop_after;
  if (const FaultRule* rule = server_->faults().fire(FaultKind::kDropWatch, ri)) {
    drop_after = rule->after_events;
  }
  const bool stalled = server_->faults().fire(FaultKind::kStallWatch, ri) != nullptr;
  const std::uint64_t id = next_watch_id_++;
  auto channel = std::make_shared<WatchChannel>(gate_, session, id, options_.max_queued_events);
  auto cancel = sim::with_cancel(sim::Context());
  watches_[id] = cancel.cancel;
  std::shared_ptr<api::WatchStream> stream(std::move(started.value()));
  Reply answer;
  answer.watch = channel;
  // The answer is posted before the pump's first event, so the session sends its headers first.
  reply(session, std::move(answer));
  loop_->spawn(pump(shared_from_this(), stream, channel, cancel.ctx, drop_after, stalled), "http-watch");
  Reply none;
  none.code = 0;  // already answered
  return none;
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
