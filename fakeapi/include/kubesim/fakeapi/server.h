// ApiServer: the fake API server's semantics over the Store — kube-apiserver on etcd, in process.
//
// Every call is synchronous and answers what kube-apiserver would: the object, or a Status with
// the real code and reason, and a call that fails changes nothing. Writes bump one global revision;
// create fills in uid, creationTimestamp (virtual time), generation and resourceVersion; update is
// optimistic on resourceVersion (empty: unconditional), keeps system fields, ignores status on the
// main resource of kinds with a /status subresource, bumps generation on spec changes, and a write
// that changes nothing is not a write. A built-in kind with a Go type table is stored as
// encoding/json renders its Go type (kubesim/fakeapi/internal/encoding/types/go_encoding.h): omitempty zeros are left out
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
// (kubesim/fakeapi/filter.h: the recorder, user filters, fault rules, the revision wait, watch delivery)
// before these synchronous methods answer it. Calling the synchronous methods directly is the
// operator's hand on the store (setup code, tests): no filter sees it and it is not recorded.
// Committed writes, from either, reach the write listeners.
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
#include "kubesim/fakeapi/store.h"
#include "kubesim/fakeapi/watch_hub.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/task.h"

namespace kubesim::fakeapi {
namespace internal {
class FastPaths;  // tests compare the write paths (internal/fastpath/fast_paths.h)
}  // namespace internal

struct ServerOptions {
  // History older than this is compacted, as kube-apiserver has etcd compact every 5 minutes.
  sim::Duration compaction_interval = std::chrono::minutes(5);
  // Watches without timeoutSeconds end after a random time in [min, 2·min), as kube-apiserver's
  // --min-request-timeout does.
  sim::Duration min_request_timeout = std::chrono::minutes(30);
  WatchHubOptions watch{};
  // How many served requests the recorder keeps (the oldest are dropped first); 0 keeps none.
  std::size_t recorder_capacity = 100'000;
  // The namespaces that exist from the start.
  std::vector<std::string> initial_namespaces = {"default", "kube-system", "kube-public",
                                                 "kube-node-lease"};
};

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

  api::Result<api::ObjectPtr> get(const api::GroupVersionResource& gvr, std::string_view ns,
                                  std::string_view name, const api::GetOptions& options);
  api::Result<api::ObjectList> list(const api::GroupVersionResource& gvr, std::string_view ns,
                                    const api::ListOptions& options);
  api::Result<api::WatchPtr> watch(const api::GroupVersionResource& gvr, std::string_view ns,
                                   const api::ListOptions& options);
  api::Result<api::ObjectPtr> create(const api::GroupVersionResource& gvr, std::string_view ns,
                                     const api::ObjectPtr& object, const api::CreateOptions& options);
  // options.subresource "status" selects the /status subresource (of a kind that has one; any
  // other subresource is not found).
  api::Result<api::ObjectPtr> update(const api::GroupVersionResource& gvr, std::string_view ns,
                                     const api::ObjectPtr& object, const api::UpdateOptions& options);
  api::Result<api::ObjectPtr> patch(const api::GroupVersionResource& gvr, std::string_view ns,
                                    std::string_view name, api::PatchType type,
                                    std::string_view patch, const api::PatchOptions& options);
  // The warnings of the last create, update or patch called directly (a served request carries
  // its own in Response::warnings), as kube-apiserver sends them in Warning headers: under
  // fieldValidation Warn (the default), one "unknown field \"spec.foo\"" per field the kind's Go
  // type does not have (the field is dropped). Like kube-apiserver's, they come with the answer
  // whatever happens once the body has decoded (a 404, 409 or 422 too); a body that does not
  // decode, and a request refused before its body is read, get none.
  const std::vector<std::string>& warnings() const { return warnings_; }

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
  // requests wait (the revision-wait filter); get() and list() called directly answer at once.

  // Compacts history up to the current revision now (an operator's etcd compaction).
  void compact_now();
  // A restart of the server: every watch is cut; the state is kept.
  void restart();
  // Ends every open watch of `gvr` now, as the server ends a watch (the stream ends cleanly and
  // the client re-watches); returns how many ended, 0 when `gvr` is not served.
  std::size_t close_watches(const api::GroupVersionResource& gvr);

 private:
  // The store's answer to a request that passed the chain (server_serve.cc).
  Response handle(const Request& request);
  // Completes once the store reaches `revision` (true), or after fresh_wait or when `ctx` is
  // done (false).
  sim::Task<bool> wait_for_revision(Revision revision, sim::Context ctx);
  api::Result<WatchStart> start_watch(const api::GroupVersionResource& gvr, std::string_view ns,
                                      const api::ListOptions& options);
  void rebuild_chain();
  void notify_write(const Change& change);

