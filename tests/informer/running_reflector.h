// A Reflector running in a test Cluster, and a store that counts what the reflector asked of it.
#ifndef KUBESIM_TESTS_INFORMER_RUNNING_REFLECTOR_H_
#define KUBESIM_TESTS_INFORMER_RUNNING_REFLECTOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cluster.h"
#include "kubesim/fakeapi/faults.h"
#include "kubesim/informer/indexer.h"
#include "kubesim/informer/reflector.h"
#include "kubesim/sim/context.h"

namespace kubesim::informer::testing {

// An Indexer that also counts what the reflector asked of it.
class CountingStore final : public ReflectorStore {
 public:
  void add(api::ObjectPtr o) override { ++adds, cache.add(std::move(o)); }
  void update(api::ObjectPtr o) override { ++updates, cache.update(std::move(o)); }
  void delete_(api::ObjectPtr o) override { ++deletes, cache.delete_(std::move(o)); }
  void replace(std::vector<api::ObjectPtr> objects, std::string rv) override {
    ++replaces;
    replaced_sizes.push_back(objects.size());
    cache.replace(std::move(objects), std::move(rv));
  }
  void resync() override { ++resyncs; }
  void bookmark(std::string rv) override { bookmarks.push_back(rv), cache.bookmark(std::move(rv)); }

  std::vector<std::pair<std::string, std::string>> state() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& o : cache.list()) out.emplace_back(o->key().str(), std::string(o->resource_version()));
    return out;
  }

  Indexer cache;
  int adds = 0, updates = 0, deletes = 0, replaces = 0, resyncs = 0;
  std::vector<std::size_t> replaced_sizes;
  std::vector<std::string> bookmarks;
};

inline sim::Task<void> run_reflector(Reflector* reflector, sim::Context ctx, bool* done) {
  co_await reflector->run(ctx);
  *done = true;
}

// Runs a reflector in the cluster until stop() is called.
struct Running {
  Running(Cluster& cluster, ListerWatcher& lw, ReflectorStore& store, ReflectorOptions options)
      : cluster(&cluster), reflector(cluster.process.clock(), lw, store, std::move(options)),
        cancel(sim::with_cancel(cluster.process.context())) {
    cluster.loop.spawn(run_reflector(&reflector, cancel.ctx, &done));
  }
  ~Running() { stop(); }
  void stop() {
    cancel.cancel();
    cluster->loop.run_for(1s);
    EXPECT_TRUE(done) << "the reflector must return once its context is done";
  }

  Cluster* cluster;
  Reflector reflector;
  sim::ContextWithCancel cancel;
  bool done = false;
};

// Lists fail with a 500 `count` times (unset: always).
inline fakeapi::FaultRule failing_lists(std::optional<std::int64_t> count) {
  fakeapi::FaultRule broken;
  broken.verbs = {fakeapi::Verb::kList};
  broken.effect = fakeapi::ErrorFault{api::new_internal_error("etcd is down")};
  broken.count = count;
  return broken;
}

inline ReflectorOptions list_then_watch() {
  ReflectorOptions options;
  options.use_watch_list = false;
  return options;
}

}  // namespace kubesim::informer::testing

#endif  // KUBESIM_TESTS_INFORMER_RUNNING_REFLECTOR_H_
