#include "fakeapi/inprocess_client.h"

#include <memory>

#include "sim/channel.h"
#include "sim/event.h"
#include "sim/sleep.h"

namespace kubesim::fakeapi {

api::Status client_error(std::string message) {
  api::Status s;
  s.code = 0;
  s.reason = api::StatusReason::kUnknown;
  s.message = std::move(message);
  return s;
}

class RoundTrip {
 public:
  using Request = InProcessClient::Request;

  static RequestInfo info(const InProcessClient* c, const Request& req) {
    return RequestInfo{req.verb, req.resource, req.ns, req.name, c->name_};
  }

  // One crossing of the process's link, `extra` slower than its latency; nullopt once it arrived,
  // else why it did not.
  static sim::Task<std::optional<api::Status>> cross(InProcessClient* c, sim::Context ctx,
                                                     sim::Duration extra) {
    if (ctx.done()) co_return client_error(sim::to_string(ctx.err()));
    sim::Loop& loop = c->server_->loop();
    sim::NetworkLink* link = c->process_ != nullptr ? c->process_->link() : nullptr;
    sim::Duration delay = link != nullptr ? link->sample_latency(loop.rng()) : sim::Duration::zero();
    delay += extra;
    if (delay > sim::Duration::zero()) {
      const bool slept = co_await sim::sleep_for(ctx, loop, delay);
      if (!slept) co_return client_error(sim::to_string(ctx.err()));
    }
    if (link != nullptr && link->partitioned()) {
      auto limit = sim::with_timeout(ctx, loop, c->options_.partition_timeout);
      const bool healed = co_await link->healed().wait(limit.ctx);
      if (!healed) {
        if (ctx.done()) co_return client_error(sim::to_string(ctx.err()));
        co_return client_error("dial tcp: i/o timeout (the network link of " + c->name_ +
                               " is partitioned)");
      }
    }
    co_return std::nullopt;
  }

  template <class T>
  static sim::Task<api::Result<T>> run(InProcessClient* c, sim::Context ctx, Request req,
                                       std::function<api::Result<T>()> call) {
    // A latency rule slows the request once, on its way to the server.
    sim::Duration extra = sim::Duration::zero();
    if (const FaultRule* rule = c->server_->faults().fire(FaultKind::kLatency, info(c, req))) {
      extra = rule->latency;
    }
    auto there = co_await cross(c, ctx, extra);
    if (there) co_return *there;
    if (req.wait_for > c->server_->revision()) {
      // The watch cache waits for a revision it has not reached (then answers 504).
      const bool reached = co_await c->server_->wait_for_revision(req.wait_for, ctx);
      if (!reached && ctx.done()) co_return client_error(sim::to_string(ctx.err()));
    }
    std::optional<api::Result<T>> result;
    if (const FaultRule* rule = c->server_->faults().fire(FaultKind::kError, info(c, req))) {
      result.emplace(rule->status);
    } else {
      ApiServer::CallerScope scope(*c->server_, c->name_);
      result.emplace(call());
    }
    const sim::Duration none = sim::Duration::zero();
    auto back = co_await cross(c, ctx, none);
    if (back) co_return *back;
    co_return std::move(*result);
  }

  // A watch event crossing the link, sent by the server at `sent`.
  struct InFlight {
    sim::Time sent;
    api::WatchEvent event;
  };
  using Flights = sim::Channel<InFlight>;

  // What the watch call, its receiver and its pump share.
  struct WatchState {
    std::shared_ptr<api::WatchStream> source;
    std::shared_ptr<Flights> flights;
    std::size_t initial = 0;  // events the server queued before its watch went live
  };

  // Takes the server's events as they are sent, so that each one's crossing starts then: events
  // travel the link together, not one latency after another.
  static sim::Task<void> receive(std::shared_ptr<WatchState> state, sim::Loop* loop,
                                 sim::Context ctx) {
    for (;;) {
      auto event = state->source->try_next(ctx);
      if (!event) event = co_await state->source->next(ctx);
      if (!event) break;
      InFlight flight{loop->now(), std::move(*event)};
      if (!state->flights->try_send(std::move(flight))) break;
    }
    state->flights->close();
  }

