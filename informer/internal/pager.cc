#include "informer/internal/pager.h"

#include "informer/internal/errors.h"

namespace kubesim::informer::internal {

sim::Task<api::Result<PagedList>> list_pages(sim::Context ctx, ListerWatcher* lw,
                                            api::ListOptions options, std::int64_t page_size) {
  if (options.limit == 0) options.limit = page_size;
  const std::string requested_rv = options.resource_version;
  const api::ResourceVersionMatch requested_match = options.resource_version_match;
  PagedList out;
  bool first = true;
  for (;;) {
    if (ctx.done()) co_return api::new_context_error(ctx.err());
    auto page = co_await lw->list(ctx, options);
    if (!page.ok()) {
      // Only the Expired reason: a 410 with reason Gone goes back to the caller.
      if (!api::is_resource_expired(page.status()) || options.continue_token.empty()) {
        co_return page.status();
      }
      api::ListOptions full = options;
      full.limit = 0;
      full.continue_token.clear();
      full.resource_version = requested_rv;
      full.resource_version_match = requested_match;
      auto whole = co_await lw->list(ctx, full);
      if (!whole.ok()) co_return whole.status();
      out.list = std::move(whole.value());
      co_return std::move(out);
    }
    api::ObjectList& got = page.value();
    if (first) {
      out.list.resource_version = got.resource_version;
      out.list.items = std::move(got.items);
      first = false;
    } else {
      out.list.items.insert(out.list.items.end(), std::make_move_iterator(got.items.begin()),
                            std::make_move_iterator(got.items.end()));
    }
    if (got.continue_token.empty()) co_return std::move(out);
    options.continue_token = std::move(got.continue_token);
    options.resource_version.clear();
    options.resource_version_match = api::ResourceVersionMatch::kUnset;
    out.paginated = true;
  }
}

}  // namespace kubesim::informer::internal
