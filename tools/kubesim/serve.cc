#include "tools/kubesim/serve.h"

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "kubesim/api/go_duration.h"
#include "kubesim/fakeapi/http/auth.h"
#include "kubesim/fakeapi/http/http_server.h"
#include "kubesim/fakeapi/http/kubeconfig.h"
#include "kubesim/fakeapi/http/manifests.h"
#include "kubesim/fakeapi/http/tls.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/loop.h"

namespace kubesim::tools {
namespace {

namespace http = fakeapi::http;

struct BadOption : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A positive Go duration ("300ms", "10s", "5m", "1h30m") given to `flag`.
sim::Duration parse_duration(const std::string& text, const char* flag) {
  auto parsed = api::parse_go_duration(text);
  if (!parsed) throw BadOption(std::string(flag) + ": " + parsed.status().message);
  if (parsed.value() <= sim::Duration::zero()) throw BadOption(std::string(flag) + ": must be positive");
  return parsed.value();
}

std::pair<std::string, std::uint16_t> split_listen(const std::string& listen) {
  const std::size_t colon = listen.rfind(':');
  if (colon == std::string::npos) throw BadOption("--listen: expected host:port, got \"" + listen + "\"");
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) host = "127.0.0.1";
  int port = -1;
  try {
    port = std::stoi(listen.substr(colon + 1));
  } catch (const std::exception&) {
  }
  if (port < 0 || port > 65535) throw BadOption("--listen: invalid port in \"" + listen + "\"");
  return {host, static_cast<std::uint16_t>(port)};
}

std::string read_file(const std::string& path, const char* flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BadOption(std::string(flag) + ": cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_private(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw BadOption("cannot write " + tmp.string());
    out << text;
    if (!out.flush()) throw BadOption("cannot write " + tmp.string());
  }
  ::chmod(tmp.c_str(), 0600);
  std::filesystem::rename(tmp, path);
}

template <class T>
T must(api::Result<T> r, const std::string& what) {
  if (!r) throw BadOption(what + ": " + r.status().message);
  return std::move(r.value());
}

struct Credentials {
  http::HttpServerOptions server;
  http::KubeconfigSpec kubeconfig;
};

// TLS material and tokens: given, or generated.
void set_up_credentials(const ServeOptions& o, Credentials& c) {
  if (!o.token_file.empty()) {
    c.server.tokens = must(http::parse_token_file(read_file(o.token_file, "--token-file")), "--token-file");
  }
  const std::string admin_token = http::random_hex(24);
  http::UserInfo admin;
  admin.name = "kubesim-admin";
  admin.uid = "kubesim-admin";
  admin.groups = {"system:masters", "system:authenticated"};
  c.server.tokens[admin_token] = admin;
  c.kubeconfig.token = admin_token;
  c.server.anonymous = o.anonymous;
  if (o.insecure) {
    if (!o.tls_cert_file.empty() || !o.client_ca_file.empty()) {
      throw BadOption("--insecure cannot be combined with TLS files");
    }
    c.server.allow_plain_non_loopback = o.force_insecure;
    return;
  }
  if (o.tls_cert_file.empty() != o.tls_key_file.empty()) {
    throw BadOption("--tls-cert-file and --tls-private-key-file go together");
  }
  if (!o.tls_cert_file.empty()) {
    c.server.tls.cert_pem = read_file(o.tls_cert_file, "--tls-cert-file");
    c.server.tls.key_pem = read_file(o.tls_key_file, "--tls-private-key-file");
    if (!o.client_ca_file.empty()) {
      c.server.client_ca_pem = read_file(o.client_ca_file, "--client-ca-file");
      c.kubeconfig.ca_pem = c.server.client_ca_pem;  // the usual case: one CA for both
    } else {
      // The serving chain itself is what a client can trust: enough for a self-signed
      // certificate, and for a chain file that ends with its CA.
      c.kubeconfig.ca_pem = c.server.tls.cert_pem;
    }
    return;
  }
  const http::CertificateAndKey ca = must(http::generate_ca("kubesim-ca"), "generating the CA");
  c.server.tls = must(http::issue_localhost_serving_certificate(ca), "generating the serving certificate");
  c.server.client_ca_pem = o.client_ca_file.empty() ? ca.cert_pem : read_file(o.client_ca_file, "--client-ca-file");
  c.kubeconfig.ca_pem = ca.cert_pem;
  if (!o.cert_dir.empty()) {
    std::filesystem::create_directories(o.cert_dir);
    const std::filesystem::path dir(o.cert_dir);
    http::CertificateRequest req;
    req.common_name = "kubesim-admin";
    req.organizations = {"system:masters"};
    req.client = true;
    const auto client = must(http::issue_certificate(ca, req), "generating the admin client certificate");
    write_private(dir / "ca.crt", ca.cert_pem);
    write_private(dir / "ca.key", ca.key_pem);
    write_private(dir / "apiserver.crt", c.server.tls.cert_pem);
    write_private(dir / "apiserver.key", c.server.tls.key_pem);
    write_private(dir / "admin.crt", client.cert_pem);
    write_private(dir / "admin.key", client.key_pem);
  }
}

}  // namespace

