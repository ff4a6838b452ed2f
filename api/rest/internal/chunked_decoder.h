// ChunkedDecoder: HTTP/1.1 chunked transfer coding (RFC 9112 §7.1), decoded incrementally from
// input split anywhere.
//
// The transport reads response headers with Beast and the body itself: Boost 1.74's Beast parser
// trips an assertion when a final chunk arrives in pieces in a particular order, and a watch body
// is exactly the kind of input that arrives in pieces. Chunk extensions and trailer fields are
// read and ignored. A bare LF is accepted where CRLF is expected (as Go's reader accepts it).
// Limits: at most 16 hex digits of chunk size, 4 KiB of extension or trailer line.
#ifndef KUBESIM_API_REST_INTERNAL_CHUNKED_DECODER_H_
#define KUBESIM_API_REST_INTERNAL_CHUNKED_DECODER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kubesim::api::rest::internal {

class ChunkedDecoder {
 public:
  // Decodes from `in`, appending chunk data to `out`. Returns how many bytes of `in` it used:
  // all of them, unless the body ended (done()) or the input is malformed (failed()) first.
  std::size_t feed(std::string_view in, std::string& out);
  bool done() const { return state_ == State::kDone; }
  bool failed() const { return state_ == State::kError; }
  const std::string& error() const { return error_; }

 private:
  enum class State {
    kSize, kExtension, kSizeLF, kData, kDataCR, kDataLF,
    kTrailerStart, kTrailerLine, kTrailerLF, kEndLF, kDone, kError
  };
  void fail(std::string message);
  void end_of_size_line();

  State state_ = State::kSize;
  std::uint64_t size_ = 0;
  int digits_ = 0;
  std::size_t line_ = 0;  // bytes of the current extension or trailer line
  std::string error_;
};

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_CHUNKED_DECODER_H_
