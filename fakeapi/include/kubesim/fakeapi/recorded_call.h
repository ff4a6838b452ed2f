// RecordedCall: one request the fake API server's front door served, and its outcome, as the
// Recorder (kubesim/fakeapi/recorder.h) hands it out; CallIterator walks any log of them. Apart
// from recorder.h so that what reads a log of calls (the cluster's CallLog, the fixture's
// matchers) does not need the recorder itself.
#ifndef KUBESIM_FAKEAPI_RECORDED_CALL_H_
#define KUBESIM_FAKEAPI_RECORDED_CALL_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/api/status.h"
#include "kubesim/fakeapi/request.h"
#include "kubesim/sim/time.h"

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
  // A watch that asked for sendInitialEvents: the streaming list an informer starts (and
  // relists) with.
  bool initial_events = false;

  bool ok() const { return code >= 200 && code < 300; }
  // One JSON object, keys sorted: {"answeredNs":…,"code":200,"group":"",…}.
  nlohmann::json to_json() const;
};

// An input iterator over any log of calls that has operator[](i) giving a RecordedCall by
// value (the recorder's live view, the fixture library's CallLog): calls are handed out as values.
template <class Log>
class CallIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = RecordedCall;
  using difference_type = std::ptrdiff_t;
  using reference = RecordedCall;

  CallIterator() = default;
  CallIterator(const Log* log, std::size_t index) : log_(log), index_(index) {}
  RecordedCall operator*() const { return (*log_)[index_]; }
  CallIterator& operator++() {
    ++index_;
    return *this;
  }
  CallIterator operator++(int) {
    CallIterator before = *this;
    ++index_;
    return before;
  }
  bool operator==(const CallIterator& other) const { return index_ == other.index_; }

 private:
  const Log* log_ = nullptr;
  std::size_t index_ = 0;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_RECORDED_CALL_H_
