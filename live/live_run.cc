#include "live/internal/live_run.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "kubesim/api/go_duration.h"
#include "kubesim/fakeapi/http/tls.h"
#include "kubesim/runner/world.h"
#include "kubesim/sim/event.h"
#include "live/internal/identity.h"
#include "live/internal/program.h"

extern char** environ;

namespace kubesim::live {

namespace fs = std::filesystem;
namespace http = fakeapi::http;

namespace {

std::string command_text(const scenarios::ExecSpec& exec) {
  std::string out;
  for (const auto& w : exec.command) out += (out.empty() ? "" : " ") + w;
  return out;
}

// The last `n` lines of a file, indented, for an error message.
std::string tail_of(const fs::path& path, std::size_t n) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
    if (lines.size() > n) lines.erase(lines.begin());
  }
  std::string out;
  for (const auto& l : lines) out += "\n  " + l;
  return out.empty() ? " (empty)" : out;
}

}  // namespace

LiveRun::LiveRun(runner::World& world, fs::path dir, const LiveOptions& options)
    : world_(&world), dir_(std::move(dir)), options_(options) {}

LiveRun::~LiveRun() { shut_down(); }

void LiveRun::log(const std::string& line) {
  world_->trace("live", "live.log", {{"line", line}});
  if (options_.log != nullptr) *options_.log << "live: " << line << "\n" << std::flush;
}

void LiveRun::fail(std::string error) {
  if (!error_.empty()) return;
  error_ = std::move(error);
  world_->trace("live", "live.error", {{"error", error_}});
}

void LiveRun::setup() {
  runner::World& w = *world_;
  filter_ = std::make_shared<LiveFilter>(w.loop.rng().fork());
  std::vector<std::string> names;
  for (const auto& r : w.replicas) {
    if (!r->spec->exec) continue;
    auto x = std::make_unique<ExecReplica>();
    x->replica = r;
    x->dir = dir_ / r->name;
    if (clock_differs(w.scenario, *r->spec, r->name)) {
      const Program program = find_program(r->spec->exec->command.front(), fs::path(w.scenario.file).parent_path(),
                                           ::getenv("PATH") != nullptr ? ::getenv("PATH") : "");
      x->faketime = !faketime_obstacle(program).has_value();
      if (!x->faketime) log(r->name + ": its clock cannot be changed (" + *faketime_obstacle(program) + ")");
    }
    filter_->add(r->name, r->spec->latency.value_or(w.scenario.network), r->link.get());
    names.push_back(r->name);
    exec_.push_back(std::move(x));
  }
  names.emplace_back("kubesim-admin");
  const std::vector<Identity> ids = make_identities(names);
  w.server.add_filter(filter_);
  leadership_ = std::make_unique<RecordLeadership>(w);
  w.server.add_write_listener([this](const fakeapi::CommittedWrite& write) {
    if (!world_->closing()) leadership_->on_write(write);
  });
  auto ca = http::generate_ca("kubesim-live-ca");
  if (!ca.ok()) throw std::runtime_error("generating the CA: " + ca.status().message);
  http::HttpServerOptions o;
  auto serving = http::issue_localhost_serving_certificate(ca.value());
  if (!serving.ok()) throw std::runtime_error("generating the serving certificate: " + serving.status().message);
  o.tls = serving.value();
  o.tokens = token_table(ids);
  http_.emplace(w.loop, w.server, o);
  write_identities(dir_, ids, http_->url(), ca.value().cert_pem);
  log("serving " + http_->url() + "; admin kubeconfig " + (dir_ / "kubesim-admin" / "kubeconfig").string());
  LiveRun* self = this;
  w.loop.add_timer(w.loop.now() + kSupervisorPeriod, [self] { self->supervise(); });
}

ExecReplica* LiveRun::exec_of(const runner::Replica* r) {
  for (auto& x : exec_) {
    if (x->replica == r) return x.get();
  }
  return nullptr;
}

