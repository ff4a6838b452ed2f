// WireReader: bounds-checked reading of protobuf wire data (google::protobuf::io::CodedInputStream
// underneath) for the table-driven decoder.
//
// Every read checks the bytes it needs against the innermost open length limit, so a truncated
// or lying length prefix is an error, never a read past the buffer. Failures leave a message in
// error() and make every later call fail too; the reader is then only good for reporting.
// The reader views the caller's buffer, which must outlive it.
#ifndef KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_WIRE_READER_H_
#define KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_WIRE_READER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include <google/protobuf/io/coded_stream.h>

namespace kubesim::fakeapi::http::k8s_protobuf {

enum WireType : std::uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

class WireReader {
 public:
  // Buffers of 2 GiB or more are refused (error() is set at once).
  explicit WireReader(std::string_view bytes);

  // True when the innermost limit (or the whole buffer) is used up.
  bool at_limit() const;
  // The next field's number and wire type; false on a malformed tag (number 0, wire type 6/7).
  bool read_tag(std::uint32_t& number, std::uint32_t& wire_type);
  bool read_varint(std::uint64_t& value);
  // A length-delimited payload, as a view into the buffer.
  bool read_bytes(std::string_view& payload);
  // Opens the limit of a length-delimited nested message; close_message() must follow once the
  // message's fields are read, and fails if some of them were left unread.
  bool open_message(int& token);
  bool close_message(int token);
  bool fail(std::string message);

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  bool read_length(std::uint64_t& length);

  std::string_view bytes_;
  google::protobuf::io::CodedInputStream in_;
  std::string error_;
};

}  // namespace kubesim::fakeapi::http::k8s_protobuf

#endif  // KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_WIRE_READER_H_
