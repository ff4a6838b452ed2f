// The list pager (client-go's tools/pager, as of client-go 1.36): a list in pages of `page_size`,
// joined into one.
#ifndef KUBESIM_INFORMER_INTERNAL_PAGER_H_
#define KUBESIM_INFORMER_INTERNAL_PAGER_H_

#include <cstdint>

#include "kubesim/api/object.h"
#include "kubesim/api/options.h"
#include "kubesim/api/result.h"
#include "kubesim/informer/lister_watcher.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"

namespace kubesim::informer::internal {

struct PagedList {
  PagedList() {}
  api::ObjectList list;
  // True when the server split the answer into more than one page.
  bool paginated = false;
};

// Lists with `options`, asking for pages of `page_size` (0: the server's choice) unless
// options.limit is set, and follows continue tokens; later pages are read at the first page's
// revision through the token. When a continue token has expired (410 with reason Expired), lists
// again in full, in one request, with the options first asked for; any other failure, a 410 with
// reason Gone included, is returned as it came (client-go's ListPager.List).
sim::Task<api::Result<PagedList>> list_pages(sim::Context ctx, ListerWatcher* lw,
                                            api::ListOptions options, std::int64_t page_size);

}  // namespace kubesim::informer::internal

#endif  // KUBESIM_INFORMER_INTERNAL_PAGER_H_
