// Gets and lists at a resourceVersion the store has not reached: the watch cache waits up to 3 s
// for it, then answers 504 Timeout "Too large resource version" with the ResourceVersionTooLarge
// cause and a 1 s retry; "", "0" and continue tokens never wait.
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "kubesim/fakeapi/inprocess_client.h"
#include "tests/fakeapi/fixtures.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;
using sim::Time;

void expect_too_large(const api::Status& s, Revision asked, Revision current) {
  EXPECT_EQ(s.code, 504) << s;
  EXPECT_EQ(s.reason, api::StatusReason::kTimeout);
  EXPECT_EQ(s.message, "Timeout: Too large resource version: " + std::to_string(asked) + ", current: " +
                           std::to_string(current));
  ASSERT_TRUE(s.details.has_value());
  EXPECT_EQ(s.details->retry_after_seconds, 1);
  ASSERT_EQ(s.details->causes.size(), 1u);
  EXPECT_EQ(s.details->causes[0].type, "ResourceVersionTooLarge");
  EXPECT_EQ(s.details->causes[0].message, "Too large resource version");
}

template <class T>
struct RevisionOutcome {
  bool done = false;
  Time at{};
  std::optional<api::Result<T>> result;
};

template <class T>
sim::Task<void> capture_revision(sim::Task<api::Result<T>> call, sim::Loop* loop, RevisionOutcome<T>* out) {
  auto r = co_await std::move(call);
  out->at = loop->now();
  out->result.emplace(std::move(r));
  out->done = true;
}

class FutureRevisionTest : public ServerTest {
 protected:
  template <class T>
  std::unique_ptr<RevisionOutcome<T>> start(sim::Task<api::Result<T>> call) {
    auto out = std::make_unique<RevisionOutcome<T>>();
    loop_.spawn(capture_revision(std::move(call), &loop_, out.get()), "call");
    return out;
  }
  static api::ListOptions list_at(Revision rv, api::ResourceVersionMatch match, std::int64_t limit = 0) {
    api::ListOptions o;
    o.resource_version = std::to_string(rv);
    o.resource_version_match = match;
    o.limit = limit;
    return o;
  }

  InProcessClient client_{server_};
};

TEST_F(FutureRevisionTest, TheServerAnswers504ForEveryKindOfRead) {
  create_cm("a");
  const Revision now = server_.revision();
  api::GetOptions get;
  get.resource_version = std::to_string(now + 1);
  expect_too_large(status_of(server_.get(kConfigMaps, "default", "a", get)), now + 1, now);
  using M = api::ResourceVersionMatch;
  for (const auto& o : {list_at(now + 2, M::kUnset), list_at(now + 2, M::kNotOlderThan),
                        list_at(now + 2, M::kExact), list_at(now + 2, M::kUnset, 1)}) {
    expect_too_large(status_of(server_.list(kConfigMaps, "default", o)), now + 2, now);
  }
  EXPECT_EQ(server_.revision(), now);
}

TEST_F(FutureRevisionTest, AClientReadWaitsForTheRevisionToArrive) {
  create_cm("a");
  const Revision now = server_.revision();
  auto listed = start(client_.list(sim::Context(), kConfigMaps, "default",
                                   list_at(now + 1, api::ResourceVersionMatch::kNotOlderThan)));
  api::GetOptions get;
  get.resource_version = std::to_string(now + 1);
  auto got = start(client_.get(sim::Context(), kConfigMaps, "default", "b", get));
  loop_.run_until(Time{} + 1s);
  EXPECT_FALSE(listed->done);
  EXPECT_FALSE(got->done);
  create_cm("b");  // reaches now + 1
  settle(loop_);
  ASSERT_TRUE(listed->done);
  EXPECT_EQ(listed->at, Time{} + 1s);
  ASSERT_TRUE(listed->result->ok()) << listed->result->status();
  EXPECT_EQ(listed->result->value().items.size(), 2u);
  EXPECT_EQ(listed->result->value().resource_version, std::to_string(now + 1));
  ASSERT_TRUE(got->done);
  ASSERT_TRUE(got->result->ok()) << got->result->status();
  EXPECT_EQ(got->result->value()->name(), "b");
}

TEST_F(FutureRevisionTest, AClientReadGivesUpAfterThreeSeconds) {
  create_cm("a");
  const Revision now = server_.revision();
  auto exact = start(client_.list(sim::Context(), kConfigMaps, "default",
                                  list_at(now + 5, api::ResourceVersionMatch::kExact)));
  api::GetOptions get;
  get.resource_version = std::to_string(now + 5);
  auto got = start(client_.get(sim::Context(), kConfigMaps, "default", "a", get));
  loop_.run_until(Time{} + 3s - 1ns);
  EXPECT_FALSE(exact->done);
  create_cm("b");  // a write, but not far enough
  loop_.run_until(Time{} + 3s);
  ASSERT_TRUE(exact->done);
  ASSERT_TRUE(got->done);
  EXPECT_EQ(exact->at, Time{} + 3s);
  expect_too_large(exact->result->status(), now + 5, now + 1);
  expect_too_large(got->result->status(), now + 5, now + 1);
}

TEST_F(FutureRevisionTest, ReadsThatNeedNoRevisionDoNotWait) {
  create_cm("a");
  api::ListOptions zero;
  zero.resource_version = "0";
  auto cached = start(client_.list(sim::Context(), kConfigMaps, "default", zero));
  auto latest = start(client_.get(sim::Context(), kConfigMaps, "default", "a", api::GetOptions()));
  settle(loop_);
  ASSERT_TRUE(cached->done);
  ASSERT_TRUE(latest->done);
  EXPECT_EQ(cached->at, Time{});
  EXPECT_TRUE(cached->result->ok());
  EXPECT_TRUE(latest->result->ok());
  // A cancelled wait ends with the context's error.
  auto ctx = sim::with_cancel(sim::Context());
  api::GetOptions future;
  future.resource_version = std::to_string(server_.revision() + 1);
  auto cancelled = start(client_.get(ctx.ctx, kConfigMaps, "default", "a", future));
  loop_.run_until(Time{} + 1s);
  ctx.cancel();
  settle(loop_);
  ASSERT_TRUE(cancelled->done);
  EXPECT_EQ(cancelled->at, Time{} + 1s);
  EXPECT_EQ(cancelled->result->status().code, 0);
}

}  // namespace
}  // namespace kubesim::fakeapi
