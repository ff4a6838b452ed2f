// metav1.Time and metav1.MicroTime as kube-apiserver reads and writes them in JSON.
//
// A Time is read with Go's time.Parse(time.RFC3339, s), a MicroTime with
// time.Parse("2006-01-02T15:04:05.000000Z07:00", s): numeric offsets are accepted, a Time may
// carry a fraction of any length, a MicroTime needs exactly six digits. What the server keeps is
// the instant, truncated to what its protobuf storage holds (whole seconds for a Time,
// microseconds for a MicroTime), and it writes that back in UTC with the same layout; the zero
// instant (0001-01-01T00:00:00Z) is written as null. parse_go_time's errors are Go's
// *time.ParseError texts, which the server puts in its 400 answers.
#ifndef KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_GO_TIME_H_
#define KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_GO_TIME_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace kubesim::fakeapi::types {

// An instant: seconds since the Unix epoch and the nanoseconds past them, in [0, 1e9).
struct GoInstant {
  std::int64_t seconds = 0;
  std::int32_t nanos = 0;
  bool operator==(const GoInstant&) const = default;
};

enum class TimeLayout {
  kRFC3339,       // "2006-01-02T15:04:05Z07:00": metav1.Time
  kRFC3339Micro,  // "2006-01-02T15:04:05.000000Z07:00": metav1.MicroTime
};

// time.Parse(layout, value): the instant, or the text of the *time.ParseError Go returns.
std::variant<GoInstant, std::string> parse_go_time(std::string_view value, TimeLayout layout);

// t.UTC().Format(layout). Years before 0 and after 9999 are written as Go writes them
// ("-0001", "10000").
std::string format_go_time(GoInstant t, TimeLayout layout);

// What the server stores and returns for a Time (kRFC3339) or MicroTime sent as `value`: the
// UTC text, or "" for the zero time (written as null); the ParseError's text when `value` does
// not parse.
struct StoredTime {
  std::string text;  // empty: the zero time
};
std::variant<StoredTime, std::string> stored_time(std::string_view value, TimeLayout layout);

}  // namespace kubesim::fakeapi::types

#endif  // KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_GO_TIME_H_
