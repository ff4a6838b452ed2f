// How the Reflector classifies failures: client-go's isExpiredError, isTooLargeResourceVersionError
// and the watch errors it retries without re-listing (connection refused, 429).
#include "informer/internal/errors.h"

#include <gtest/gtest.h>

namespace kubesim::informer::internal {
namespace {

TEST(ReflectorErrorsTest, OnlyARefusedConnectionOrA429RetriesTheWatch) {
  EXPECT_TRUE(is_watch_error_retriable(api::new_client_error(
      api::ClientError::kConnectionRefused, "dial tcp 127.0.0.1:6443: connect: connection refused")));
  EXPECT_TRUE(is_watch_error_retriable(api::new_too_many_requests("slow down", 1)));
  EXPECT_FALSE(is_watch_error_retriable(api::new_client_error(api::ClientError::kNetworkTimeout,
                                                              "dial tcp: i/o timeout")));
  EXPECT_FALSE(is_watch_error_retriable(api::new_internal_error("connection refused")))
      << "a server's answer that mentions it is not a refused connection";
  EXPECT_FALSE(is_watch_error_retriable(api::new_context_error(sim::ContextError::kCanceled)));
}

TEST(ReflectorErrorsTest, ExpiredIsA410WithReasonExpiredOrGone) {
  EXPECT_TRUE(is_expired_error(api::new_resource_expired("too old resource version: 1 (5)")));
  EXPECT_TRUE(is_expired_error(api::new_gone("too old")));
  EXPECT_FALSE(is_expired_error(api::new_internal_error("gone")));
}

}  // namespace
}  // namespace kubesim::informer::internal
