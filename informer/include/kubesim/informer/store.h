// The interfaces between the informer's parts.
//
// ReflectorStore is what a Reflector writes into: a FIFO in an informer, or a plain Indexer.
// KeyListerGetter is how a FIFO reads the cache it feeds ("known objects"), to turn objects
// missing from a re-list into tombstones and to resync. Queue is a FIFO a consumer pops from.
//
// Everything runs on one Loop: none of these is thread-safe, and none needs to be.
#ifndef KUBESIM_INFORMER_STORE_H_
#define KUBESIM_INFORMER_STORE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/object.h"
#include "kubesim/informer/deltas.h"
#include "kubesim/sim/channel.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"

namespace kubesim::informer {

class ReflectorStore {
 public:
  virtual ~ReflectorStore() = default;

  virtual void add(api::ObjectPtr object) = 0;
  virtual void update(api::ObjectPtr object) = 0;
  virtual void delete_(api::ObjectPtr object) = 0;
  // Takes the complete state as of `resource_version` (a re-list).
  virtual void replace(std::vector<api::ObjectPtr> objects, std::string resource_version) = 0;
  // Periodic resync; meaningful for FIFOs that re-deliver what the cache holds.
  virtual void resync() = 0;
  // The watch reached `resource_version` (a bookmark). Stores that do not track it ignore it.
  virtual void bookmark(std::string resource_version) { (void)resource_version; }
  // The transform this store applies to what it is given, or an empty function (client-go's
  // TransformingStore). A streaming list applies it too, to the objects it collects before they
  // replace this store's content, so those objects are transformed twice, as in client-go.
  virtual TransformFunc transformer() const { return {}; }
};

class KeyListerGetter {
 public:
  virtual ~KeyListerGetter() = default;
  // Every key, in key order.
  virtual std::vector<api::ObjectKey> list_keys() const = 0;
  // The object under `key`, or null.
  virtual api::ObjectPtr get_by_key(std::string_view key) const = 0;
};

// A FIFO of changes between a Reflector and one consumer.
//
// pop() waits for an item, removes it and hands it to `process` before it returns, so the
// consumer sees items in queue order and one at a time. After close(), pop() still hands out what
// is queued and then returns false; writes after close() are still accepted, as in client-go.
class Queue : public ReflectorStore {
 public:
  explicit Queue(sim::Loop& loop) : wake_(loop, 1) {}
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  // Pops one item into `process` without waiting; false when the queue is empty.
  virtual bool try_pop(const PopProcessFunc& process) = 0;
  // True once the first replace() has been popped in full, or once an add/update/delete came
  // before any replace().
  virtual bool has_synced() const = 0;
  // Items waiting; informational.
  virtual std::size_t size() const = 0;

  // Waits until an item can be popped and pops it (true), or returns false once the queue is
  // closed and empty or `ctx` is done.
  sim::Task<bool> pop(sim::Context ctx, PopProcessFunc process);

  void close();
  bool is_closed() const { return closed_; }

 protected:
  // Wakes a waiting pop(); implementations call it whenever they queue something.
  void notify() {
    if (wake_.size() == 0) (void)wake_.try_send(true);
  }

 private:
  sim::Channel<bool> wake_;  // at most one pending wake-up
  bool closed_ = false;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_STORE_H_
