// The front door of ApiServer: serve() runs a Request through the filter chain, answer() answers
// it from the store through the core verbs; the operator's typed calls; write listeners.
#include <cassert>
#include <type_traits>

#include "fakeapi/internal/server_util.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::fakeapi {

using internal::object_answer;
using internal::parse_revision;

void ApiServer::rebuild_chain() {
  auto chain = std::make_shared<std::vector<std::shared_ptr<Filter>>>();
  chain->push_back(recorder_);
  chain->insert(chain->end(), user_filters_.begin(), user_filters_.end());
  chain->insert(chain->end(), fault_filters_.begin(), fault_filters_.end());
  chain_ = std::move(chain);
}

void ApiServer::add_filter(std::shared_ptr<Filter> filter) {
  assert(filter != nullptr);
  user_filters_.push_back(std::move(filter));
  rebuild_chain();
}

bool ApiServer::remove_filter(const Filter* filter) {
  const auto removed =
      std::erase_if(user_filters_, [&](const std::shared_ptr<Filter>& f) { return f.get() == filter; });
  if (removed == 0) return false;
  rebuild_chain();
  return true;
}

// The request is held behind a pointer, so that this frame stays small (a Request is large,
// and the frames of every call are allocated and freed once per request).
sim::Task<Response> ApiServer::serve(sim::Context ctx, std::unique_ptr<Request> request) {
  assert(request != nullptr);
  request->received = loop_->now();
  // The chain this request started with, even if filters are added while it waits.
  const auto chain = chain_;
  std::size_t admitted = 0;
  std::unique_ptr<Response> answer;
  while (admitted < chain->size() && !answer) {
    Filter::Step step = (*chain)[admitted]->admit(*request);
    ++admitted;
    switch (step.kind) {
      case Filter::Step::Kind::kPass:
        break;
      case Filter::Step::Kind::kAnswer:
        answer = std::move(step.answer);
        break;
      case Filter::Step::Kind::kDelay: {
        const bool slept = co_await sim::sleep_for(ctx, *loop_, step.delay);
        if (!slept) {
          answer = std::make_unique<Response>(Response::failure(api::new_context_error(ctx.err())));
        }
        break;
      }
      case Filter::Step::Kind::kWaitForRevision: {
        const bool reached = co_await wait_for_revision(step.revision, ctx);
        if (!reached && ctx.done()) {
          answer = std::make_unique<Response>(Response::failure(api::new_context_error(ctx.err())));
        }
        break;
      }
    }
  }
  Response response = answer ? std::move(*answer) : this->answer(*request);
  for (std::size_t i = admitted; i-- > 0;) (*chain)[i]->complete(*request, response);
  co_return response;
}

namespace {

// The result of an operator's call: what the Response holds for T.
template <class T>
api::Result<T> result_of(Response response) {
  if (response.error) return std::move(*response.error);
  if constexpr (std::is_same_v<T, api::ObjectPtr>) {
    return std::move(response.object);
  } else if constexpr (std::is_same_v<T, api::ObjectList>) {
    return std::move(response.list);
  } else if constexpr (std::is_same_v<T, api::WatchPtr>) {
    return std::move(response.watch);
  } else {
    static_assert(std::is_void_v<T>);
    return api::Result<void>();
  }
}

Request operator_request(Verb verb, const api::GroupVersionResource& gvr, std::string_view ns,
                         std::string_view name) {
  return Request{.verb = verb, .resource = gvr, .ns = std::string(ns), .name = std::string(name)};
}

}  // namespace

Response ApiServer::answer(const Request& request) {
  const Request* outer = answering_;
  answering_ = &request;
  struct Restore {
    const Request*& slot;
    const Request* value;
    ~Restore() { slot = value; }
  } restore{answering_, outer};
  const Revision before = store_.revision();
  Response response;
  // resolve() keeps the last resource it found: the core verbs below find it again for free.
  if (auto served = resolve(request.resource, {}, true)) {
    std::optional<Response> routed = route(request, *served->info);
    if (routed) {
      response = std::move(*routed);
      if (store_.revision() != before) response.revision = store_.revision();
      return response;
    }
  }
  // Of the reads, only get has a subresource (its object); the writes' options carry theirs.
  const bool readable_subresource =
      request.subresource == Subresource::kNone ||
      (request.verb == Verb::kGet && request.subresource == Subresource::kStatus);
  if (!readable_subresource && request.verb != Verb::kUpdate && request.verb != Verb::kPatch) {
    const api::GroupVersionResource& gvr = request.resource;
    response = Response::failure(api::new_not_found(
        api::GroupResource{gvr.group, gvr.resource + "/" + std::string(api::to_string(request.subresource))},
        request.name));
  } else {
    switch (request.verb) {
      case Verb::kGet:
      case Verb::kList:
        response = serve_read(request, store_.revision());
        break;
      case Verb::kWatch:
        response = serve_watch(request);
        break;
      case Verb::kCreate:
        response = serve_write(request, &ApiServer::create_object, 201);
        break;
      case Verb::kUpdate:
        response = serve_write(request, &ApiServer::update_object, 200);
        break;
      case Verb::kPatch:
        apply_created_ = false;
        response = serve_write(request, &ApiServer::patch_object, 200);
        if (apply_created_ && response.ok()) response.code = 201;
        break;
      case Verb::kDelete:
        response = serve_delete(request);
        break;
      case Verb::kDeleteCollection:
        response = serve_delete_collection(request);
        break;
    }
  }
  if (store_.revision() != before) response.revision = store_.revision();
  return response;
}

