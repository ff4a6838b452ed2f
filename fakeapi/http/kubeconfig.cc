#include "kubesim/fakeapi/http/kubeconfig.h"

#include <nlohmann/json.hpp>

#include "kubesim/fakeapi/http/tls.h"

namespace kubesim::fakeapi::http {

std::string render_kubeconfig(const KubeconfigSpec& spec) {
  // JSON strings are valid YAML flow scalars, so values are written with JSON quoting: no
  // character in a server URL, token or name can break the document.
  auto q = [](const std::string& s) { return nlohmann::json(s).dump(); };
  std::string out;
  out += "apiVersion: v1\nkind: Config\n";
  out += "clusters:\n- name: " + q(spec.name) + "\n  cluster:\n";
  out += "    server: " + q(spec.server) + "\n";
  if (!spec.ca_pem.empty()) {
    out += "    certificate-authority-data: " + q(base64_encode(spec.ca_pem)) + "\n";
  }
  if (spec.insecure_skip_tls_verify) out += "    insecure-skip-tls-verify: true\n";
  out += "users:\n- name: " + q(spec.name) + "\n  user:\n";
  bool any_credential = false;
  if (!spec.token.empty()) {
    out += "    token: " + q(spec.token) + "\n";
    any_credential = true;
  }
  if (!spec.client_cert_pem.empty()) {
    out += "    client-certificate-data: " + q(base64_encode(spec.client_cert_pem)) + "\n";
    out += "    client-key-data: " + q(base64_encode(spec.client_key_pem)) + "\n";
    any_credential = true;
  }
  if (!any_credential) out += "    {}\n";
  out += "contexts:\n- name: " + q(spec.name) + "\n  context:\n";
  out += "    cluster: " + q(spec.name) + "\n    user: " + q(spec.name) + "\n";
  out += "    namespace: " + q(spec.default_namespace) + "\n";
  out += "current-context: " + q(spec.name) + "\npreferences: {}\n";
  return out;
}

}  // namespace kubesim::fakeapi::http
