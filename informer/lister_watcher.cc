#include "kubesim/informer/lister_watcher.h"

namespace kubesim::informer {

ListWatch::ListWatch(api::Client& client, api::GroupVersionResource resource, ListWatchOptions options)
    : client_(&client), resource_(std::move(resource)), options_(std::move(options)) {}

void ListWatch::apply(api::ListOptions& options) const {
  if (!options_.label_selector.empty()) options.label_selector = options_.label_selector;
  if (!options_.field_selector.empty()) options.field_selector = options_.field_selector;
  if (options_.tweak) options_.tweak(options);
}

// Not coroutines: they hand back the client's own Task, whose arguments are owned copies.
sim::Task<api::Result<api::ObjectList>> ListWatch::list(sim::Context ctx, api::ListOptions options) {
  apply(options);
  return client_->list(std::move(ctx), resource_, options_.ns, std::move(options));
}

sim::Task<api::Result<api::WatchPtr>> ListWatch::watch(sim::Context ctx, api::ListOptions options) {
  apply(options);
  return client_->watch(std::move(ctx), resource_, options_.ns, std::move(options));
}

}  // namespace kubesim::informer
