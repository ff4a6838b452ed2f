// Progress: the line `kubesim run` redraws in place on stderr while seeds run — seeds done of
// total, failures so far, and an estimate of the time left — when stderr is a terminal.
//
// The line is "\r" + the text + "erase to the end of the line", so each update overwrites the
// last; clear() erases it before other output goes to the terminal. Redraws are at most ten a
// second (the last seed always redraws). When disabled it writes nothing at all. The estimate
// reads the clock it is given (the steady clock by default): the progress line is the one output
// that depends on the machine, which is why it goes only to a terminal.
#ifndef KUBESIM_RUNNER_PROGRESS_H_
#define KUBESIM_RUNNER_PROGRESS_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace kubesim::runner {

class Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // The estimate counts from here.
  Progress(std::ostream& out, bool enabled, Clock clock = &std::chrono::steady_clock::now);

  // Seeds done of total, and how many failed so far.
  void update(std::size_t done, std::size_t total, std::size_t failed);
  // Erases the line, if one is shown.
  void clear();

  // The text of the line: "37/200 seeds, 2 failed, about 12s left" (no estimate before the first
  // seed is done or after the last).
  static std::string text(std::size_t done, std::size_t total, std::size_t failed,
                          std::optional<std::chrono::duration<double>> left);

 private:
  std::ostream& out_;
  bool enabled_;
  Clock clock_;
  std::optional<std::chrono::steady_clock::time_point> start_;
  std::optional<std::chrono::steady_clock::time_point> last_draw_;
  bool shown_ = false;
};

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_PROGRESS_H_
