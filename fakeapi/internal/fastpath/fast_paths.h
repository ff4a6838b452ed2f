// Whether an ApiServer answers creates and updates a kind's text checks vouch for from the
// objects' texts (text_create.h, text_update.h), or sends every write through the general path.
// The answers are the same either way: the fast paths are on for every server, and tests
// (tests/fakeapi/text_writes_test.cc) turn them off on a second server to compare the two.
#ifndef KUBESIM_FAKEAPI_INTERNAL_FASTPATH_FAST_PATHS_H_
#define KUBESIM_FAKEAPI_INTERNAL_FASTPATH_FAST_PATHS_H_

#include "kubesim/fakeapi/server.h"

namespace kubesim::fakeapi::internal {

class FastPaths {
 public:
  // Call before the server's first write.
  static void set_enabled(ApiServer& server, bool enabled) { server.fast_paths_ = enabled; }
  static bool enabled(const ApiServer& server) { return server.fast_paths_; }
};

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_FASTPATH_FAST_PATHS_H_
