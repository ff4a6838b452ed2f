// Request and Response: one API call as the fake API server's front door sees it.
//
// Every transport (the in-process client of a simulated process, the HTTP front end) turns a
// call into a Request and hands it to ApiServer::serve; the filters (fault rules, revision wait,
// the recorder, user hooks) and the store see the same value, and the answer comes back as a
// Response. A Request is client-go's testing.Action: a verb, a resource, a namespace, a name, a
// subresource, the options of its verb and a body, plus the client process that sent it.
#ifndef KUBESIM_FAKEAPI_REQUEST_H_
#define KUBESIM_FAKEAPI_REQUEST_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/api/options.h"
#include "kubesim/api/status.h"
#include "kubesim/api/watch.h"
#include "kubesim/sim/time.h"

namespace kubesim::fakeapi {

using Revision = std::int64_t;

enum class Verb { kGet, kList, kWatch, kCreate, kUpdate, kPatch, kDelete, kDeleteCollection };

// "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection".
std::string_view to_string(Verb verb);
std::optional<Verb> parse_verb(std::string_view text);
// True for the verbs that may write: create, update, patch, delete, deletecollection.
bool is_write(Verb verb);

// The options of a deletecollection: which objects go (list) and how each is deleted (del).
struct DeleteCollectionOptions {
  api::DeleteOptions del{};
  api::ListOptions list{};
};

// The options of a request's verb: GetOptions (get), ListOptions (list, watch), CreateOptions,
// UpdateOptions, PatchOptions, DeleteOptions (delete) or DeleteCollectionOptions; monostate when
// the request carries none (the defaults).
using VerbOptions =
    std::variant<std::monostate, api::GetOptions, api::ListOptions, api::CreateOptions,
                 api::UpdateOptions, api::PatchOptions, api::DeleteOptions, DeleteCollectionOptions>;

struct Request {
  Request() {}

  Verb verb = Verb::kGet;
  api::GroupVersionResource resource;
  // The namespace; "" for cluster-scoped resources, and for all namespaces on a list, watch or
  // deletecollection.
  std::string ns;
  // The object's name: of the URL for get, update, patch and delete; of the body for create
  // (empty with generateName).
  std::string name;
  // "" for the object itself, else "status" or "scale".
  std::string subresource;
  // The client process that sent the request ("" when unnamed).
  std::string process;
  // When the request reached the server (set by ApiServer::serve).
  sim::Time received{};

  // The options of the request's verb, the only ones it holds (a Request is made for every call,
  // so it carries one verb's options, not every verb's).
  VerbOptions options;

  // The body of a create or update.
  api::ObjectPtr object;
  // The body of a patch and its type.
  api::PatchType patch_type = api::PatchType::kMergePatch;
  std::string patch_body;

  // The options of each kind as the request holds them; the defaults when it holds another kind
  // (a DeleteCollectionOptions answers list_options() and delete_options()).
  const api::GetOptions& get_options() const;
  const api::ListOptions& list_options() const;
  const api::CreateOptions& create_options() const;
  const api::UpdateOptions& update_options() const;
  const api::PatchOptions& patch_options() const;
  const api::DeleteOptions& delete_options() const;

  // The revision a get or list at an explicit resourceVersion waits for before it is served
  // (kube-apiserver serves it from its watch cache once that has reached it); 0 for every other
  // request.
  Revision read_revision() const;
};

struct Response {
  Response() {}

  // The HTTP code of the answer: 200, 201 for a create, or the failure's code (0 for a client
  // side failure: the call never got an answer).
  int code = 200;
  // Set when the request failed. (Held apart: a Response travels through every filter and
  // coroutine of a call, and most calls succeed.)
  std::unique_ptr<api::Status> error;
  // The object of a get, create, update, patch or delete.
  api::ObjectPtr object;
  // The page of a list.
  api::ObjectList list;
  // The stream of a watch that started, and how many events it queued before it went live (its
  // initial list or its replay from history).
  api::WatchPtr watch;
  std::size_t initial_events = 0;
  // The warnings kube-apiserver sends in Warning headers (code 299, agent "-").
  std::vector<std::string> warnings;
  // The store's revision after the last write the request made; 0 when it wrote nothing.
  Revision revision = 0;
  // The id of the fault rule that answered the request instead of the store, if one did.
  std::string fault_rule;

  bool ok() const { return error == nullptr; }

  // A failed answer with `status` (its code as the response's).
  static Response failure(api::Status status);
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_REQUEST_H_
