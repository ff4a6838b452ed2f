#include "kubesim/api/rest/kubeconfig.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "api/rest/internal/files.h"

namespace kubesim::api::rest {
namespace {

using internal::decode_base64;
using internal::read_file;

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw ConfigError(source + ": " + what);
}

std::string absolute(const std::string& base_dir, const std::string& path) {
  if (path.empty() || base_dir.empty()) return path;
  std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(base_dir) / p).lexically_normal().string();
}

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  std::string str(const YAML::Node& map, const char* key, const std::string& where) const {
    const YAML::Node n = map[key];
    if (!n || n.IsNull()) return "";
    if (!n.IsScalar()) fail(source_, where + "." + key + " must be a string");
    return n.as<std::string>();
  }
  bool boolean(const YAML::Node& map, const char* key, const std::string& where) const {
    const YAML::Node n = map[key];
    if (!n || n.IsNull()) return false;
    bool value = false;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, value)) {
      fail(source_, where + "." + key + " must be a boolean, not \"" + (n.IsScalar() ? n.Scalar() : "") +
                        "\"");
    }
    return value;
  }
  std::string data(const YAML::Node& map, const char* key, const std::string& where) const {
    const std::string text = str(map, key, where);
    if (text.empty()) return text;
    auto decoded = decode_base64(text);
    if (!decoded) fail(source_, where + "." + key + " is not valid base64");
    return *decoded;
  }
  YAML::Node object(const YAML::Node& map, const char* key, const std::string& where) const {
    const YAML::Node n = map[key];
    if (!n || n.IsNull()) return YAML::Node(YAML::NodeType::Map);
    if (!n.IsMap()) fail(source_, where + "." + key + " must be a mapping");
    return n;
  }

  // Calls fn(name, body, where) for each `- name: …, <body_key>: {…}` entry of list `key`.
  template <class Fn>
  void each_named(const YAML::Node& root, const char* key, const char* body_key, Fn fn) const {
    const YAML::Node list = root[key];
    if (!list || list.IsNull()) return;
    if (!list.IsSequence()) fail(source_, std::string(key) + " must be a list");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = std::string(key) + "[" + std::to_string(i) + "]";
      const YAML::Node entry = list[i];
      if (!entry.IsMap()) fail(source_, where + " must be a mapping with name and " + body_key);
      const std::string name = str(entry, "name", where);
      if (name.empty()) fail(source_, where + " has no name");
      fn(name, object(entry, body_key, where), where + " (" + name + ")." + body_key);
    }
  }

 private:
  std::string source_;
};

template <class Map>
void insert_unique(Map& map, const std::string& name, typename Map::mapped_type value,
                   const std::string& source, const char* list) {
  if (!map.emplace(name, std::move(value)).second) {
    fail(source, std::string("duplicate name \"") + name + "\" in " + list);
  }
}

}  // namespace

