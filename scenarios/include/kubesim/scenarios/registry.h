// Registry: the controller types a scenario's `controller: {type: …}` can name.
//
// A controller type makes one controller for one replica: it gets the replica's process, its
// API client (through the replica's simulated network link), the process's shared informer
// factory and the `params` the file gave, and returns a Controller whose run() the runner calls
// (at once, or only while the replica leads when the file says onlyWhenLeader). The built-in
// types are `configmap-mirror` and `widget` (kubesim/scenarios/controllers.h); a program that
// links kubesim registers its own and hands the registry to run_main (kubesim/tools/cli.h):
//
//   auto registry = kubesim::scenarios::Registry::with_builtins();
//   registry.register_controller("my-controller", [](kubesim::scenarios::ControllerEnv env) {
//     return std::make_unique<MyController>(env);
//   });
//   return kubesim::scenarios::run_main(argc, argv, registry);
//
// A Registry is plain data: no global registry exists, and one may be shared by runs on several
// threads once it is no longer changed.
#ifndef KUBESIM_SCENARIOS_REGISTRY_H_
#define KUBESIM_SCENARIOS_REGISTRY_H_

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/client.h"
#include "kubesim/informer/factory.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/task.h"
#include "kubesim/workqueue/metrics.h"

namespace kubesim::scenarios {

// What a controller of one replica is given. Everything outlives the Controller.
struct ControllerEnv {
  sim::Process& process;
  api::Client& client;
  // The process's informer factory (all namespaces). Ask it for informers in the constructor;
  // the runner starts the factory after making the controller, as a controller manager does.
  informer::SharedInformerFactory& informers;
  const nlohmann::json& params;
  int workers = 1;
  // When set (a run that captures, RunOptions::capture), the work queues' metrics go here
  // (controller::ManagerOptions::metrics); a controller not built on a Manager may ignore it.
  workqueue::MetricsProvider* metrics = nullptr;
};

class Controller {
 public:
  virtual ~Controller() = default;
  // Waits for its informers to sync, then works until `ctx` is done, and returns once every
  // worker has stopped. Called again (on a fresh context) each time the replica starts leading
  // when the file says onlyWhenLeader.
  virtual sim::Task<void> run(sim::Context ctx) = 0;
  // Items waiting in the controller's work queue; sampled for reports. Informational.
  virtual std::size_t queue_depth() const { return 0; }
};

using ControllerFactory = std::function<std::unique_ptr<Controller>(ControllerEnv env)>;
// Checks a type's params when the file is read: a message saying what is wrong, or nullopt.
using ParamsValidator = std::function<std::optional<std::string>(const nlohmann::json& params)>;

struct ControllerType {
  std::string name;
  std::string description;  // one line, for `kubesim run --list-controllers` and errors
  ControllerFactory make;
  ParamsValidator validate;  // optional
};

class Registry {
 public:
  Registry() = default;
  // A registry holding the built-in types.
  static Registry with_builtins();

  // Throws std::invalid_argument when the name is empty, already registered, or make is empty.
  void register_controller(ControllerType type);
  void register_controller(std::string name, ControllerFactory make,
                           ParamsValidator validate = nullptr);

  const ControllerType* find(std::string_view name) const;
  // The registered names, sorted.
  std::vector<std::string> names() const;

 private:
  std::map<std::string, ControllerType, std::less<>> types_;
};

}  // namespace kubesim::scenarios

#endif  // KUBESIM_SCENARIOS_REGISTRY_H_
