// ListerWatcher: the two calls a Reflector makes — list and watch one resource.
//
// ListWatch is the usual implementation over an api::Client: one resource, optionally one
// namespace, label and field selectors, and a tweak hook that may change any option of every
// request (client-go's NewFilteredListWatchFromClient). The client must outlive it.
#ifndef KUBESIM_INFORMER_LISTER_WATCHER_H_
#define KUBESIM_INFORMER_LISTER_WATCHER_H_

#include <functional>
#include <string>

#include "kubesim/api/client.h"
#include "kubesim/api/gvk.h"
#include "kubesim/api/options.h"
#include "kubesim/api/result.h"
#include "kubesim/api/watch.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"

namespace kubesim::informer {

class ListerWatcher {
 public:
  virtual ~ListerWatcher() = default;
  virtual sim::Task<api::Result<api::ObjectList>> list(sim::Context ctx, api::ListOptions options) = 0;
  virtual sim::Task<api::Result<api::WatchPtr>> watch(sim::Context ctx, api::ListOptions options) = 0;
};

// Changes the options of every list and watch request (after the selectors are set).
using TweakListOptionsFunc = std::function<void(api::ListOptions&)>;

struct ListWatchOptions {
  std::string ns{};  // "" for all namespaces, or a cluster-scoped resource
  std::string label_selector{};
  std::string field_selector{};
  TweakListOptionsFunc tweak{};
};

class ListWatch final : public ListerWatcher {
 public:
  ListWatch(api::Client& client, api::GroupVersionResource resource, ListWatchOptions options = {});

  sim::Task<api::Result<api::ObjectList>> list(sim::Context ctx, api::ListOptions options) override;
  sim::Task<api::Result<api::WatchPtr>> watch(sim::Context ctx, api::ListOptions options) override;

  const api::GroupVersionResource& resource() const { return resource_; }
  const std::string& ns() const { return options_.ns; }

 private:
  void apply(api::ListOptions& options) const;

  api::Client* client_;
  api::GroupVersionResource resource_;
  ListWatchOptions options_;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_LISTER_WATCHER_H_
