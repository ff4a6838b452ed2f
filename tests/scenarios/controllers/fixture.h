// The built-in controllers' test fixture: a Loop, the fake API server, one controller process
// with its network link and in-process client, and in that process — per incarnation — a fresh
// shared informer factory and a controller of a registered type, started as the runner starts
// them (controller made, factory started, run()). Crash and restart the process to get a new
// incarnation. Setup and checks use the server's synchronous methods (the operator's hand: no
// filter sees them, no fault hits them).
#ifndef KUBESIM_TESTS_SCENARIOS_CONTROLLERS_FIXTURE_H_
#define KUBESIM_TESTS_SCENARIOS_CONTROLLERS_FIXTURE_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/informer/factory.h"
#include "kubesim/scenarios/controllers.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/process.h"

namespace kubesim::scenarios::testing {

using namespace std::chrono_literals;

struct FixtureOptions {
  FixtureOptions() {}
  std::uint64_t seed = 1;
  std::string type = "configmap-mirror";
  nlohmann::json params = nlohmann::json::object();
  int workers = 2;
  sim::Duration latency_base = 1ms;
  sim::Duration latency_extra = 10ms;
  bool trace = false;
};

inline sim::LoopOptions loop_options(std::uint64_t seed) {
  sim::LoopOptions options;
  options.seed = seed;
  return options;
}

class Fixture;
sim::Task<void> incarnation_main(Fixture* fixture, sim::Context ctx);

class Fixture {
 public:
  explicit Fixture(FixtureOptions options = {})
      : options_(std::move(options)),
        registry_(Registry::with_builtins()),
        loop(loop_options(options_.seed)),
        server(loop),
        process(loop, "controller"),
        link(std::make_shared<sim::NetworkLink>(loop, options_.latency_base, options_.latency_extra)),
        client(server, process) {
    if (options_.trace) loop.trace().enable();
    process.set_link(link);
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;
  ~Fixture() {
    process.crash();
    loop.run_for(1min);  // every cancelled coroutine unwinds while the process still exists
  }

  // Starts the process: its controller runs from now on (and again after every restart).
  void start() {
    Fixture* self = this;
    process.start([self](sim::Context ctx) { return incarnation_main(self, ctx); });
  }

  const FixtureOptions& options() const { return options_; }
  const ControllerType& type() const { return *registry_.find(options_.type); }
  // The controller of the current incarnation, while it runs.
  Controller* controller = nullptr;
  // Incarnations whose run() has returned.
  int finished_runs = 0;

  // ---- the operator's hand ----
  void create_namespace(const std::string& name) {
    auto made = server.create(api::kNamespaces, "",
                              api::make_object({{"apiVersion", "v1"},
                                                {"kind", "Namespace"},
                                                {"metadata", {{"name", name}}}}),
                              api::CreateOptions());
    ASSERT_TRUE(made.ok()) << made.status().message;
  }
  // Creates the ConfigMap ns/name with `data`, or replaces its data when it exists.
  void put_config_map(const std::string& ns, const std::string& name,
                      const std::map<std::string, std::string>& data) {
    auto current = server.get(api::kConfigMaps, ns, name, api::GetOptions());
    if (current.ok()) {
      auto next = current.value()->edited([&](nlohmann::json& j) {
        j.erase("data");
        if (!data.empty()) j["data"] = data;
      });
      auto updated = server.update(api::kConfigMaps, ns, next, api::UpdateOptions());
      ASSERT_TRUE(updated.ok()) << updated.status().message;
      return;
    }
    nlohmann::json object = {{"apiVersion", "v1"},
                             {"kind", "ConfigMap"},
                             {"metadata", {{"name", name}, {"namespace", ns}}}};
    if (!data.empty()) object["data"] = data;
    auto made = server.create(api::kConfigMaps, ns, api::make_object(std::move(object)), api::CreateOptions());
    ASSERT_TRUE(made.ok()) << made.status().message;
  }
  void delete_config_map(const std::string& ns, const std::string& name) {
    auto deleted = server.delete_(api::kConfigMaps, ns, name, api::DeleteOptions());
    ASSERT_TRUE(deleted.ok()) << deleted.status().message;
  }
  // name -> the ConfigMap's data and binaryData, as the server holds them in `ns`.
  std::map<std::string, nlohmann::json> contents(const std::string& ns) {
    std::map<std::string, nlohmann::json> out;
    auto listed = server.list(api::kConfigMaps, ns, api::ListOptions());
    EXPECT_TRUE(listed.ok());
    if (!listed.ok()) return out;
    for (const auto& cm : listed.value().items) {
      out[std::string(cm->name())] = {{"data", cm->member_value("data")},
                                      {"binaryData", cm->member_value("binaryData")}};
    }
    return out;
  }
  api::ObjectPtr get(const api::GroupVersionResource& resource, const std::string& ns,
                     const std::string& name) {
    auto found = server.get(resource, ns, name, api::GetOptions());
    return found.ok() ? found.value() : nullptr;
  }
  // How many requests of `verb` on `resource` (plural) and `subresource` reached the server's
  // front door and got the answer `code`.
  std::size_t served(fakeapi::Verb verb, const std::string& resource, const std::string& subresource,
                     int code) const {
    return server.recorder().count([&](const fakeapi::RecordedCall& call) {
      return call.verb == verb && call.resource.resource == resource && call.subresource == subresource &&
             call.code == code;
    });
  }

 private:
  FixtureOptions options_;
  Registry registry_;

 public:
  sim::Loop loop;
  fakeapi::ApiServer server;
  sim::Process process;
  std::shared_ptr<sim::NetworkLink> link;
  fakeapi::InProcessClient client;
};

// One incarnation: a fresh factory and controller, the factory started after the controller is
// made, run() until the process's context is done, then the factory shut down.
inline sim::Task<void> incarnation_main(Fixture* fixture, sim::Context ctx) {
  informer::SharedInformerFactory factory(fixture->client, fixture->process.clock());
  ControllerEnv env{fixture->process, fixture->client, factory, fixture->options().params,
                    fixture->options().workers};
  std::unique_ptr<Controller> controller = fixture->type().make(env);
  fixture->controller = controller.get();
  factory.start(ctx);
  co_await controller->run(ctx);
  if (fixture->controller == controller.get()) fixture->controller = nullptr;
  ++fixture->finished_runs;
  co_await factory.shutdown();
}

}  // namespace kubesim::scenarios::testing

#endif  // KUBESIM_TESTS_SCENARIOS_CONTROLLERS_FIXTURE_H_
