// QueueController: a controller written by hand on shared informers and a rate-limiting work
// queue, the way sample-controller and most controllers of kube-controller-manager are written
// (event handlers that queue keys, one worker loop, AddRateLimited on failure, Forget on
// success) — for the bugs that live in that hand-written code: an event handler that drops
// tombstones or acts on transitions, a worker that forgets to Forget, a leader-election callback
// that runs the workers on the wrong context. The corpus's other controllers use
// kubesim::controller's ControllerBuilder, which gets these parts right.
//
// A subclass takes its informers with watch() in its constructor (the runner starts the factory
// after), says which keys a new run starts with (keys_at_start: a restarted controller's first
// list queues everything, as the informers' initial adds do), and syncs one key at a time.
// run() may be called again after it returned (a new leadership term): each run has a queue of
// its own, and the handlers queue into the running one (into none between runs).
#ifndef KUBESIM_EXAMPLES_BUGGY_QUEUE_CONTROLLER_H_
#define KUBESIM_EXAMPLES_BUGGY_QUEUE_CONTROLLER_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kubesim/api/client.h"
#include "kubesim/api/gvk.h"
#include "kubesim/informer/event_handler.h"
#include "kubesim/informer/lister.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"
#include "kubesim/workqueue/rate_limiting_queue.h"

namespace buggy {

class QueueController : public kubesim::scenarios::Controller {
 public:
  struct Options {
    // client-go's workqueue.Forget(key) after a sync that succeeded; without it the rate
    // limiter keeps counting the key's failures for as long as the process lives.
    bool forget_on_success = true;
    // AddRateLimited(key) after a sync that failed; without it the key is queued again at once
    // (queue.Add), and a key that keeps failing is retried as fast as the server answers.
    bool requeue_rate_limited = true;
  };

  QueueController(const kubesim::scenarios::ControllerEnv& env, Options options);

  // Waits for the informers taken with watch() to sync, queues keys_at_start(), and runs one
  // worker until ctx is done.
  kubesim::sim::Task<void> run(kubesim::sim::Context ctx) override;
  std::size_t queue_depth() const override;

 protected:
  using Queue = kubesim::workqueue::RateLimitingQueue<std::string>;

  // Takes `resource`'s informer from the factory and hands its notifications to `handler`; run()
  // waits for it to sync unless `wait_for_sync` is false.
  void watch(const kubesim::api::GroupVersionResource& resource,
             std::shared_ptr<kubesim::informer::ResourceEventHandler> handler, bool wait_for_sync = true);
  // Queues `key` in the running queue (AddFunc's queue.Add), or once `delay` has passed
  // (AddAfter); nothing when no run is under way.
  void enqueue(const std::string& key);
  void enqueue_after(const std::string& key, kubesim::sim::Duration delay);
  kubesim::informer::NamespaceLister lister(const kubesim::api::GroupVersionResource& resource,
                                            std::string ns) const;
  kubesim::api::Client& client() const { return *client_; }
  kubesim::sim::Process& process() const { return *process_; }

  virtual std::vector<std::string> keys_at_start() const = 0;
  // One key: true when done, false to retry it after the rate limiter's delay.
  virtual kubesim::sim::Task<bool> sync(kubesim::sim::Context ctx, std::string key) = 0;

 private:
  kubesim::sim::Task<void> worker(kubesim::sim::Context ctx, std::shared_ptr<Queue> queue);

  kubesim::sim::Process* process_;
  kubesim::api::Client* client_;
  kubesim::informer::SharedInformerFactory* informers_;
  Options options_;
  std::vector<std::function<bool()>> synced_;
  std::shared_ptr<Queue> queue_;  // the running one, or null
};

}  // namespace buggy

#endif  // KUBESIM_EXAMPLES_BUGGY_QUEUE_CONTROLLER_H_
