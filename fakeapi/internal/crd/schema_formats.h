// The `format`s a custom resource's strings are checked against, as kube-apiserver checks them:
// apiextensions-apiserver keeps the formats it supports (its formats.go) and clears the others
// before validation, and kube-openapi's strfmt registry checks the strings.
//
// Supported string formats: bsonobjectid, uri, email, hostname, ipv4, ipv6, cidr, mac, uuid,
// uuid3, uuid4, uuid5, isbn, isbn10, isbn13, creditcard, ssn, hexcolor, rgbcolor, byte, password,
// date, duration, date-time, k8s-short-name and k8s-long-name; names are compared without their
// dashes ("datetime" is "date-time"), as strfmt compares them.
//
// Not promised: Go's parsers are ported for the shapes they accept, not byte for byte. Where they
// differ: `hostname` takes every non-ASCII character for the letters and symbols of its Unicode
// classes; `email` follows net/mail's address syntax without groups and RFC 2047 encoded words;
// `uri` follows url.ParseRequestURI's checks of the scheme, authority, port and escapes.
#ifndef KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_FORMATS_H_
#define KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_FORMATS_H_

#include <string>
#include <string_view>
#include <vector>

namespace kubesim::fakeapi::internal {

// The format the validator applies to a schema node of `types` (its type, or integer and string
// for x-kubernetes-int-or-string) with `format`, or "" (StripUnsupportedFormatsPostProcessor):
// without exactly one type, or for "string", a supported string format; int32 and int64 for
// "integer"; float and double for "number"; nothing for other types.
std::string effective_format(const std::vector<std::string>& types, const std::string& format);

// Whether `format` names a supported string format.
bool is_string_format(std::string_view format);

// Whether `value` is valid in the string format `format` (false for a format that is not one).
bool string_format_valid(std::string_view format, std::string_view value);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_FORMATS_H_
