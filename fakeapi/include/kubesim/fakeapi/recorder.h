// Recorder: every request the fake API server's front door served, and its outcome, in order.
//
// The first filter of ApiServer::serve's chain, so it sees every request that reached the
// server through a transport (the in-process client, HTTP) and the final answer, faults
// included: verb, resource, key, subresource, caller, virtual times, code and the revision
// written. Calls made directly on ApiServer's synchronous methods (a test's setup) are not
// requests and are not recorded. Requests are recorded when their answer leaves the server, so
// a request that waited (injected latency, a revision wait) appears after those that overtook it.
//
// The log is bounded: past `capacity` records (100 k by default, about 30 MB) the oldest are
// dropped (dropped() counts them). Recording is on from the start; stop() and start() switch it.
#ifndef KUBESIM_FAKEAPI_RECORDER_H_
#define KUBESIM_FAKEAPI_RECORDER_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "kubesim/fakeapi/filter.h"
#include "kubesim/sim/loop.h"

namespace kubesim::fakeapi {

struct RecordedCall {
  std::uint64_t seq = 0;     // 1, 2, … in the order answers left the server
  sim::Time received{};      // when the request reached the server
  sim::Time answered{};      // when its answer left
  std::string process;       // the client process; "" when unnamed
  Verb verb = Verb::kGet;
  api::GroupVersionResource resource;
  std::string ns;
  std::string name;          // for a create, the name of the object created, when it was
  std::string subresource;
  int code = 0;              // the HTTP code; 0 when the client gave up before the answer
  api::StatusReason reason = api::StatusReason::kUnknown;
  Revision revision = 0;     // the store's revision after the request's writes; 0: none
  std::string fault;         // the id of the fault rule that answered it, if one did

  bool ok() const { return code >= 200 && code < 300; }
  // One JSON object, keys sorted: {"answeredNs":…,"code":200,"group":"",…}.
  nlohmann::json to_json() const;
};

class Recorder final : public Filter {
 public:
  explicit Recorder(sim::Loop& loop, std::size_t capacity = 100'000);

  void complete(const Request& request, Response& response) override;

  void start() { enabled_ = true; }
  void stop() { enabled_ = false; }
  bool recording() const { return enabled_; }
  void clear();

  // The records kept, oldest first.
  const std::deque<RecordedCall>& calls() const { return calls_; }
  // How many kept records satisfy `pred`.
  std::size_t count(const std::function<bool(const RecordedCall&)>& pred) const;
  std::uint64_t dropped() const { return dropped_; }
  // The records as JSON lines, one per record.
  void write_jsonl(std::ostream& out) const;

 private:
  sim::Loop* loop_;
  std::size_t capacity_;
  bool enabled_ = true;
  std::uint64_t next_seq_ = 1;
  std::uint64_t dropped_ = 0;
  std::deque<RecordedCall> calls_;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_RECORDER_H_
