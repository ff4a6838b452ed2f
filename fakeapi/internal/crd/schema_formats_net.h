// The network and address string formats of schema_formats.h: Go's parsers that kube-openapi's
// strfmt calls for them, ported for the shapes they accept.
#ifndef KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_FORMATS_NET_H_
#define KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_FORMATS_NET_H_

#include <string_view>

namespace kubesim::fakeapi::internal {

// An IP address as net.ParseIP reads it (`sloppy`: as k8s.io/utils/net's ParseIPSloppy, which
// also takes IPv4 fields with leading zeros); the first '.' or ':' decides IPv4 or IPv6.
bool go_ip(std::string_view s, bool sloppy);
// ParseCIDRSloppy: "<ip>/<prefix length>".
bool cidr(std::string_view s);
// net.ParseMAC: 6, 8 or 20 octets as "01:23:...", "01-23-..." or "0123.4567...".
bool mac(std::string_view s);
// strfmt.IsHostname: a single label, or dotted labels ending in a 2 to 63 letter label; at most
// 255 bytes, no label longer than 63 bytes.
bool hostname(std::string_view s);
// url.ParseRequestURI succeeds.
bool request_uri(std::string_view s);
// net/mail.ParseAddress finds one address.
bool email_address(std::string_view s);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_FORMATS_NET_H_
