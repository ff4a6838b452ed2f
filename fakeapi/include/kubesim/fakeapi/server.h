// ApiServer: the fake API server's semantics over the Store — kube-apiserver on etcd, in process.
//
// Every call is synchronous and answers what kube-apiserver would: the object, or a Status with
// the real code and reason, and a call that fails changes nothing. Writes bump one global revision;
// create fills in uid, creationTimestamp (virtual time), generation and resourceVersion; update is
// optimistic on resourceVersion (empty: unconditional), keeps system fields, ignores status on the
// main resource of kinds with a /status subresource, bumps generation on spec changes, and a write
// that changes nothing is not a write. A built-in kind with a Go type table is stored as
// encoding/json renders its Go type (fakeapi/internal/encoding/types/go_encoding.h): omitempty zeros are left out
// and value structs appear, so "changes nothing" is judged on that rendering; fields the Go type
// does not have are dropped, or refused with 400 under fieldValidation Strict (named in
// warnings() under Warn). Delete honours preconditions and finalizers. Lists are
// consistent snapshots, paginated with continue tokens; watches start from any retained revision.
// CustomResourceDefinitions live as in apiextensions-apiserver (server_crd.cc): their names are
// accepted and they become Established right after the create, their resource is served with the
// accepted names and re-served on update; deleting one marks it with the cleanup finalizer and
// deletes its objects, then the CRD; creates of its objects are forbidden meanwhile. Namespaces
// must exist, and deleting one deletes its content.
//
// The front door: transports (InProcessClient for simulated processes, the HTTP front end) hand
// every call to serve() as a Request, which passes through an ordered chain of filters
// (kubesim/fakeapi/filter.h: the recorder, user filters, fault rules, the revision wait, watch
// delivery, stale reads, forced 410s) before the store answers it with a Response. answer() and
// the typed calls over it (get, create, ...) are the operator's hand on the store (setup code,
// checks, tests): they answer at once, no filter sees them and they are not recorded. Committed
// writes, from either, reach the write listeners.
//
// The network, latency and partitions belong to the transports.
#ifndef KUBESIM_FAKEAPI_SERVER_H_
#define KUBESIM_FAKEAPI_SERVER_H_

#include <memory>
#include <string>
#include <string_view>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "kubesim/api/object.h"
#include "kubesim/api/options.h"
#include "kubesim/api/result.h"
#include "kubesim/api/watch.h"
#include "kubesim/fakeapi/faults.h"
#include "kubesim/fakeapi/filter.h"
#include "kubesim/fakeapi/recorder.h"
#include "kubesim/fakeapi/registry.h"
#include "kubesim/fakeapi/request.h"
#include "kubesim/fakeapi/server_options.h"
#include "kubesim/fakeapi/store.h"
#include "kubesim/fakeapi/watch_hub.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/task.h"

namespace kubesim::fakeapi {
namespace internal {
class FastPaths;  // tests compare the write paths (internal/fastpath/fast_paths.h)
class StaleReads;  // the fault filters that answer from the store (internal/filters.h)
class ForcedGone;
}  // namespace internal

// One committed write, as write listeners see it.
struct CommittedWrite {
  Revision revision = 0;
  const api::GroupResource* resource = nullptr;  // valid during the call
  ChangeType type = ChangeType::kAdded;
  // The state before the write; null for kAdded.
  api::ObjectPtr previous;
  // The state after it; for kDeleted the last state, carrying the deletion's resourceVersion.
  api::ObjectPtr object;
};

// Called synchronously after every committed write, once the watchers have it. A listener may
// read the server but must not write to it (schedule writes on the loop instead).
using WriteListener = std::function<void(const CommittedWrite&)>;

class ApiServer {
 public:
  ApiServer(sim::Loop& loop, ServerOptions options = {});
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;
  ~ApiServer();

  sim::Loop& loop() const { return *loop_; }
  const Registry& registry() const { return registry_; }
  const Store& store() const { return store_; }
  FaultInjector& faults() { return faults_; }
  const WatchHub& watches() const { return hub_; }
  Revision revision() const { return store_.revision(); }