  // The next event to forward, or nullopt once the watch must end. With a link, the wait wakes
  // up every watch_partition_check to notice a partition even when nothing is sent, and a
  // partition that lasts watch_partition_timeout ends the watch.
  static sim::Task<std::optional<InFlight>> next_flight(InProcessClient* c, Flights* flights,
                                                        sim::Context ctx) {
    sim::Loop& loop = c->server_->loop();
    sim::NetworkLink* link = c->process_ != nullptr ? c->process_->link() : nullptr;
    if (link == nullptr) {
      auto flight = co_await flights->recv(ctx);
      co_return flight;
    }
    for (;;) {
      auto tick = sim::with_timeout(ctx, loop, c->options_.watch_partition_check);
      auto flight = co_await flights->recv(tick.ctx);
      tick.cancel();
      if (flight) co_return flight;
      if (ctx.done() || (flights->closed() && flights->size() == 0)) co_return std::nullopt;
      if (link->partitioned()) {
        auto limit = sim::with_timeout(ctx, loop, c->options_.watch_partition_timeout);
        const bool healed = co_await link->healed().wait(limit.ctx);
        if (!healed) co_return std::nullopt;
      }
    }
  }

  // Moves the events of a server-side watch across the link to the client's stream.
  static sim::Task<void> pump(InProcessClient* c, std::shared_ptr<WatchState> state,
                              api::WatchFeed out, Request req, sim::Context ctx) {
    sim::Loop& loop = c->server_->loop();
    sim::NetworkLink* link = c->process_ != nullptr ? c->process_->link() : nullptr;
    std::optional<std::int64_t> drop_after;
    if (const FaultRule* rule = c->server_->faults().fire(FaultKind::kDropWatch, info(c, req))) {
      drop_after = rule->after_events;
    }
    const bool stalled = c->server_->faults().fire(FaultKind::kStallWatch, info(c, req)) != nullptr;
    const std::size_t max_backlog = c->server_->watches().options().max_backlog;
    Flights& flights = *state->flights;
    std::int64_t delivered = 0;
    sim::Time last = loop.now();
    for (;;) {
      if (drop_after && delivered >= *drop_after) break;
      // What next_flight takes when it need not wait.
      std::optional<InFlight> flight = ctx.done() ? std::nullopt : flights.try_recv();
      if (!flight) flight = co_await next_flight(c, &flights, ctx);
      if (!flight) break;
      if (stalled) continue;
      // A client that does not keep up is cut off, as the server cuts off its own slow watchers;
      // as there, the initial events do not count.
      const std::size_t unread = out.backlog() + flights.size();
      const std::size_t consumed = static_cast<std::size_t>(delivered) - out.backlog();
      const std::size_t unread_initial = state->initial > consumed ? state->initial - consumed : 0;
      if (unread - std::min(unread, unread_initial) > max_backlog) break;
      const sim::Duration latency =
          link != nullptr ? link->sample_latency(loop.rng()) : sim::Duration::zero();
      const sim::Time at = std::max(last, flight->sent + latency);
      last = at;
      if (at > loop.now()) {
        const bool slept = co_await sim::sleep_until(ctx, loop, at);
        if (!slept) break;
      }
      if (link != nullptr && link->partitioned()) {
        auto limit = sim::with_timeout(ctx, loop, c->options_.watch_partition_timeout);
        const bool healed = co_await link->healed().wait(limit.ctx);
        if (!healed) break;
      }
      if (!out.send(std::move(flight->event))) break;
      ++delivered;
    }
    state->source->stop();
    flights.close();
    out.close();
  }

