// Request and Response: one API call as a value, from the client that makes it to the server
// that answers it.
//
// A Request is client-go's testing.Action (or the http.Request under a typed client): a verb, a
// resource, a namespace, a name, a subresource, the options of its verb and a body, plus the
// client process that sent it. api::Client::send carries one to a server and brings back its
// Response; the fake API server's front door (fakeapi::ApiServer::serve), its filters and its
// store see the same value. Both are aggregates, like the options: build them field by field.
#ifndef KUBESIM_API_REQUEST_H_
#define KUBESIM_API_REQUEST_H_

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

namespace kubesim::api {

enum class Verb { kGet, kList, kWatch, kCreate, kUpdate, kPatch, kDelete, kDeleteCollection };

// "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection".
std::string_view to_string(Verb verb);
std::optional<Verb> parse_verb(std::string_view text);
// True for the verbs that may write: create, update, patch, delete, deletecollection.
bool is_write(Verb verb);

// The part of an object a request addresses: the object itself, or one of its subresources
// (those of kube-apiserver's built-in resources; docs/resources.md says what each does here).
enum class Subresource {
  kNone,
  kStatus,
  kScale,
  kFinalize,             // namespaces
  kBinding,              // pods
  kEviction,             // pods
  kEphemeralContainers,  // pods
  kResize,               // pods
  kToken,                // serviceaccounts
  kApproval,             // certificatesigningrequests
  kLog,                  // pods; with exec, attach, portforward and proxy answered 501: they need
  kExec,                 // a kubelet on a real node
  kAttach,
  kPortForward,
  kProxy,                // pods, nodes, services
};

// "", "status", "scale", "finalize", "binding", "eviction", "ephemeralcontainers", "resize",
// "token", "approval", "log", "exec", "attach", "portforward", "proxy".
std::string_view to_string(Subresource subresource);
// The subresource a URL's path segment names; nullopt for one kubesim does not model (the
// server answers those 404).
std::optional<Subresource> parse_subresource(std::string_view text);

// The options of a deletecollection: which objects go (list) and how each is deleted (del).
struct DeleteCollectionOptions {
  DeleteOptions del{};
  ListOptions list{};
};

// The options of a request's verb: GetOptions (get), ListOptions (list, watch), CreateOptions,
// UpdateOptions, PatchOptions, DeleteOptions (delete) or DeleteCollectionOptions; monostate when
// the request carries none (the defaults).
using VerbOptions = std::variant<std::monostate, GetOptions, ListOptions, CreateOptions,
                                 UpdateOptions, PatchOptions, DeleteOptions, DeleteCollectionOptions>;

struct Request {
  Verb verb = Verb::kGet;
  GroupVersionResource resource{};
  // The namespace; "" for cluster-scoped resources, and for all namespaces on a list, watch or
  // deletecollection.
  std::string ns{};
  // The object's name: of the URL for get, update, patch and delete; of the body for create
  // (empty with generateName).
  std::string name{};
  Subresource subresource = Subresource::kNone;
  // The client process that sent the request ("" when unnamed); set by the transport.
  std::string process{};
  // When the request reached the server (set by the server).
  sim::Time received{};

  // The options of the request's verb, the only ones it holds (a Request is made for every call,
  // so it carries one verb's options, not every verb's).
  VerbOptions options{};

  // The body of a create or update.
  ObjectPtr object{};
  // The body of a patch and its type.
  PatchType patch_type = PatchType::kMergePatch;
  std::string patch_body{};

  // The options of each kind as the request holds them; the defaults when it holds another kind
  // (a DeleteCollectionOptions answers list_options() and delete_options()).
  const GetOptions& get_options() const;
  const ListOptions& list_options() const;
  const CreateOptions& create_options() const;
  const UpdateOptions& update_options() const;
  const PatchOptions& patch_options() const;
  const DeleteOptions& delete_options() const;
};

struct Response {
  // The HTTP code of the answer: 200, 201 for a create, or the failure's code (0 for a client
  // side failure: the call never got an answer).
  int code = 200;
  // Set when the request failed. (Held apart: a Response travels through every filter and
  // coroutine of a call, and most calls succeed.)
  std::unique_ptr<Status> error{};
  // The object of a get, create, update, patch or delete.
  ObjectPtr object{};
  // The page of a list.
  ObjectList list{};
  // The stream of a watch that started, and how many events it queued before it went live (its
  // initial list or its replay from history; 0 when the transport cannot tell).
  WatchPtr watch{};
  std::size_t initial_events = 0;
  // The warnings the server sent with the answer (Warning headers: code 299, agent "-").
  std::vector<std::string> warnings{};
  // The store's revision after the last write the request made; 0 when it wrote nothing or the
  // transport cannot tell.
  std::int64_t revision = 0;
  // The id of the fault rule that answered the request instead of the store, if one did.
  std::string fault_rule{};

  bool ok() const { return error == nullptr; }

  // A failed answer with `status` (its code as the response's).
  static Response failure(Status status);
};

}  // namespace kubesim::api

#endif  // KUBESIM_API_REQUEST_H_
