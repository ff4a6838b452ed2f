// The deletions a re-list implies: shared by RealFIFO's replace() and the informer's handling of
// an atomic ReplacedAll.
#ifndef KUBESIM_INFORMER_INTERNAL_RECONCILE_H_
#define KUBESIM_INFORMER_INTERNAL_RECONCILE_H_

#include <deque>
#include <functional>
#include <vector>

#include "kubesim/informer/deltas.h"
#include "kubesim/informer/store.h"

namespace kubesim::informer::internal {

// Calls `on_delete` with a tombstone for every key that is absent from `listed` but either has
// deltas in `queued` whose last one is not a delete (carrying that delta's object), or is in
// `known` (carrying the known object); queued keys first in queue order, then known keys in key
// order. Then calls `on_replace` for every listed object, in list order. `known` may be null.
void reconcile_replacement(const std::deque<Delta>& queued, const KeyListerGetter* known,
                           const std::vector<api::ObjectPtr>& listed,
                           const std::function<void(DeletedFinalStateUnknown)>& on_delete,
                           const std::function<void(const api::ObjectPtr&)>& on_replace);

}  // namespace kubesim::informer::internal

#endif  // KUBESIM_INFORMER_INTERNAL_RECONCILE_H_
