#include "live/internal/child.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kubesim::live {

namespace {

std::vector<char*> pointers(std::vector<std::string>& words) {
  std::vector<char*> out;
  out.reserve(words.size() + 1);
  for (auto& w : words) out.push_back(w.data());
  out.push_back(nullptr);
  return out;
}

// In the child, between fork and exec: only async-signal-safe calls. Writes errno to `report`
// and exits 127 when something fails.
[[noreturn]] void exec_child(const ChildSpec& spec, char* const* argv, char* const* envp, int out_fd,
                             int err_fd, int report, pid_t parent) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // the parent died before prctl
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  ::signal(SIGPIPE, SIG_DFL);
  int fail = 0;
  if (::dup2(out_fd, STDOUT_FILENO) < 0 || ::dup2(err_fd, STDERR_FILENO) < 0) fail = errno;
  const int devnull = ::open("/dev/null", O_RDONLY);
  if (fail == 0 && (devnull < 0 || ::dup2(devnull, STDIN_FILENO) < 0)) fail = errno;
  if (fail == 0 && !spec.cwd.empty() && ::chdir(spec.cwd.c_str()) != 0) fail = errno;
  if (fail == 0) {
    ::execvpe(argv[0], argv, envp);
    fail = errno;
  }
  ssize_t n = ::write(report, &fail, sizeof fail);
  (void)n;
  ::_exit(127);
}

}  // namespace

Child::~Child() { kill(); }

std::string Child::start(const ChildSpec& spec) {
  std::vector<std::string> argv_words = spec.argv;
  std::vector<std::string> env_words = spec.env;
  std::vector<char*> argv = pointers(argv_words);
  std::vector<char*> envp = pointers(env_words);
  const std::string what = "cannot run \"" + (spec.argv.empty() ? std::string() : spec.argv[0]) + "\"";
  if (spec.argv.empty()) return what + ": no command";
  const int out_fd = ::open(spec.stdout_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const int err_fd = ::open(spec.stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  int report[2] = {-1, -1};
  if (out_fd < 0 || err_fd < 0 || ::pipe2(report, O_CLOEXEC) != 0) {
    const std::string error = what + ": cannot open its output files in the run folder: " + std::strerror(errno);
    if (out_fd >= 0) ::close(out_fd);
    if (err_fd >= 0) ::close(err_fd);
    return error;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) exec_child(spec, argv.data(), envp.data(), out_fd, err_fd, report[1], parent);
  const int fork_errno = errno;
  ::close(out_fd);
  ::close(err_fd);
  ::close(report[1]);
  if (pid < 0) {
    ::close(report[0]);
    return what + ": fork: " + std::strerror(fork_errno);
  }
  ::setpgid(pid, pid);  // also from here, so that a kill right after start reaches the group
  int child_errno = 0;
  ssize_t n = 0;
  do {
    n = ::read(report[0], &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  ::close(report[0]);
  pid_ = pid;
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    pid_ = -1;
    exit_text_ = "could not start";
    return what + ": " + std::strerror(child_errno);
  }
  exit_text_.clear();
  return "";
}

void Child::ended(int status) {
  pid_ = -1;
  if (WIFEXITED(status)) {
    exit_text_ = "exited with status " + std::to_string(WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    exit_text_ = "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  } else {
    exit_text_ = "ended";
  }
}

bool Child::poll() {
  if (pid_ <= 0) return false;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r != pid_) return false;
  // The group may hold more than the leader (a script's program): they go with it.
  ::kill(-pid_, SIGKILL);
  ended(status);
  return true;
}

void Child::kill() {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  int status = 0;
  pid_t r = 0;
  do {
    r = ::waitpid(pid_, &status, 0);
  } while (r < 0 && errno == EINTR);
  ended(status);
}

void Child::stop() {
  if (pid_ > 0) ::kill(-pid_, SIGSTOP);
}

void Child::resume() {
  if (pid_ > 0) ::kill(-pid_, SIGCONT);
}

}  // namespace kubesim::live
