// The object matchers' common part (accepting an Object, an ObjectPtr or a Result) and the
// matchers of fields, names and finalizers.
#include "kubesim/testing/matchers.h"

#include <sstream>
#include <utility>

#include "kubesim/api/match.h"

namespace kubesim::testing {

using matchers_internal::kShownChars;
using nlohmann::json;
using ::testing::MatchResultListener;

namespace matchers_internal {
namespace {

class CheckMatcher final : public ::testing::MatcherInterface<const api::Object&> {
 public:
  CheckMatcher(std::string description, std::string negation, Check check)
      : description_(std::move(description)), negation_(std::move(negation)), check_(std::move(check)) {}

  bool MatchAndExplain(const api::Object& object, MatchResultListener* listener) const override {
    std::ostringstream why;
    const bool passed = check_(object, why);
    *listener << why.str();
    return passed;
  }
  void DescribeTo(std::ostream* os) const override { *os << description_; }
  void DescribeNegationTo(std::ostream* os) const override { *os << negation_; }

 private:
  std::string description_;
  std::string negation_;
  Check check_;
};

}  // namespace

::testing::PolymorphicMatcher<ObjectMatcher> make_object_matcher(std::string description,
                                                                 std::string negation, Check check) {
  return ::testing::MakePolymorphicMatcher(ObjectMatcher(::testing::MakeMatcher(
      new CheckMatcher(std::move(description), std::move(negation), std::move(check)))));
}

}  // namespace matchers_internal

using matchers_internal::make_object_matcher;

bool ObjectMatcher::MatchAndExplain(const api::Object& object, MatchResultListener* listener) const {
  return inner_.MatchAndExplain(object, listener);
}

bool ObjectMatcher::MatchAndExplain(const api::ObjectPtr& object, MatchResultListener* listener) const {
  if (object == nullptr) {
    *listener << "is a null ObjectPtr";
    return false;
  }
  return inner_.MatchAndExplain(*object, listener);
}

bool ObjectMatcher::MatchAndExplain(const api::Result<api::ObjectPtr>& result,
                                    MatchResultListener* listener) const {
  if (!result.ok()) {
    *listener << "is a failed result: " << result.status();
    return false;
  }
  return MatchAndExplain(result.value(), listener);
}

void ObjectMatcher::DescribeTo(std::ostream* os) const { inner_.DescribeTo(os); }
void ObjectMatcher::DescribeNegationTo(std::ostream* os) const { inner_.DescribeNegationTo(os); }

namespace {

// Why `path` is absent: "has no field spec.replicas", and what its nearest present ancestor but
// the object itself holds (" (spec is {…})").
std::string absent(const json& root, const std::string& path) {
  std::string out = "has no field " + path;
  for (std::size_t dot = path.rfind('.'); dot != std::string::npos && dot > 0;
       dot = path.rfind('.', dot - 1)) {
    const std::string parent = path.substr(0, dot);
    if (const json* at = api::find_path(root, parent)) {
      return out + " (" + parent + " is " + api::short_json(*at, kShownChars) + ")";
    }
  }
  return out;
}

std::string describe(const ::testing::Matcher<const json&>& m, bool negation) {
  std::ostringstream os;
  if (negation) {
    m.DescribeNegationTo(&os);
  } else {
    m.DescribeTo(&os);
  }
  return os.str();
}

}  // namespace

::testing::PolymorphicMatcher<ObjectMatcher> HasField(std::string path, ::testing::Matcher<const json&> m) {
  std::string description = "has field " + path + " that " + describe(m, false);
  std::string negation = "has no field " + path + ", or one that " + describe(m, true);
  return make_object_matcher(
      std::move(description), std::move(negation),
      [path = std::move(path), m = std::move(m)](const api::Object& object, std::ostream& why) {
        const json* value = api::find_path(object.json(), path);
        if (value == nullptr) {
          why << absent(object.json(), path);
          return false;
        }
        ::testing::StringMatchResultListener inner;
        const bool matched = m.MatchAndExplain(*value, &inner);
        why << path << " is " << api::short_json(*value, kShownChars);
        if (!inner.str().empty()) why << ", " << inner.str();
        return matched;
      });
}

::testing::PolymorphicMatcher<ObjectMatcher> HasField(std::string path, json value) {
  return HasField(std::move(path), ::testing::Matcher<const json&>(::testing::Eq(std::move(value))));
}

::testing::PolymorphicMatcher<ObjectMatcher> HasNoField(std::string path) {
  std::string description = "has no field " + path;
  std::string negation = "has field " + path;
  return make_object_matcher(std::move(description), std::move(negation),
                             [path = std::move(path)](const api::Object& object, std::ostream& why) {
                               const json* value = api::find_path(object.json(), path);
                               if (value == nullptr) {
                                 why << absent(object.json(), path);
                                 return true;
                               }
                               why << path << " is " << api::short_json(*value, kShownChars);
                               return false;
                             });
}

::testing::PolymorphicMatcher<ObjectMatcher> IsNamed(std::string ns, std::string name) {
  const std::string key = api::meta_namespace_key(ns, name).str();
  return make_object_matcher("is named " + key, "isn't named " + key,
                             [key](const api::Object& object, std::ostream& why) {
                               const std::string_view have = object.key().view();
                               why << "is named " << (have.empty() ? "\"\"" : have);
                               return have == key;
                             });
}

::testing::PolymorphicMatcher<ObjectMatcher> HasFinalizer(std::string finalizer) {
  std::string description = "has finalizer " + finalizer;
  std::string negation = "doesn't have finalizer " + finalizer;
  return make_object_matcher(
      std::move(description), std::move(negation),
      [finalizer = std::move(finalizer)](const api::Object& object, std::ostream& why) {
        const auto& finalizers = object.finalizers();
        if (finalizers.empty()) {
          why << "has no finalizers";
          return false;
        }
        why << "its finalizers are " << api::short_json(object.metadata_field("finalizers"), kShownChars);
        return object.has_finalizer(finalizer);
      });
}

}  // namespace kubesim::testing
