#include "fakeapi/http/internal/peer_cert.h"

#include <string>

#include <openssl/x509.h>

namespace kubesim::fakeapi::http::internal {
namespace {

std::string name_entry(X509_NAME* name, int index) {
  X509_NAME_ENTRY* entry = X509_NAME_get_entry(name, index);
  unsigned char* utf8 = nullptr;
  const int n = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(entry));
  if (n < 0) return {};
  std::string out(reinterpret_cast<char*>(utf8), static_cast<std::size_t>(n));
  OPENSSL_free(utf8);
  return out;
}

}  // namespace

std::optional<UserInfo> certificate_user(SSL* ssl) {
  X509* cert = SSL_get1_peer_certificate(ssl);
  if (cert == nullptr) return std::nullopt;
  std::optional<UserInfo> user;
  if (SSL_get_verify_result(ssl) == X509_V_OK) {
    X509_NAME* subject = X509_get_subject_name(cert);
    const int cn = X509_NAME_get_index_by_NID(subject, NID_commonName, -1);
    if (cn >= 0) {
      user.emplace();
      user->name = name_entry(subject, cn);
      for (int i = X509_NAME_get_index_by_NID(subject, NID_organizationName, -1); i >= 0;
           i = X509_NAME_get_index_by_NID(subject, NID_organizationName, i)) {
        user->groups.push_back(name_entry(subject, i));
      }
    }
  }
  X509_free(cert);
  return user;
}

}  // namespace kubesim::fakeapi::http::internal