  // The front door: serves `request` through the filter chain and answers when the server does.
  // `ctx` is the caller's: when it is done while the request waits (injected latency, a revision
  // wait) the request is abandoned and the answer is a client error (code 0) carrying the
  // context's error. request.received is set on arrival.
  sim::Task<Response> serve(sim::Context ctx, std::unique_ptr<Request> request);
  // The same for a request held by value (moved into one heap object for the chain).
  sim::Task<Response> serve(sim::Context ctx, Request request) {
    return serve(std::move(ctx), std::make_unique<Request>(std::move(request)));
  }
  // Adds `filter` to the chain, after the recorder and the filters added before it and before
  // the fault rules. Requests already in the chain keep the chain they started with.
  void add_filter(std::shared_ptr<Filter> filter);
  // Removes a filter added with add_filter; false when it is not in the chain.
  bool remove_filter(const Filter* filter);
  // Every request served through the front door, in order (kubesim/fakeapi/recorder.h).
  Recorder& recorder() { return *recorder_; }
  const Recorder& recorder() const { return *recorder_; }

  // Adds a listener for committed writes; returns its id for remove_write_listener.
  std::uint64_t add_write_listener(WriteListener listener);
  void remove_write_listener(std::uint64_t id);

  // The operator's hand: answers `request` at once from the store, as serve() would once the
  // request passed the filters (no fault rule, revision wait or recorder sees it). The Response
  // carries the answer's warnings.
  Response answer(const Request& request);
  // The request answer() is answering right now, or null: a write listener (and a check it
  // runs) sees the request whose write woke it, before the recorder logs it with its answer.
  const Request* answering() const { return answering_; }

  // Typed operator calls over answer(), with the request's fields as arguments.
  api::Result<api::ObjectPtr> get(const api::GroupVersionResource& gvr, std::string_view ns,
                                  std::string_view name, const api::GetOptions& options);
  api::Result<api::ObjectList> list(const api::GroupVersionResource& gvr, std::string_view ns,
                                    const api::ListOptions& options);
  api::Result<api::WatchPtr> watch(const api::GroupVersionResource& gvr, std::string_view ns,
                                   const api::ListOptions& options);
  api::Result<api::ObjectPtr> create(const api::GroupVersionResource& gvr, std::string_view ns,
                                     const api::ObjectPtr& object, const api::CreateOptions& options);
  // Subresource::kStatus writes the /status subresource (of a kind that has one; any other
  // subresource is not found).
  api::Result<api::ObjectPtr> update(const api::GroupVersionResource& gvr, std::string_view ns,
                                     const api::ObjectPtr& object, const api::UpdateOptions& options,
                                     Subresource subresource = Subresource::kNone);
  api::Result<api::ObjectPtr> patch(const api::GroupVersionResource& gvr, std::string_view ns,
                                    std::string_view name, api::PatchType type,
                                    std::string_view patch, const api::PatchOptions& options,
                                    Subresource subresource = Subresource::kNone);
  // A write's Response carries the warnings kube-apiserver sends in Warning headers: under
  // fieldValidation Warn (the default), one "unknown field \"spec.foo\"" per field the kind's Go
  // type does not have (the field is dropped). Like kube-apiserver's, they come with the answer
  // whatever happens once the body has decoded (a 404, 409 or 422 too); a body that does not
  // decode, and a request refused before its body is read, get none.

  // The deleted object, or the object now marked with a deletionTimestamp.
  api::Result<api::ObjectPtr> delete_(const api::GroupVersionResource& gvr, std::string_view ns,
                                      std::string_view name, const api::DeleteOptions& options);
  api::Result<void> delete_collection(const api::GroupVersionResource& gvr, std::string_view ns,
                                      const api::DeleteOptions& options,
                                      const api::ListOptions& list_options);

  // Reads at a revision the store has not reached: kube-apiserver serves a get or list with
  // resourceVersion N > 0 (any resourceVersionMatch; not "0", not a continue) from its watch
  // cache once that has reached N, waiting up to 3 s (options.watch.fresh_wait), and answers 504
  // "Too large resource version" with the ResourceVersionTooLarge cause after that. Served
  // requests wait (the revision-wait filter); the operator's calls answer at once.

  // Compacts history up to the current revision now (an operator's etcd compaction).
  void compact_now();
  // A restart of the server: every watch is cut; the state is kept.
  void restart();
  // Ends every open watch of `gvr` now, as the server ends a watch (the stream ends cleanly and
  // the client re-watches); returns how many ended, 0 when `gvr` is not served.
  std::size_t close_watches(const api::GroupVersionResource& gvr);

