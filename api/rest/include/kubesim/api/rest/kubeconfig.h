// Kubeconfig files, read as client-go's clientcmd reads them.
//
// A kubeconfig names clusters, users and contexts; a context pairs a cluster with a user (and a
// namespace); `current-context` picks one. Supported fields: cluster `server`, `tls-server-name`,
// `insecure-skip-tls-verify`, `certificate-authority` / `-data`; user `client-certificate` /
// `-data`, `client-key` / `-data`, `token`, `tokenFile`, `username` / `password`; context
// `cluster`, `user`, `namespace`. File paths are relative to the kubeconfig's own directory.
// Unknown fields are ignored (as clientcmd ignores them); `exec` and `auth-provider` credentials
// are refused with a ConfigError, since RestClient cannot run them.
//
// Errors (ConfigError) name the file, the entry and the field: YAML syntax errors with line and
// column, fields of the wrong type, entries without a name, bad base64, unreadable files, a
// missing context/cluster/user, a cluster without a server, and clientcmd's validation rules
// (both a file and inline data given, a certificate without its key, two authentication methods,
// a CA together with insecure-skip-tls-verify). Loading changes nothing anywhere.
#ifndef KUBESIM_API_REST_KUBECONFIG_H_
#define KUBESIM_API_REST_KUBECONFIG_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/rest/rest_config.h"

namespace kubesim::api::rest {

struct KubeconfigCluster {
  KubeconfigCluster() {}
  std::string server;
  std::string tls_server_name;
  bool insecure_skip_tls_verify = false;
  std::string certificate_authority;       // path, made absolute
  std::string certificate_authority_data;  // decoded PEM
};

struct KubeconfigUser {
  KubeconfigUser() {}
  std::string client_certificate;  // path, made absolute
  std::string client_certificate_data;
  std::string client_key;  // path, made absolute
  std::string client_key_data;
  std::string token;
  std::string token_file;  // path, made absolute
  std::string username;
  std::string password;
  bool has_exec = false;
  bool has_auth_provider = false;
};

struct KubeconfigContext {
  KubeconfigContext() {}
  std::string cluster;
  std::string user;
  std::string namespace_name;
};

// A parsed kubeconfig (or several merged). `source` names where each entry came from, for errors.
struct Kubeconfig {
  Kubeconfig() {}
  std::map<std::string, KubeconfigCluster> clusters;
  std::map<std::string, KubeconfigUser> users;
  std::map<std::string, KubeconfigContext> contexts;
  std::string current_context;
  std::string source;  // the file (or "kubeconfig" for text), for messages
};

// Parses kubeconfig YAML. `source` names it in errors; `base_dir` resolves relative paths.
// Throws ConfigError on malformed YAML or fields of the wrong type.
Kubeconfig parse_kubeconfig(std::string_view yaml, std::string source, std::string base_dir);
// Reads and parses a file. Throws ConfigError when it cannot be read or parsed.
Kubeconfig read_kubeconfig_file(const std::string& path);

// Merges files the way clientcmd merges $KUBECONFIG: for each name the first file that defines
// it wins, and the first non-empty current-context wins.
Kubeconfig merge_kubeconfigs(const std::vector<Kubeconfig>& configs);

// The RestConfig of `context` (empty: current-context), with every file it names read. Throws
// ConfigError, naming what is wrong, when the context cannot be used.
RestConfig to_rest_config(const Kubeconfig& config, std::string_view context = {});

// Reads `path` and returns the RestConfig of `context` (empty: current-context).
RestConfig load_kubeconfig(const std::string& path, std::string_view context = {});
// clientcmd's default loading rules: the files listed in $KUBECONFIG (':'-separated, missing
// ones skipped, merged as above), else ~/.kube/config.
RestConfig load_default_kubeconfig(std::string_view context = {});

}  // namespace kubesim::api::rest

#endif  // KUBESIM_API_REST_KUBECONFIG_H_