int run_serve(const ServeOptions& o, std::ostream& out, std::ostream& err) {
  const auto t0 = std::chrono::steady_clock::now();
  Credentials c;
  fakeapi::ServerOptions server_options;
  std::vector<http::Manifest> manifests;
  try {
    auto [host, port] = split_listen(o.listen);
    c.server.address = host;
    c.server.port = port;
    c.server.git_version = o.git_version;
    server_options.compaction_interval = parse_duration(o.compaction, "--compaction");
    set_up_credentials(o, c);
    // After the credentials, which start from a fresh HttpServerOptions.
    c.server.idle_timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
        parse_duration(o.idle_timeout, "--idle-timeout"));
    c.server.header_timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
        parse_duration(o.read_header_timeout, "--read-header-timeout"));
    for (const auto& path : o.load) {
      auto more = must(http::read_manifests(path), "--load");
      for (auto& m : more) manifests.push_back(std::move(m));
    }
  } catch (const std::exception& e) {
    err << "kubesim serve: " << e.what() << "\n";
    return 2;
  }
  if (o.verbosity >= 2) {
    c.server.log = [&err](const std::string& line) { err << line << "\n"; };
  }

  // Termination signals are taken by a thread of their own; every other thread blocks them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  sim::LoopOptions loop_options;
  loop_options.mode = sim::ClockMode::kReal;
  loop_options.epoch_unix_seconds = static_cast<std::int64_t>(std::time(nullptr));
  sim::Loop loop(loop_options);
  fakeapi::ApiServer server(loop, server_options);
  auto created = http::create_manifests(server, manifests);
  if (!created) {
    err << "kubesim serve: --load: " << created.status().message << "\n";
    return 2;
  }
  std::optional<http::HttpServer> http_server;
  try {
    http_server.emplace(loop, server, c.server);
  } catch (const std::exception& e) {
    err << "kubesim serve: " << e.what() << "\n";
    return 2;
  }
  c.kubeconfig.server = http_server->url();
  c.kubeconfig.insecure_skip_tls_verify = o.insecure;
  if (!o.kubeconfig_out.empty()) {
    try {
      write_private(o.kubeconfig_out, http::render_kubeconfig(c.kubeconfig));
    } catch (const std::exception& e) {
      err << "kubesim serve: --kubeconfig-out: " << e.what() << "\n";
      return 2;
    }
  }
  const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  out << "kubesim serve: serving " << http_server->url() << " (" << *created << " objects loaded"
      << (o.kubeconfig_out.empty() ? std::string() : ", kubeconfig " + o.kubeconfig_out)
      << "), ready in " << static_cast<int>(ms) << " ms" << std::endl;

  std::thread waiter([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    http_server->stop();
    loop.stop();
  });
  loop.run();
  waiter.join();
  http_server.reset();
  out << "kubesim serve: stopped" << std::endl;
  return 0;
}

}  // namespace kubesim::tools