Kubeconfig parse_kubeconfig(std::string_view yaml, std::string source, std::string base_dir) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::ParserException& e) {
    fail(source, "line " + std::to_string(e.mark.line + 1) + ", column " +
                     std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  Kubeconfig config;
  config.source = source;
  if (!root || root.IsNull()) return config;
  if (!root.IsMap()) fail(source, "a kubeconfig must be a YAML mapping (kind: Config)");
  const Reader r(source);
  const std::string kind = r.str(root, "kind", "kind");
  if (!kind.empty() && kind != "Config") fail(source, "kind is \"" + kind + "\", not Config");
  config.current_context = r.str(root, "current-context", "current-context");

  r.each_named(root, "clusters", "cluster", [&](const std::string& name, const YAML::Node& c,
                                                const std::string& where) {
    KubeconfigCluster cluster;
    cluster.server = r.str(c, "server", where);
    cluster.tls_server_name = r.str(c, "tls-server-name", where);
    cluster.insecure_skip_tls_verify = r.boolean(c, "insecure-skip-tls-verify", where);
    cluster.certificate_authority = absolute(base_dir, r.str(c, "certificate-authority", where));
    cluster.certificate_authority_data = r.data(c, "certificate-authority-data", where);
    insert_unique(config.clusters, name, std::move(cluster), source, "clusters");
  });
  r.each_named(root, "users", "user", [&](const std::string& name, const YAML::Node& u,
                                          const std::string& where) {
    KubeconfigUser user;
    user.client_certificate = absolute(base_dir, r.str(u, "client-certificate", where));
    user.client_certificate_data = r.data(u, "client-certificate-data", where);
    user.client_key = absolute(base_dir, r.str(u, "client-key", where));
    user.client_key_data = r.data(u, "client-key-data", where);
    user.token = r.str(u, "token", where);
    user.token_file = absolute(base_dir, r.str(u, "tokenFile", where));
    user.username = r.str(u, "username", where);
    user.password = r.str(u, "password", where);
    const YAML::Node exec = u["exec"];
    user.has_exec = exec && !exec.IsNull();
    const YAML::Node provider = u["auth-provider"];
    user.has_auth_provider = provider && !provider.IsNull();
    insert_unique(config.users, name, std::move(user), source, "users");
  });
  r.each_named(root, "contexts", "context", [&](const std::string& name, const YAML::Node& c,
                                                const std::string& where) {
    KubeconfigContext context;
    context.cluster = r.str(c, "cluster", where);
    context.user = r.str(c, "user", where);
    context.namespace_name = r.str(c, "namespace", where);
    insert_unique(config.contexts, name, std::move(context), source, "contexts");
  });
  return config;
}

Kubeconfig read_kubeconfig_file(const std::string& path) {
  std::string error;
  auto text = read_file(path, &error);
  if (!text) throw ConfigError("kubeconfig " + path + ": " + error);
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  return parse_kubeconfig(*text, path, std::filesystem::absolute(dir).lexically_normal().string());
}

Kubeconfig merge_kubeconfigs(const std::vector<Kubeconfig>& configs) {
  Kubeconfig merged;
  for (const auto& c : configs) {
    if (merged.source.empty()) {
      merged.source = c.source;
    } else {
      merged.source += ":" + c.source;
    }
    if (merged.current_context.empty()) merged.current_context = c.current_context;
    merged.clusters.insert(c.clusters.begin(), c.clusters.end());
    merged.users.insert(c.users.begin(), c.users.end());
    merged.contexts.insert(c.contexts.begin(), c.contexts.end());
  }
  return merged;
}

namespace {

// Reads `path` into `out` unless `data` is given; records an error in clientcmd's words.
void load_pem(const std::string& path, const std::string& data, const char* field,
              const std::string& owner, std::string& out, std::vector<std::string>& errors) {
  if (!data.empty()) {
    out = data;
    return;
  }
  if (path.empty()) return;
  std::string error;
  auto text = read_file(path, &error);
  if (!text) {
    errors.push_back(std::string("unable to read ") + field + " " + path + " for " + owner +
                     " due to " + error);
    return;
  }
  out = std::move(*text);
}

void check_cluster(const std::string& name, const KubeconfigCluster& c, RestConfig& rc,
                   std::vector<std::string>& errors) {
  if (c.server.empty()) errors.push_back("no server found for cluster \"" + name + "\"");
  if (!c.certificate_authority.empty() && !c.certificate_authority_data.empty()) {
    errors.push_back("certificate-authority-data and certificate-authority are both specified for " +
                     name);
  }
  if (c.insecure_skip_tls_verify &&
      (!c.certificate_authority.empty() || !c.certificate_authority_data.empty())) {
    errors.push_back("cluster " + name +
                     ": specifying a root certificates file with the insecure flag is not allowed");
  }
  rc.server = c.server;
  rc.tls_server_name = c.tls_server_name;
  rc.insecure_skip_tls_verify = c.insecure_skip_tls_verify;
  load_pem(c.certificate_authority, c.certificate_authority_data, "certificate-authority", name,
           rc.ca_pem, errors);
}

void check_user(const std::string& name, const KubeconfigUser& u, RestConfig& rc,
                std::vector<std::string>& errors) {
  if (u.has_exec) errors.push_back("user " + name + ": exec credential plugins are not supported");
  if (u.has_auth_provider) errors.push_back("user " + name + ": auth-provider is not supported");
  const bool has_cert = !u.client_certificate.empty() || !u.client_certificate_data.empty();
  const bool has_key = !u.client_key.empty() || !u.client_key_data.empty();
  if (!u.client_certificate.empty() && !u.client_certificate_data.empty()) {
    errors.push_back("client-cert-data and client-cert are both specified for " + name);
  }
  if (!u.client_key.empty() && !u.client_key_data.empty()) {
    errors.push_back("client-key-data and client-key are both specified for " + name);
  }
  if (has_cert && !has_key) {
    errors.push_back("client-key-data or client-key must be specified for " + name +
                     " to use the clientCert authentication method");
  }
  if (has_key && !has_cert) {
    errors.push_back("client-certificate-data or client-certificate must be specified for " + name +
                     " along with its client key");
  }
  std::vector<std::string> methods;
  if (!u.token.empty() || !u.token_file.empty()) methods.push_back("token");
  if (!u.username.empty() || !u.password.empty()) methods.push_back("basicAuth");
  if (methods.size() > 1) {
    errors.push_back("more than one authentication method found for " + name + "; found [" +
                     methods[0] + " " + methods[1] + "], only one is allowed");
  }
  load_pem(u.client_certificate, u.client_certificate_data, "client-cert", name,
           rc.client_cert_pem, errors);
  load_pem(u.client_key, u.client_key_data, "client-key", name, rc.client_key_pem, errors);
  rc.bearer_token = u.token;
  rc.bearer_token_file = u.token_file;
  rc.username = u.username;
  rc.password = u.password;
}

}  // namespace

RestConfig to_rest_config(const Kubeconfig& config, std::string_view context) {
  const std::string& source = config.source.empty() ? std::string("kubeconfig") : config.source;
  if (config.clusters.empty() && config.users.empty() && config.contexts.empty() &&
      config.current_context.empty()) {
    fail(source, "invalid configuration: no configuration has been provided");
  }
  const std::string name = context.empty() ? config.current_context : std::string(context);
  if (name.empty()) fail(source, "no context chosen: current-context is empty and none was given");
  auto ctx = config.contexts.find(name);
  if (ctx == config.contexts.end()) {
    fail(source, "invalid configuration: context was not found for specified context: " + name);
  }
  RestConfig rc;
  rc.namespace_name = ctx->second.namespace_name;
  std::vector<std::string> errors;
  auto cluster = config.clusters.find(ctx->second.cluster);
  if (ctx->second.cluster.empty()) {
    errors.push_back("context \"" + name + "\" names no cluster");
  } else if (cluster == config.clusters.end()) {
    errors.push_back("context \"" + name + "\" names cluster \"" + ctx->second.cluster +
                     "\", which is not defined");
  } else {
    check_cluster(cluster->first, cluster->second, rc, errors);
  }
  if (!ctx->second.user.empty()) {
    auto user = config.users.find(ctx->second.user);
    if (user == config.users.end()) {
      errors.push_back("context \"" + name + "\" names user \"" + ctx->second.user +
                       "\", which is not defined");
    } else {
      check_user(user->first, user->second, rc, errors);
    }
  }
  if (errors.size() == 1) fail(source, "invalid configuration: " + errors[0]);
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors) all += (all.empty() ? "" : ", ") + e;
    fail(source, "invalid configuration: [" + all + "]");
  }
  return rc;
}

RestConfig load_kubeconfig(const std::string& path, std::string_view context) {
  return to_rest_config(read_kubeconfig_file(path), context);
}

RestConfig load_default_kubeconfig(std::string_view context) {
  std::vector<Kubeconfig> configs;
  if (const char* env = std::getenv("KUBECONFIG"); env != nullptr && *env != '\0') {
    std::stringstream list(env);
    std::string path;
    while (std::getline(list, path, ':')) {
      if (path.empty() || !std::filesystem::exists(path)) continue;
      configs.push_back(read_kubeconfig_file(path));
    }
    if (configs.empty()) {
      throw ConfigError(std::string("no kubeconfig found: none of the files in $KUBECONFIG (") +
                        env + ") exists");
    }
    return to_rest_config(merge_kubeconfigs(configs), context);
  }
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') {
    throw ConfigError("no kubeconfig found: neither $KUBECONFIG nor $HOME is set");
  }
  return load_kubeconfig(std::string(home) + "/.kube/config", context);
}

}  // namespace kubesim::api::rest
