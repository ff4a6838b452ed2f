// Go's handling of strings where messages and decoders show it: strconv.Quote, which
// Kubernetes' messages apply to values (%q), and utf8.DecodeRuneInString.
#ifndef KUBESIM_API_GO_STRINGS_H_
#define KUBESIM_API_GO_STRINGS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kubesim::api {

// strconv.Quote: `s` in double quotes, with '"', '\\', control characters, bytes of invalid
// UTF-8 and unprintable code points escaped as Go escapes them.
std::string go_quote(std::string_view s);

// The time package's own quoting, in its parse errors: ASCII as it is ('"' and '\\' escaped),
// every byte of anything else (a control character, a code point past ASCII, invalid UTF-8) as
// \xNN.
std::string go_time_quote(std::string_view s);

// The valid UTF-8 sequence at s[i] as utf8.DecodeRuneInString reads it (no overlongs, no
// surrogates, nothing above U+10FFFF): its length, with its code point in `cp`; 0 when it is
// not valid.
std::size_t decode_utf8(std::string_view s, std::size_t i, std::uint32_t& cp);
// Whether all of `s` is valid UTF-8 in that sense.
bool valid_utf8(std::string_view s);

}  // namespace kubesim::api

#endif  // KUBESIM_API_GO_STRINGS_H_
