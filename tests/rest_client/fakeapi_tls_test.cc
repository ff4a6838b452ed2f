// RestClient over TLS to the fakeapi HTTP server: the kubeconfig `kubesim serve` writes works as
// is; the server's certificate is verified (a wrong CA fails the handshake); client certificates
// and bearer tokens authenticate; no credentials get the server's 401 Status.
#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/api/rest/kubeconfig.h"
#include "kubesim/api/rest/rest_client.h"
#include "kubesim/fakeapi/http/http_server.h"
#include "kubesim/fakeapi/http/kubeconfig.h"
#include "kubesim/fakeapi/http/tls.h"
#include "tests/rest_client/real_loop.h"

namespace kubesim::api::rest::testing {
namespace {


class FakeapiTlsTest : public ::testing::Test {
 protected:
  FakeapiTlsTest() {
    ca_ = fakeapi::http::generate_ca("kubesim-test-ca").value();
    auto serving = fakeapi::http::issue_localhost_serving_certificate(ca_).value();
    fakeapi::http::CertificateRequest req;
    req.common_name = "alice";
    req.organizations = {"system:masters"};
    req.client = true;
    client_cert_ = fakeapi::http::issue_certificate(ca_, req).value();
    fakeapi::http::HttpServerOptions o;
    o.tls = serving;
    o.client_ca_pem = ca_.cert_pem;
    fakeapi::http::UserInfo admin;
    admin.name = "admin";
    o.tokens["good-token"] = admin;
    http_ = std::make_unique<fakeapi::http::HttpServer>(loop_, api_, o);
  }
  ~FakeapiTlsTest() override { http_->stop(std::chrono::seconds(1)); }

  Result<ObjectList> list_with(RestConfig config) {
    RestClient client(loop_, std::move(config));
    auto g = guard(loop_);
    return run_real(loop_, client.list(g.ctx, kConfigMaps, "default", ListOptions()));
  }
  RestConfig base() {
    RestConfig c;
    c.server = http_->url();
    c.ca_pem = ca_.cert_pem;
    return c;
  }

  sim::Loop loop_{real_mode()};
  fakeapi::ApiServer api_{loop_};
  fakeapi::http::CertificateAndKey ca_;
  fakeapi::http::CertificateAndKey client_cert_;
  std::unique_ptr<fakeapi::http::HttpServer> http_;
};

TEST_F(FakeapiTlsTest, KubeconfigAsServeWritesIt) {
  fakeapi::http::KubeconfigSpec spec;
  spec.server = http_->url();
  spec.ca_pem = ca_.cert_pem;
  spec.token = "good-token";
  const std::string text = fakeapi::http::render_kubeconfig(spec);
  RestConfig config = to_rest_config(parse_kubeconfig(text, "serve-kubeconfig", "/"));
  EXPECT_EQ(config.namespace_name, "default");
  auto r = list_with(config);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->items.empty());
}

TEST_F(FakeapiTlsTest, TokenAndClientCertificateAuthenticate) {
  RestConfig token = base();
  token.bearer_token = "good-token";
  EXPECT_TRUE(list_with(token).ok());
  RestConfig cert = base();
  cert.client_cert_pem = client_cert_.cert_pem;
  cert.client_key_pem = client_cert_.key_pem;
  auto r = list_with(cert);
  EXPECT_TRUE(r.ok()) << r.status();
  RestConfig by_name = base();
  by_name.bearer_token = "good-token";
  by_name.server = "https://localhost:" + std::to_string(http_->port());
  EXPECT_TRUE(list_with(by_name).ok());
}

TEST_F(FakeapiTlsTest, NoOrWrongCredentialsGetThe401Status) {
  auto none = list_with(base());
  ASSERT_FALSE(none.ok());
  EXPECT_TRUE(is_unauthorized(none.status())) << none.status();
  EXPECT_EQ(none.status().code, 401);
  RestConfig wrong = base();
  wrong.bearer_token = "bad-token";
  EXPECT_TRUE(is_unauthorized(list_with(wrong).status()));
}

TEST_F(FakeapiTlsTest, ServerCertificateIsVerified) {
  RestConfig other_ca = base();
  other_ca.bearer_token = "good-token";
  other_ca.ca_pem = fakeapi::http::generate_ca("someone-else").value().cert_pem;
  auto r = list_with(other_ca);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 0);
  EXPECT_NE(r.status().message.find("tls handshake"), std::string::npos) << r.status();
  EXPECT_NE(r.status().message.find("certificate verify failed"), std::string::npos) << r.status();

  RestConfig wrong_name = base();
  wrong_name.bearer_token = "good-token";
  wrong_name.tls_server_name = "example.com";
  EXPECT_EQ(list_with(wrong_name).status().code, 0);

  RestConfig insecure;
  insecure.server = http_->url();
  insecure.insecure_skip_tls_verify = true;
  insecure.bearer_token = "good-token";
  EXPECT_TRUE(list_with(insecure).ok());
}

}  // namespace
}  // namespace kubesim::api::rest::testing
