#include "fakeapi/http/protobuf/internal/wire_reader.h"

#include <climits>
#include <utility>

namespace kubesim::fakeapi::http::k8s_protobuf {
namespace {

const std::uint8_t* data_of(std::string_view bytes) {
  return reinterpret_cast<const std::uint8_t*>(bytes.data());
}

int size_of(std::string_view bytes) {
  return bytes.size() < static_cast<std::size_t>(INT_MAX) ? static_cast<int>(bytes.size()) : 0;
}

}  // namespace

WireReader::WireReader(std::string_view bytes)
    : bytes_(bytes), in_(data_of(bytes), size_of(bytes)) {
  if (bytes.size() >= static_cast<std::size_t>(INT_MAX)) {
    fail("protobuf data of 2 GiB or more");
    return;
  }
  in_.PushLimit(static_cast<int>(bytes.size()));
}

bool WireReader::at_limit() const { return !ok() || in_.BytesUntilLimit() <= 0; }

bool WireReader::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
  return false;
}

bool WireReader::read_tag(std::uint32_t& number, std::uint32_t& wire_type) {
  std::uint64_t tag = 0;
  if (!read_varint(tag)) return false;
  number = static_cast<std::uint32_t>(tag >> 3);
  wire_type = static_cast<std::uint32_t>(tag & 7);
  if (tag >> 32 != 0 || number == 0) {
    return fail("illegal tag " + std::to_string(tag >> 3) + " (wire type " +
                std::to_string(tag & 7) + ")");
  }
  if (wire_type > kFixed32) {
    return fail("illegal wire type " + std::to_string(wire_type) + " for field " +
                std::to_string(number));
  }
  return true;
}

bool WireReader::read_varint(std::uint64_t& value) {
  if (!ok()) return false;
  if (in_.BytesUntilLimit() <= 0 || !in_.ReadVarint64(&value)) {
    return fail("unexpected end of data in a varint");
  }
  return true;
}

bool WireReader::read_length(std::uint64_t& length) {
  if (!read_varint(length)) return false;
  if (length > static_cast<std::uint64_t>(in_.BytesUntilLimit())) {
    return fail("length " + std::to_string(length) + " runs past the end of its message (" +
                std::to_string(in_.BytesUntilLimit()) + " bytes left)");
  }
  return true;
}

bool WireReader::read_bytes(std::string_view& payload) {
  std::uint64_t length = 0;
  if (!read_length(length)) return false;
  const int start = in_.CurrentPosition();
  if (!in_.Skip(static_cast<int>(length))) return fail("unexpected end of data");
  payload = bytes_.substr(static_cast<std::size_t>(start), length);
  return true;
}

bool WireReader::open_message(int& token) {
  std::uint64_t length = 0;
  if (!read_length(length)) return false;
  token = in_.PushLimit(static_cast<int>(length));
  return true;
}

bool WireReader::close_message(int token) {
  if (!ok()) return false;
  if (in_.BytesUntilLimit() != 0) return fail("a nested message ends inside a field");
  in_.PopLimit(token);
  return true;
}

}  // namespace kubesim::fakeapi::http::k8s_protobuf
