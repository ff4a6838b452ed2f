// A fake cluster for the informer tests: a Loop, the fake API server, a process with a network
// link, and its in-process client; plus a ListerWatcher that records every request.
#ifndef KUBESIM_TESTS_INFORMER_CLUSTER_H_
#define KUBESIM_TESTS_INFORMER_CLUSTER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/api/options.h"
#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/informer/lister_watcher.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/process.h"

namespace kubesim::informer::testing {

using namespace std::chrono_literals;

using api::kConfigMaps;
using api::kSecrets;

inline sim::LoopOptions loop_options(std::uint64_t seed) {
  sim::LoopOptions options;
  options.seed = seed;
  return options;
}

struct Cluster {
  explicit Cluster(std::uint64_t seed = 1, fakeapi::ServerOptions server_options = {})
      : loop(loop_options(seed)),
        server(loop, std::move(server_options)),
        process(loop, "informer"),
        client(server, process) {
    link = std::make_shared<sim::NetworkLink>(loop, 1ms, 2ms);
    process.set_link(link);
  }

  // Creates (or, with rv, updates) a ConfigMap directly on the server; returns it as stored.
  api::ObjectPtr create(const std::string& ns, const std::string& name,
                        const std::map<std::string, std::string>& labels = {}) {
    nlohmann::json meta = {{"name", name}, {"namespace", ns}};
    if (!labels.empty()) meta["labels"] = labels;
    auto made = server.create(kConfigMaps, ns,
                              api::make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}}),
                              api::CreateOptions());
    EXPECT_TRUE(made.ok()) << (made.ok() ? "" : made.status().message);
    return made.ok() ? made.value() : nullptr;
  }
  api::ObjectPtr touch(const api::ObjectPtr& current, const std::string& value) {
    auto changed = current->edited([&](nlohmann::json& j) { j["data"]["v"] = value; });
    auto updated = server.update(kConfigMaps, current->namespace_(), changed, api::UpdateOptions());
    EXPECT_TRUE(updated.ok()) << (updated.ok() ? "" : updated.status().message);
    return updated.ok() ? updated.value() : nullptr;
  }
  void remove(const std::string& ns, const std::string& name) {
    auto deleted = server.delete_(kConfigMaps, ns, name, api::DeleteOptions());
    EXPECT_TRUE(deleted.ok()) << (deleted.ok() ? "" : deleted.status().message);
  }
  // The server's configmaps as (key, resourceVersion), in key order.
  std::vector<std::pair<std::string, std::string>> server_state() {
    auto listed = server.list(kConfigMaps, "", api::ListOptions());
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& o : listed.value().items) out.emplace_back(o->key().str(), std::string(o->resource_version()));
    return out;
  }
  std::string revision() const { return std::to_string(server.revision()); }

  sim::Loop loop;
  fakeapi::ApiServer server;
  sim::Process process;
  std::shared_ptr<sim::NetworkLink> link;
  fakeapi::InProcessClient client;
};

// One request a RecordingListerWatcher saw.
struct Request {
  std::string verb;  // "list" or "watch"
  sim::Time at{};
  api::ListOptions options;
};

// Forwards to a ListWatch and records every request.
class RecordingListerWatcher final : public ListerWatcher {
 public:
  RecordingListerWatcher(Cluster& cluster, api::GroupVersionResource resource, ListWatchOptions options = {})
      : loop_(&cluster.loop), inner_(cluster.client, std::move(resource), std::move(options)) {}

  sim::Task<api::Result<api::ObjectList>> list(sim::Context ctx, api::ListOptions options) override {
    requests.push_back({"list", loop_->now(), options});
    return inner_.list(std::move(ctx), std::move(options));
  }
  sim::Task<api::Result<api::WatchPtr>> watch(sim::Context ctx, api::ListOptions options) override {
    requests.push_back({"watch", loop_->now(), options});
    return inner_.watch(std::move(ctx), std::move(options));
  }

  int count(const std::string& verb) const {
    int n = 0;
    for (const auto& r : requests) n += r.verb == verb ? 1 : 0;
    return n;
  }

  std::vector<Request> requests;

 private:
  sim::Loop* loop_;
  ListWatch inner_;
};

}  // namespace kubesim::informer::testing

#endif  // KUBESIM_TESTS_INFORMER_CLUSTER_H_
