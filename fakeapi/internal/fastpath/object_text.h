// The fake API server's one window onto api's internal text layer: the layouts an Object can
// have (api/internal/object_access.h) and json_text, which reads and writes the compact
// JSON text a stored Object keeps (api/internal/json_text.h).
//
// The server stores every object in the text layout (stamp(), the write fast paths), and the fast
// paths read and splice those texts. This header is the only place outside api/ that includes
// api's internal headers: the rest of fakeapi includes this one, so the seam between the two
// components stays one file wide.
#ifndef KUBESIM_FAKEAPI_INTERNAL_FASTPATH_OBJECT_TEXT_H_
#define KUBESIM_FAKEAPI_INTERNAL_FASTPATH_OBJECT_TEXT_H_

#include "api/internal/json_text.h"
#include "api/internal/object_access.h"

namespace kubesim::fakeapi::internal {

namespace json_text = api::internal::json_text;
using api::internal::Layout;
using api::internal::layout_of;
using api::internal::make_text_object;
using api::internal::make_written_text_object;

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_FASTPATH_OBJECT_TEXT_H_
