// Authentication of the HTTP front end: who a request comes from.
//
// As kube-apiserver: a bearer token from a token file (--token-auth-file format), or a client
// certificate signed by the configured client CA (CN = user name, O = groups). With neither, a
// request is anonymous ("system:anonymous", group "system:unauthenticated") and gets 401 unless
// anonymous access is switched on. There is no authorization: every authenticated user may do
// everything (as a member of system:masters would).
#ifndef KUBESIM_FAKEAPI_HTTP_AUTH_H_
#define KUBESIM_FAKEAPI_HTTP_AUTH_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/result.h"

namespace kubesim::fakeapi::http {

struct UserInfo {
  UserInfo() {}
  std::string name;
  std::string uid;
  std::vector<std::string> groups;
};

// The anonymous user kube-apiserver assigns to requests without credentials.
UserInfo anonymous_user();

// Parses kube-apiserver's token file: one CSV record per line, `token,user,uid[,"g1,g2"]`.
// Records with an empty token are skipped; a later duplicate token replaces an earlier one. A
// record with fewer than 3 columns or a malformed quote is a 400 Status naming the line; nothing
// is returned then.
api::Result<std::map<std::string, UserInfo, std::less<>>> parse_token_file(std::string_view text);

// The token of an `Authorization: Bearer <token>` header value; empty when it is not one
// (the scheme is case-insensitive, as in kube-apiserver).
std::string_view bearer_token(std::string_view authorization);

}  // namespace kubesim::fakeapi::http

#endif  // KUBESIM_FAKEAPI_HTTP_AUTH_H_
