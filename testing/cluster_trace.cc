#include "internal/cluster_trace.h"

#include <string_view>

namespace kubesim::testing::internal {

std::streamsize TraceTail::xsputn(const char* s, std::streamsize n) {
  take(s, static_cast<std::size_t>(n));
  return n;
}

TraceTail::int_type TraceTail::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  take(&ch, 1);
  return c;
}

void TraceTail::take(const char* s, std::size_t n) {
  for (std::ostream* sink : sinks_) sink->write(s, static_cast<std::streamsize>(n));
  if (capacity_ == 0) return;
  std::string_view rest(s, n);
  for (auto nl = rest.find('\n'); nl != std::string_view::npos; nl = rest.find('\n')) {
    partial_.append(rest.substr(0, nl));
    if (lines_.size() == capacity_) lines_.pop_front();
    lines_.push_back(std::move(partial_));
    partial_.clear();
    rest.remove_prefix(nl + 1);
  }
  partial_.append(rest);
}

}  // namespace kubesim::testing::internal