 private:
  struct Resolved {
    const ResourceInfo* info = nullptr;
    TableId table = 0;
    std::string ns;
  };
  // What a list will read, once the request has passed every check before the store's scan.
  struct ListPlan {
    Resolved r;
    std::function<bool(const api::Object&)> predicate;
    Revision at = 0;
    std::string start;  // the key to start after (a continue token's)
    std::int64_t limit = 0;
    bool continued = false;  // from a continue token at a retained revision
  };
  // What a watch will start, once the request has passed every check.
  struct WatchPlan {
    Resolved r;
    std::function<bool(const api::Object&)> predicate;
  };

  // The core verbs: each answers one request from the store (server_serve.cc dispatches).
  // `cached` is the revision a read the watch cache may serve (resourceVersion "0") is served
  // at: the latest, or an older one for a stale read (internal::StaleReads).
  Response serve_read(const Request& request, Revision cached);
  Response serve_watch(const Request& request);
  // create, update or patch through `path`, answered with `code` and the write's warnings.
  using WritePath = api::Result<api::ObjectPtr> (ApiServer::*)(const Request&, std::vector<std::string>*);
  Response serve_write(const Request& request, WritePath path, int code);
  Response serve_delete(const Request& request);
  Response serve_delete_collection(const Request& request);
  // The answer of a request the resource's verbs or subresources decide (a verb it lacks, a
  // subresource it does not have or that is not the object's status, a kind that is not
  // stored); nullopt for the core verbs to answer.
  std::optional<Response> route(const Request& request, const ResourceInfo& info);
  // The subresources beyond status (server_subresources.cc, server_eviction.cc): `info` is the
  // parent resource's and the request's verb is one the subresource has.
  Response serve_subresource(const Request& request, const ResourceInfo& info);
  Response serve_scale(const Request& request, const ResourceInfo& info);
  // The stored object a subresource request addresses (404 when there is none).
  api::Result<std::pair<Resolved, api::ObjectPtr>> stored_parent(const Request& request,
                                                                 const ResourceInfo& info);
  // pods/binding, and a create of the core bindings resource (the pod named by the Binding).
  Response serve_binding(const Request& request, std::string_view pod_name);
  Response serve_eviction(const Request& request);
  // finalize, ephemeralcontainers, resize, approval: the stored object with one part of the new.
  Response serve_part_update(const Request& request, const ResourceInfo& info);
  // A create of a kind that is answered, not stored: bindings and the review kinds
  // (server_reviews.cc).
  Response serve_unstored_create(const Request& request, const ResourceInfo& info);
  // Writes `next` over `current` as it is (no strategy, no validation), unless nothing changed.
  api::ObjectPtr put_direct(const Resolved& r, const api::ObjectPtr& current, nlohmann::json next,
                            std::string_view process, std::string_view trace_kind);
  // A watch or continued list answered 410 Gone at once (internal::ForcedGone): the watch starts
  // and ends with the 410 ERROR event; the list's 410 carries a token for the rest at the latest
  // revision. Null when the request would not reach the store's answer (it fails a check first,
  // or is not a watch or a list continued at a retained revision).
  // `fire` is the fault rule's draw, asked only once the request reached that point.
  std::unique_ptr<Response> expired(const Request& request, const std::function<bool()>& fire);
  // A get or list the watch cache serves (resourceVersion "0") answered from the revision the
  // store had the stale-read rule's stale_by ago (internal::StaleReads); `fire` is the rule's
  // draw, asked only once the request reached that point. Null when it did not, or the rule did
  // not fire.
  std::unique_ptr<Response> stale_read(const Request& request,
                                       const std::function<const StaleReadFault*()>& fire);
  // The revision the store had `lag` ago (not older than the compacted one).
  Revision revision_before(sim::Duration lag) const;

  api::Result<api::ObjectPtr> get_object(const Request& request, Revision cached);
  api::Result<ListPlan> plan_list(const Request& request, Revision cached);
  api::ObjectList scan_list(const ListPlan& plan);
  api::Result<WatchPlan> plan_watch(const Request& request);
  // Draws the watch's timeout, then starts it (or fails on its resourceVersion).
  api::Result<WatchStart> start_watch(const Request& request, WatchPlan plan);
  // Completes once the store reaches `revision` (true), or after fresh_wait or when `ctx` is
  // done (false).
  sim::Task<bool> wait_for_revision(Revision revision, sim::Context ctx);
  void rebuild_chain();
  void notify_write(const Change& change);

