// Applies popped deltas to the cache and tells a handler what changed (client-go's
// processDeltas and processReplacedAllInfo).
#ifndef KUBESIM_INFORMER_INTERNAL_PROCESS_DELTAS_H_
#define KUBESIM_INFORMER_INTERNAL_PROCESS_DELTAS_H_

#include <span>

#include "kubesim/informer/deltas.h"
#include "kubesim/informer/event_handler.h"
#include "kubesim/informer/indexer.h"

namespace kubesim::informer::internal {

// Added/Updated/Replaced/Sync store the object and call on_add (new key) or on_update (with the
// previous object); Deleted removes the key and calls on_delete; ReplacedAll replaces the whole
// cache, calling on_delete for each key that disappeared, then on_update/on_add for each listed
// object; SyncAll calls on_update(obj, obj) for everything cached; Bookmark records the RV.
void process_deltas(ResourceEventHandler& handler, Indexer& cache, std::span<const Delta> deltas,
                    bool is_in_initial_list);

}  // namespace kubesim::informer::internal

#endif  // KUBESIM_INFORMER_INTERNAL_PROCESS_DELTAS_H_
