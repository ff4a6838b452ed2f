// TraceTail: where a SimCluster's trace goes. Keeps the last lines for failure messages (a
// bounded ring: a long run costs no more memory than a short one) and copies every line to the
// sinks the test asked for (ClusterOptions::trace_to, a seeded test's trace file).
//
// sim::Trace writes each event as one line in one write() call; the tail still copes with a line
// written in pieces (it cuts at '\n').
#ifndef KUBESIM_TESTING_INTERNAL_CLUSTER_TRACE_H_
#define KUBESIM_TESTING_INTERNAL_CLUSTER_TRACE_H_

#include <cstddef>
#include <deque>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace kubesim::testing::internal {

class TraceTail final : public std::streambuf {
 public:
  // Keeps the last `capacity` lines (none when 0).
  explicit TraceTail(std::size_t capacity) : capacity_(capacity) {}
  TraceTail(const TraceTail&) = delete;
  TraceTail& operator=(const TraceTail&) = delete;

  // Also writes every byte to `sink`, which must outlive the tail's use.
  void add_sink(std::ostream* sink) { sinks_.push_back(sink); }
  // The last lines, oldest first, without their newlines.
  const std::deque<std::string>& lines() const { return lines_; }

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int_type overflow(int_type c) override;

 private:
  void take(const char* s, std::size_t n);

  std::size_t capacity_;
  std::vector<std::ostream*> sinks_;
  std::deque<std::string> lines_;  // at most capacity_
  std::string partial_;            // the line being written
};

}  // namespace kubesim::testing::internal

#endif  // KUBESIM_TESTING_INTERNAL_CLUSTER_TRACE_H_
