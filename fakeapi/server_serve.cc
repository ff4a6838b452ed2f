// The front door of ApiServer: serve() runs a Request through the filter chain, handle() answers
// it from the store; write listeners.
#include <cassert>

#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::fakeapi {

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
  Response response = answer ? std::move(*answer) : handle(*request);
  for (std::size_t i = admitted; i-- > 0;) (*chain)[i]->complete(*request, response);
  co_return response;
}

namespace {

// Fills `r` with the answer of a call whose result is an object (in place: a Response is large,
// and every request makes one).
void answer_with_object(Response& r, api::Result<api::ObjectPtr> result, int code) {
  if (!result) {
    r.code = result.status().code;
    r.error = std::make_unique<api::Status>(std::move(result).status());
    return;
  }
  r.code = code;
  r.object = std::move(result).value();
}

void answer_with_failure(Response& r, api::Status status) {
  r.code = status.code;
  r.error = std::make_unique<api::Status>(std::move(status));
}

}  // namespace

Response ApiServer::handle(const Request& request) {
  caller_ = request.process;
  const Revision before = store_.revision();
  const api::GroupVersionResource& gvr = request.resource;
  Response response;
  // Of the reads, only get has a subresource (its object); the writes' options carry theirs.
  const bool readable_subresource = request.subresource.empty() ||
                                    (request.verb == Verb::kGet && request.subresource == "status");
  if (!readable_subresource && request.verb != Verb::kUpdate && request.verb != Verb::kPatch) {
    answer_with_failure(response, api::new_not_found(api::GroupResource{gvr.group, gvr.resource + "/" +
                                                                                   request.subresource},
                                                     request.name));
  } else {
    switch (request.verb) {
      case Verb::kGet:
        answer_with_object(response, get(gvr, request.ns, request.name, request.get_options()), 200);
        break;
      case Verb::kList: {
        auto listed = list(gvr, request.ns, request.list_options());
        if (!listed) {
          answer_with_failure(response, std::move(listed).status());
        } else {
          response.list = std::move(listed).value();
        }
        break;
      }
      case Verb::kWatch: {
        auto started = start_watch(gvr, request.ns, request.list_options());
        if (!started) {
          answer_with_failure(response, std::move(started).status());
        } else {
          response.watch = std::move(started.value().stream);
          response.initial_events = started.value().initial_events;
        }
        break;
      }
      case Verb::kCreate:
        answer_with_object(response, create(gvr, request.ns, request.object, request.create_options()), 201);
        response.warnings = warnings_;
        break;
      case Verb::kUpdate: {
        api::UpdateOptions options = request.update_options();
        options.subresource = request.subresource;
        answer_with_object(response, update(gvr, request.ns, request.object, options), 200);
        response.warnings = warnings_;
        break;
      }
      case Verb::kPatch: {
        api::PatchOptions options = request.patch_options();
        options.subresource = request.subresource;
        answer_with_object(response,
                           patch(gvr, request.ns, request.name, request.patch_type,
                                 request.patch_body, options),
                           200);
        response.warnings = warnings_;
        break;
      }
      case Verb::kDelete:
        answer_with_object(response, delete_(gvr, request.ns, request.name, request.delete_options()), 200);
        break;
      case Verb::kDeleteCollection: {
        auto done = delete_collection(gvr, request.ns, request.delete_options(),
                                      request.list_options());
        if (!done) answer_with_failure(response, std::move(done).status());
        break;
      }
    }
  }
  if (store_.revision() != before) response.revision = store_.revision();
  caller_ = {};
  return response;
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
