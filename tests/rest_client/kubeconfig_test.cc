// Kubeconfig loading: contexts, inline and file credentials relative to the file, $KUBECONFIG
// merging, and a clear error naming the file, entry and field for each kind of broken file.
#include "kubesim/api/rest/kubeconfig.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "api/rest/internal/files.h"

namespace kubesim::api::rest {
namespace {

namespace fs = std::filesystem;

class KubeconfigTest : public ::testing::Test {
 protected:
  KubeconfigTest() {
    dir_ = fs::temp_directory_path() /
           ("kubesim-kubeconfig-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  ~KubeconfigTest() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  // The ConfigError's message of loading `yaml` as a file.
  std::string error_of(const std::string& yaml, std::string_view context = {}) {
    const std::string path = write("config", yaml);
    try {
      load_kubeconfig(path, context);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "(no error)";
  }

  fs::path dir_;
};

std::string b64(std::string_view s) { return internal::encode_base64(s); }

const char kPem[] = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

TEST_F(KubeconfigTest, InlineCredentialsOfTheCurrentContext) {
  const std::string yaml = R"(apiVersion: v1
kind: Config
clusters:
- name: kubesim
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority-data: )" + b64(kPem) + R"(
    tls-server-name: localhost
- name: other
  cluster:
    server: http://127.0.0.1:8080
users:
- name: admin
  user:
    token: abc123
- name: certs
  user:
    client-certificate-data: )" + b64("CERT") + R"(
    client-key-data: )" + b64("KEY") + R"(
contexts:
- name: kubesim
  context: {cluster: kubesim, user: admin, namespace: team-a}
- name: other
  context: {cluster: other, user: certs}
current-context: kubesim
preferences: {}
)";
  const std::string path = write("config", yaml);
  RestConfig c = load_kubeconfig(path);
  EXPECT_EQ(c.server, "https://127.0.0.1:6443");
  EXPECT_EQ(c.ca_pem, kPem);
  EXPECT_EQ(c.tls_server_name, "localhost");
  EXPECT_EQ(c.bearer_token, "abc123");
  EXPECT_EQ(c.namespace_name, "team-a");
  EXPECT_FALSE(c.insecure_skip_tls_verify);

  RestConfig other = load_kubeconfig(path, "other");
  EXPECT_EQ(other.server, "http://127.0.0.1:8080");
  EXPECT_EQ(other.client_cert_pem, "CERT");
  EXPECT_EQ(other.client_key_pem, "KEY");
  EXPECT_EQ(other.bearer_token, "");
  EXPECT_EQ(other.namespace_name, "");
}

TEST_F(KubeconfigTest, FilePathsAreRelativeToTheKubeconfig) {
  fs::create_directories(dir_ / "sub" / "pki");
  write("sub/pki/ca.crt", kPem);
  write("sub/pki/client.crt", "CERT");
  write("sub/pki/client.key", "KEY");
  write("sub/token", "tok\n");
  const std::string path = write("sub/config", R"(
clusters:
- name: c
  cluster: {server: "https://h:1", certificate-authority: pki/ca.crt}
users:
- name: u
  user: {client-certificate: pki/client.crt, client-key: pki/client.key, tokenFile: token}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
)");
  RestConfig c = load_kubeconfig(path);
  EXPECT_EQ(c.ca_pem, kPem);
  EXPECT_EQ(c.client_cert_pem, "CERT");
  EXPECT_EQ(c.client_key_pem, "KEY");
  EXPECT_EQ(c.bearer_token_file, (dir_ / "sub" / "token").string());
}

TEST_F(KubeconfigTest, InsecureSkipVerifyAndBasicAuth) {
  RestConfig c = load_kubeconfig(write("config", R"(
clusters: [{name: c, cluster: {server: "https://h", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {username: alice, password: secret}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
)"));
  EXPECT_TRUE(c.insecure_skip_tls_verify);
  EXPECT_EQ(c.username, "alice");
  EXPECT_EQ(c.password, "secret");
}

TEST_F(KubeconfigTest, BrokenFilesNameWhatIsWrong) {
  const std::string ok_cluster = "clusters: [{name: c, cluster: {server: \"https://h\"}}]\n";
  const std::string ok_ctx = "contexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n";
  struct Case {
    std::string yaml;
    std::string message;  // a fragment of the error
  };
  const std::vector<Case> cases = {
      {"clusters:\n  - name: c\n    cluster: {server: [\n", "line "},
      {"- just\n- a list\n", "a kubeconfig must be a YAML mapping"},
      {"kind: Pod\n", "kind is \"Pod\", not Config"},
      {"clusters: {name: c}\n", "clusters must be a list"},
      {"clusters: [{cluster: {server: x}}]\n", "clusters[0] has no name"},
      {"clusters: [{name: c, cluster: {server: {a: b}}}]\n",
       "clusters[0] (c).cluster.server must be a string"},
      {"clusters: [{name: c, cluster: {insecure-skip-tls-verify: maybe}}]\n",
       "clusters[0] (c).cluster.insecure-skip-tls-verify must be a boolean, not \"maybe\""},
      {"clusters: [{name: c, cluster: {certificate-authority-data: \"@@@\"}}]\n",
       "clusters[0] (c).cluster.certificate-authority-data is not valid base64"},
      {ok_cluster + "clusters2: 1\nusers: [{name: u, user: {}}, {name: u, user: {}}]\n",
       "duplicate name \"u\" in users"},
      {"", "no configuration has been provided"},
      {ok_cluster + "users: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c}}]\n",
       "no context chosen"},
      {ok_cluster + "users: [{name: u, user: {}}]\n" +
           "contexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: y\n",
       "context was not found for specified context: y"},
      {ok_ctx + "users: [{name: u, user: {}}]\n",
       "context \"x\" names cluster \"c\", which is not defined"},
      {ok_cluster + ok_ctx, "context \"x\" names user \"u\", which is not defined"},
      {"clusters: [{name: c, cluster: {tls-server-name: h}}]\nusers: [{name: u, user: {}}]\n" + ok_ctx,
       "no server found for cluster \"c\""},
      {"clusters: [{name: c, cluster: {server: \"https://h\", certificate-authority: /nonexistent/ca.crt}}]\n"
       "users: [{name: u, user: {}}]\n" + ok_ctx,
       "unable to read certificate-authority /nonexistent/ca.crt for c due to open "
       "/nonexistent/ca.crt: No such file or directory"},
      {"clusters: [{name: c, cluster: {server: \"https://h\", certificate-authority: /a, "
       "certificate-authority-data: " + b64(kPem) + "}}]\nusers: [{name: u, user: {}}]\n" + ok_ctx,
       "certificate-authority-data and certificate-authority are both specified for c"},
      {"clusters: [{name: c, cluster: {server: \"https://h\", insecure-skip-tls-verify: true, "
       "certificate-authority-data: " + b64(kPem) + "}}]\nusers: [{name: u, user: {}}]\n" + ok_ctx,
       "specifying a root certificates file with the insecure flag is not allowed"},
      {ok_cluster + "users: [{name: u, user: {client-certificate-data: " + b64("C") + "}}]\n" + ok_ctx,
       "client-key-data or client-key must be specified for u to use the clientCert authentication method"},
      {ok_cluster + "users: [{name: u, user: {token: t, username: a}}]\n" + ok_ctx,
       "more than one authentication method found for u; found [token basicAuth], only one is allowed"},
      {ok_cluster + "users: [{name: u, user: {exec: {command: aws}}}]\n" + ok_ctx,
       "user u: exec credential plugins are not supported"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of(c.yaml);
    EXPECT_NE(message.find(c.message), std::string::npos)
        << "yaml:\n" << c.yaml << "\nerror: " << message << "\nwanted: " << c.message;
    EXPECT_NE(message.find((dir_ / "config").string()), std::string::npos) << message;
  }
}

TEST_F(KubeconfigTest, SeveralProblemsAreListedTogether) {
  const std::string message = error_of(R"(
clusters: [{name: c, cluster: {}}]
users: [{name: u, user: {token: t, password: p}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
)");
  EXPECT_NE(message.find("invalid configuration: [no server found for cluster \"c\", more than one"),
            std::string::npos)
      << message;
}

TEST_F(KubeconfigTest, UnreadableFile) {
  try {
    load_kubeconfig((dir_ / "missing").string());
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
  }
}

TEST_F(KubeconfigTest, KubeconfigVariableMergesFirstWins) {
  const std::string a = write("a", R"(
clusters: [{name: c, cluster: {server: "https://first"}}]
contexts: [{name: x, context: {cluster: c}}]
current-context: x
)");
  const std::string b = write("b", R"(
clusters: [{name: c, cluster: {server: "https://second"}}, {name: d, cluster: {server: "http://d"}}]
contexts: [{name: y, context: {cluster: d}}]
current-context: y
)");
  const std::string old = std::getenv("KUBECONFIG") ? std::getenv("KUBECONFIG") : "";
  ::setenv("KUBECONFIG", (a + ":" + (dir_ / "absent").string() + ":" + b).c_str(), 1);
  RestConfig current = load_default_kubeconfig();
  RestConfig y = load_default_kubeconfig("y");
  ::setenv("KUBECONFIG", (dir_ / "absent").string().c_str(), 1);
  std::string none;
  try {
    load_default_kubeconfig();
  } catch (const ConfigError& e) {
    none = e.what();
  }
  if (old.empty()) {
    ::unsetenv("KUBECONFIG");
  } else {
    ::setenv("KUBECONFIG", old.c_str(), 1);
  }
  EXPECT_EQ(current.server, "https://first");
  EXPECT_EQ(y.server, "http://d");
  EXPECT_NE(none.find("no kubeconfig found"), std::string::npos) << none;
}

TEST(Base64Test, RoundTripAndRejects) {
  const std::vector<std::string> samples = {"", "a", "ab", "abc", "abcd", std::string("\xff\x00\x10", 3)};
  for (const std::string& s : samples) {
    EXPECT_EQ(internal::decode_base64(internal::encode_base64(s)), s);
  }
  EXPECT_EQ(internal::decode_base64("YWJj\nZA=="), "abcd");
  EXPECT_EQ(internal::decode_base64("YWJ"), std::nullopt);
  EXPECT_EQ(internal::decode_base64("Y=Jj"), std::nullopt);
  EXPECT_EQ(internal::decode_base64("YW*j"), std::nullopt);
}

}  // namespace
}  // namespace kubesim::api::rest
