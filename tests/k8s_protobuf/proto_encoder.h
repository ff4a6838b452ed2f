// A tiny protobuf writer for the k8s_protobuf tests: builds messages field by field, in the
// order given (so tests can also write duplicates, odd orders and broken data on purpose).
#ifndef KUBESIM_TESTS_K8S_PROTOBUF_PROTO_ENCODER_H_
#define KUBESIM_TESTS_K8S_PROTOBUF_PROTO_ENCODER_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace kubesim::test_k8s_protobuf {

inline std::string varint_bytes(std::uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
  return out;
}

class Msg {
 public:
  Msg& varint(std::uint32_t field, std::uint64_t v) {
    return tag(field, 0).raw(varint_bytes(v));
  }
  Msg& bytes(std::uint32_t field, std::string_view v) {
    return tag(field, 2).raw(varint_bytes(v.size())).raw(v);
  }
  Msg& message(std::uint32_t field, const Msg& m) { return bytes(field, m.str()); }
  // A map<string, string|bytes> entry.
  Msg& entry(std::uint32_t field, std::string_view key, std::string_view value) {
    return message(field, Msg().bytes(1, key).bytes(2, value));
  }
  Msg& tag(std::uint32_t field, std::uint32_t wire_type) {
    return raw(varint_bytes((std::uint64_t{field} << 3) | wire_type));
  }
  Msg& raw(std::string_view bytes) {
    data_.append(bytes);
    return *this;
  }
  const std::string& str() const { return data_; }

 private:
  std::string data_;
};

// The `k8s\0` magic and runtime.Unknown around `raw`.
inline std::string envelope(std::string_view api_version, std::string_view kind,
                            std::string_view raw, std::string_view content_encoding = "",
                            std::string_view content_type = "") {
  Msg unknown;
  unknown.message(1, Msg().bytes(1, api_version).bytes(2, kind)).bytes(2, raw);
  if (!content_encoding.empty()) unknown.bytes(3, content_encoding);
  if (!content_type.empty()) unknown.bytes(4, content_type);
  return std::string("k8s\0", 4) + unknown.str();
}

}  // namespace kubesim::test_k8s_protobuf

#endif  // KUBESIM_TESTS_K8S_PROTOBUF_PROTO_ENCODER_H_
