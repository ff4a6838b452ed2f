// Filter: one step of the fake API server's front door.
//
// ApiServer::serve passes every Request through an ordered chain of filters before the store
// answers it, and the Response back through the same filters, last first (an HTTP middleware
// chain). The built-in chain is: the recorder, the filters added with ApiServer::add_filter (in
// the order added), the fault rules (latency, then errors), the revision wait, watch delivery
// (dropped, stalled and coalesced watches), stale reads and forced 410s. Each filter has one job.
//
// admit() sees the request first and says what happens next: pass it on, answer it now (the
// store and the filters after this one never see it), or wait (a delay, or until the store
// reaches a revision) and then pass it on. complete() sees every response that comes back
// through a filter whose admit() ran, including the answer that filter gave itself. Both run on
// the server's loop; they must not write to the server (schedule writes on the loop instead).
#ifndef KUBESIM_FAKEAPI_FILTER_H_
#define KUBESIM_FAKEAPI_FILTER_H_

#include <memory>
#include <utility>

#include "kubesim/fakeapi/request.h"
#include "kubesim/sim/time.h"

namespace kubesim::fakeapi {

class Filter {
 public:
  // What the chain does after admit().
  struct Step {
    enum class Kind { kPass, kAnswer, kDelay, kWaitForRevision };
    Kind kind = Kind::kPass;
    std::unique_ptr<Response> answer;  // kAnswer (held apart: most steps pass)
    sim::Duration delay{};           // kDelay
    Revision revision = 0;           // kWaitForRevision

    static Step pass() { return Step(); }
    static Step answer_with(Response response) {
      Step s;
      s.kind = Kind::kAnswer;
      s.answer = std::make_unique<Response>(std::move(response));
      return s;
    }
    // Waits `d` of virtual time, then passes the request on.
    static Step delay_by(sim::Duration d) {
      Step s;
      s.kind = Kind::kDelay;
      s.delay = d;
      return s;
    }
    // Waits until the store reaches `r` (at most the watch cache's fresh_wait), then passes the
    // request on; the store answers 504 if it is still behind.
    static Step wait_for_revision(Revision r) {
      Step s;
      s.kind = Kind::kWaitForRevision;
      s.revision = r;
      return s;
    }
  };

  virtual ~Filter() = default;

  // May change the request (it is passed on as changed).
  virtual Step admit(Request& request) {
    (void)request;
    return Step::pass();
  }
  // May change the response.
  virtual void complete(const Request& request, Response& response) {
    (void)request;
    (void)response;
  }
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_FILTER_H_
