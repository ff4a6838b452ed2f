// ServerOptions: how a fake API server (kubesim/fakeapi/server.h) compacts, times out watches,
// buffers watchers (WatchHubOptions, kubesim/fakeapi/watch_hub.h) and records calls, and which
// namespaces it starts with. Apart from server.h so that what configures a server (the fixture's
// ClusterOptions, cluster options) does not need the server's whole interface.
#ifndef KUBESIM_FAKEAPI_SERVER_OPTIONS_H_
#define KUBESIM_FAKEAPI_SERVER_OPTIONS_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "kubesim/sim/time.h"

namespace kubesim::fakeapi {

struct WatchHubOptions {
  // A watcher whose unread backlog passes this is closed.
  std::size_t max_backlog = 10'000;
  sim::Duration bookmark_interval = std::chrono::minutes(1);
  // How long a watch from a future revision waits for it (the watch cache's blockTimeout).
  sim::Duration fresh_wait = std::chrono::seconds(3);
};

struct ServerOptions {
  // History older than this is compacted, as kube-apiserver has etcd compact every 5 minutes.
  sim::Duration compaction_interval = std::chrono::minutes(5);
  // Watches without timeoutSeconds end after a random time in [min, 2·min), as kube-apiserver's
  // --min-request-timeout does.
  sim::Duration min_request_timeout = std::chrono::minutes(30);
  WatchHubOptions watch{};
  // How many served requests the recorder keeps (the oldest are dropped first); 0 keeps none.
  std::size_t recorder_capacity = 100'000;
  // The namespaces that exist from the start.
  std::vector<std::string> initial_namespaces = {"default", "kube-system", "kube-public",
                                                 "kube-node-lease"};
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_SERVER_OPTIONS_H_
