// The controller tests' fixture: a Loop, the fake API server (namespace shop; kube-system is built in;
// the Widget CRD) and replica processes, each with its network link and in-process client, and
// in each incarnation a fresh informer factory and a Manager filled by the replica's setup
// function and run with Manager::start. A log records every reconcile (who, which key, when).
// Setup and checks use the server's synchronous methods (the operator's hand).
#ifndef KUBESIM_TESTS_CONTROLLER_FIXTURE_H_
#define KUBESIM_TESTS_CONTROLLER_FIXTURE_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/informer/factory.h"
#include "kubesim/scenarios/controllers.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/process.h"
#include "kubesim/controller/builder.h"

namespace kubesim::controller::controller_test {

using namespace std::chrono_literals;

inline const api::GroupVersionResource kWidgets{"example.com", "v1", "widgets"};

struct Reconciled {
  std::string process;
  std::string key;
  sim::Time at{};
};

struct Replica {
  std::string name;
  SetupFn setup;
  ManagerOptions options;
  std::unique_ptr<sim::Process> process;
  std::shared_ptr<sim::NetworkLink> link;
  std::unique_ptr<fakeapi::InProcessClient> client;
  Manager* manager = nullptr;   // the current incarnation's, while its start() runs
  std::vector<bool> leadership;  // what on_leadership was told, in order
  int returned = 0;              // how many times start() returned
};

class Fixture;
sim::Task<void> replica_main(Fixture* fixture, std::size_t index, sim::Context ctx);

class Fixture {
 public:
  explicit Fixture(std::uint64_t seed = 1, sim::Duration latency_base = 1ms, sim::Duration latency_extra = 4ms)
      : latency_base_(latency_base), latency_extra_(latency_extra), loop(loop_options(seed)), server(loop) {
    for (const char* ns : {"shop"}) {
      create(api::kNamespaces, {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
    }
    create(api::kCustomResourceDefinitions, scenarios::widget_crd());
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;
  ~Fixture() {
    for (auto& r : replicas) r->process->crash();
    loop.run_for(1min);  // every cancelled coroutine unwinds while the processes still exist
  }

  // Adds a replica process "manager-N" (not started); returns its index.
  std::size_t add_replica(SetupFn setup, ManagerOptions options = {}) {
    auto r = std::make_unique<Replica>();
    r->name = "manager-" + std::to_string(replicas.size());
    r->setup = std::move(setup);
    r->options = std::move(options);
    r->process = std::make_unique<sim::Process>(loop, r->name);
    r->link = std::make_shared<sim::NetworkLink>(loop, latency_base_, latency_extra_);
    r->process->set_link(r->link);
    r->client = std::make_unique<fakeapi::InProcessClient>(server, *r->process);
    replicas.push_back(std::move(r));
    return replicas.size() - 1;
  }
  void start(std::size_t index) {
    Fixture* self = this;
    replicas[index]->process->start([self, index](sim::Context ctx) { return replica_main(self, index, ctx); });
  }
  // One replica running `setup`, started.
  Replica& run(SetupFn setup, ManagerOptions options = {}) {
    const std::size_t index = add_replica(std::move(setup), std::move(options));
    start(index);
    return *replicas[index];
  }

  // ---- the operator's hand ----
  api::ObjectPtr create(const api::GroupVersionResource& resource, nlohmann::json object) {
    const std::string ns = object["metadata"].value("namespace", "");
    auto made = server.create(resource, ns, api::make_object(std::move(object)), api::CreateOptions());
    EXPECT_TRUE(made.ok()) << made.status().message;
    return made.ok() ? made.value() : nullptr;
  }
  api::ObjectPtr widget(const std::string& name, int replicas_wanted) {
    return create(kWidgets, {{"apiVersion", "example.com/v1"},
                             {"kind", "Widget"},
                             {"metadata", {{"name", name}, {"namespace", "shop"}}},
                             {"spec", {{"replicas", replicas_wanted}}}});
  }
  api::ObjectPtr config_map(const std::string& name, nlohmann::json metadata = nlohmann::json::object()) {
    metadata["name"] = name;
    metadata["namespace"] = "shop";
    return create(api::kConfigMaps, {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", std::move(metadata)}});
  }
  api::ObjectPtr get(const api::GroupVersionResource& resource, const std::string& ns, const std::string& name) {
    auto found = server.get(resource, ns, name, api::GetOptions());
    return found.ok() ? found.value() : nullptr;
  }
  void update(const api::GroupVersionResource& resource, const api::ObjectPtr& next) {
    auto updated = server.update(resource, next->namespace_(), next, api::UpdateOptions());
    EXPECT_TRUE(updated.ok()) << updated.status().message;
  }
  void remove(const api::GroupVersionResource& resource, const std::string& ns, const std::string& name) {
    auto deleted = server.delete_(resource, ns, name, api::DeleteOptions());
    EXPECT_TRUE(deleted.ok()) << deleted.status().message;
  }
  std::vector<api::ObjectPtr> list(const api::GroupVersionResource& resource, const std::string& ns) {
    auto listed = server.list(resource, ns, api::ListOptions());
    return listed.ok() ? listed.value().items : std::vector<api::ObjectPtr>();
  }

  // Reconciles of `key` so far (by any replica).
  std::size_t reconciles(const std::string& key) const {
    std::size_t n = 0;
    for (const auto& r : log) n += r.key == key ? 1 : 0;
    return n;
  }
  std::vector<sim::Time> reconcile_times(const std::string& key) const {
    std::vector<sim::Time> times;
    for (const auto& r : log) {
      if (r.key == key) times.push_back(r.at);
    }
    return times;
  }

 private:
  static sim::LoopOptions loop_options(std::uint64_t seed) {
    sim::LoopOptions options;
    options.seed = seed;
    return options;
  }

  sim::Duration latency_base_;
  sim::Duration latency_extra_;

 public:
  sim::Loop loop;
  fakeapi::ApiServer server;
  std::vector<std::unique_ptr<Replica>> replicas;
  std::vector<Reconciled> log;
};

// One incarnation: a fresh factory and Manager, filled by the replica's setup, started.
inline sim::Task<void> replica_main(Fixture* fixture, std::size_t index, sim::Context ctx) {
  Replica* r = fixture->replicas[index].get();
  informer::SharedInformerFactory factory(*r->client, r->process->clock());
  ManagerOptions options = r->options;
  options.on_leadership = [r](bool leading) { r->leadership.push_back(leading); };
  Manager manager(ManagerEnv{*r->process, *r->client, factory}, options);
  r->setup(manager);
  struct Current {
    Replica* r;
    Manager* m;
    ~Current() {
      if (r->manager == m) r->manager = nullptr;
    }
  } current{r, &manager};
  r->manager = &manager;
  co_await manager.start(ctx);
  ++r->returned;
}

// A reconcile that logs itself and returns `result`.
inline sim::Task<ReconcileResult> logged(Fixture* fixture, ReconcileResult result, ReconcileContext rc,
                                         ReconcileRequest request) {
  fixture->log.push_back(Reconciled{rc.process().name(), request.key(), fixture->loop.now()});
  co_return result;
}

inline ReconcileFn log_reconciles(Fixture& fixture, ReconcileResult result = ReconcileResult::done()) {
  Fixture* f = &fixture;
  return [f, result](ReconcileContext rc, ReconcileRequest request) { return logged(f, result, rc, request); };
}

}  // namespace kubesim::controller::controller_test

#endif  // KUBESIM_TESTS_CONTROLLER_FIXTURE_H_
