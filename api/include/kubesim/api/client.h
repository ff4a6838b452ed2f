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
// namespaces). Implementations take every argument by value: they are coroutines.
#ifndef KUBESIM_API_CLIENT_H_
#define KUBESIM_API_CLIENT_H_

#include <functional>
#include <string>
#include <string_view>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/api/options.h"
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

  virtual sim::Task<Result<ObjectPtr>> get(sim::Context ctx, GroupVersionResource resource,
                                           std::string ns, std::string name, GetOptions options) = 0;

  virtual sim::Task<Result<ObjectList>> list(sim::Context ctx, GroupVersionResource resource,
                                             std::string ns, ListOptions options) = 0;

  // Starts a watch; events then arrive through the stream.
  virtual sim::Task<Result<WatchPtr>> watch(sim::Context ctx, GroupVersionResource resource,
                                            std::string ns, ListOptions options) = 0;

  virtual sim::Task<Result<ObjectPtr>> create(sim::Context ctx, GroupVersionResource resource,
                                              std::string ns, ObjectPtr object,
                                              CreateOptions options) = 0;

  // Replaces the object, or the subresource `options.subresource` names ("status": only the
  // status is written); its metadata.resourceVersion is the optimistic-concurrency precondition
  // (empty: unconditional). An update of the object itself leaves the status as stored where the
  // kind has a /status subresource.
  virtual sim::Task<Result<ObjectPtr>> update(sim::Context ctx, GroupVersionResource resource,
                                              std::string ns, ObjectPtr object,
                                              UpdateOptions options) = 0;

  // update() of the /status subresource (client-go's UpdateStatus).
  sim::Task<Result<ObjectPtr>> update_status(sim::Context ctx, GroupVersionResource resource,
                                             std::string ns, ObjectPtr object,
                                             UpdateOptions options) {
    options.subresource = "status";
    return update(std::move(ctx), std::move(resource), std::move(ns), std::move(object),
                  std::move(options));
  }

  // Patches the object, or the subresource `options.subresource` names (client-go's
  // Patch(..., "status")).
  virtual sim::Task<Result<ObjectPtr>> patch(sim::Context ctx, GroupVersionResource resource,
                                             std::string ns, std::string name, PatchType type,
                                             std::string patch, PatchOptions options) = 0;

  // Deletes the object, or marks it with a deletionTimestamp while finalizers remain. Returns the
  // object as it was deleted, or as it now stands with its deletionTimestamp.
  virtual sim::Task<Result<ObjectPtr>> delete_(sim::Context ctx, GroupVersionResource resource,
                                              std::string ns, std::string name,
                                              DeleteOptions options) = 0;

  virtual sim::Task<Result<void>> delete_collection(sim::Context ctx,
                                                    GroupVersionResource resource, std::string ns,
                                                    DeleteOptions options,
                                                    ListOptions list_options) = 0;
};

}  // namespace kubesim::api

#endif  // KUBESIM_API_CLIENT_H_