std::optional<Response> ApiServer::route(const Request& request, const ResourceInfo& info) {
  if (request.subresource == Subresource::kNone) {
    if (!info.supports(request.verb)) return Response::failure(internal::method_not_allowed());
    if (request.verb == Verb::kCreate && !info.supports(Verb::kGet)) {
      return serve_unstored_create(request, info);
    }
    return std::nullopt;
  }
  const std::string_view name = api::to_string(request.subresource);
  const SubresourceInfo* sub = info.subresource(name);
  if (sub == nullptr) return Response::failure(internal::unknown_resource());
  if (!sub->supports(request.verb)) return Response::failure(internal::method_not_allowed());
  if (request.subresource == Subresource::kStatus) return std::nullopt;
  return serve_subresource(request, info);
}

Response ApiServer::serve_read(const Request& request, Revision cached) {
  if (request.verb == Verb::kGet) return object_answer(get_object(request, cached), 200);
  auto plan = plan_list(request, cached);
  if (!plan) return Response::failure(std::move(plan).status());
  Response response;
  response.list = scan_list(plan.value());
  return response;
}

Response ApiServer::serve_watch(const Request& request) {
  auto plan = plan_watch(request);
  if (!plan) return Response::failure(std::move(plan).status());
  auto started = start_watch(request, std::move(plan).value());
  if (!started) return Response::failure(std::move(started).status());
  Response response;
  response.watch = std::move(started.value().stream);
  response.initial_events = started.value().initial_events;
  return response;
}

Response ApiServer::serve_write(const Request& request, WritePath path, int code) {
  std::vector<std::string> warnings;
  Response response = object_answer((this->*path)(request, &warnings), code);
  response.warnings = std::move(warnings);
  return response;
}

Response ApiServer::serve_delete(const Request& request) {
  return object_answer(delete_object(request.resource, request.ns, request.name,
                                     request.delete_options(), request.process),
                       200);
}

Response ApiServer::serve_delete_collection(const Request& request) {
  auto done = delete_objects(request.resource, request.ns, request.delete_options(),
                             request.list_options(), request.process);
  if (!done) return Response::failure(std::move(done).status());
  return Response();
}

std::unique_ptr<Response> ApiServer::expired(const Request& request,
                                             const std::function<bool()>& fire) {
  if (request.verb == Verb::kWatch) {
    auto plan = plan_watch(request);
    if (!plan || !fire()) return nullptr;
    auto response = std::make_unique<Response>();
    const std::string& rv = request.list_options().resource_version;
    const Revision asked = parse_revision(rv).value_or(store_.revision());
    // The watch's timeout is drawn as for every watch the handler starts, before the store
    // answers it.
    if (!request.list_options().timeout_seconds || *request.list_options().timeout_seconds <= 0) {
      (void)loop_->rng().uniform_duration(sim::Duration::zero(), options_.min_request_timeout);
    }
    WatchStart started = hub_.start_error(
        api::new_resource_expired(api::too_old_resource_version_message(asked, store_.revision())));
    response->watch = std::move(started.stream);
    response->initial_events = started.initial_events;
    return response;
  }
  if (request.verb == Verb::kList && !request.list_options().continue_token.empty()) {
    auto plan = plan_list(request, store_.revision());
    if (!plan || !plan.value().continued || !fire()) return nullptr;
    return std::make_unique<Response>(Response::failure(internal::continue_expired(plan.value().start)));
  }
  return nullptr;
}

