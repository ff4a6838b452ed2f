// TraceTail: where a simulated cluster's trace lines go — on to any number of sinks (a file, the
// caller's stream) and into a ring of the last N lines, which failure messages quote. The ring
// can be frozen at the first failure, so that it shows what led to it; sinks keep receiving.
//
// sim::Trace writes each event as one line ending in '\n'; TraceTail is the std::streambuf behind
// the ostream it is given (stream()), and copes with a line written in pieces. A long run costs
// no more memory than a short one. Single-threaded, like the Loop whose trace it collects.
#ifndef KUBESIM_CLUSTER_TRACE_TAIL_H_
#define KUBESIM_CLUSTER_TRACE_TAIL_H_

#include <cstddef>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace kubesim::cluster {

class TraceTail final : public std::streambuf {
 public:
  // Keeps the last `capacity` lines (none when 0).
  explicit TraceTail(std::size_t capacity);
  TraceTail(const TraceTail&) = delete;
  TraceTail& operator=(const TraceTail&) = delete;

  // Also writes every byte, unchanged and in order, to `sink` (ignored when null), which must
  // outlive the tail's use.
  void add_sink(std::ostream* sink);
  // The stream to hand to sim::Trace::enable, or null when nothing would be kept or forwarded
  // (the trace then only hashes).
  std::ostream* stream();
  // Keeps the ring as it is now; later lines still reach the sinks. Idempotent.
  void freeze() { frozen_ = true; }
  bool frozen() const { return frozen_; }
  // The kept lines, oldest first, without their newlines.
  std::vector<std::string> lines() const;

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int_type overflow(int_type c) override;

 private:
  void take(std::string_view bytes);
  void keep(std::string_view line);

  std::size_t capacity_;
  std::vector<std::ostream*> sinks_;
  std::vector<std::string> ring_;  // ring_[next_] is the oldest once the ring is full
  std::size_t next_ = 0;
  std::string partial_;  // a line not yet ended
  bool frozen_ = false;
  std::ostream stream_;
};

}  // namespace kubesim::cluster

#endif  // KUBESIM_CLUSTER_TRACE_TAIL_H_
