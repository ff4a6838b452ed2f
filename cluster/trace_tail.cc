#include "kubesim/cluster/trace_tail.h"

namespace kubesim::cluster {

TraceTail::TraceTail(std::size_t capacity) : capacity_(capacity), stream_(this) { ring_.reserve(capacity_); }

void TraceTail::add_sink(std::ostream* sink) {
  if (sink != nullptr) sinks_.push_back(sink);
}

std::ostream* TraceTail::stream() { return sinks_.empty() && capacity_ == 0 ? nullptr : &stream_; }

std::vector<std::string> TraceTail::lines() const {
  std::vector<std::string> out;
  out.reserve(ring_.size());
  for (std::size_t i = 0; i < ring_.size(); ++i) out.push_back(ring_[(next_ + i) % ring_.size()]);
  return out;
}

std::streamsize TraceTail::xsputn(const char* s, std::streamsize n) {
  take(std::string_view(s, static_cast<std::size_t>(n)));
  return n;
}

TraceTail::int_type TraceTail::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  take(std::string_view(&ch, 1));
  return c;
}

void TraceTail::take(std::string_view bytes) {
  for (std::ostream* sink : sinks_) sink->write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (capacity_ == 0 || frozen_) return;
  while (!bytes.empty()) {
    const std::size_t end = bytes.find('\n');
    if (end == std::string_view::npos) {
      partial_.append(bytes);
      return;
    }
    if (partial_.empty()) {
      keep(bytes.substr(0, end));
    } else {
      partial_.append(bytes.substr(0, end));
      keep(partial_);
      partial_.clear();
    }
    bytes.remove_prefix(end + 1);
  }
}

void TraceTail::keep(std::string_view line) {
  if (ring_.size() < capacity_) {
    ring_.emplace_back(line);
    return;
  }
  ring_[next_].assign(line);  // reuses the oldest line's buffer
  next_ = (next_ + 1) % capacity_;
}

}  // namespace kubesim::cluster
