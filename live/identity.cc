#include "live/internal/identity.h"

#include <sys/stat.h>

#include <fstream>
#include <stdexcept>

#include "kubesim/fakeapi/http/kubeconfig.h"
#include "kubesim/fakeapi/http/tls.h"

namespace kubesim::live {

namespace fs = std::filesystem;

std::vector<Identity> make_identities(const std::vector<std::string>& replicas) {
  std::vector<Identity> out;
  out.reserve(replicas.size());
  for (const auto& name : replicas) out.push_back(Identity{name, fakeapi::http::random_hex(24)});
  return out;
}

std::string token_file_text(const std::vector<Identity>& identities) {
  std::string out;
  for (const auto& id : identities) {
    out += id.token + "," + id.replica + "," + id.replica + ",\"" + kReplicaGroup +
           ",system:authenticated\"\n";
  }
  return out;
}

std::string replica_kubeconfig(const Identity& identity, const std::string& server_url,
                               const std::string& ca_pem) {
  fakeapi::http::KubeconfigSpec spec;
  spec.name = identity.replica;
  spec.server = server_url;
  spec.ca_pem = ca_pem;
  spec.token = identity.token;
  return fakeapi::http::render_kubeconfig(spec);
}

namespace {

void write_private(const fs::path& path, const std::string& text) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
  }
  ::chmod(path.c_str(), 0600);
}

}  // namespace

std::map<std::string, fakeapi::http::UserInfo, std::less<>> token_table(const std::vector<Identity>& identities) {
  auto table = fakeapi::http::parse_token_file(token_file_text(identities));
  if (!table.ok()) throw std::runtime_error("tokens.csv: " + table.status().message);
  return std::move(table).value();
}

void write_identities(const fs::path& dir, const std::vector<Identity>& identities, const std::string& server_url,
                      const std::string& ca_pem) {
  write_private(dir / "tokens.csv", token_file_text(identities));
  for (const auto& id : identities) {
    std::error_code ec;
    fs::create_directories(dir / id.replica, ec);
    if (ec) throw std::runtime_error("cannot create " + (dir / id.replica).string() + ": " + ec.message());
    write_private(dir / id.replica / "kubeconfig", replica_kubeconfig(id, server_url, ca_pem));
  }
}

}  // namespace kubesim::live
