// Picture: the data of a run's timeline picture (result.h's Timeline), collected only when the
// caller asks for it; when off, every member does nothing.
//
// Spans may be opened and closed later (a leader's term, a partition, a process down); spans
// still open when the picture is finished end at the run's last instant.
#ifndef KUBESIM_RUNNER_PICTURE_H_
#define KUBESIM_RUNNER_PICTURE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "kubesim/runner/result.h"
#include "kubesim/sim/time.h"

namespace kubesim::runner {

class Picture {
 public:
  static constexpr std::size_t kNoSpan = static_cast<std::size_t>(-1);

  explicit Picture(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }

  // Adds a lane at the end of the drawing order (once).
  void add_lane(const std::string& lane);
  // Opens a span; returns its id for close() (kNoSpan when off).
  std::size_t open(std::string lane, std::string kind, std::string label, sim::Time from);
  // Closes an open span at `to`; kNoSpan and closed spans are ignored.
  void close(std::size_t span, sim::Time to);
  void span(std::string lane, std::string kind, std::string label, sim::Time from, sim::Time to);
  void mark(std::string lane, std::string kind, std::string label, sim::Time at);
  void sample(std::string series, sim::Time at, double value);

  // The timeline, with spans still open ended at `end`.
  Timeline finish(sim::Duration duration, sim::Time end);

 private:
  bool enabled_;
  Timeline timeline_;
  std::vector<bool> open_;  // parallel to timeline_.spans
};

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_PICTURE_H_
