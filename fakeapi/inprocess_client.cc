#include "kubesim/fakeapi/inprocess_client.h"

#include <memory>

#include "kubesim/fakeapi/watch_delivery.h"
#include "kubesim/sim/channel.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/sleep.h"
#include "kubesim/sim/task_group.h"
#include "kubesim/sim/unfrozen.h"

namespace kubesim::fakeapi {

struct InProcessClient::Shared {
  explicit Shared(ApiServer& s) : server(&s), loop(&s.loop()), deliveries(s.loop()) {}

  ApiServer* server;
  sim::Loop* loop;
  sim::Process* process = nullptr;  // null for a client without a process
  std::string name;
  InProcessClientOptions options;
  api::WarningHandler warning_handler;
  // The parent of the watch deliveries: a child of the process's current incarnation's
  // context, cancelled when the client is destroyed.
  std::optional<sim::ContextWithCancel> scope;
  int scope_incarnation = 0;
  // The watch deliveries (receivers and pumps).
  sim::TaskGroup deliveries;

  sim::NetworkLink* link() const { return process != nullptr ? process->link() : nullptr; }
  std::shared_ptr<sim::NetworkLink> shared_link() const {
    return process != nullptr ? process->shared_link() : nullptr;
  }

  sim::Context delivery_scope() {
    const int incarnation = process != nullptr ? process->incarnation() : 0;
    if (!scope || incarnation != scope_incarnation) {
      if (scope) scope->cancel();
      scope = sim::with_cancel(process != nullptr ? process->context() : sim::Context());
      scope_incarnation = incarnation;
    }
    return scope->ctx;
  }
};

namespace {

using Shared = InProcessClient::Shared;

// How a crossing of the process's link ended (kWaiting: not yet, it must be waited out).
enum class Crossing { kArrived, kWaiting, kCancelled, kTimedOut };

// Starts a crossing of the link: draws its latency into `delay`. A crossing with no latency
// and no partition arrives at once, without a coroutine.
Crossing start_crossing(const Shared& s, const sim::Context& ctx, sim::Duration& delay) {
  if (ctx.done()) return Crossing::kCancelled;
  sim::NetworkLink* link = s.link();
  delay = link != nullptr ? link->sample_latency(s.loop->rng()) : sim::Duration::zero();
  if (delay > sim::Duration::zero() || (link != nullptr && link->partitioned())) {
    return Crossing::kWaiting;
  }
  return Crossing::kArrived;
}

// Waits out a crossing that start_crossing could not finish: its latency, then any partition
// of the link (the one the latency was drawn from).
sim::Task<Crossing> wait_crossing(std::shared_ptr<Shared> s, std::shared_ptr<sim::NetworkLink> link,
                                  sim::Context ctx, sim::Duration delay) {
  if (delay > sim::Duration::zero()) {
    const bool slept = co_await sim::sleep_for(ctx, *s->loop, delay);
    if (!slept) co_return Crossing::kCancelled;
  }
  if (link != nullptr && link->partitioned()) {
    auto limit = sim::with_timeout(ctx, *s->loop, s->options.partition_timeout);
    const bool healed = co_await link->healed().wait(limit.ctx);
    if (!healed) co_return ctx.done() ? Crossing::kCancelled : Crossing::kTimedOut;
  }
  co_return Crossing::kArrived;
}

// What the client sees of a crossing that did not arrive.
api::Status crossing_error(const Shared& s, const sim::Context& ctx, Crossing crossing) {
  if (crossing == Crossing::kTimedOut) {
    return api::new_client_error(api::ClientError::kNetworkTimeout,
                                 "dial tcp: i/o timeout (the network link of " + s.name +
                                     " is partitioned)");
  }
  return api::new_context_error(ctx.err());
}

// Carries `req` to the server's front door and its answer back. `at_server` (may be empty) sees
// the answer the instant the server gives it (a watch starts delivering then). A write's
// warnings go to the handler once its answer arrived. The request travels as one heap object:
// held by value it would make this frame, and the server's, too large for the allocator's
// fast path.
sim::Task<Response> call(std::shared_ptr<Shared> s, sim::Context ctx, std::unique_ptr<Request> req,
                         std::function<void(Response&)> at_server) {
  const bool write = api::is_write(req->verb);
  req->process = s->name;
  // Once sent, the request and the server's work on it go on while the process is paused; the
  // answer waits for the process to run again.
  const sim::Context on_wire = ctx.freeze_gate() != nullptr ? sim::unfrozen(ctx).ctx : ctx;
  sim::Duration delay{};
  Crossing there = start_crossing(*s, on_wire, delay);
  if (there == Crossing::kWaiting) {
    const Crossing waited = co_await wait_crossing(s, s->shared_link(), on_wire, delay);
    there = waited;
  }
  if (there != Crossing::kArrived) co_return Response::failure(crossing_error(*s, on_wire, there));
  Response response = co_await s->server->serve(on_wire, std::move(req));
  if (at_server) at_server(response);
  Crossing back = start_crossing(*s, ctx, delay);
  if (back == Crossing::kWaiting) {
    const Crossing waited = co_await wait_crossing(s, s->shared_link(), ctx, delay);
    back = waited;
  }
  if (back != Crossing::kArrived) {
    if (response.watch) response.watch->stop();  // the server's watch ends with the connection
    co_return Response::failure(crossing_error(*s, ctx, back));
  }
  if (write && s->warning_handler) {
    for (const std::string& w : response.warnings) s->warning_handler(299, "-", w);
  }
  co_return response;
}

// --- Watch delivery ------------------------------------------------------------------------

// A watch event crossing the link, sent by the server at `sent`.
struct InFlight {
  sim::Time sent;
  api::WatchEvent event;
};
using Flights = sim::Channel<InFlight>;

// What a watch's receiver and its pump share.
struct WatchState {
  explicit WatchState(sim::Loop& loop) : flights(loop) {}
  std::shared_ptr<api::WatchStream> source;
  Flights flights;
  std::size_t in_transit = 0;  // events taken from the server, not yet in the client's stream
  std::shared_ptr<sim::NetworkLink> link;
  // When the pump next looks at the link while nothing arrives: a deadline kept across waits
  // until it passes (one context a watch_partition_check, not one an event).
  std::optional<sim::ContextWithCancel> tick;
};

// Takes the server's events as they are sent, so that each one's crossing starts then: events
// travel the link together, not one latency after another.
sim::Task<void> receive(std::shared_ptr<WatchState> state, sim::Loop* loop, sim::Context ctx) {
  for (;;) {
    auto event = state->source->try_next(ctx);
    if (!event) event = co_await state->source->next(ctx);
    if (!event) break;
    InFlight flight{loop->now(), std::move(*event)};
    if (!state->flights.try_send(std::move(flight))) break;
    ++state->in_transit;
  }
  state->flights.close();
}

// Moves the events of a server-side watch across the link to the client's stream.
sim::Task<void> pump(std::shared_ptr<Shared> s, std::shared_ptr<WatchState> state,
                     api::WatchFeed out, sim::Context ctx) {
  sim::Loop& loop = *s->loop;
  sim::NetworkLink* link = state->link.get();
  Flights& flights = state->flights;
  sim::Time last = loop.now();
  for (;;) {
    // The next event to forward, or none once the watch must end. With a link, the wait wakes
    // up every watch_partition_check (counted from the previous wake-up, events or not) to
    // notice a partition even when nothing is sent, and a partition that lasts
    // watch_partition_timeout ends the watch. (Waited for here, not in a coroutine of its own:
    // this runs once an event.)
    std::optional<InFlight> flight = ctx.done() ? std::nullopt : flights.try_recv();
    while (!flight) {
      if (link == nullptr) {
        flight = co_await flights.recv(ctx);
        break;
      }
      if (!state->tick || state->tick->ctx.done()) {
        state->tick = sim::with_timeout(ctx, loop, s->options.watch_partition_check);
      }
      flight = co_await flights.recv(state->tick->ctx);
      if (flight || ctx.done() || (flights.closed() && flights.size() == 0)) break;
      if (link->partitioned()) {
        auto limit = sim::with_timeout(ctx, loop, s->options.watch_partition_timeout);
        const bool healed = co_await link->healed().wait(limit.ctx);
        if (!healed) break;
      }
    }
    if (!flight) break;
    const sim::Duration latency =
        link != nullptr ? link->sample_latency(loop.rng()) : sim::Duration::zero();
    const sim::Time at = std::max(last, flight->sent + latency);
    last = at;
    if (at > loop.now()) {
      const bool slept = co_await sim::sleep_until(ctx, loop, at);
      if (!slept) break;
    }
    if (link != nullptr && link->partitioned()) {
      auto limit = sim::with_timeout(ctx, loop, s->options.watch_partition_timeout);
      const bool healed = co_await link->healed().wait(limit.ctx);
      if (!healed) break;
    }
    if (!out.send(std::move(flight->event))) break;
    --state->in_transit;
  }
  if (state->tick) state->tick->cancel();
  state->source->stop();
  flights.close();
  out.close();
}

}  // namespace

InProcessClient::InProcessClient(ApiServer& server, sim::Process& process,
                                 InProcessClientOptions options)
    : shared_(std::make_shared<Shared>(server)) {
  shared_->process = &process;
  shared_->name = process.name();
  shared_->options = options;
}

InProcessClient::InProcessClient(ApiServer& server, std::string name)
    : shared_(std::make_shared<Shared>(server)) {
  shared_->name = std::move(name);
}

InProcessClient::~InProcessClient() {
  if (shared_->scope) shared_->scope->cancel();
  shared_->process = nullptr;
}

const std::string& InProcessClient::name() const { return shared_->name; }

void InProcessClient::set_warning_handler(api::WarningHandler handler) {
  shared_->warning_handler = std::move(handler);
}

namespace {

sim::Task<Response> start_watch(std::shared_ptr<Shared> s, sim::Context ctx,
                                std::unique_ptr<Request> req) {
  sim::Loop* loop = s->loop;
  auto state = std::make_shared<WatchState>(*loop);
  if (s->process != nullptr) state->link = s->process->shared_link();
  // Deliveries end with the process's incarnation and with the client.
  auto delivery = sim::with_cancel(s->delivery_scope());
  sim::Context receive_ctx = delivery.ctx;
  // The server's first events (its initial list or its replay) leave with its answer, so they
  // start crossing the link at the instant the server answers.
  std::function<void(Response&)> at_server = [s, state, receive_ctx, loop](Response& r) {
    if (!r.watch) return;
    state->source = std::shared_ptr<api::WatchStream>(std::move(r.watch));
    s->deliveries.spawn(receive(state, loop, receive_ctx), "watch-receive");
  };
  Response started = co_await call(s, std::move(ctx), std::move(req), std::move(at_server));
  if (!started.ok()) {
    // No answer reached the client: the server's watch ends with the connection.
    delivery.cancel();
    if (state->source) state->source->stop();
    state->flights.close();
    co_return started;
  }
  auto pipe = api::make_watch_pipe(*loop);
  pipe.second.on_stop([cancel = delivery.cancel] { cancel(); });
  if (auto* delivered = dynamic_cast<DeliveredWatch*>(state->source.get())) {
    // A client that does not keep up is cut off by the front door's watch delivery: what it has
    // not read is what waits in its stream and what is still on its way.
    std::weak_ptr<WatchState> weak = state;
    delivered->set_unread([weak, out = pipe.second]() -> std::size_t {
      const auto shared = weak.lock();
      return out.backlog() + (shared != nullptr ? shared->in_transit : 0);
    });
  }
  s->deliveries.spawn(pump(s, state, pipe.second, delivery.ctx), "watch-pump");
  started.watch = std::move(pipe.first);
  co_return started;
}

}  // namespace

sim::Task<Response> InProcessClient::send(sim::Context ctx, Request request) {
  // The request travels as one heap object: held by value it would make the frames of the call
  // and of the server too large for the allocator's fast path.
  auto req = std::make_unique<Request>(std::move(request));
  if (req->verb == Verb::kWatch) return start_watch(shared_, std::move(ctx), std::move(req));
  return call(shared_, std::move(ctx), std::move(req), nullptr);
}

}  // namespace kubesim::fakeapi
