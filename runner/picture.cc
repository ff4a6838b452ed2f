#include "kubesim/runner/picture.h"

#include <algorithm>

namespace kubesim::runner {

void Picture::add_lane(const std::string& lane) {
  if (!enabled_) return;
  auto& lanes = timeline_.lanes;
  if (std::find(lanes.begin(), lanes.end(), lane) == lanes.end()) lanes.push_back(lane);
}

std::size_t Picture::open(std::string lane, std::string kind, std::string label, sim::Time from) {
  if (!enabled_) return kNoSpan;
  timeline_.spans.push_back(TimelineSpan{std::move(lane), std::move(kind), std::move(label), from, from});
  open_.push_back(true);
  return timeline_.spans.size() - 1;
}

void Picture::close(std::size_t span, sim::Time to) {
  if (!enabled_ || span >= open_.size() || !open_[span]) return;
  open_[span] = false;
  timeline_.spans[span].to = to;
}

void Picture::span(std::string lane, std::string kind, std::string label, sim::Time from,
                   sim::Time to) {
  if (!enabled_) return;
  timeline_.spans.push_back(TimelineSpan{std::move(lane), std::move(kind), std::move(label), from, to});
  open_.push_back(false);
}

void Picture::mark(std::string lane, std::string kind, std::string label, sim::Time at) {
  if (!enabled_) return;
  timeline_.marks.push_back(TimelineMark{std::move(lane), std::move(kind), std::move(label), at});
}

void Picture::sample(std::string series, sim::Time at, double value) {
  if (!enabled_) return;
  timeline_.samples.push_back(TimelineSample{std::move(series), at, value});
}

Timeline Picture::finish(sim::Duration duration, sim::Time end) {
  for (std::size_t i = 0; i < open_.size(); ++i) close(i, end);
  timeline_.duration = duration;
  return std::move(timeline_);
}

}  // namespace kubesim::runner
