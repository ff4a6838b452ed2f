// The built-in filters of the front door's chain (kubesim/fakeapi/filter.h), apart from the recorder and
// watch delivery, which are public.
#ifndef KUBESIM_FAKEAPI_INTERNAL_FILTERS_H_
#define KUBESIM_FAKEAPI_INTERNAL_FILTERS_H_

#include "kubesim/fakeapi/faults.h"
#include "kubesim/fakeapi/filter.h"
#include "kubesim/fakeapi/store.h"

namespace kubesim::fakeapi {
class ApiServer;
}  // namespace kubesim::fakeapi

namespace kubesim::fakeapi::internal {

// latency rules: the request waits the rule's latency before it goes on.
class LatencyFaults final : public Filter {
 public:
  explicit LatencyFaults(FaultInjector& faults) : faults_(&faults) {}
  Step admit(Request& request) override;

 private:
  FaultInjector* faults_;
};

// error rules: the rule's Status answers the request; the store never sees it.
class ErrorFaults final : public Filter {
 public:
  explicit ErrorFaults(FaultInjector& faults) : faults_(&faults) {}
  Step admit(Request& request) override;

 private:
  FaultInjector* faults_;
};

// A get or list at a resourceVersion the store has not reached waits for it, as kube-apiserver's
// watch cache does (read_revision).
class RevisionWait final : public Filter {
 public:
  explicit RevisionWait(const Store& store) : store_(&store) {}
  Step admit(Request& request) override;

 private:
  const Store* store_;
};

// staleRead rules: a get or list the watch cache may serve (resourceVersion "0") is answered
// from the revision the store had stale_by ago, as a lagging watch cache answers it. Last in
// the chain: a request the filters before it answered or delayed is not drawn for.
class StaleReads final : public Filter {
 public:
  StaleReads(ApiServer& server, FaultInjector& faults) : server_(&server), faults_(&faults) {}
  Step admit(Request& request) override;

 private:
  ApiServer* server_;
  FaultInjector* faults_;
};

// forceGone rules: a watch, or a list continued at a revision the store still has, is answered
// 410 Gone (the watch starts and ends with the 410 ERROR event), as when the revision was
// compacted. A request that fails a check before the store's answer (an unknown resource, a
// bad selector) gets that failure and is not drawn for.
class ForcedGone final : public Filter {
 public:
  ForcedGone(ApiServer& server, FaultInjector& faults) : server_(&server), faults_(&faults) {}
  Step admit(Request& request) override;

 private:
  ApiServer* server_;
  FaultInjector* faults_;
};

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_FILTERS_H_
