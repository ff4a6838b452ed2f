// TLS and authentication: bearer tokens, client certificates from the configured CA only, 401
// for everything else, and anonymous access when switched on.
#include "kubesim/fakeapi/http/http_server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kubesim/fakeapi/http/tls.h"
#include "tests/fakeapi_http/test_client.h"

namespace kubesim::fakeapi::http::testing {
namespace {

struct Pki {
  CertificateAndKey ca;
  CertificateAndKey serving;
  CertificateAndKey client;        // CN=alice, O=devs, from ca
  CertificateAndKey other_client;  // the same name from another CA
};

CertificateAndKey client_cert(const CertificateAndKey& ca) {
  CertificateRequest req;
  req.common_name = "alice";
  req.organizations = {"devs"};
  req.client = true;
  auto c = issue_certificate(ca, req);
  EXPECT_TRUE(c.ok());
  return c.value();
}

const Pki& pki() {
  static const Pki p = [] {
    Pki out;
    out.ca = generate_ca("test-ca").value();
    out.serving = issue_localhost_serving_certificate(out.ca).value();
    out.client = client_cert(out.ca);
    out.other_client = client_cert(generate_ca("other-ca").value());
    return out;
  }();
  return p;
}

HttpServerOptions tls_options() {
  HttpServerOptions o = plain_options();
  o.tls = pki().serving;
  o.client_ca_pem = pki().ca.cert_pem;
  return o;
}

TlsClientOptions verified() {
  TlsClientOptions t;
  t.ca_pem = pki().ca.cert_pem;
  return t;
}

TEST(HttpAuthTest, TokensOverTlsVerifiedAgainstTheGeneratedCa) {
  TestServer server(tls_options());
  EXPECT_TRUE(server.http().tls());
  Client c(server.port(), verified());
  EXPECT_EQ(c.get(kCms).code, 200);
  Response none = c.request("GET", kCms, "", {{"authorization", ""}});
  EXPECT_EQ(none.code, 401);
  EXPECT_EQ(none.json()["reason"], "Unauthorized");
  EXPECT_EQ(none.header("content-type"), "application/json");
  EXPECT_EQ(c.request("GET", kCms, "", {{"authorization", "Bearer wrong"}}).code, 401);
  EXPECT_EQ(c.request("GET", kCms, "", {{"authorization", "Basic dXNlcjpwYXNz"}}).code, 401);
  // Health endpoints need no credentials.
  EXPECT_EQ(c.request("GET", "/readyz", "", {{"authorization", ""}}).code, 200);
  EXPECT_EQ(c.get(kCms).code, 200);  // the connection survived the 401s
}

TEST(HttpAuthTest, ClientCertificateOfTheCaAuthenticatesItsSubject) {
  TestServer server(tls_options());
  TlsClientOptions t = verified();
  t.cert_pem = pki().client.cert_pem;
  t.key_pem = pki().client.key_pem;
  Client c(server.port(), t);
  Response r = c.request("POST", kCms, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}})",
                         {{"authorization", ""}, {"content-type", "application/json"}});
  EXPECT_EQ(r.code, 201) << r.body;
}

TEST(HttpAuthTest, ClientCertificateOfAnotherCaIsRefused) {
  TestServer server(tls_options());
  TlsClientOptions t = verified();
  t.cert_pem = pki().other_client.cert_pem;
  t.key_pem = pki().other_client.key_pem;
  // The server refuses the certificate in the handshake (under TLS 1.3 the client learns it from
  // the alert at its first read); any other failure is not a refusal.
  std::string error;
  try {
    Client c(server.port(), t);
    const int code = c.request("GET", kCms, "", {{"authorization", ""}}).code;
    error = "answered " + std::to_string(code);
  } catch (const std::exception& e) {
    error = e.what();
  }
  EXPECT_THAT(error, ::testing::AnyOf(::testing::HasSubstr("unknown ca"),
                                      ::testing::HasSubstr("certificate verify failed"),
                                      ::testing::HasSubstr("bad certificate")));
  Client ok(server.port(), verified());
  EXPECT_EQ(ok.get(kCms).code, 200);
}

TEST(HttpAuthTest, AnonymousAccessWhenSwitchedOn) {
  HttpServerOptions o = plain_options();
  o.anonymous = true;
  TestServer server(o);
  Client c(server.port());
  EXPECT_EQ(c.request("GET", kCms, "", {{"authorization", ""}}).code, 200);
  EXPECT_EQ(c.request("GET", kCms, "", {{"authorization", "Bearer wrong"}}).code, 401);
}

TEST(HttpAuthTest, OptionsAreValidated) {
  sim::LoopOptions lo;
  lo.mode = sim::ClockMode::kReal;
  sim::Loop loop(lo);
  ApiServer api(loop);
  HttpServerOptions plain_public = plain_options();
  plain_public.address = "0.0.0.0";
  EXPECT_THROW(HttpServer(loop, api, plain_public), std::invalid_argument);
  HttpServerOptions bad_version = plain_options();
  bad_version.git_version = "1.33";
  EXPECT_THROW(HttpServer(loop, api, bad_version), std::invalid_argument);
  HttpServerOptions bad_cert = plain_options();
  bad_cert.tls.cert_pem = "not a certificate";
  bad_cert.tls.key_pem = "nor a key";
  EXPECT_THROW(HttpServer(loop, api, bad_cert), std::invalid_argument);
  HttpServerOptions negative_coalesce = plain_options();
  negative_coalesce.watch_coalesce = std::chrono::microseconds(-1);
  EXPECT_THROW(HttpServer(loop, api, negative_coalesce), std::invalid_argument);
  sim::Loop virtual_loop;
  ApiServer virtual_api(virtual_loop);
  EXPECT_THROW(HttpServer(virtual_loop, virtual_api, plain_options()), std::invalid_argument);
}

}  // namespace
}  // namespace kubesim::fakeapi::http::testing
