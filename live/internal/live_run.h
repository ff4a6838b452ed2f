// LiveRun: one live run (one scenario, one seed) — the World on the real clock, the HTTP front
// end, the replicas' identities, their real processes, and a supervisor on the loop every 20 ms
// of real time that reaps processes that ended, follows pauses, clock steps and record expiry.
#ifndef KUBESIM_LIVE_INTERNAL_LIVE_RUN_H_
#define KUBESIM_LIVE_INTERNAL_LIVE_RUN_H_

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kubesim/cluster/cluster.h"
#include "kubesim/fakeapi/http/http_server.h"
#include "kubesim/live/live.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"
#include "live/internal/child.h"
#include "live/internal/live_filter.h"
#include "live/internal/record_leadership.h"

namespace kubesim::runner {
struct World;
struct Replica;
}  // namespace kubesim::runner

namespace kubesim::live {

inline constexpr sim::Duration kSupervisorPeriod = std::chrono::milliseconds(20);
// How long after a replica's program exited by itself it is started again (a pod's restart).
inline constexpr sim::Duration kRestartDelay = std::chrono::seconds(1);

struct ExecReplica {
  runner::Replica* replica = nullptr;
  std::filesystem::path dir;  // OUTPUT/…/NAME
  Child child;
  bool stopped = false;      // SIGSTOP sent
  bool faketime = false;     // its clock goes through libfaketime
  std::string faketime_text; // what the FAKETIME file holds now
  int starts = 0;
};

class LiveRun {
 public:
  LiveRun(runner::World& world, std::filesystem::path dir, const LiveOptions& options);
  LiveRun(const LiveRun&) = delete;
  LiveRun& operator=(const LiveRun&) = delete;
  ~LiveRun();

  // Serves the API, writes the identities, installs the filter and the supervisor.
  void setup();
  // The first error that ends the run ("" while none).
  const std::string& error() const { return error_; }
  // Kills every process and stops serving.
  void shut_down();

  // The real program of the stand-in `r` (ExecKind's halves).
  void start_program(runner::Replica* r);
  void kill_program(runner::Replica* r, const char* why);

 private:
  ExecReplica* exec_of(const runner::Replica* r);
  std::vector<std::string> environment(const ExecReplica& x) const;
  void supervise();
  void reaped(ExecReplica& x);
  void write_faketime(ExecReplica& x);
  void fail(std::string error);
  void log(const std::string& line);

  runner::World* world_;
  std::filesystem::path dir_;
  LiveOptions options_;
  std::shared_ptr<LiveFilter> filter_;
  std::unique_ptr<RecordLeadership> leadership_;
  std::optional<fakeapi::http::HttpServer> http_;
  std::vector<std::unique_ptr<ExecReplica>> exec_;
  std::string error_;
};

// The stand-in replica's main: starts its program, and kills it when the stand-in crashes.
// The cluster::ProcessKind of an exec process's replicas: each incarnation of the stand-in starts
// the real program, and kills it when the stand-in crashes.
class ExecKind final : public cluster::ProcessKind {
 public:
  explicit ExecKind(LiveRun& run) : run_(&run) {}
  cluster::Incarnation& begin(cluster::Replica& r) override { return r.begin_incarnation(); }
  void build(cluster::Replica&, cluster::Incarnation&) override {}
  sim::Task<void> run(cluster::Replica* r, cluster::Incarnation* inc, sim::Context ctx) override;

 private:
  LiveRun* run_;
};

}  // namespace kubesim::live

#endif  // KUBESIM_LIVE_INTERNAL_LIVE_RUN_H_
