// WatchDelivery: the front door's filter for watch faults — dropped and stalled watches — the
// same for every transport.
//
// When a watch starts, the first dropWatch rule that fires cuts its stream after `afterEvents`
// events, and the first stallWatch rule that fires makes it deliver nothing more (events are
// taken from the server and discarded until the watch times out or its client gives up). The
// stream a transport then reads is a DeliveredWatch, which says whether it was cut, so that a
// transport can end the connection abruptly as a dropped one ends.
#ifndef KUBESIM_FAKEAPI_WATCH_DELIVERY_H_
#define KUBESIM_FAKEAPI_WATCH_DELIVERY_H_

#include <cstdint>
#include <optional>

#include "kubesim/api/watch.h"
#include "kubesim/fakeapi/faults.h"
#include "kubesim/fakeapi/filter.h"

namespace kubesim::fakeapi {

class DeliveredWatch final : public api::WatchStream {
 public:
  DeliveredWatch(api::WatchPtr source, std::optional<std::int64_t> drop_after, bool stalled)
      : source_(std::move(source)), drop_after_(drop_after), stalled_(stalled) {}

  sim::Task<std::optional<api::WatchEvent>> next(sim::Context ctx) override;
  std::optional<api::WatchEvent> try_next(const sim::Context& ctx) override;
  void stop() override { source_->stop(); }

  // True once a dropWatch rule ended the stream.
  bool cut() const { return cut_; }

 private:
  // True (and the source stopped) when the drop rule's count is reached.
  bool drop_now();

  api::WatchPtr source_;
  std::optional<std::int64_t> drop_after_;
  bool stalled_;
  bool cut_ = false;
  std::int64_t delivered_ = 0;
};

class WatchDelivery final : public Filter {
 public:
  explicit WatchDelivery(FaultInjector& faults) : faults_(&faults) {}
  void complete(const Request& request, Response& response) override;

 private:
  FaultInjector* faults_;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_WATCH_DELIVERY_H_
