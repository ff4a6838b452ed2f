// SeededTest: each seed's body twice, its clusters' trace hashes compared; SeedRange and
// KUBESIM_SEED; where a rerun seed's traces go.
#include "kubesim/testing/seeded_test.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kubesim::testing {
namespace {

constexpr const char* kSeedVariable = "KUBESIM_SEED";
constexpr const char* kTraceDirVariable = "KUBESIM_TRACE_DIR";

// The SeededTest whose SetUp, body or TearDown is running on this thread. GoogleTest runs all
// three on one thread, and a SimCluster made in the body finds its test here without the test
// passing itself along (SimCluster(ClusterOptions) takes no test). Thread-local, so a cluster
// made on a thread of the test's own sees no test rather than another thread's.
thread_local SeededTest* current_test = nullptr;

// $KUBESIM_SEED when set and not empty.
std::optional<std::string> seed_variable() {
  const char* text = std::getenv(kSeedVariable);
  if (text == nullptr || *text == '\0') return std::nullopt;
  return std::string(text);
}

std::uint64_t parse_seed(const std::string& text) {
  const bool digits = text.find_first_not_of("0123456789") == std::string::npos;
  errno = 0;
  char* end = nullptr;
  const unsigned long long value = digits ? std::strtoull(text.c_str(), &end, 10) : 0;
  if (!digits || errno == ERANGE) {
    throw std::invalid_argument(std::string(kSeedVariable) + "=\"" + text +
                                "\" is not a seed: it must be a decimal number from 0 to 18446744073709551615");
  }
  return value;
}

// "Seeds/WidgetTest.Converges/3", with '/' made '_' for a file name when `for_file`.
std::string test_name(bool for_file) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info == nullptr ? std::string("unknown") : std::string(info->test_suite_name()) + "." + info->name();
  if (for_file) std::replace(name.begin(), name.end(), '/', '_');
  return name;
}

std::string hash_list(const std::vector<std::string>& hashes) {
  std::string text = "[";
  for (const std::string& h : hashes) text += (text.size() > 1 ? ", " : "") + h;
  return text + "]";
}

// How to run this test's seed alone: the program and a filter for every seed of the test.
std::string rerun_command(std::uint64_t seed) {
  const std::vector<std::string> argv = ::testing::internal::GetArgvs();
  std::string filter = test_name(false);
  if (const auto slash = filter.rfind('/'); slash != std::string::npos && slash > filter.find('.')) {
    filter = filter.substr(0, slash) + "/*";  // the index of the one seed left is 0
  }
  return std::string(kSeedVariable) + "=" + std::to_string(seed) + " " +
         (argv.empty() ? std::string("<test program>") : argv[0]) + " --gtest_filter='" + filter + "'";
}

}  // namespace

SeededTest* SeededTest::current() { return current_test; }

void SeededTest::report_hash(const std::string& hash) { (replaying_ ? second_ : first_).push_back(hash); }

std::string SeededTest::trace_path() {
  if (!seed_variable()) return "";
  const int n = ++traces_;
  std::string dir = ".";
  if (const char* d = std::getenv(kTraceDirVariable); d != nullptr && *d != '\0') dir = d;
  if (dir.back() != '/') dir += '/';
  return dir + "kubesim-seed-" + std::to_string(seed()) + "-" + test_name(true) + "-" + std::to_string(n) +
         (replaying_ ? ".replay.jsonl" : ".jsonl");
}

void SeededTest::SetUp() {
  current_test = this;
  replaying_ = false;
  first_.clear();
  second_.clear();
  traces_ = 0;
}

void SeededTest::TearDown() {
  if (HasFailure() || IsSkipped()) {
    current_test = nullptr;
    return;
  }
  // Cleared however the second run ends (it may throw).
  struct Done {
    SeededTest* test;
    ~Done() {
      test->replaying_ = false;
      current_test = nullptr;
    }
  } done{this};
  replaying_ = true;
  traces_ = 0;
  TestBody();
  if (HasFailure() || first_ == second_) return;
  const std::string message =
      "seed " + std::to_string(seed()) + " did not replay: its trace hashes differ between two runs of the " +
      "test body\n  first run:  " + hash_list(first_) + "\n  second run: " + hash_list(second_) +
      "\nSomething in the test or the controller is not drawn from the seed (a wall clock, a thread, " +
      "iteration over an unordered container, state kept between runs).\nRerun this seed alone and keep " +
      "both runs' traces:\n  " + rerun_command(seed());
  // A failure whose text is the message alone (ADD_FAILURE() would put "Failed" before it).
  GTEST_NONFATAL_FAILURE_(message.c_str());
}

::testing::internal::ParamGenerator<std::uint64_t> SeedRange(std::uint64_t first, std::uint64_t last) {
  if (first > last) {
    throw std::invalid_argument("SeedRange(" + std::to_string(first) + ", " + std::to_string(last) +
                                "): the first seed is after the last");
  }
  if (auto text = seed_variable()) return ::testing::ValuesIn(std::vector<std::uint64_t>{parse_seed(*text)});
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t s = first;; ++s) {
    seeds.push_back(s);
    if (s == last) break;
  }
  return ::testing::ValuesIn(seeds);
}

}  // namespace kubesim::testing
