// The user a verified TLS client certificate names: CN = user, O = groups, as kube-apiserver's
// x509 authenticator reads it. Nullopt without a certificate, when verification failed, or
// without a CN.
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_PEER_CERT_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_PEER_CERT_H_

#include <optional>

#include <openssl/ssl.h>

#include "kubesim/fakeapi/http/auth.h"

namespace kubesim::fakeapi::http::internal {

std::optional<UserInfo> certificate_user(SSL* ssl);

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_PEER_CERT_H_