  struct Resolved {
    const ResourceInfo* info = nullptr;
    TableId table = 0;
    std::string ns;
  };
  api::Result<Resolved> resolve(const api::GroupVersionResource& gvr, std::string_view ns,
                                bool collection) const;
  api::Result<Revision> not_older_than(std::string_view rv) const;
  Revision stale_revision(const RequestInfo& request);
  std::function<bool(const api::Object&)> predicate(const ResourceInfo& info,
                                                    const api::ListOptions& options,
                                                    api::Status& error) const;
  // What update and patch pass on to write_update.
  struct WriteOptions {
    bool dry_run = false;
    api::FieldValidation field_validation = api::FieldValidation::kUnset;
  };
  api::Result<api::ObjectPtr> write_update(const Resolved& r, const api::ObjectPtr& current,
                                           nlohmann::json desired, bool status,
                                           const WriteOptions& options);
  api::Result<api::ObjectPtr> finish_delete(const Resolved& r, const std::string& key,
                                            const api::ObjectPtr& current, bool dry_run);
  // NamespaceLifecycle admission: a namespaced create needs a namespace that exists and is not
  // terminating. It runs after decoding and before validation, as in kube-apiserver.
  std::optional<api::Status> refuse_create_in_namespace(const ResourceInfo& info, std::string_view name,
                                                        std::string_view ns) const;
  // The store's refusal of a create that carries a resourceVersion (after validation).
  static std::optional<api::Status> refuse_create_with_resource_version(std::string_view client_rv,
                                                                        bool dry_run);
  // create's steps: the name (generated if asked), validation, admission and the existing key;
  // then the system fields and initial status.
  std::optional<api::Status> name_and_check(const Resolved& r, const api::ObjectPtr& object,
                                            const api::CreateOptions& options, nlohmann::json& j,
                                            std::string& key);
  // The create fast path's generated name: drawn as name_and_check draws, again while its key
  // (set in `key`) is taken, for a prefix whose every drawn name passes the checks; the
  // AlreadyExists of the last one when all the attempts are taken.
  api::Result<std::string> draw_free_name(const Resolved& r, std::string_view prefix,
                                          std::string& key);
  void fill_create_fields(const ResourceInfo& info, std::string_view ns, nlohmann::json& j);
  // Renders `j` as the kind's Go type stores it (kubesim/fakeapi/internal/encoding/types/go_encoding.h), or for a custom
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
  void on_namespace_deleting(const std::string& ns);
  void maybe_finalize_namespace(const std::string& ns);
  // CustomResourceDefinitions (server_crd.cc).
  std::optional<api::Status> prepare_crd_create(nlohmann::json& j, const std::string& name) const;
  std::optional<api::Status> prepare_crd_update(const nlohmann::json& old, nlohmann::json& next) const;
  std::vector<api::ObjectPtr> crds_of_group(const std::string& group);
  api::ObjectPtr put_crd(const api::ObjectPtr& current, nlohmann::json next);
  void sync_crd(const std::string& name);
  void serve_crd(const api::ObjectPtr& crd);
  api::Result<api::ObjectPtr> delete_crd(const Resolved& r, const std::string& key,
                                         const api::ObjectPtr& current,
                                         const api::DeleteOptions& options);
  bool crd_terminating(const std::string& crd_name) const;
  void finalize_crd(std::string name);  // by value: deletions may free the caller's string
  bool delete_crd_instances(const std::string& crd_name);
  void on_crd_deleted(const api::ObjectPtr& crd);
  void schedule_compaction();
  void trace_write(std::string_view kind, const Resolved& r, std::string_view name, Revision rev);

  friend class internal::FastPaths;

  sim::Loop* loop_;
  ServerOptions options_;
  bool fast_paths_ = true;
  Registry registry_;
  Store store_;
  TableId namespaces_table_ = 0;  // the store's table of namespaces, looked up once
  WatchHub hub_;
  FaultInjector faults_;
  std::string_view caller_;  // the process of the request being handled
  std::vector<std::string> warnings_;  // of the last write call
  // The front door: the chain every served request passes, replaced (never changed) when a
  // filter is added or removed.
  std::shared_ptr<Recorder> recorder_;
  std::vector<std::shared_ptr<Filter>> user_filters_;
  std::vector<std::shared_ptr<Filter>> fault_filters_;  // latency, errors, revision wait, delivery
  std::shared_ptr<const std::vector<std::shared_ptr<Filter>>> chain_;
  // Write listeners by id; a removed one is left empty until no notification is running.
  std::deque<std::pair<std::uint64_t, WriteListener>> write_listeners_;  // stable while called
  std::uint64_t next_listener_id_ = 1;
  bool notifying_ = false;
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
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_SERVER_H_
