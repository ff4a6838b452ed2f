// The built-in filters of the front door's chain (kubesim/fakeapi/filter.h), apart from the recorder and
// watch delivery, which are public.
#ifndef KUBESIM_FAKEAPI_INTERNAL_FILTERS_H_
#define KUBESIM_FAKEAPI_INTERNAL_FILTERS_H_

#include "kubesim/fakeapi/faults.h"
#include "kubesim/fakeapi/filter.h"
#include "kubesim/fakeapi/store.h"

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
// watch cache does (Request::read_revision).
class RevisionWait final : public Filter {
 public:
  explicit RevisionWait(const Store& store) : store_(&store) {}
  Step admit(Request& request) override;

 private:
  const Store* store_;
};

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_FILTERS_H_
