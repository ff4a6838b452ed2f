// `kubesim serve`: the fake API server on a real clock, over HTTP(S), for any Kubernetes client.
//
// With only --listen and --kubeconfig-out it is zero-configuration: it generates a CA, a serving
// certificate for localhost/127.0.0.1 and an admin token, and writes a kubeconfig that kubectl,
// client-go, the Python and the JavaScript clients use as is. It runs until SIGINT or SIGTERM,
// then stops gracefully (every watch ends with its terminating chunk).
#ifndef KUBESIM_TOOLS_SERVE_H_
#define KUBESIM_TOOLS_SERVE_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace kubesim::tools {

struct ServeOptions {
  ServeOptions() {}
  std::string listen = "127.0.0.1:6443";  // host:port, [v6]:port; port 0 picks a free one
  std::string kubeconfig_out;             // written once serving; mode 0600
  bool insecure = false;                  // plain HTTP (loopback only unless forced)
  bool force_insecure = false;            // plain HTTP on a non-loopback address
  std::string tls_cert_file;              // serving certificate and key (PEM); else generated
  std::string tls_key_file;
  std::string client_ca_file;             // CA whose client certificates authenticate
  std::string cert_dir;                   // where generated CA and certificates are written
  std::string token_file;                 // token,user,uid,"groups" as kube-apiserver's
  bool anonymous = false;
  std::vector<std::string> load;          // manifests: files or directories, created at start
  std::string compaction = "5m";          // history compaction interval (Go duration)
  std::string idle_timeout = "90s";       // keep-alive connections idle this long are closed
  std::string read_header_timeout = "32s";  // a request's header must arrive within this
  std::string git_version = "v1.33.1";
  int verbosity = 0;                      // >= 2: one log line per request
};

// Serves until a termination signal; returns the process exit code (2 for bad options or
// manifests, with the reason on `err`).
int run_serve(const ServeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace kubesim::tools

#endif  // KUBESIM_TOOLS_SERVE_H_
