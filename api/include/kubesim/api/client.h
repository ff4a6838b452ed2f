// Client: the Kubernetes API as kubesim's components use it.
//
// One interface over every server: the in-process fake API server (fakeapi) and the REST client
// (a `kubesim serve` or a real cluster). Calls are coroutines; expected API outcomes (NotFound,
// Conflict, Gone, TooManyRequests, ...) come back as a Status in the Result, never as exceptions.
// Every call takes a Context; when it is done before the answer arrives the call returns a
// timeout Status (as client-go returns the context's error).
//
// Resources are named by GroupVersionResource; `ns` is the namespace for namespaced resources and
// "" for cluster-scoped ones (for list, watch and delete_collection "" also means all
// namespaces). Every call is one Request through the one virtual function, send(): a transport
// implements it, and a decorator (recording, counting, rewriting) overrides it alone.
#ifndef KUBESIM_API_CLIENT_H_
#define KUBESIM_API_CLIENT_H_

#include <functional>
#include <string>
#include <string_view>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/api/options.h"
#include "kubesim/api/request.h"
#include "kubesim/api/result.h"
#include "kubesim/api/watch.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"

namespace kubesim::api {

// What a client does with the warnings a server sends with an answer (client-go's
// WarningHandler): called once per warning, in order, before the call's result is delivered.
// kube-apiserver's warnings have code 299 and agent "-".
using WarningHandler = std::function<void(int code, std::string_view agent, std::string_view text)>;

class Client {
 public:
  virtual ~Client() = default;

  // Carries `request` to the server and brings back its answer: the one function a transport
  // (or a decorator over another Client) implements, as client-go's typed clients sit on one
  // http.RoundTripper. A failure is a Response whose `error` is set (code 0 when no answer came:
  // a done context, a network fault). The transport sets `request.process` to its own name. For a
  // watch, a Response without error carries the started stream in `watch`.
  virtual sim::Task<Response> send(sim::Context ctx, Request request) = 0;

  // The typed verbs: each builds its Request, sends it and reads the Response as a Result.

  sim::Task<Result<ObjectPtr>> get(sim::Context ctx, GroupVersionResource resource, std::string ns,
                                   std::string name, GetOptions options = GetOptions());

  sim::Task<Result<ObjectList>> list(sim::Context ctx, GroupVersionResource resource,
                                     std::string ns, ListOptions options = ListOptions());

  // Starts a watch; events then arrive through the stream.
  sim::Task<Result<WatchPtr>> watch(sim::Context ctx, GroupVersionResource resource,
                                    std::string ns, ListOptions options = ListOptions());

  sim::Task<Result<ObjectPtr>> create(sim::Context ctx, GroupVersionResource resource,
                                      std::string ns, ObjectPtr object,
                                      CreateOptions options = CreateOptions());

  // Replaces the object, or its `subresource` (kStatus: only the status is written); its
  // metadata.resourceVersion is the optimistic-concurrency precondition (empty: unconditional).
  // An update of the object itself leaves the status as stored where the kind has a /status
  // subresource.
  sim::Task<Result<ObjectPtr>> update(sim::Context ctx, GroupVersionResource resource,
                                      std::string ns, ObjectPtr object,
                                      UpdateOptions options = UpdateOptions(),
                                      Subresource subresource = Subresource::kNone);

  // update() of the /status subresource (client-go's UpdateStatus).
  sim::Task<Result<ObjectPtr>> update_status(sim::Context ctx, GroupVersionResource resource,
                                             std::string ns, ObjectPtr object,
                                             UpdateOptions options = UpdateOptions()) {
    return update(std::move(ctx), std::move(resource), std::move(ns), std::move(object),
                  std::move(options), Subresource::kStatus);
  }

  // Patches the object, or its `subresource` (client-go's Patch(..., "status")).
  sim::Task<Result<ObjectPtr>> patch(sim::Context ctx, GroupVersionResource resource,
                                     std::string ns, std::string name, PatchType type,
                                     std::string patch, PatchOptions options = PatchOptions(),
                                     Subresource subresource = Subresource::kNone);

  // Server-side apply of `configuration` (a whole object with apiVersion, kind and
  // metadata.name; only the fields its manager means to own) by options.field_manager, which is
  // required; the object is created when absent (client-go's Apply with an ApplyConfiguration).
  // Fields other managers own that the configuration changes fail the call with a 409 Conflict
  // naming them, unless options.force is true, which takes them. With `subresource` status,
  // applies the status (client-go's ApplyStatus).
  sim::Task<Result<ObjectPtr>> apply(sim::Context ctx, GroupVersionResource resource,
                                     std::string ns, ObjectPtr configuration,
                                     PatchOptions options = PatchOptions(),
                                     Subresource subresource = Subresource::kNone);

  // Deletes the object, or marks it with a deletionTimestamp while finalizers remain. Returns the
  // object as it was deleted, or as it now stands with its deletionTimestamp.
  sim::Task<Result<ObjectPtr>> delete_(sim::Context ctx, GroupVersionResource resource,
                                      std::string ns, std::string name,
                                      DeleteOptions options = DeleteOptions());

  sim::Task<Result<void>> delete_collection(sim::Context ctx, GroupVersionResource resource,
                                            std::string ns, DeleteOptions options = DeleteOptions(),
                                            ListOptions list_options = ListOptions());
};

}  // namespace kubesim::api

#endif  // KUBESIM_API_CLIENT_H_
