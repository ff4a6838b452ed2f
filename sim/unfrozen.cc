#include "kubesim/sim/unfrozen.h"

namespace kubesim::sim {

ContextWithCancel unfrozen(const Context& ctx) { return internal::with_freeze_gate(ctx, nullptr); }

}  // namespace kubesim::sim