  api::Result<Resolved> resolve(const api::GroupVersionResource& gvr, std::string_view ns,
                                bool collection) const;
  api::Result<Revision> not_older_than(std::string_view rv) const;
  api::Result<std::function<bool(const api::Object&)>> predicate(const ResourceInfo& info,
                                                                 const api::ListOptions& options) const;
  // The write paths of create, update and patch; `warnings` collects the answer's warnings.
  api::Result<api::ObjectPtr> create_object(const Request& request, std::vector<std::string>* warnings);
  api::Result<api::ObjectPtr> update_object(const Request& request, std::vector<std::string>* warnings);
  api::Result<api::ObjectPtr> patch_object(const Request& request, std::vector<std::string>* warnings);
  // Server-side apply (server_apply.cc): a PATCH of an apply type, which creates the object when
  // absent; it also refuses `force` on the other patch types.
  api::Result<api::ObjectPtr> apply_object(const Request& request, std::vector<std::string>* warnings);
  // Records the Update entry of `field_manager` in next's metadata.managedFields (`live` is null
  // for a create) when the write names a manager or the object's fields are tracked already.
  void track_managed_fields(const ResourceInfo& info, const api::Object* live, nlohmann::json& next,
                            std::string_view field_manager, Subresource subresource);
  // What update and patch pass on to write_update.
  struct WriteOptions {
    std::string_view process;  // who writes, for the trace
    Subresource subresource = Subresource::kNone;
    bool dry_run = false;
    api::FieldValidation field_validation = api::FieldValidation::kUnset;
    // Whether write_update records field_manager's Update entry.
    bool track_fields = false;
    std::string_view field_manager{};
    // An apply's managedFields, stored as they are (null: none).
    const nlohmann::json* applied_managed_fields = nullptr;
  };
  api::Result<api::ObjectPtr> write_update(const Resolved& r, const api::ObjectPtr& current,
                                           nlohmann::json desired, const WriteOptions& options);
  // delete and deletecollection; `process` is who deletes, for the trace (the cascades of a
  // namespace's or a CRD's deletion are the request's too).
  api::Result<api::ObjectPtr> delete_object(const api::GroupVersionResource& gvr, std::string_view ns,
                                            std::string_view name, const api::DeleteOptions& options,
                                            std::string_view process);
  api::Result<void> delete_objects(const api::GroupVersionResource& gvr, std::string_view ns,
                                   const api::DeleteOptions& options,
                                   const api::ListOptions& list_options, std::string_view process);
  api::Result<api::ObjectPtr> finish_delete(const Resolved& r, const std::string& key,
                                            const api::ObjectPtr& current, bool dry_run,
                                            std::string_view process);
  // NamespaceLifecycle admission: a namespaced create needs a namespace that exists and is not
  // terminating. It runs after decoding and before validation, as in kube-apiserver.
  std::optional<api::Status> refuse_create_in_namespace(const ResourceInfo& info, std::string_view name,
                                                        std::string_view ns) const;
  // The store's refusal of a create that carries a resourceVersion (after validation).
  static std::optional<api::Status> refuse_create_with_resource_version(std::string_view client_rv,
                                                                        bool dry_run);
  // A create's name (generated if asked), validation, admission and free key, or why it is
  // refused; `j` is the object to store, with its name.
  struct NamedCreate {
    std::string key;
    std::string name;
  };
  api::Result<NamedCreate> name_and_check(const Resolved& r, const api::ObjectPtr& object,
                                          const api::CreateOptions& options, nlohmann::json& j,
                                          std::vector<std::string>* warnings);
  // The create fast path's generated name and its key: drawn as name_and_check draws, again
  // while its key is taken, for a prefix whose every drawn name passes the checks; the
  // AlreadyExists of the last one when all the attempts are taken.
  api::Result<NamedCreate> draw_free_name(const Resolved& r, std::string_view prefix);
  void fill_create_fields(const ResourceInfo& info, std::string_view ns, nlohmann::json& j);
  // Renders `j` as the kind's Go type stores it (fakeapi/internal/encoding/types/go_encoding.h), or for a custom
  // resource prunes it by its CRD's schema and applies the schema's defaults; drops unknown
  // fields (the validation named them in warnings).
  void render_stored(const ResourceInfo& info, nlohmann::json& j);
  // The Object the server stores or answers with: compact, for it may be kept long.
  api::ObjectPtr stamp(nlohmann::json j) const;
  static api::Result<api::ObjectPtr> stored_object(nlohmann::json j);
  std::string new_uid();
  std::string generate_name(std::string_view prefix);
  std::string now_rfc3339() const;
  bool namespace_terminating(std::string_view ns) const;
  void on_namespace_deleting(const std::string& ns, std::string_view process);
  void maybe_finalize_namespace(const std::string& ns, std::string_view process);
  // CustomResourceDefinitions (server_crd.cc).
  std::optional<api::Status> prepare_crd_create(nlohmann::json& j, const std::string& name) const;
  std::optional<api::Status> prepare_crd_update(const nlohmann::json& old, nlohmann::json& next) const;
  std::vector<api::ObjectPtr> crds_of_group(const std::string& group);
  // The CRD controllers' writes; `process` is whose request set them going ("" for a timer's).
  api::ObjectPtr put_crd(const api::ObjectPtr& current, nlohmann::json next, std::string_view process);
  void sync_crd(const std::string& name, std::string_view process);
  void serve_crd(const api::ObjectPtr& crd);
  api::Result<api::ObjectPtr> delete_crd(const Resolved& r, const std::string& key,
                                         const api::ObjectPtr& current,
                                         const api::DeleteOptions& options, std::string_view process);
  bool crd_terminating(const std::string& crd_name) const;
  // By value: deletions may free the caller's string.
  void finalize_crd(std::string name, std::string_view process);
  bool delete_crd_instances(const std::string& crd_name, std::string_view process);
  void on_crd_deleted(const api::ObjectPtr& crd, std::string_view process);
  void schedule_compaction();
  // A trace line of a write by `process` ("apiserver" when empty), written just before the
  // store commits it (rev is store_.next_revision()): the write's line then comes before
  // whatever its commit sets off — a watch event, a check that breaks on it.
  void trace_write(std::string_view process, std::string_view kind, const Resolved& r,
                   std::string_view name, Revision rev);

