#include "live/internal/live_filter.h"

#include <utility>

#include "kubesim/api/status.h"

namespace kubesim::live {

namespace {

// The replica's watch as the HTTP front end pumps it: forwards to the server's stream and lets
// the filter end it.
class HandledWatch final : public api::WatchStream {
 public:
  HandledWatch(api::WatchPtr inner, std::shared_ptr<WatchHandle> handle)
      : inner_(std::move(inner)), handle_(std::move(handle)) {
    handle_->stream = inner_.get();
  }
  ~HandledWatch() override { handle_->stream = nullptr; }

  sim::Task<std::optional<api::WatchEvent>> next(sim::Context ctx) override {
    return inner_->next(std::move(ctx));
  }
  std::optional<api::WatchEvent> try_next(const sim::Context& ctx) override {
    return inner_->try_next(ctx);
  }
  void stop() override { inner_->stop(); }

 private:
  api::WatchPtr inner_;
  std::shared_ptr<WatchHandle> handle_;
};

}  // namespace

std::string partition_message(const std::string& replica) {
  return "kubesim: the network between " + replica + " and the API server is partitioned";
}

void LiveFilter::add(const std::string& replica, scenarios::LatencySpec latency, const sim::NetworkLink* shadow) {
  links_[replica].latency = latency;
  links_[replica].shadow = shadow;
}

LiveFilter::ReplicaLink* LiveFilter::find(const std::string& replica) {
  auto it = links_.find(replica);
  return it == links_.end() ? nullptr : &it->second;
}

void LiveFilter::set_partitioned(const std::string& replica, bool partitioned) {
  ReplicaLink* link = find(replica);
  if (link == nullptr) return;
  link->partitioned = partitioned;
  if (!partitioned) return;
  for (auto& weak : link->watches) {
    if (auto handle = weak.lock(); handle && handle->stream != nullptr) handle->stream->stop();
  }
  link->watches.clear();
}

fakeapi::Filter::Step LiveFilter::admit(fakeapi::Request& request) {
  ReplicaLink* link = find(request.process);
  if (link == nullptr) return Step::pass();
  link->requested = true;
  if (link->partitioned || (link->shadow != nullptr && link->shadow->partitioned())) {
    return Step::answer_with(fakeapi::Response::failure(api::new_service_unavailable(partition_message(request.process))));
  }
  if (link->latency.max > sim::Duration::zero()) {
    return Step::delay_by(rng_.uniform_duration(link->latency.min, link->latency.max));
  }
  return Step::pass();
}

void LiveFilter::complete(const fakeapi::Request& request, fakeapi::Response& response) {
  if (!response.watch) return;
  ReplicaLink* link = find(request.process);
  if (link == nullptr) return;
  std::erase_if(link->watches, [](const std::weak_ptr<WatchHandle>& w) {
    auto h = w.lock();
    return !h || h->stream == nullptr;
  });
  auto handle = std::make_shared<WatchHandle>();
  response.watch = std::make_unique<HandledWatch>(std::move(response.watch), handle);
  link->watches.push_back(handle);
}

}  // namespace kubesim::live
