// The update fast path. An update whose object differs from the stored one only in members a
// kind's text check vouches for (a ConfigMap's data, say), with the metadata, apiVersion, kind
// and status as stored, is answered from the two objects' texts: no tree is built, copied or
// validated. An object sent as a tree is first compared with the stored text as it is
// (tree_update.h). Every other update is left to the general path, which answers these the same
// way (tests/fakeapi/text_writes_test.cc runs both on random updates).
#ifndef KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TEXT_UPDATE_H_
#define KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TEXT_UPDATE_H_

#include <string>
#include <string_view>

#include "kubesim/api/object.h"
#include "kubesim/fakeapi/registry.h"

namespace kubesim::fakeapi::internal {

struct TextUpdate {
  enum class Outcome {
    kGeneral,    // the general path decides
    kUnchanged,  // the update changes nothing: no write, the stored object is the answer
    kWrite,      // `object` is the object to store
  };
  Outcome outcome = Outcome::kGeneral;
  api::ObjectPtr object;
};

// The fast path's answer to a (non-status, non-dry-run) update of `stored` to `desired`, whose
// write would get `resource_version`.
TextUpdate text_update(const ResourceInfo& info, const api::Object& stored,
                       const api::Object& desired, std::string_view resource_version);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TEXT_UPDATE_H_
