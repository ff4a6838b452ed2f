// The decoder's names for the Go type tables of the built-in kinds (fakeapi/internal/encoding/types/schema.h, which
// explains the design): one generic walker over the wire bytes turns any table-described message
// into JSON, so "unknown field → error" is a table miss rather than a scan of an UnknownFieldSet.
#ifndef KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_SCHEMA_H_
#define KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_SCHEMA_H_

#include "fakeapi/internal/encoding/types/schema.h"

namespace kubesim::fakeapi::http::k8s_protobuf {

using types::Cardinality;
using types::decodable_kinds;
using types::FieldSpec;
using types::kInline;
using types::KindSpec;
using types::kOmitEmpty;
using types::kOmitZero;
using types::kPointer;
using types::MessageSpec;
using types::ValueKind;

}  // namespace kubesim::fakeapi::http::k8s_protobuf

#endif  // KUBESIM_FAKEAPI_HTTP_PROTOBUF_INTERNAL_SCHEMA_H_