std::unique_ptr<Response> ApiServer::stale_read(const Request& request,
                                                const std::function<const StaleReadFault*()>& fire) {
  if (request.verb == Verb::kGet) {
    if (request.get_options().resource_version != "0") return nullptr;
    if (!resolve(request.resource, request.ns, false)) return nullptr;
    const StaleReadFault* stale = fire();
    if (stale == nullptr) return nullptr;
    return std::make_unique<Response>(serve_read(request, revision_before(stale->stale_by)));
  }
  if (request.verb != Verb::kList) return nullptr;
  const api::ListOptions& options = request.list_options();
  if (!options.continue_token.empty() || options.resource_version != "0" ||
      options.resource_version_match == api::ResourceVersionMatch::kExact) {
    return nullptr;
  }
  auto plan = plan_list(request, store_.revision());
  if (!plan) return nullptr;
  const StaleReadFault* stale = fire();
  if (stale == nullptr) return nullptr;
  plan.value().at = revision_before(stale->stale_by);
  auto response = std::make_unique<Response>();
  response->list = scan_list(plan.value());
  return response;
}

// The operator's calls.

api::Result<api::ObjectPtr> ApiServer::get(const api::GroupVersionResource& gvr, std::string_view ns,
                                           std::string_view name, const api::GetOptions& options) {
  Request r = operator_request(Verb::kGet, gvr, ns, name);
  r.options = options;
  return result_of<api::ObjectPtr>(answer(r));
}

api::Result<api::ObjectList> ApiServer::list(const api::GroupVersionResource& gvr,
                                             std::string_view ns, const api::ListOptions& options) {
  Request r = operator_request(Verb::kList, gvr, ns, {});
  r.options = options;
  return result_of<api::ObjectList>(answer(r));
}

api::Result<api::WatchPtr> ApiServer::watch(const api::GroupVersionResource& gvr,
                                            std::string_view ns, const api::ListOptions& options) {
  Request r = operator_request(Verb::kWatch, gvr, ns, {});
  r.options = options;
  return result_of<api::WatchPtr>(answer(r));
}

api::Result<api::ObjectPtr> ApiServer::create(const api::GroupVersionResource& gvr,
                                              std::string_view ns, const api::ObjectPtr& object,
                                              const api::CreateOptions& options) {
  Request r = operator_request(Verb::kCreate, gvr, ns, object->name());
  r.options = options;
  r.object = object;
  return result_of<api::ObjectPtr>(answer(r));
}

api::Result<api::ObjectPtr> ApiServer::update(const api::GroupVersionResource& gvr,
                                              std::string_view ns, const api::ObjectPtr& object,
                                              const api::UpdateOptions& options,
                                              Subresource subresource) {
  Request r = operator_request(Verb::kUpdate, gvr, ns, object->name());
  r.subresource = subresource;
  r.options = options;
  r.object = object;
  return result_of<api::ObjectPtr>(answer(r));
}

api::Result<api::ObjectPtr> ApiServer::patch(const api::GroupVersionResource& gvr,
                                             std::string_view ns, std::string_view name,
                                             api::PatchType type, std::string_view patch,
                                             const api::PatchOptions& options,
                                             Subresource subresource) {
  Request r = operator_request(Verb::kPatch, gvr, ns, name);
  r.subresource = subresource;
  r.options = options;
  r.patch_type = type;
  r.patch_body = std::string(patch);
  return result_of<api::ObjectPtr>(answer(r));
}

api::Result<api::ObjectPtr> ApiServer::delete_(const api::GroupVersionResource& gvr,
                                               std::string_view ns, std::string_view name,
                                               const api::DeleteOptions& options) {
  Request r = operator_request(Verb::kDelete, gvr, ns, name);
  r.options = options;
  return result_of<api::ObjectPtr>(answer(r));
}

api::Result<void> ApiServer::delete_collection(const api::GroupVersionResource& gvr,
                                               std::string_view ns,
                                               const api::DeleteOptions& options,
                                               const api::ListOptions& list_options) {
  Request r = operator_request(Verb::kDeleteCollection, gvr, ns, {});
  r.options = DeleteCollectionOptions{options, list_options};
  return result_of<void>(answer(r));
}

std::uint64_t ApiServer::add_write_listener(WriteListener listener) {
  assert(listener);
  const std::uint64_t id = next_listener_id_++;
  write_listeners_.emplace_back(id, std::move(listener));
  return id;
}

void ApiServer::remove_write_listener(std::uint64_t id) {
  for (auto& [lid, listener] : write_listeners_) {
    if (lid == id) listener = nullptr;
  }
  if (!notifying_) {
    std::erase_if(write_listeners_, [](const auto& entry) { return !entry.second; });
  }
}

void ApiServer::notify_write(const Change& change) {
  assert(!notifying_ && "a write listener must not write to the server");
  notifying_ = true;
  const CommittedWrite write{change.revision, &store_.table_resource(change.table), change.type,
                             change.previous, change.object};
  // Listeners added meanwhile are called from the next write on.
  const std::size_t n = write_listeners_.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (write_listeners_[i].second) write_listeners_[i].second(write);
  }
  notifying_ = false;
  std::erase_if(write_listeners_, [](const auto& entry) { return !entry.second; });
}

}  // namespace kubesim::fakeapi
