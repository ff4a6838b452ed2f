// Identities of live replicas: one bearer token per replica, in a token file of kube-apiserver's
// format (token,user,uid,"groups") whose user is the replica's name, and one kubeconfig per
// replica carrying its token. The HTTP front door names a request's caller by its user, so the
// fault rules' `process:` and partitions match the replica name.
#ifndef KUBESIM_LIVE_INTERNAL_IDENTITY_H_
#define KUBESIM_LIVE_INTERNAL_IDENTITY_H_

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "kubesim/fakeapi/http/auth.h"

namespace kubesim::live {

struct Identity {
  std::string replica;  // "mirror-0": the user name the server sees
  std::string token;
};

// The group every replica's user belongs to, beside system:authenticated.
inline constexpr const char* kReplicaGroup = "kubesim:replicas";

// One fresh random token per replica, in the order given.
std::vector<Identity> make_identities(const std::vector<std::string>& replicas);

// The token file: `TOKEN,NAME,NAME,"kubesim:replicas,system:authenticated"`, a line each.
std::string token_file_text(const std::vector<Identity>& identities);

// The kubeconfig of one replica: the server, its CA, the replica's token; cluster, user and
// context named after the replica.
std::string replica_kubeconfig(const Identity& identity, const std::string& server_url,
                               const std::string& ca_pem);

// The server's token table: token_file_text read back as kube-apiserver reads a token file.
std::map<std::string, fakeapi::http::UserInfo, std::less<>> token_table(const std::vector<Identity>& identities);

// Writes DIR/tokens.csv and DIR/NAME/kubeconfig (mode 0600) for every identity. Throws
// std::runtime_error naming the file that cannot be written.
void write_identities(const std::filesystem::path& dir, const std::vector<Identity>& identities,
                      const std::string& server_url, const std::string& ca_pem);

}  // namespace kubesim::live

#endif  // KUBESIM_LIVE_INTERNAL_IDENTITY_H_
