// ApiServer: the fake API server's semantics over the Store — kube-apiserver on etcd, in process.
//
// Every call is synchronous and answers what kube-apiserver would: the object, or a Status with
// the real code and reason, and a call that fails changes nothing. Writes bump one global revision;
// create fills in uid, creationTimestamp (virtual time), generation and resourceVersion; update is
// optimistic on resourceVersion (empty: unconditional), keeps system fields, ignores status on the
// main resource of kinds with a /status subresource, bumps generation on spec changes, and a write
// that changes nothing is not a write. A built-in kind with a Go type table is stored as
// encoding/json renders its Go type (fakeapi/types/go_encoding.h): omitempty zeros are left out
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
// The network, latency and partitions belong to the clients (InProcessClient, the HTTP front end).
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
#include <vector>

#include "api/object.h"
#include "api/options.h"
#include "api/result.h"
#include "api/watch.h"
#include "fakeapi/faults.h"
#include "fakeapi/registry.h"
#include "fakeapi/store.h"
#include "fakeapi/watch_hub.h"
#include "sim/context.h"
#include "sim/event.h"
#include "sim/loop.h"
#include "sim/task.h"

namespace kubesim::fakeapi {

struct ServerOptions {
  ServerOptions() {}
  // History older than this is compacted, as kube-apiserver has etcd compact every 5 minutes.
  sim::Duration compaction_interval = std::chrono::minutes(5);
  // Watches without timeoutSeconds end after a random time in [min, 2·min), as kube-apiserver's
  // --min-request-timeout does.
  sim::Duration min_request_timeout = std::chrono::minutes(30);
  WatchHubOptions watch;
  // Creates and updates a kind's text checks vouch for (a ConfigMap's data, labels) are answered
  // from the objects' texts without building JSON trees (fakeapi/internal/text_create.h,
  // text_update.h). The answers are the same either way; false sends every write through the
  // general path.
  bool text_writes = true;
  // The namespaces that exist from the start.
  std::vector<std::string> initial_namespaces = {"default", "kube-system", "kube-public",
                                                 "kube-node-lease"};
};

class ApiServer {
 public:
  ApiServer(sim::Loop& loop, ServerOptions options = {});
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;
  ~ApiServer();

  sim::Loop& loop() const { return *loop_; }
  const Registry& registry() const { return registry_; }
  Store& store() { return store_; }
  FaultInjector& faults() { return faults_; }
  WatchHub& watches() { return hub_; }
  Revision revision() const { return store_.revision(); }

  api::Result<api::ObjectPtr> get(const api::GroupVersionResource& gvr, std::string_view ns,
                                  std::string_view name, const api::GetOptions& options);
  api::Result<api::ObjectList> list(const api::GroupVersionResource& gvr, std::string_view ns,
                                    const api::ListOptions& options);
  api::Result<api::WatchPtr> watch(const api::GroupVersionResource& gvr, std::string_view ns,
                                   const api::ListOptions& options);
  api::Result<api::ObjectPtr> create(const api::GroupVersionResource& gvr, std::string_view ns,
                                     const api::ObjectPtr& object, const api::CreateOptions& options);
  // `status` selects the /status subresource.
  api::Result<api::ObjectPtr> update(const api::GroupVersionResource& gvr, std::string_view ns,
                                     const api::ObjectPtr& object, const api::UpdateOptions& options,
                                     bool status = false);
  api::Result<api::ObjectPtr> patch(const api::GroupVersionResource& gvr, std::string_view ns,
                                    std::string_view name, api::PatchType type,
                                    std::string_view patch, const api::PatchOptions& options,
                                    bool status = false);
  // The warnings of the last create, update or patch, as kube-apiserver sends them in Warning
  // headers: under fieldValidation Warn (the default), one "unknown field \"spec.foo\"" per field
  // the kind's Go type does not have (the field is dropped). Like kube-apiserver's, they come
  // with the answer whatever happens once the body has decoded (a 404, 409 or 422 too); a body
  // that does not decode, and a request refused before its body is read, get none.
  const std::vector<std::string>& warnings() const { return warnings_; }

  // The deleted object, or the object now marked with a deletionTimestamp.
  api::Result<api::ObjectPtr> delete_(const api::GroupVersionResource& gvr, std::string_view ns,
                                      std::string_view name, const api::DeleteOptions& options);
  api::Result<void> delete_collection(const api::GroupVersionResource& gvr, std::string_view ns,
                                      const api::DeleteOptions& options,
                                      const api::ListOptions& list_options);

  // Reads at a revision the store has not reached. kube-apiserver serves a get or list with
  // resourceVersion N > 0 (any resourceVersionMatch; not "0", not a continue) from its watch
  // cache once that has reached N, waiting up to 3 s (options.watch.fresh_wait), and answers 504
  // "Too large resource version" with the ResourceVersionTooLarge cause after that. get() and
  // list() answer at once (the 504 when the store is behind); a client that carries requests to
  // the server awaits wait_for_revision(read_revision(options)) first, as InProcessClient does.
  static Revision read_revision(const api::GetOptions& options);
  static Revision read_revision(const api::ListOptions& options);
  // Completes once the store reaches `revision` (true), or after fresh_wait or when `ctx` is
  // done (false).
  sim::Task<bool> wait_for_revision(Revision revision, sim::Context ctx);

  // Names the client process of the calls made while the returned guard lives (for fault rules
  // and the trace); calls are synchronous, so a guard spans exactly one call.
  class CallerScope {
   public:
    CallerScope(ApiServer& server, std::string_view process) : server_(&server) {
      server.caller_ = process;
    }
    ~CallerScope() { server_->caller_ = {}; }
    CallerScope(const CallerScope&) = delete;
    CallerScope& operator=(const CallerScope&) = delete;

   private:
    ApiServer* server_;
  };

  // Compacts history up to the current revision now (an operator's etcd compaction).
  void compact_now();
  // A restart of the server: every watch is cut; the state is kept.
  void restart();

 private:
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
  void fill_create_fields(const ResourceInfo& info, std::string_view ns, nlohmann::json& j);
  // Renders `j` as the kind's Go type stores it (fakeapi/types/go_encoding.h), or for a custom
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
  void trace_write(std::string_view verb, const Resolved& r, std::string_view name, Revision rev);

  sim::Loop* loop_;
  ServerOptions options_;
  Registry registry_;
  Store store_;
  TableId namespaces_table_ = 0;  // the store's table of namespaces, looked up once
  WatchHub hub_;
  FaultInjector faults_;
  std::string_view caller_;
  std::vector<std::string> warnings_;  // of the last write call
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
