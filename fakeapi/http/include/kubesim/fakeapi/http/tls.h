// Certificates for the HTTP front end, generated with OpenSSL: a CA, serving certificates for
// localhost/127.0.0.1, and client certificates (CN = user, O = groups) that kube-apiserver's
// client-certificate authentication reads.
//
// Keys are ECDSA P-256 (fast to generate: `kubesim serve` is ready in milliseconds) and every
// certificate is X.509 v3 with the extensions Go's crypto/x509 insists on (subjectAltName for
// servers, key usages, CA basic constraints), so kubectl, Python and Node clients accept them.
// Nothing here touches the disk; callers write the PEM text where they want it.
#ifndef KUBESIM_FAKEAPI_HTTP_TLS_H_
#define KUBESIM_FAKEAPI_HTTP_TLS_H_

#include <chrono>
#include <string>
#include <vector>

#include "kubesim/api/result.h"

namespace kubesim::fakeapi::http {

// A certificate and its private key, both PEM.
struct CertificateAndKey {
  CertificateAndKey() {}
  std::string cert_pem;
  std::string key_pem;
};

struct CertificateRequest {
  CertificateRequest() {}
  std::string common_name;
  std::vector<std::string> organizations;
  std::vector<std::string> dns_names;
  std::vector<std::string> ip_addresses;  // "127.0.0.1", "::1"
  bool server = false;  // extendedKeyUsage serverAuth
  bool client = false;  // extendedKeyUsage clientAuth
  std::chrono::hours validity = std::chrono::hours(24 * 365);
};

// A self-signed CA certificate (valid from one hour ago, for `validity`).
api::Result<CertificateAndKey> generate_ca(const std::string& common_name,
                                           std::chrono::hours validity = std::chrono::hours(24 *
                                                                                            3650));
// A certificate signed by `ca`. A malformed CA or IP address is a 400 Status.
api::Result<CertificateAndKey> issue_certificate(const CertificateAndKey& ca,
                                                 const CertificateRequest& request);
// A serving certificate for localhost, 127.0.0.1 and ::1 signed by `ca`.
api::Result<CertificateAndKey> issue_localhost_serving_certificate(const CertificateAndKey& ca);

// Random bytes from OpenSSL's generator as lowercase hex (2 × bytes characters), for tokens.
std::string random_hex(std::size_t bytes);
// Standard base64 with padding (kubeconfig's *-data fields).
std::string base64_encode(std::string_view data);

}  // namespace kubesim::fakeapi::http

#endif  // KUBESIM_FAKEAPI_HTTP_TLS_H_