  static sim::Task<api::Result<api::WatchPtr>> watch(InProcessClient* c, sim::Context ctx,
                                                     Request req, api::GroupVersionResource gvr,
                                                     api::ListOptions options) {
    ApiServer* server = c->server_;
    sim::Loop& loop = server->loop();
    auto state = std::make_shared<WatchState>();
    state->flights = std::make_shared<Flights>(loop);
    auto pump_ctx = sim::with_cancel(sim::Context());
    std::string ns = req.ns;
    sim::Context receive_ctx = pump_ctx.ctx;
    // The server's first events (its initial list or its replay) leave with its answer, so they
    // start crossing the link at the instant the server answers.
    std::function<api::Result<api::WatchPtr>()> call =
        [server, gvr, ns, options, state, receive_ctx]() -> api::Result<api::WatchPtr> {
      auto started = server->watch(gvr, ns, options);
      if (!started) return started.status();
      state->initial = server->watches().last_start_initial_events();
      state->source = std::shared_ptr<api::WatchStream>(std::move(started.value()));
      server->loop().spawn(receive(state, &server->loop(), receive_ctx), "watch-receive");
      return api::WatchPtr();
    };
    api::Result<api::WatchPtr> started = co_await run<api::WatchPtr>(c, ctx, req, std::move(call));
    if (!started) {
      // No answer reached the client: the server's watch ends with the connection.
      pump_ctx.cancel();
      if (state->source) state->source->stop();
      state->flights->close();
      co_return started.status();
    }
    auto pipe = api::make_watch_pipe(loop);
    pipe.second.on_stop([cancel = pump_ctx.cancel] { cancel(); });
    loop.spawn(pump(c, state, pipe.second, req, pump_ctx.ctx), "watch-pump");
    co_return std::move(pipe.first);
  }
};

InProcessClient::InProcessClient(ApiServer& server, sim::Process& process,
                                 InProcessClientOptions options)
    : server_(&server), process_(&process), name_(process.name()), options_(options) {}

InProcessClient::InProcessClient(ApiServer& server, std::string name)
    : server_(&server), name_(std::move(name)) {}

sim::Task<api::Result<api::ObjectPtr>> InProcessClient::get(sim::Context ctx,
                                                            api::GroupVersionResource resource,
                                                            std::string ns, std::string name,
                                                            api::GetOptions options) {
  ApiServer* server = server_;
  Request req{Verb::kGet, resource.resource, ns, name};
  req.wait_for = ApiServer::read_revision(options);
  std::function<api::Result<api::ObjectPtr>()> call = [server, resource, ns, name, options] {
    return server->get(resource, ns, name, options);
  };
  return RoundTrip::run<api::ObjectPtr>(this, std::move(ctx), std::move(req), std::move(call));
}

sim::Task<api::Result<api::ObjectList>> InProcessClient::list(sim::Context ctx,
                                                              api::GroupVersionResource resource,
                                                              std::string ns,
                                                              api::ListOptions options) {
  ApiServer* server = server_;
  Request req{Verb::kList, resource.resource, ns, ""};
  req.wait_for = ApiServer::read_revision(options);
  std::function<api::Result<api::ObjectList>()> call = [server, resource, ns, options] {
    return server->list(resource, ns, options);
  };
  return RoundTrip::run<api::ObjectList>(this, std::move(ctx), std::move(req), std::move(call));
}

sim::Task<api::Result<api::WatchPtr>> InProcessClient::watch(sim::Context ctx,
                                                             api::GroupVersionResource resource,
                                                             std::string ns,
                                                             api::ListOptions options) {
  Request req{Verb::kWatch, resource.resource, ns, ""};
  return RoundTrip::watch(this, std::move(ctx), std::move(req), std::move(resource),
                          std::move(options));
}

sim::Task<api::Result<api::ObjectPtr>> InProcessClient::create(sim::Context ctx,
                                                               api::GroupVersionResource resource,
                                                               std::string ns,
                                                               api::ObjectPtr object,
                                                               api::CreateOptions options) {
  ApiServer* server = server_;
  Request req{Verb::kCreate, resource.resource, ns, std::string(object->name())};
  std::function<api::Result<api::ObjectPtr>()> call = [server, resource, ns, object, options] {
    return server->create(resource, ns, object, options);
  };
  return write(std::move(ctx), std::move(req), std::move(call));
}

sim::Task<api::Result<api::ObjectPtr>> InProcessClient::update(sim::Context ctx,
                                                               api::GroupVersionResource resource,
                                                               std::string ns,
                                                               api::ObjectPtr object,
                                                               api::UpdateOptions options) {
  ApiServer* server = server_;
  Request req{Verb::kUpdate, resource.resource, ns, std::string(object->name())};
  std::function<api::Result<api::ObjectPtr>()> call = [server, resource, ns, object, options] {
    return server->update(resource, ns, object, options, false);
  };
  return write(std::move(ctx), std::move(req), std::move(call));
}

sim::Task<api::Result<api::ObjectPtr>> InProcessClient::update_status(
    sim::Context ctx, api::GroupVersionResource resource, std::string ns, api::ObjectPtr object,
    api::UpdateOptions options) {
  ApiServer* server = server_;
  Request req{Verb::kUpdate, resource.resource, ns, std::string(object->name())};
  std::function<api::Result<api::ObjectPtr>()> call = [server, resource, ns, object, options] {
    return server->update(resource, ns, object, options, true);
  };
  return write(std::move(ctx), std::move(req), std::move(call));
}

sim::Task<api::Result<api::ObjectPtr>> InProcessClient::patch(sim::Context ctx,
                                                              api::GroupVersionResource resource,
                                                              std::string ns, std::string name,
                                                              api::PatchType type,
                                                              std::string patch,
                                                              api::PatchOptions options) {
  ApiServer* server = server_;
  Request req{Verb::kPatch, resource.resource, ns, name};
  std::function<api::Result<api::ObjectPtr>()> call = [server, resource, ns, name, type, patch,
                                                       options] {
    return server->patch(resource, ns, name, type, patch, options, false);
  };
  return write(std::move(ctx), std::move(req), std::move(call));
}

sim::Task<api::Result<api::ObjectPtr>> InProcessClient::write(
    sim::Context ctx, Request req, std::function<api::Result<api::ObjectPtr>()> call) {
  auto warnings = std::make_shared<std::vector<std::string>>();
  std::function<api::Result<api::ObjectPtr>()> at_server =
      [server = server_, call = std::move(call), warnings] {
        api::Result<api::ObjectPtr> r = call();
        *warnings = server->warnings();
        return r;
      };
  api::Result<api::ObjectPtr> r = co_await RoundTrip::run<api::ObjectPtr>(
      this, std::move(ctx), std::move(req), std::move(at_server));
  // Code 0: the answer never reached the client (its warnings were lost with it).
  const bool answered = r.ok() || r.status().code != 0;
  if (answered && warning_handler_) {
    for (const std::string& w : *warnings) warning_handler_(299, "-", w);
  }
  co_return r;
}

sim::Task<api::Result<api::ObjectPtr>> InProcessClient::delete_(sim::Context ctx,
                                                                api::GroupVersionResource resource,
                                                                std::string ns, std::string name,
                                                                api::DeleteOptions options) {
  ApiServer* server = server_;
  Request req{Verb::kDelete, resource.resource, ns, name};
  std::function<api::Result<api::ObjectPtr>()> call = [server, resource, ns, name, options] {
    return server->delete_(resource, ns, name, options);
  };
  return RoundTrip::run<api::ObjectPtr>(this, std::move(ctx), std::move(req), std::move(call));
}

sim::Task<api::Result<void>> InProcessClient::delete_collection(sim::Context ctx,
                                                                api::GroupVersionResource resource,
                                                                std::string ns,
                                                                api::DeleteOptions options,
                                                                api::ListOptions list_options) {
  ApiServer* server = server_;
  Request req{Verb::kDeleteCollection, resource.resource, ns, ""};
  std::function<api::Result<void>()> call = [server, resource, ns, options, list_options] {
    return server->delete_collection(resource, ns, options, list_options);
  };
  return RoundTrip::run<void>(this, std::move(ctx), std::move(req), std::move(call));
}

}  // namespace kubesim::fakeapi