std::vector<std::string> LiveRun::environment(const ExecReplica& x) const {
  const runner::Replica& r = *x.replica;
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    const std::size_t eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  env["KUBECONFIG"] = (x.dir / "kubeconfig").string();
  env["KUBESIM_REPLICA"] = r.name;
  env["KUBESIM_PROCESS"] = r.spec->name;
  env["POD_NAME"] = r.name;  // what controllers commonly take their identity from
  env["POD_NAMESPACE"] = "default";
  for (const auto& [k, v] : r.spec->exec->env) env[k] = v;
  if (x.faketime) {
    const std::string lib = faketime_library();
    env["LD_PRELOAD"] = env.count("LD_PRELOAD") > 0 ? lib + ":" + env["LD_PRELOAD"] : lib;
    env["FAKETIME_TIMESTAMP_FILE"] = (x.dir / "faketime").string();
    env["FAKETIME_NO_CACHE"] = "1";
    env.erase("FAKETIME");
  }
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

void LiveRun::write_faketime(ExecReplica& x) {
  const sim::Clock& clock = x.replica->process->clock();
  const std::string text = faketime_spec(clock.wall_now() - clock.now(), clock.rate());
  if (text == x.faketime_text) return;
  const fs::path file = x.dir / "faketime";
  {
    std::ofstream out(file.string() + ".tmp", std::ios::trunc);
    out << text << "\n";
  }
  std::error_code ec;
  fs::rename(file.string() + ".tmp", file, ec);
  x.faketime_text = text;
}

void LiveRun::start_program(runner::Replica* r) {
  ExecReplica* x = exec_of(r);
  if (x == nullptr || world_->closing() || !error_.empty()) return;
  filter_->find(r->name)->requested = false;
  if (x->faketime) write_faketime(*x);
  ChildSpec spec;
  spec.argv = r->spec->exec->command;
  spec.env = environment(*x);
  spec.cwd = fs::absolute(fs::path(world_->scenario.file)).parent_path().string();
  spec.stdout_path = (x->dir / "stdout").string();
  spec.stderr_path = (x->dir / "stderr").string();
  const std::string error = x->child.start(spec);
  if (!error.empty()) {
    fail("process " + r->name + ": " + error);
    return;
  }
  ++x->starts;
  x->stopped = false;
  log("started " + r->name + " (pid " + std::to_string(x->child.pid()) + "): " + command_text(*r->spec->exec));
}

void LiveRun::kill_program(runner::Replica* r, const char* why) {
  ExecReplica* x = exec_of(r);
  if (x == nullptr) return;
  leadership_->replica_down(r->index);
  if (!x->child.running()) return;
  x->child.kill();
  log("killed " + r->name + " (" + (world_->closing() ? "the run ended" : why) + ")");
}

void LiveRun::reaped(ExecReplica& x) {
  runner::Replica& r = *x.replica;
  runner::World& w = *world_;
  const std::string how = x.child.exit_text();
  if (!filter_->find(r.name)->requested) {
    fail("process " + r.name + ": `" + command_text(*r.spec->exec) + "` " + how +
         " before it sent any request to the API server; the end of its stderr (" + (x.dir / "stderr").string() +
         "):" + tail_of(x.dir / "stderr", 8));
    return;
  }
  log(r.name + " " + how + " by itself; it is started again in " + api::format_go_duration(kRestartDelay));
  w.picture.mark("process " + r.name, "crash", "exited: " + how, w.loop.now());
  leadership_->replica_down(r.index);
  w.cluster.crash(r, kRestartDelay, cluster::Restart::kAfterExit);
}

void LiveRun::supervise() {
  runner::World& w = *world_;
  if (w.closing() || !error_.empty()) return;
  for (auto& x : exec_) {
    runner::Replica& r = *x->replica;
    LiveFilter::ReplicaLink* link = filter_->find(r.name);
    const bool partitioned = r.link->partitioned();
    if (partitioned != link->partitioned) filter_->set_partitioned(r.name, partitioned);
    const bool paused = r.process->alive() && r.process->paused();
    if (paused && !x->stopped) {
      x->child.stop();
      log("paused " + r.name + " (SIGSTOP)");
    }
    if (!paused && x->stopped) {
      x->child.resume();
      log("resumed " + r.name + " (SIGCONT)");
    }
    x->stopped = paused;
    if (x->faketime) write_faketime(*x);
    if (x->child.poll()) reaped(*x);
  }
  leadership_->expire();
  LiveRun* self = this;
  w.loop.add_timer(w.loop.now() + kSupervisorPeriod, [self] { self->supervise(); });
}

void LiveRun::shut_down() {
  for (auto& x : exec_) {
    if (x->child.running()) {
      x->child.kill();
      log("killed " + x->replica->name + " (the run ended)");
    }
  }
  if (http_) {
    http_->stop(std::chrono::milliseconds(500));
    http_.reset();
  }
}

sim::Task<void> ExecKind::run(cluster::Replica* replica, cluster::Incarnation*, sim::Context ctx) {
  auto* r = static_cast<runner::Replica*>(replica);
  run_->start_program(r);
  sim::Event never(r->process->loop());
  co_await never.wait(ctx);
  run_->kill_program(r, "crashed");
}

}  // namespace kubesim::live
