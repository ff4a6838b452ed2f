#include "api/rest/internal/chunked_decoder.h"

#include <algorithm>

namespace kubesim::api::rest::internal {
namespace {

constexpr std::size_t kMaxLine = 4096;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void ChunkedDecoder::fail(std::string message) {
  state_ = State::kError;
  error_ = "malformed chunked encoding: " + std::move(message);
}

void ChunkedDecoder::end_of_size_line() {
  if (digits_ == 0) return fail("a chunk has no size");
  state_ = size_ == 0 ? State::kTrailerStart : State::kData;
}

std::size_t ChunkedDecoder::feed(std::string_view in, std::string& out) {
  std::size_t i = 0;
  while (i < in.size() && state_ != State::kDone && state_ != State::kError) {
    const char c = in[i];
    switch (state_) {
      case State::kSize:
        if (int v = hex_value(c); v >= 0) {
          if (++digits_ > 16) return fail("chunk size too long"), i;
          size_ = size_ * 16 + static_cast<std::uint64_t>(v);
        } else if (c == ';' || c == ' ' || c == '\t') {
          state_ = State::kExtension;
          line_ = 0;
        } else if (c == '\r') {
          state_ = State::kSizeLF;
        } else if (c == '\n') {
          end_of_size_line();
        } else {
          fail(std::string("invalid byte in chunk size: 0x") + "0123456789abcdef"[(c >> 4) & 15] +
               "0123456789abcdef"[c & 15]);
        }
        ++i;
        break;
      case State::kExtension:
        if (c == '\r') {
          state_ = State::kSizeLF;
        } else if (c == '\n') {
          end_of_size_line();
        } else if (++line_ > kMaxLine) {
          fail("chunk extension too long");
        }
        ++i;
        break;
      case State::kSizeLF:
        if (c != '\n') return fail("CR without LF after a chunk size"), i;
        end_of_size_line();
        ++i;
        break;
      case State::kData: {
        const std::size_t n = static_cast<std::size_t>(
            std::min<std::uint64_t>(size_, in.size() - i));
        out.append(in.substr(i, n));
        i += n;
        size_ -= n;
        if (size_ == 0) state_ = State::kDataCR;
        break;
      }
      case State::kDataCR:
        if (c == '\r') {
          state_ = State::kDataLF;
        } else if (c == '\n') {
          state_ = State::kSize;
          digits_ = 0;
        } else {
          return fail("chunk data longer than its size"), i;
        }
        ++i;
        break;
      case State::kDataLF:
        if (c != '\n') return fail("CR without LF after chunk data"), i;
        state_ = State::kSize;
        digits_ = 0;
        ++i;
        break;
      case State::kTrailerStart:
        if (c == '\r') {
          state_ = State::kEndLF;
        } else if (c == '\n') {
          state_ = State::kDone;
        } else {
          state_ = State::kTrailerLine;
          line_ = 1;
        }
        ++i;
        break;
      case State::kTrailerLine:
        if (c == '\r') {
          state_ = State::kTrailerLF;
        } else if (c == '\n') {
          state_ = State::kTrailerStart;
        } else if (++line_ > kMaxLine) {
          fail("trailer field too long");
        }
        ++i;
        break;
      case State::kTrailerLF:
        if (c != '\n') return fail("CR without LF in the trailer"), i;
        state_ = State::kTrailerStart;
        ++i;
        break;
      case State::kEndLF:
        if (c != '\n') return fail("CR without LF at the end of the body"), i;
        state_ = State::kDone;
        ++i;
        break;
      case State::kDone:
      case State::kError:
        break;
    }
  }
  return i;
}

}  // namespace kubesim::api::rest::internal
