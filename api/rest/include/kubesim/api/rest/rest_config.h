// RestConfig: how RestClient reaches an API server — client-go's rest.Config, reduced to what
// kubesim uses: the server URL, TLS material, credentials, client-side rate limits and the
// connection pool's bounds.
//
// A RestConfig is plain data. It usually comes from a kubeconfig (kubesim/api/rest/kubeconfig.h); a test
// may fill one by hand. RestClient validates it when it is constructed and throws ConfigError
// naming what is wrong; nothing here touches the network.
#ifndef KUBESIM_API_REST_REST_CONFIG_H_
#define KUBESIM_API_REST_REST_CONFIG_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kubesim/api/client.h"

namespace kubesim::api::rest {

// A broken kubeconfig or RestConfig. The message says which file, entry and field, and why.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RestConfig {
  // "https://host:port" or "http://host:port", optionally with a path prefix
  // ("https://host/k8s" sends requests to /k8s/api/v1/...). The port defaults to 443 / 80.
  std::string server{};

  // --- TLS (https only) -------------------------------------------------------------------------
  // The name the server's certificate must carry; empty: the host of `server`.
  std::string tls_server_name{};
  // Accept any server certificate. Refused together with ca_pem, as client-go refuses it.
  bool insecure_skip_tls_verify = false;
  // Trusted CA certificates (PEM, one or more); empty: the system's roots.
  std::string ca_pem{};
  // A client certificate and its key (PEM), for client-certificate authentication.
  std::string client_cert_pem{};
  std::string client_key_pem{};

  // --- Credentials (at most one of token and username/password) ----------------------------------
  std::string bearer_token{};
  // A file holding the token. It wins over bearer_token, is read when the client is built (an
  // unreadable file is a ConfigError) and re-read once a minute, as client-go does, so rotated
  // tokens are picked up; a failed re-read keeps the last token.
  std::string bearer_token_file{};
  std::string username{};
  std::string password{};

  // The context's namespace from a kubeconfig ("" when it names none). Informational: the
  // Client interface takes the namespace on every call.
  std::string namespace_name{};

  // --- Client-side limits ------------------------------------------------------------------------
  // Token-bucket rate limit of every request but watches (client-go's flowcontrol limiter):
  // `qps` tokens per second, at most `burst` at once. 0 means client-go's default (5 qps, burst
  // 10); a negative qps switches the limit off.
  double qps = 5;
  int burst = 10;
  std::string user_agent = "kubesim-rest-client/0.1";
  // Idle keep-alive connections kept for reuse, and how long one may stay idle (client-go's
  // transport keeps 25 per host for 90 s).
  std::size_t max_idle_connections = 25;
  std::chrono::seconds idle_connection_timeout{90};
  // A response body past this size fails the call (a limit on everything).
  std::size_t max_response_bytes = std::size_t{1} << 30;
  // A single watch event past this size ends its stream with a decoding error.
  std::size_t max_watch_event_bytes = std::size_t{64} << 20;
  // Watch events decoded but not yet taken by the consumer. Past it the client stops reading the
  // socket until the consumer catches up, so a slow consumer slows the server's writes (TCP flow
  // control) instead of growing memory.
  std::size_t watch_window = 1024;

  // --- Warnings ----------------------------------------------------------------------------------
  // Called on the loop with the warnings of the server's Warning headers (api::WarningHandler);
  // a watch's are not reported. Unset: warnings are dropped (client-go logs them).
  WarningHandler warning_handler{};
};

}  // namespace kubesim::api::rest

#endif  // KUBESIM_API_REST_REST_CONFIG_H_
