// Child: one real OS process of a live run, started with fork and exec.
//
// The child gets its own process group (so a kill reaches whatever it starts, a shell script's
// program too), dies with the process that started it (PR_SET_PDEATHSIG: no orphan survives a
// killed kubesim), and writes its stdout and stderr to files (appended: a restarted replica
// continues them). start() reports an exec that fails (no such file, not executable) as an error
// with errno's text, through a close-on-exec pipe, instead of a child that exits with 127.
#ifndef KUBESIM_LIVE_INTERNAL_CHILD_H_
#define KUBESIM_LIVE_INTERNAL_CHILD_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace kubesim::live {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is found in PATH as execvp does
  std::vector<std::string> env;   // NAME=VALUE, the whole environment
  std::string cwd;
  std::string stdout_path, stderr_path;
};

class Child {
 public:
  Child() = default;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  // Kills the child if it still runs.
  ~Child();

  // Starts the child; "" when it runs, else why it could not start ("cannot run \"x\": No such
  // file or directory"). Must not be called while running().
  std::string start(const ChildSpec& spec);
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // Reaps the child if it has ended (without waiting); true when it has.
  bool poll();
  // SIGKILL to its process group, then reaps it. Does nothing when it is not running.
  void kill();
  // SIGSTOP and SIGCONT to its process group.
  void stop();
  void resume();
  // How the last run ended: "exited with status 1", "was killed by signal 9 (Killed)".
  const std::string& exit_text() const { return exit_text_; }

 private:
  void ended(int status);

  pid_t pid_ = -1;
  std::string exit_text_;
};

}  // namespace kubesim::live

#endif  // KUBESIM_LIVE_INTERNAL_CHILD_H_
