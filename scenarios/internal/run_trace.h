// TraceTail: where one run's trace lines go — on to the caller's stream, if any, and into a ring
// of the last N lines, which the runner freezes at the first failure (SeedResult::trace_tail).
//
// sim::Trace writes each event as one line ending in '\n'; TraceTail is the std::streambuf behind
// the ostream it is given. Lines reach the caller's stream unchanged and in order whether or not
// the ring is frozen. Single-threaded, like the Loop whose trace it collects.
#ifndef KUBESIM_SCENARIOS_INTERNAL_RUN_TRACE_H_
#define KUBESIM_SCENARIOS_INTERNAL_RUN_TRACE_H_

#include <cstddef>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace kubesim::scenarios::runner {

class TraceTail final : public std::streambuf {
 public:
  // `out` may be null; `capacity` 0 keeps no lines.
  TraceTail(std::ostream* out, std::size_t capacity);
  TraceTail(const TraceTail&) = delete;
  TraceTail& operator=(const TraceTail&) = delete;

  // The stream to hand to sim::Trace::enable, or null when nothing would be kept or forwarded
  // (the trace then only hashes).
  std::ostream* stream();
  // Keeps the ring as it is now; later lines still go to the caller's stream. Idempotent.
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

  std::ostream* out_;
  std::size_t capacity_;
  std::vector<std::string> ring_;  // ring_[next_] is the oldest once the ring is full
  std::size_t next_ = 0;
  std::string partial_;  // a line not yet ended
  bool frozen_ = false;
  std::ostream stream_;
};

}  // namespace kubesim::scenarios::runner

#endif  // KUBESIM_SCENARIOS_INTERNAL_RUN_TRACE_H_
