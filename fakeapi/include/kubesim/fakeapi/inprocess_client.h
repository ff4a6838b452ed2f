// InProcessClient: api::Client for a simulated process, a transport to an ApiServer's front door
// (ApiServer::serve) in the same Loop.
//
// Each request crosses the process's NetworkLink twice (there and back), each crossing taking a
// latency drawn from the link, so requests of different processes interleave at the server as
// they would in a cluster. While the link is partitioned a request waits for it to heal, at most
// `partition_timeout` (then it fails with a NetworkTimeout client error; a partition during the
// answer loses the answer, though the server did the work). Watch events cross the link in
// order, each taking a latency from the instant the server sent it (events travel together, not
// one after another; the initial list or replay leaves with the watch's answer); a partition
// stalls them and, past `watch_partition_timeout`, ends the watch, with or without traffic; and a
// client whose unread and in-flight live events pass the server's max_backlog is cut off as the
// server cuts off its own slow watchers (the front door's watch delivery does it, as for an HTTP
// client: watch_delivery.h). Fault rules, the revision wait and the recorder are the server's
// front door's: every request carries the process's name. When the call's context is
// done first (or already was), the result is a Canceled or DeadlineExceeded client error, as
// client-go returns the context's error. A request the process sent before it was paused
// (Process::pause) still crosses the link and is served; its answer reaches the process when the
// pause ends.
//
// Watch deliveries run in the client's own task group, under the process's context (a crash
// ends them) and the client's (destroying the client ends them); they share nothing with the
// client object, so a client may be destroyed with watches open.
#ifndef KUBESIM_FAKEAPI_INPROCESS_CLIENT_H_
#define KUBESIM_FAKEAPI_INPROCESS_CLIENT_H_

#include <functional>
#include <optional>
#include <string>

#include "kubesim/api/client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/process.h"

namespace kubesim::fakeapi {

struct InProcessClientOptions {
  sim::Duration partition_timeout = std::chrono::seconds(10);
  sim::Duration watch_partition_timeout = std::chrono::seconds(30);
  // How often a watch with no traffic looks at its link, so that a partition stalls and ends it
  // within watch_partition_check + watch_partition_timeout even when nothing is sent.
  sim::Duration watch_partition_check = std::chrono::seconds(5);
};

class InProcessClient final : public api::Client {
 public:
  // A client for `process` (its name, its link); the server and the process must outlive the
  // client.
  InProcessClient(ApiServer& server, sim::Process& process, InProcessClientOptions options = {});
  // A client with no process: no link, so no latency and no partitions; named "client".
  explicit InProcessClient(ApiServer& server, std::string name = "client");
  // Ends the client's watches (their streams end when the loop next runs them).
  ~InProcessClient() override;
  InProcessClient(const InProcessClient&) = delete;
  InProcessClient& operator=(const InProcessClient&) = delete;

  // Carries the request across the process's link to the server's front door, as its process
  // (request.process is set to the client's name), and the answer back.
  sim::Task<Response> send(sim::Context ctx, Request request) override;

  const std::string& name() const;
  // Where the warnings of creates, updates and patches go (the server's, as it would send them
  // in Warning headers: code 299, agent "-"), when their answer reaches the client. None by
  // default.
  void set_warning_handler(api::WarningHandler handler);

  // What the client's coroutines share; it outlives the client while they run.
  struct Shared;

 private:
  std::shared_ptr<Shared> shared_;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_INPROCESS_CLIENT_H_
