// The units of work that cross between the I/O thread and the loop thread: an ApiCall (a parsed,
// authenticated request that needs the store) and its Reply. Neither holds anything tied to a
// thread: strings, JSON, immutable objects and a shared WatchChannel.
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_CALL_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_CALL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/object.h"
#include "kubesim/api/options.h"
#include "kubesim/api/status.h"
#include "kubesim/fakeapi/http/auth.h"

namespace kubesim::fakeapi::http::internal {

class WatchChannel;

enum class Method { kGet, kHead, kPost, kPut, kPatch, kDelete, kOther };

// Where a path leads, decided from the path alone (the registry is consulted on the loop).
struct Route {
  enum class Kind {
    kNotFound,
    kApiVersions,   // /api
    kGroupList,     // /apis
    kGroup,         // /apis/G
    kResourceList,  // /api/v1, /apis/G/V
    kResource,      // /api/v1/..., /apis/G/V/...
    kOpenApiV3,     // /openapi/v3 (group empty) or /openapi/v3/api/v1, /openapi/v3/apis/G/V
    kAdmin,         // /kubesim/v1/<name>
  };
  Kind kind = Kind::kNotFound;
  std::string group;
  std::string version;
  std::string resource;
  std::string ns;
  std::string name;
  std::string subresource;
  bool watch_prefix = false;  // the deprecated /watch/ path form
  std::string admin;          // for kAdmin: the rest of the path after /kubesim/v1/
};

// A request's query string, form-decoded, in order.
struct Query {
  std::vector<std::pair<std::string, std::string>> params;
  // The first value of `key`, as Go's url.Values.Get.
  const std::string* get(std::string_view key) const {
    for (const auto& [k, v] : params) {
      if (k == key) return &v;
    }
    return nullptr;
  }
};

struct ApiCall {
  ApiCall() {}
  std::uint64_t id = 0;
  Method method = Method::kGet;
  Route route;
  // The Kubernetes verb (get, list, watch, create, update, patch, delete, deletecollection) for
  // resources, else "" (discovery, admin).
  std::string verb;
  Query query;
  api::ListOptions list;
  api::GetOptions get;
  api::CreateOptions create;
  api::UpdateOptions update;
  api::PatchOptions patch;
  api::DeleteOptions del;
  std::string content_type;  // the media type, lower case, without parameters
  std::string body;
  api::ObjectPtr object;     // the decoded body of a create or update (JSON or YAML)
  bool protobuf_body = false;  // the body still needs decode_protobuf_body (on the loop)
  std::optional<api::PatchType> patch_type;
  UserInfo user;
};

struct Reply {
  Reply() {}
  int code = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // Set for a watch that started: the session streams the channel's events.
  std::shared_ptr<WatchChannel> watch;

  static Reply of_status(const api::Status& status);
  // kube-apiserver's 404 for a path that names no resource (details present and empty).
  static Reply resource_not_found();
  static Reply of_json(int code, std::string body);
  static Reply of_text(int code, std::string body);
};

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_CALL_H_
