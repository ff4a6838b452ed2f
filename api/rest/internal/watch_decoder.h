// WatchDecoder: turns the body of a watch response, fed in pieces of any size, into WatchEvents.
//
// The body is a sequence of JSON objects, {"type":"ADDED","object":{…}}, normally one per line
// but, as with client-go's streaming JSON decoder, any whitespace (or none) may separate them.
// The decoder frames objects by tracking nesting depth and strings, so an event split anywhere
// (inside a string, across an escape, between chunks) comes out once, whole, and in order.
//
// An ERROR event becomes WatchEvent::error(status) and is the last event. A frame that is not a
// watch event (bad JSON, an unknown type, a missing or malformed object, a frame past
// `max_event_bytes`, a byte that cannot begin a JSON object) becomes the ERROR event client-go's
// StreamWatcher reports — a 500 InternalError "unable to decode an event from the watch stream"
// with ClientWatchDecoding as a cause — and is also the last: after either, finished() is true
// and further input is ignored. Input that ends in the middle of an event yields nothing for it
// (client-go treats an unexpected EOF as the end of the stream).
#ifndef KUBESIM_API_REST_INTERNAL_WATCH_DECODER_H_
#define KUBESIM_API_REST_INTERNAL_WATCH_DECODER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/status.h"
#include "kubesim/api/watch.h"

namespace kubesim::api::rest::internal {

class WatchDecoder {
 public:
  explicit WatchDecoder(std::size_t max_event_bytes = std::size_t{64} << 20)
      : max_event_bytes_(max_event_bytes) {}

  // Appends the events completed by `bytes` to `out`.
  void feed(std::string_view bytes, std::vector<WatchEvent>& out);
  // True after an ERROR event or a decoding error.
  bool finished() const { return finished_; }
  // Bytes of an event begun and not yet complete.
  std::size_t pending_bytes() const { return frame_.size(); }

 private:
  void fail(std::string message, std::vector<WatchEvent>& out);
  void complete_frame(std::vector<WatchEvent>& out);

  std::size_t max_event_bytes_;
  std::string frame_;  // the object being read, from its '{'
  int depth_ = 0;      // > 0 exactly while inside an object
  bool in_string_ = false;
  bool escape_ = false;
  bool finished_ = false;
};

// Decodes one event's JSON text as client-go's watch decoder does. A bad event is the decoding
// ERROR event described above.
WatchEvent decode_watch_event(std::string_view text);

// The Status client-go's StreamWatcher reports for an event it cannot decode.
Status watch_decoding_error(std::string_view error);

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_WATCH_DECODER_H_
