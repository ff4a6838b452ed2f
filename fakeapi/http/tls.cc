#include "kubesim/fakeapi/http/tls.h"

#include <memory>
#include <stdexcept>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace kubesim::fakeapi::http {
namespace {

struct Free {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, Free>;
using CertPtr = std::unique_ptr<X509, Free>;
using BioPtr = std::unique_ptr<BIO, Free>;

api::Status tls_error(const std::string& what) {
  return api::new_internal_error("tls: " + what);
}

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(n));
}

KeyPtr new_key() { return KeyPtr(EVP_EC_gen("P-256")); }

api::Result<CertificateAndKey> to_pem(X509* cert, EVP_PKEY* key) {
  BioPtr cb(BIO_new(BIO_s_mem()));
  BioPtr kb(BIO_new(BIO_s_mem()));
  if (!cb || !kb || PEM_write_bio_X509(cb.get(), cert) != 1 ||
      PEM_write_bio_PrivateKey(kb.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return tls_error("cannot encode PEM");
  }
  CertificateAndKey out;
  out.cert_pem = bio_text(cb.get());
  out.key_pem = bio_text(kb.get());
  return out;
}

bool add_ext(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (ext == nullptr) return false;
  const int ok = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  return ok == 1;
}

// A certificate with a random positive serial, the subject, the validity, and the public key.
CertPtr new_cert(EVP_PKEY* key, const std::string& cn, const std::vector<std::string>& orgs,
                 std::chrono::hours validity) {
  CertPtr cert(X509_new());
  if (!cert) return nullptr;
  X509_set_version(cert.get(), 2);
  unsigned char serial[16];
  if (RAND_bytes(serial, sizeof serial) != 1) return nullptr;
  serial[0] &= 0x7f;
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get()));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), static_cast<long>(validity.count()) * 3600);
  X509_NAME* name = X509_get_subject_name(cert.get());
  for (const auto& o : orgs) {
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8,
                               reinterpret_cast<const unsigned char*>(o.c_str()), -1, -1, 0);
  }
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                             reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  X509_set_pubkey(cert.get(), key);
  return cert;
}

}  // namespace

api::Result<CertificateAndKey> generate_ca(const std::string& common_name,
                                           std::chrono::hours validity) {
  KeyPtr key = new_key();
  if (!key) return tls_error("cannot generate a key");
  CertPtr cert = new_cert(key.get(), common_name, {}, validity);
  if (!cert) return tls_error("cannot build a certificate");
  X509_set_issuer_name(cert.get(), X509_get_subject_name(cert.get()));
  if (!add_ext(cert.get(), cert.get(), NID_basic_constraints, "critical,CA:TRUE") ||
      !add_ext(cert.get(), cert.get(), NID_key_usage,
               "critical,digitalSignature,keyEncipherment,keyCertSign") ||
      !add_ext(cert.get(), cert.get(), NID_subject_key_identifier, "hash")) {
    return tls_error("cannot add CA extensions");
  }
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) return tls_error("cannot sign");
  return to_pem(cert.get(), key.get());
}

api::Result<CertificateAndKey> issue_certificate(const CertificateAndKey& ca,
                                                 const CertificateRequest& request) {
  BioPtr cb(BIO_new_mem_buf(ca.cert_pem.data(), static_cast<int>(ca.cert_pem.size())));
  BioPtr kb(BIO_new_mem_buf(ca.key_pem.data(), static_cast<int>(ca.key_pem.size())));
  CertPtr ca_cert(PEM_read_bio_X509(cb.get(), nullptr, nullptr, nullptr));
  KeyPtr ca_key(PEM_read_bio_PrivateKey(kb.get(), nullptr, nullptr, nullptr));
  if (!ca_cert || !ca_key) return api::new_bad_request("tls: the CA certificate or key is not valid PEM");
  KeyPtr key = new_key();
  if (!key) return tls_error("cannot generate a key");
  CertPtr cert = new_cert(key.get(), request.common_name, request.organizations, request.validity);
  if (!cert) return tls_error("cannot build a certificate");
  X509_set_issuer_name(cert.get(), X509_get_subject_name(ca_cert.get()));
  std::string eku;
  if (request.server) eku = "serverAuth";
  if (request.client) eku += eku.empty() ? "clientAuth" : ",clientAuth";
  std::string san;
  for (const auto& d : request.dns_names) san += (san.empty() ? "DNS:" : ",DNS:") + d;
  for (const auto& ip : request.ip_addresses) san += (san.empty() ? "IP:" : ",IP:") + ip;
  bool ok = add_ext(cert.get(), ca_cert.get(), NID_basic_constraints, "critical,CA:FALSE") &&
            add_ext(cert.get(), ca_cert.get(), NID_key_usage,
                    "critical,digitalSignature,keyEncipherment") &&
            add_ext(cert.get(), ca_cert.get(), NID_authority_key_identifier, "keyid:always");
  if (ok && !eku.empty()) ok = add_ext(cert.get(), ca_cert.get(), NID_ext_key_usage, eku);
  if (!ok) return tls_error("cannot add certificate extensions");
  if (!san.empty() && !add_ext(cert.get(), ca_cert.get(), NID_subject_alt_name, san)) {
    return api::new_bad_request("tls: invalid subjectAltName " + san);
  }
  if (X509_sign(cert.get(), ca_key.get(), EVP_sha256()) == 0) return tls_error("cannot sign");
  return to_pem(cert.get(), key.get());
}

api::Result<CertificateAndKey> issue_localhost_serving_certificate(const CertificateAndKey& ca) {
  CertificateRequest req;
  req.common_name = "kubesim";
  req.dns_names = {"localhost"};
  req.ip_addresses = {"127.0.0.1", "::1"};
  req.server = true;
  return issue_certificate(ca, req);
}

std::string random_hex(std::size_t bytes) {
  std::string raw(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(bytes)) != 1) {
    throw std::runtime_error("RAND_bytes failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes * 2);
  for (unsigned char c : raw) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

std::string base64_encode(std::string_view data) {
  std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(data.data()),
                                static_cast<int>(data.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

}  // namespace kubesim::fakeapi::http
