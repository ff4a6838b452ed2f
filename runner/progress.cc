#include "kubesim/runner/progress.h"

#include <cmath>
#include <utility>

namespace kubesim::runner {

namespace {

constexpr auto kRedrawEvery = std::chrono::milliseconds(100);
constexpr const char* kEraseLine = "\r\033[K";

// "12s", "3m05s", "1h02m": coarse, since it is an estimate.
std::string left_text(std::chrono::duration<double> left) {
  const long s = std::lround(std::max(0.0, left.count()));
  auto two = [](long v) { return (v < 10 ? "0" : "") + std::to_string(v); };
  if (s < 60) return std::to_string(s) + "s";
  if (s < 3600) return std::to_string(s / 60) + "m" + two(s % 60) + "s";
  return std::to_string(s / 3600) + "h" + two(s % 3600 / 60) + "m";
}

}  // namespace

Progress::Progress(std::ostream& out, bool enabled, Clock clock)
    : out_(out), enabled_(enabled), clock_(std::move(clock)) {
  if (enabled_) start_ = clock_();
}

std::string Progress::text(std::size_t done, std::size_t total, std::size_t failed,
                           std::optional<std::chrono::duration<double>> left) {
  std::string line = std::to_string(done) + "/" + std::to_string(total) + " seeds, " +
                     std::to_string(failed) + " failed";
  if (left) line += ", about " + left_text(*left) + " left";
  return line;
}

void Progress::update(std::size_t done, std::size_t total, std::size_t failed) {
  if (!enabled_) return;
  const auto now = clock_();
  if (!start_) start_ = now;
  if (done < total && last_draw_ && now - *last_draw_ < kRedrawEvery) return;
  last_draw_ = now;
  std::optional<std::chrono::duration<double>> left;
  if (done > 0 && done < total) {
    const std::chrono::duration<double> spent = now - *start_;
    left = spent / static_cast<double>(done) * static_cast<double>(total - done);
  }
  out_ << kEraseLine << text(done, total, failed, left) << std::flush;
  shown_ = true;
}

void Progress::clear() {
  if (!enabled_ || !shown_) return;
  out_ << kEraseLine << std::flush;
  shown_ = false;
}

}  // namespace kubesim::runner
