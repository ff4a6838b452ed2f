// The timeline: a scenario's events, at their instants (`at`) or on a trigger (`when`), and the
// front-door filter that counts the requests triggers wait for and spots watch restarts.
//
// Events: partition (the process's link, healed after `for`), crash (restarted after
// restartAfter when given), apiserver restart, compact, faults (each rule from now, until now +
// its `for` when given), skew (a step of the process's wall clock) and pause. Every event is
// traced, drawn on the picture, and followed by an evaluation of the checks.
//
// A `when` trigger counts the requests of its process matching verb and resource as their
// answers pass the filter, and fires its event once, on the count-th, through the Loop (a filter
// must not act on the server itself).
#ifndef KUBESIM_RUNNER_INTERNAL_TIMELINE_H_
#define KUBESIM_RUNNER_INTERNAL_TIMELINE_H_

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "kubesim/fakeapi/filter.h"
#include "kubesim/scenarios/scenario.h"

namespace kubesim::runner {

struct World;

class RunFilter final : public fakeapi::Filter {
 public:
  explicit RunFilter(World& world) : world_(&world) {}
  // Fires timeline event `event` (which has a `when`) on its trigger.
  void add_trigger(std::size_t event);
  void complete(const fakeapi::Request& request, fakeapi::Response& response) override;

 private:
  struct Armed {
    std::size_t event = 0;
    int seen = 0;
    bool fired = false;
  };
  void note_watch(const fakeapi::Request& request);

  World* world_;
  std::vector<Armed> triggers_;
  // Watch requests per (replica, incarnation, resource, namespace), for the picture.
  std::map<std::tuple<std::string, int, std::string, std::string>, int> watches_;
};

// Schedules the `at` events and installs the filter when a trigger or the picture needs it.
void setup_timeline(World& world);
// Applies timeline event `event` now; `cause` is "at" or "when".
void apply_event(World& world, std::size_t event, const char* cause);

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_INTERNAL_TIMELINE_H_
