// SeededTest and SeedRange: run a test over many seeds, each twice, and prove it deterministic.
//
//   class WidgetTest : public kubesim::testing::SeededTest {};
//   TEST_P(WidgetTest, Converges) { SimCluster c(ClusterOptions().seed(seed())); … }
//   INSTANTIATE_TEST_SUITE_P(Seeds, WidgetTest, SeedRange(1, 20));
//
// Each seed's test body runs twice; every SimCluster made in it reports its trace hash, and the
// second run must give the same hashes in the same order — a difference fails the test naming
// the seed (something in the test or the controller is not deterministic: a wall clock, a thread,
// iteration over an unordered container). When the first run fails, the second is skipped.
// A failure message names the seed; to rerun one seed alone and keep its trace:
//   KUBESIM_SEED=7 ./widget_test --gtest_filter='Seeds/WidgetTest.*'
// SeedRange then yields only 7, and each SimCluster writes its trace to
// kubesim-seed-7-<test>-<n>.jsonl in the working directory (or $KUBESIM_TRACE_DIR, made when
// missing); the second run's traces go to kubesim-seed-7-<test>-<n>.replay.jsonl, to compare
// with them.
//
// The second run calls the test body again on the same fixture object: state a fixture of your
// own keeps in members carries over (reset it in the body, or keep it in the body's locals). A
// fixture that overrides SetUp or TearDown must call SeededTest's.
#ifndef KUBESIM_TESTING_SEEDED_TEST_H_
#define KUBESIM_TESTING_SEEDED_TEST_H_

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace kubesim::testing {

class SimCluster;

class SeededTest : public ::testing::TestWithParam<std::uint64_t> {
 public:
  std::uint64_t seed() const { return GetParam(); }
  // True during the second (replay) run of the body.
  bool replaying() const { return replaying_; }

  // Used by SimCluster: where the current test wants traces written, and its hashes reported.
  static SeededTest* current();
  void report_hash(const std::string& hash);
  std::string trace_path();  // "" unless KUBESIM_SEED is set

 protected:
  void SetUp() override;
  void TearDown() override;  // runs the body a second time and compares
  // The test body (TEST_P's), declared again here so that TearDown may run it a second time.
  void TestBody() override = 0;

 private:
  bool replaying_ = false;
  std::vector<std::string> first_;
  std::vector<std::string> second_;
  int traces_ = 0;
};

// Seeds first..last (inclusive), or only $KUBESIM_SEED when it is set; a malformed KUBESIM_SEED
// aborts with a message saying so.
::testing::internal::ParamGenerator<std::uint64_t> SeedRange(std::uint64_t first, std::uint64_t last);

}  // namespace kubesim::testing

#endif  // KUBESIM_TESTING_SEEDED_TEST_H_
