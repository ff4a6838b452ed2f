// Calls: the fake API server's recorder log seen from a test, and patterns that pick calls out of
// it — the same patterns name what a fault rule (fault_plan.h) matches.
//
//   EXPECT_THAT(c.calls(), CallCount(Create(kConfigMaps), 2));
//   EXPECT_THAT(c.calls(), CallCount(Update(kWidgets).status().by("widgets-0"), Le(3)));
//   EXPECT_EQ(c.calls().count(Patch(kLeases)), 0);
//
// CallLog, CallPattern and the pattern builders are the cluster's (kubesim/cluster/calls.h, where
// what a pattern matches is described); this header adds the GoogleTest matcher CallCount.
#ifndef KUBESIM_TESTING_CALLS_H_
#define KUBESIM_TESTING_CALLS_H_

#include <cstddef>

#include <gmock/gmock.h>

#include "kubesim/cluster/calls.h"

namespace kubesim::testing {

using cluster::AnyCall;
using cluster::CallLog;
using cluster::CallPattern;
using cluster::Create;
using cluster::Delete;
using cluster::DeleteCollection;
using cluster::Get;
using cluster::List;
using cluster::Patch;
using cluster::Update;
using cluster::Watch;
using cluster::Writes;

// Matches a CallLog whose count of `pattern` calls is `n` / matches `m`. Its failure text says
// the pattern, the count, and lists the matching calls (at most 10), or the last calls of the log
// when none matches.
::testing::Matcher<const CallLog&> CallCount(CallPattern pattern, ::testing::Matcher<std::size_t> count);

}  // namespace kubesim::testing

#endif  // KUBESIM_TESTING_CALLS_H_
