// Recorder: every request the fake API server's front door served, and its outcome, in order.
//
// The first filter of ApiServer::serve's chain, so it sees every request that reached the
// server through a transport (the in-process client, HTTP) and the final answer, faults
// included: verb, resource, key, subresource, caller, virtual times, code and the revision
// written. Calls made directly on ApiServer's synchronous methods (a test's setup) are not
// requests and are not recorded. Requests are recorded when their answer leaves the server, so
// a request that waited (injected latency, a revision wait) appears after those that overtook it.
//
// The log is bounded: past `capacity` records (100 k by default) the oldest are dropped
// (dropped() counts them). Recording is on from the start; stop() and start() switch it. The
// records live in a ring of fixed blocks, allocated as the log first grows and reused after it
// wraps or is cleared (a new record takes the slot, and the string buffers, of the one it
// replaces): about 12 MB for 100 k records whose namespaces and names fit in 15 bytes, plus one
// copy of each caller, resource, subresource and fault rule id seen.
//
// Listeners hear of each record as it is logged: what must act at the instant of a call (a
// budget of calls that breaks at the call that spent it) rather than read the log later.
#ifndef KUBESIM_FAKEAPI_RECORDER_H_
#define KUBESIM_FAKEAPI_RECORDER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kubesim/fakeapi/filter.h"
#include "kubesim/fakeapi/recorded_call.h"
#include "kubesim/sim/loop.h"

namespace kubesim::fakeapi {

class Recorder final : public Filter {
 public:
  // The records kept, oldest first: a live view of the log (it sees later records too), valid
  // while the Recorder lives. Records are handed out as values.
  class Calls {
   public:
    using Iterator = CallIterator<Calls>;

    std::size_t size() const { return recorder_->size_; }
    bool empty() const { return recorder_->size_ == 0; }
    // The i-th record kept (0: the oldest); i < size().
    RecordedCall operator[](std::size_t i) const { return recorder_->at(i); }
    RecordedCall front() const { return recorder_->at(0); }
    RecordedCall back() const { return recorder_->at(recorder_->size_ - 1); }
    Iterator begin() const { return Iterator(this, 0); }
    Iterator end() const { return Iterator(this, recorder_->size_); }

   private:
    friend class Recorder;
    explicit Calls(const Recorder* recorder) : recorder_(recorder) {}
    const Recorder* recorder_;
  };

  explicit Recorder(sim::Loop& loop, std::size_t capacity = 100'000);

  void complete(const Request& request, Response& response) override;

  // Called with each record right after it is logged (the log already holds it), on the
  // server's loop, in log order; not called while recording is stopped. A listener must not act
  // on the server (a filter's rule) and must not add listeners.
  using Listener = std::function<void(const RecordedCall&)>;
  void add_listener(Listener listener) { listeners_.push_back(std::move(listener)); }

  void start() { enabled_ = true; }
  void stop() { enabled_ = false; }
  bool recording() const { return enabled_; }
  void clear();

  // The records kept, oldest first.
  Calls calls() const { return Calls(this); }
  // How many kept records satisfy `pred`.
  std::size_t count(const std::function<bool(const RecordedCall&)>& pred) const;
  std::uint64_t dropped() const { return dropped_; }
  // The records as JSON lines, one per record.
  void write_jsonl(std::ostream& out) const;

 private:
  // A record as kept: a third of a RecordedCall's size, since a full log is 100 k of them. The
  // strings that take few values (caller, resource, subresource, fault rule) are numbers in
  // tables of the values seen (kept as long as the Recorder); seq follows from the place.
  struct Kept {
    Kept() {}
    sim::Time received{};
    sim::Time answered{};
    Revision revision = 0;
    std::string ns;
    std::string name;
    std::uint32_t process = 0;      // in texts_
    std::uint32_t resource = 0;     // in resources_
    std::uint32_t subresource = 0;  // in texts_
    std::uint32_t fault = 0;        // in texts_
    int code = 0;
    Verb verb = Verb::kGet;
    api::StatusReason reason = api::StatusReason::kUnknown;
    bool initial_events = false;
  };

  // The number of `text` in texts_ (added when new; "" is 0). `hint` is the number found last
  // time for the same field, tried first.
  std::uint32_t text_number(std::string_view text, std::uint32_t& hint);
  std::uint32_t resource_number(const api::GroupVersionResource& resource);
  // The i-th record kept (0: the oldest), as a RecordedCall.
  RecordedCall at(std::size_t i) const;
  const Kept& kept(std::size_t i) const { return slot((head_ + i) % capacity_); }
  Kept& slot(std::size_t p) const { return blocks_[p / kBlockSize][p % kBlockSize]; }

  sim::Loop* loop_;
  std::size_t capacity_;
  bool enabled_ = true;
  std::uint64_t next_seq_ = 1;
  std::uint64_t dropped_ = 0;
  // The ring: slot p is blocks_[p / kBlockSize][p % kBlockSize], for p < capacity_; the kept
  // records are the size_ slots from head_ on, wrapping at capacity_. Blocks are added in order
  // as the ring first fills (head_ is 0 until it is full).
  static constexpr std::size_t kBlockSize = 64;
  std::vector<std::unique_ptr<Kept[]>> blocks_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  // The tables of values; a map's keys do not move, so texts_ points at them.
  std::map<std::string, std::uint32_t, std::less<>> text_numbers_;
  std::vector<const std::string*> texts_;
  std::map<api::GroupVersionResource, std::uint32_t> resource_numbers_;
  std::vector<const api::GroupVersionResource*> resources_;
  std::uint32_t process_hint_ = 0;
  std::uint32_t resource_hint_ = 0;
  std::uint32_t subresource_hint_ = 0;
  std::uint32_t fault_hint_ = 0;
  std::vector<Listener> listeners_;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_RECORDER_H_