  friend class internal::FastPaths;
  friend class internal::StaleReads;
  friend class internal::ForcedGone;

  sim::Loop* loop_;
  ServerOptions options_;
  bool fast_paths_ = true;
  Registry registry_;
  Store store_;
  TableId namespaces_table_ = 0;  // the store's table of namespaces, looked up once
  WatchHub hub_;
  FaultInjector faults_;
  // The front door: the chain every served request passes, replaced (never changed) when a
  // filter is added or removed.
  std::shared_ptr<Recorder> recorder_;
  std::vector<std::shared_ptr<Filter>> user_filters_;
  // latency, errors, revision wait, delivery, stale reads, forced 410s
  std::vector<std::shared_ptr<Filter>> fault_filters_;
  std::shared_ptr<const std::vector<std::shared_ptr<Filter>>> chain_;
  // Write listeners by id; a removed one is left empty until no notification is running.
  std::deque<std::pair<std::uint64_t, WriteListener>> write_listeners_;  // stable while called
  std::uint64_t next_listener_id_ = 1;
  bool notifying_ = false;
  const Request* answering_ = nullptr;  // answering()
  // Reads waiting for a revision (wait_for_revision), woken by the write that reaches it.
  std::multimap<Revision, std::shared_ptr<sim::Event>> revision_waiters_;
  // (time, revision) of recent writes, for stale reads.
  std::deque<std::pair<sim::Time, Revision>> revision_times_;
  // The last resource resolved, so that runs of calls on one resource skip the registry's and
  // the store's map lookups; dropped whenever the registry changes.
  mutable std::optional<Resolved> last_resolved_;
  std::string key_buffer_;  // scratch space for the store key of a read
  Revision compaction_mark_ = 0;
  sim::TimerId compaction_timer_;
  bool compaction_armed_ = false;
  // CRD name -> the spec (with the accepted names) its resource is served with.
  std::map<std::string, nlohmann::json> served_crds_;
  std::set<std::string> finalizing_crds_;
  std::map<std::string, sim::TimerId> crd_check_timers_;
  // Set by apply_object when its apply created the object (the answer is 201 Created).
  bool apply_created_ = false;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_SERVER_H_
