#include "kubesim/informer/store.h"

namespace kubesim::informer {

sim::Task<bool> Queue::pop(sim::Context ctx, PopProcessFunc process) {
  for (;;) {
    if (try_pop(process)) co_return true;
    if (closed_ || ctx.done()) co_return false;
    auto woken = co_await wake_.recv(ctx);
    (void)woken;
  }
}

void Queue::close() {
  closed_ = true;
  wake_.close();
}

}  // namespace kubesim::informer
