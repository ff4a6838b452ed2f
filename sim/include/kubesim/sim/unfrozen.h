// unfrozen(ctx): a context for work a process started that goes on while the process is paused.
//
// A paused process's coroutines stand still (Process::pause), but what it already handed to the
// world does not: a request on the wire still reaches the server, and the server still answers
// it. unfrozen(ctx) is a child of `ctx` that is cancelled with it and keeps its deadline, but
// whose waits are not held by the process's pause. Use it only for work that stands for
// something outside the process (a message in flight, another party's side of a call); the
// process's own code waits on its own contexts.
#ifndef KUBESIM_SIM_UNFROZEN_H_
#define KUBESIM_SIM_UNFROZEN_H_

#include "kubesim/sim/context.h"

namespace kubesim::sim {

ContextWithCancel unfrozen(const Context& ctx);

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_UNFROZEN_H_
