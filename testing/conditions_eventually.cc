// Eventually and Consistently: matchers that run a SimCluster's loop in virtual time.
//
// gmock runs a failed matcher a second time to explain the failure (EXPECT_THAT/ASSERT_THAT):
// running the loop again would move the clock on and change the answer, so a matcher keeps its
// last answer and gives it again while the cluster has not moved since (same cluster, instant,
// revision and trace length).
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "internal/cluster_impl.h"
#include "kubesim/api/go_duration.h"
#include "kubesim/testing/cluster.h"
#include "kubesim/testing/conditions.h"

namespace kubesim::testing {

namespace {

class VirtualTimeMatcher final : public ::testing::MatcherInterface<const SimCluster&> {
 public:
  enum class Mode { kEventually, kConsistently };

  VirtualTimeMatcher(Mode mode, Condition condition, sim::Duration d)
      : mode_(mode), condition_(std::move(condition)), d_(d) {}

  bool MatchAndExplain(const SimCluster& cluster, ::testing::MatchResultListener* listener) const override {
    // Running the loop is what these matchers are for; gmock only hands over a const reference.
    auto& c = const_cast<SimCluster&>(cluster);
    if (!last_ || !last_->same_moment(c)) {
      const std::optional<std::string> never = condition_.unjudgeable ? condition_.unjudgeable(c) : std::nullopt;
      if (never) {  // it would hold, or never hold, by reading nothing: fail without running
        last_ = answer(c, false, "it can never be judged: " + *never);
      } else {
        last_ = mode_ == Mode::kEventually ? eventually(c) : consistently(c);
      }
    }
    *listener << last_->explanation;
    return last_->matched;
  }

  void DescribeTo(std::ostream* os) const override {
    *os << (mode_ == Mode::kEventually ? "eventually, within " : "consistently, for ") << api::format_go_duration(d_)
        << " of virtual time: " << condition_.description;
  }

  void DescribeNegationTo(std::ostream* os) const override {
    *os << "not ";
    DescribeTo(os);
  }

 private:
  struct Answer {
    const SimCluster* cluster = nullptr;
    sim::Time at{};
    fakeapi::Revision revision = 0;
    std::uint64_t events = 0;
    bool matched = false;
    std::string explanation;

    bool same_moment(SimCluster& c) const {
      return cluster == &c && at == c.now() && revision == c.server().revision() && events == c.loop().trace().count();
    }
  };

  static Answer answer(SimCluster& c, bool matched, std::string explanation) {
    return Answer{&c, c.now(), c.server().revision(), c.loop().trace().count(), matched, std::move(explanation)};
  }

  Answer eventually(SimCluster& c) const {
    const sim::Time start = c.now();
    if (c.run_until(condition_, d_)) {
      // At t=0, before anything ran, with nothing it is about in existence: it tested nothing.
      if (c.now() == sim::Time{} && condition_.present && !condition_.present(c)) {
        const std::string why = "it held vacuously: at once, at t=0, with nothing it is about (" +
                                condition_.description + ") in existence";
        c.loop().trace().record(c.now(), "cluster", "check.vacuous", {{"check", condition_.description}, {"why", why}});
        if (c.strict()) return answer(c, false, why + " (ClusterOptions().strict(false) lets it pass)");
      }
      return answer(c, true, "it holds at t=" + cluster::format_instant(c.now()) + ", " + api::format_go_duration(c.now() - start) + " in");
    }
    const std::string why = condition_.check(c).value_or("(it holds again now)");
    return answer(c, false, "it still does not hold after " + api::format_go_duration(d_) + " (t=" + cluster::format_instant(c.now()) +
                                "): " + why + "\n" + c.failure_context());
  }

  Answer consistently(SimCluster& c) const {
    const sim::Time start = c.now();
    const Condition& held = condition_;
    Condition broken{"not: " + held.description, [&held](const SimCluster& s) -> std::optional<std::string> {
                       if (held.check(s)) return std::nullopt;
                       return "it holds";
                     }};
    broken.reads_calls = held.reads_calls;
    if (!c.run_until(broken, d_)) {
      return answer(c, true, "it held for " + api::format_go_duration(d_) + ", until t=" + cluster::format_instant(c.now()));
    }
    const std::string why = held.check(c).value_or("(it holds again now)");
    return answer(c, false, "it stopped holding at t=" + cluster::format_instant(c.now()) + ", " +
                                api::format_go_duration(c.now() - start) + " into " + api::format_go_duration(d_) + ": " + why +
                                "\n" + c.failure_context());
  }

  Mode mode_;
  Condition condition_;
  sim::Duration d_;
  mutable std::optional<Answer> last_;
};

}  // namespace

::testing::Matcher<const SimCluster&> Eventually(Condition condition, sim::Duration within) {
  return ::testing::MakeMatcher(
      new VirtualTimeMatcher(VirtualTimeMatcher::Mode::kEventually, std::move(condition), within));
}

::testing::Matcher<const SimCluster&> Consistently(Condition condition, sim::Duration for_) {
  return ::testing::MakeMatcher(
      new VirtualTimeMatcher(VirtualTimeMatcher::Mode::kConsistently, std::move(condition), for_));
}

}  // namespace kubesim::testing
