// GoogleMock matchers for Kubernetes objects and API results, with failure text that names the
// field and shows what was there.
//
//   EXPECT_THAT(obj, HasField("spec.replicas", 3));
//   EXPECT_THAT(obj, AllOf(HasLabel("app", "web"), IsControlledBy(*widget), HasFinalizer("x/y")));
//   EXPECT_THAT(obj, HasCondition("Ready", "True"));
//   EXPECT_THAT(c.get(kConfigMaps, "default", "w1-0"), IsOk());
//   EXPECT_THAT(c.get(kConfigMaps, "default", "gone"), StatusIs(api::StatusReason::kNotFound));
//   EXPECT_THAT(obj, MatchesTree("{data: {k: v}}"));   // kuttl/chainsaw partial-tree semantics
//   EXPECT_THAT(obj, EqualObject(expected));           // ignoring server-set metadata
//
// Every object matcher accepts an api::Object, an api::ObjectPtr (a null pointer never matches)
// and an api::Result<api::ObjectPtr> (an error never matches; its Status is shown). Paths are
// dotted ("metadata.labels.app", "spec.template.spec.containers.0.image": a number indexes a list;
// a key with a dot in it, such as "app.kubernetes.io/name", is reached by HasLabel/HasAnnotation).
// MatchesTree: every key the expected tree gives must match (others are not looked at), lists
// element-wise with the same length, scalars equal (1 matches 1.0), an expected null matches null
// or absent. EqualObject ignores metadata.uid, resourceVersion, generation, creationTimestamp,
// managedFields and selfLink, and status when `ignore_status`.
#ifndef KUBESIM_TESTING_MATCHERS_H_
#define KUBESIM_TESTING_MATCHERS_H_

#include <cstdint>
#include <ostream>
#include <string>

#include <gmock/gmock.h>
#include <nlohmann/json_fwd.hpp>

#include "kubesim/api/object.h"
#include "kubesim/api/result.h"
#include "kubesim/api/status.h"

namespace kubesim::testing {

// What object matchers are built on: a matcher of `const api::Object&` made to accept an Object,
// an ObjectPtr or a Result<ObjectPtr> as described above.
class ObjectMatcher;  // defined in the implementation header below
using ObjectMatcherImpl = ::testing::Matcher<const api::Object&>;

// The value at `path` (as JSON) matches `m`; an absent path never matches (its failure says so).
::testing::PolymorphicMatcher<ObjectMatcher> HasField(std::string path, ::testing::Matcher<const nlohmann::json&> m);
// Convenience: equal to a JSON value ("text", 3, true, a tree).
::testing::PolymorphicMatcher<ObjectMatcher> HasField(std::string path, nlohmann::json value);
::testing::PolymorphicMatcher<ObjectMatcher> HasNoField(std::string path);
::testing::PolymorphicMatcher<ObjectMatcher> HasLabel(std::string key);
::testing::PolymorphicMatcher<ObjectMatcher> HasLabel(std::string key, std::string value);
::testing::PolymorphicMatcher<ObjectMatcher> HasAnnotation(std::string key);
::testing::PolymorphicMatcher<ObjectMatcher> HasAnnotation(std::string key, std::string value);
// status.conditions has an entry of `type` with `status` ("True", "False", "Unknown").
::testing::PolymorphicMatcher<ObjectMatcher> HasCondition(std::string type, std::string status);
::testing::PolymorphicMatcher<ObjectMatcher> HasFinalizer(std::string finalizer);
// Its controller owner reference names `owner` (kind, apiVersion, name and uid).
::testing::PolymorphicMatcher<ObjectMatcher> IsControlledBy(const api::Object& owner);
::testing::PolymorphicMatcher<ObjectMatcher> IsNamed(std::string ns, std::string name);
// Partial tree, given as YAML or JSON text or as JSON. Text that does not parse fails the test
// where the matcher is made (so that Not(MatchesTree(…)) cannot pass quietly) and every match,
// saying why.
::testing::PolymorphicMatcher<ObjectMatcher> MatchesTree(std::string yaml);
::testing::PolymorphicMatcher<ObjectMatcher> MatchesTree(const char* yaml);  // a literal is text
::testing::PolymorphicMatcher<ObjectMatcher> MatchesTree(nlohmann::json tree);
::testing::PolymorphicMatcher<ObjectMatcher> EqualObject(const api::Object& expected, bool ignore_status = false);

// A Result (of any T) that succeeded; its failure text shows the Status.
::testing::PolymorphicMatcher<class IsOkMatcher> IsOk();
// A Result that failed (or a Status) with this code (404) or reason (kNotFound).
::testing::PolymorphicMatcher<class StatusIsMatcher> StatusIs(int code);
::testing::PolymorphicMatcher<class StatusIsMatcher> StatusIs(api::StatusReason reason);

}  // namespace kubesim::testing

// Printers GoogleTest finds by argument-dependent lookup: an object as its compact JSON without
// managedFields (cut after 1000 characters), a Status as "404 NotFound: configmaps \"x\" not
// found", a Result as "ok: <its value>" or "failed: <its Status>".
namespace kubesim::api {
void PrintTo(const Object& object, std::ostream* os);
void PrintTo(const ObjectPtr& object, std::ostream* os);
void PrintTo(const Status& status, std::ostream* os);
template <class T>
void PrintTo(const Result<T>& result, std::ostream* os);
}  // namespace kubesim::api

#include "kubesim/testing/detail/matchers_impl.h"  // IWYU pragma: export

#endif  // KUBESIM_TESTING_MATCHERS_H_
