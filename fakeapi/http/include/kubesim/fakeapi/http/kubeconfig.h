// The kubeconfig `kubesim serve --kubeconfig-out` writes: one cluster, one user, one context,
// made current, with every credential inline (certificate-authority-data, token,
// client-certificate-data/client-key-data) so that the file works as is wherever it is copied.
// kubectl, client-go, python3-kubernetes and @kubernetes/client-node all read this form.
#ifndef KUBESIM_FAKEAPI_HTTP_KUBECONFIG_H_
#define KUBESIM_FAKEAPI_HTTP_KUBECONFIG_H_

#include <string>

namespace kubesim::fakeapi::http {

struct KubeconfigSpec {
  KubeconfigSpec() {}
  std::string name = "kubesim";  // cluster, user and context name
  std::string server;            // "https://127.0.0.1:6443"
  std::string ca_pem;            // empty: none (plain HTTP or system roots)
  std::string token;
  std::string client_cert_pem;
  std::string client_key_pem;
  // Needed by @kubernetes/client-node to talk plain HTTP at all.
  bool insecure_skip_tls_verify = false;
  std::string default_namespace = "default";
};

// The kubeconfig YAML text.
std::string render_kubeconfig(const KubeconfigSpec& spec);

}  // namespace kubesim::fakeapi::http

#endif  // KUBESIM_FAKEAPI_HTTP_KUBECONFIG_H_
