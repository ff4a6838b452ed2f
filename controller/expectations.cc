#include "kubesim/controller/expectations.h"

namespace kubesim::controller {

void Expectations::expect_creations(std::string_view key, std::int64_t n) {
  records_.insert_or_assign(std::string(key), Pending{n, 0, clock_->now()});
}

void Expectations::expect_deletions(std::string_view key, std::int64_t n) {
  records_.insert_or_assign(std::string(key), Pending{0, n, clock_->now()});
}

void Expectations::creation_observed(std::string_view key) {
  auto it = records_.find(key);
  if (it != records_.end()) --it->second.add;
}

void Expectations::deletion_observed(std::string_view key) {
  auto it = records_.find(key);
  if (it != records_.end()) --it->second.del;
}

bool Expectations::satisfied(std::string_view key) const {
  auto it = records_.find(key);
  if (it == records_.end()) return true;
  const Pending& p = it->second;
  if (p.add <= 0 && p.del <= 0) return true;
  return clock_->now() - p.set_at > ttl_;
}

void Expectations::remove(std::string_view key) {
  auto it = records_.find(key);
  if (it != records_.end()) records_.erase(it);
}

const Expectations::Pending* Expectations::pending(std::string_view key) const {
  auto it = records_.find(key);
  return it == records_.end() ? nullptr : &it->second;
}

}  // namespace kubesim::controller
