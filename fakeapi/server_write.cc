// The write verbs of ApiServer: create, update (main resource and /status), patch.
#include <algorithm>

#include "fakeapi/internal/crd/crd.h"
#include "fakeapi/internal/crd/schema_defaults.h"
#include "fakeapi/internal/defaulting/walker.h"
#include "fakeapi/internal/encoding/types/go_encoding.h"
#include "fakeapi/internal/fastpath/object_text.h"
#include "fakeapi/internal/fastpath/text_create.h"
#include "fakeapi/internal/fastpath/text_update.h"
#include "fakeapi/internal/server_util.h"
#include "fakeapi/internal/validation/field_errors.h"
#include "kubesim/fakeapi/patch.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/fakeapi/validation.h"
#include "kubesim/sim/time.h"

namespace kubesim::fakeapi {

using internal::object_key;

namespace {

// The store's maxNameGenerationCreateAttempts.
constexpr int kNameGenerationAttempts = 8;

const nlohmann::json kNull;

const nlohmann::json& field(const nlohmann::json& j, std::string_view key) {
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

// Makes j[key] equal `value` (absent when null), copying only when it differs.
void set_or_erase(nlohmann::json& j, std::string_view key, const nlohmann::json& value) {
  auto it = j.find(key);
  if (value.is_null()) {
    if (it != j.end()) j.erase(it);
  } else if (it == j.end()) {
    j.emplace(std::string(key), value);
  } else if (*it != value) {
    *it = value;
  }
}

// Makes j[key] the string `value`, writing only when it differs.
void set_string(nlohmann::json& j, const char* key, std::string_view value) {
  nlohmann::json& v = j[key];
  if (!v.is_string() || v.get_ref<const std::string&>() != value) v = std::string(value);
}

// Whether a write changes what metadata.generation counts: the spec for built-in kinds;
// everything but metadata and status for custom resources.
bool generation_changes(const ResourceInfo& info, const api::Object& stored,
                        const nlohmann::json& after) {
  if (!info.custom) return !stored.member_equals("spec", field(after, "spec"));
  const nlohmann::json before = stored.to_json();
  for (const auto& [key, value] : after.items()) {
    if (key == "metadata" || key == "status" || key == "apiVersion" || key == "kind") continue;
    if (field(before, key.c_str()) != value) return true;
  }
  for (const auto& [key, value] : before.items()) {
    if (key == "metadata" || key == "status" || key == "apiVersion" || key == "kind") continue;
    if (!after.contains(key)) return true;
  }
  return false;
}

// Whether the built-in kind has defaults: kube-apiserver defaults every decoded object before
// validation (defaulting/walker.h). The text fast paths take only kinds without.
bool has_defaults(const ResourceInfo& info) {
  return !info.custom && info.go_type != nullptr && defaulting::has_defaults(*info.go_type);
}

bool empty_finalizers(const nlohmann::json& obj) {
  const nlohmann::json& finalizers = field(field(obj, "metadata"), "finalizers");
  return !finalizers.is_array() || finalizers.empty();
}

// The status a kind starts with: kube-apiserver's PrepareForCreate ignores a client's status.
void initial_status(const ResourceInfo& info, nlohmann::json& j) {
  if (!info.has_status) return;
  const auto& gvr = info.gvr;
  if (gvr.group.empty() && gvr.resource == "namespaces") {
    j["status"] = {{"phase", "Active"}};
    j["spec"]["finalizers"] = nlohmann::json::array({"kubernetes"});
  } else if (gvr.group.empty() && gvr.resource == "pods") {
    j["status"] = {{"phase", "Pending"}};
  } else if (gvr.group.empty() && gvr.resource == "services") {
    j["status"] = {{"loadBalancer", nlohmann::json::object()}};
  } else if (gvr.group.empty() && gvr.resource == "nodes") {
    // Nodes report their own status; a created node keeps what it was given.
  } else if (internal::is_crds(info)) {
    internal::initial_crd_status(j);
  } else {
    j.erase("status");
  }
}

// The store's answer to a create whose key holds `existing`; for a generated name (the last of
// the draws) kube-apiserver's "not able to generate a unique name", which asks to retry in 1 s.
api::Status name_taken(const ResourceInfo& info, std::string_view name, const api::Object& existing,
                       bool generated) {
  api::Status s = generated ? api::new_generate_name_conflict(info.group_resource(), name, 1)
                            : api::new_already_exists(info.group_resource(), name);
  if (existing.deletion_timestamp()) s.message = "object is being deleted: " + s.message;
  return s;
}

}  // namespace

std::string ApiServer::now_rfc3339() const {
  return sim::format_rfc3339(loop_->now(), loop_->options().epoch_unix_seconds);
}

std::string ApiServer::new_uid() {
  // A version-4 UUID from the loop's seeded generator: 8-4-4-4-12 hex digits, the version and
  // variant bits set.
  const std::uint64_t hi = loop_->rng().next_u64();
  const std::uint64_t lo = loop_->rng().next_u64();
  const std::uint64_t a = (hi & 0xffffffffffff0fffULL) | 0x4000ULL;
  const std::uint64_t b = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string uid(36, '-');
  int at = 35;
  for (int i = 0; i < 16; ++i) {
    if (at == 23) --at;
    uid[at--] = kHex[(b >> (4 * i)) & 0xf];
  }
  for (int i = 0; i < 16; ++i) {
    if (at == 18 || at == 13 || at == 8) --at;
    uid[at--] = kHex[(a >> (4 * i)) & 0xf];
  }
  return uid;
}

std::string ApiServer::generate_name(std::string_view prefix) {
  return internal::generated_name(prefix, &loop_->rng());
}

api::ObjectPtr ApiServer::stamp(nlohmann::json j) const {
  return api::internal::make_object(std::move(j), api::internal::Layout::kText);
}

api::Result<api::ObjectPtr> ApiServer::stored_object(nlohmann::json j) {
  return api::internal::object_from_json(std::move(j), api::internal::Layout::kText);
}

bool ApiServer::namespace_terminating(std::string_view ns) const {
  api::ObjectPtr obj = store_.get(namespaces_table_, ns);
  return obj && obj->deletion_timestamp().has_value();
}

void ApiServer::trace_write(std::string_view process, std::string_view kind, const Resolved& r,
                            std::string_view name, Revision rev) {
  if (!loop_->trace().enabled()) return;
  loop_->trace().record_fields(loop_->now(), process.empty() ? std::string_view("apiserver") : process, kind,
                               {{"name", name},
                                {"namespace", r.ns},
                                {"resource", r.info->gvr.resource},
                                {"revision", static_cast<std::int64_t>(rev)}});
}

std::optional<api::Status> ApiServer::refuse_create_in_namespace(const ResourceInfo& info,
                                                                std::string_view name,
                                                                std::string_view ns) const {
  if (!info.namespaced) return std::nullopt;
  api::ObjectPtr owner = store_.get(namespaces_table_, ns);
  if (!owner) return api::new_not_found({"", "namespaces"}, ns);
  if (owner->deletion_timestamp()) {
    return api::new_forbidden(info.group_resource(), name,
                              "unable to create new content in namespace " + std::string(ns) +
                                  " because it is being terminated");
  }
  return std::nullopt;
}

std::optional<api::Status> ApiServer::refuse_create_with_resource_version(std::string_view client_rv,
                                                                          bool dry_run) {
  // etcd3's store refuses a set resourceVersion before it looks at the key (a dry run stops
  // short of the store); the error reaches the client unconverted.
  const auto rv = internal::parse_revision(client_rv);
  if (!dry_run && rv && *rv != 0) {
    api::Status s;
    s.code = 500;
    s.message = "resourceVersion should not be set on objects to be created";
    return s;
  }
  return std::nullopt;
}

api::Result<ApiServer::NamedCreate> ApiServer::name_and_check(const Resolved& r,
                                                              const api::ObjectPtr& object,
                                                              const api::CreateOptions& options,
                                                              nlohmann::json& j,
                                                              std::vector<std::string>* warnings) {
  // As kube-apiserver's store: a generateName is turned into a name before validation, so the
  // rules see the name the object will have; a generated name that is taken is drawn again.
  const ResourceInfo& info = *r.info;
  const bool generate = object->name().empty() && !object->generate_name().empty();
  std::string name(object->name());
  for (int attempt = 1;; ++attempt) {
    if (generate) {
      name = generate_name(object->generate_name());
      j["metadata"]["name"] = name;
    }
    auto bad = validate_create(info, j, r.ns, options.field_validation,
                               attempt == 1 ? warnings : nullptr);
    if (bad && bad->code == 400) return *bad;
    if (attempt == 1) {
      if (auto refused = refuse_create_in_namespace(info, object->name(), r.ns)) return *refused;
    }
    // Admission, after decoding and before validation: no new objects of a terminating CRD.
    if (info.custom && crd_terminating(info.crd_name)) {
      return api::new_forbidden(info.group_resource(), name,
                                "create not allowed while custom resource definition is terminating");
    }
    if (!bad && internal::is_crds(info)) bad = prepare_crd_create(j, name);
    if (bad) return *bad;
    if (attempt == 1) {
      if (auto refused = refuse_create_with_resource_version(object->resource_version(), options.dry_run)) {
        return *refused;
      }
    }
    std::string key = object_key(info, r.ns, name);
    api::ObjectPtr existing = store_.get(r.table, key);
    if (!existing) return NamedCreate{std::move(key), std::move(name)};
    if (generate && attempt < kNameGenerationAttempts) continue;
    return name_taken(info, name, *existing, generate);
  }
}

api::Result<ApiServer::NamedCreate> ApiServer::draw_free_name(const Resolved& r,
                                                              std::string_view prefix) {
  // name_and_check's draws for an object whose every drawn name passes the checks.
  NamedCreate drawn;
  for (int attempt = 1;; ++attempt) {
    drawn.name = generate_name(prefix);
    internal::object_key_into(drawn.key, *r.info, r.ns, drawn.name);
    api::ObjectPtr existing = store_.get(r.table, drawn.key);
    if (!existing) return drawn;
    if (attempt == kNameGenerationAttempts) return name_taken(*r.info, drawn.name, *existing, true);
  }
}

void ApiServer::fill_create_fields(const ResourceInfo& info, std::string_view ns, nlohmann::json& j) {
  nlohmann::json& meta = j["metadata"];
  j["apiVersion"] = info.api_version();
  j["kind"] = info.kind;
  if (info.namespaced) {
    meta["namespace"] = std::string(ns);
  } else {
    meta.erase("namespace");
  }
  meta["uid"] = new_uid();
  meta["creationTimestamp"] = now_rfc3339();
  meta["resourceVersion"] = std::to_string(store_.next_revision());
  if (info.tracks_generation) {
    meta["generation"] = 1;
  } else {
    meta.erase("generation");
  }
  meta.erase("deletionTimestamp");
  meta.erase("deletionGracePeriodSeconds");
  internal::drop_empty_metadata(meta);
  initial_status(info, j);
}

void ApiServer::render_stored(const ResourceInfo& info, nlohmann::json& j) {
  if (info.custom) {
    // The decoder prunes, drops the nulls the schema does not allow, and fills in its defaults.
    internal::decode_custom_resource(info.schema, j, nullptr);
  } else if (info.go_type != nullptr) {
    types::render_go_json(*info.go_type, j);
  }
}

api::Result<api::ObjectPtr> ApiServer::create_object(const Request& request,
                                                     std::vector<std::string>* warnings) {
  const std::string_view ns = request.ns;
  const api::ObjectPtr& object = request.object;
  const api::CreateOptions& options = request.create_options();
  if (!object) return api::new_bad_request("the request has no object to create");
  auto r = resolve(request.resource, ns, false);
  if (!r) return r.status();
  const ResourceInfo& info = *r->info;
  const bool defaults = has_defaults(info);
  // A write that names its manager takes the general path, which records its Update entry; the
  // text fast paths store managedFields as the client sent them.
  const bool tracked = !options.field_manager.empty();
  if (!options.dry_run && !tracked && fast_paths_ && !defaults) {
    if (const auto plan = internal::plan_text_create(info, *object, ns)) {
      // Stored as sent, with the server's fields, when nothing stands in the way; else the
      // general path finds what does.
      std::string name(plan->name);
      std::string key = object_key(info, ns, name);
      if (!refuse_create_in_namespace(info, name, ns) &&
          (name.empty() || !store_.get(r->table, key))) {
        if (name.empty()) {
          // Drawn once nothing else can refuse the create: the general path never draws after
          // the fast path did.
          auto drawn = draw_free_name(*r, plan->generate_name);
          if (!drawn) return std::move(drawn).status();
          name = std::move(drawn.value().name);
          key = std::move(drawn.value().key);
        }
        const std::string uid = new_uid();
        api::ObjectPtr stored = internal::text_create(info, *plan, name, ns, uid, now_rfc3339(),
                                                      std::to_string(store_.next_revision()));
        trace_write(request.process, "api.create", *r, name, store_.next_revision());
        const Change& change = store_.put(r->table, key, std::move(stored));
        return change.object;
      }
    }
  }
  nlohmann::json j = object->to_json();
  if (defaults) defaulting::apply_defaults(*info.go_type, j);
  auto named = name_and_check(*r, object, options, j, warnings);
  if (!named) return std::move(named).status();
  const std::string& key = named.value().key;
  const std::string& name = named.value().name;
  fill_create_fields(info, ns, j);
  render_stored(info, j);
  if (!api::is_apply(request.patch_type)) {
    track_managed_fields(info, nullptr, j, options.field_manager, Subresource::kNone);
  }
  if (options.dry_run) {
    j["metadata"].erase("resourceVersion");
    return stamp(std::move(j));
  }
  auto parsed = stored_object(std::move(j));
  if (!parsed) return parsed.status();
  trace_write(request.process, "api.create", *r, name, store_.next_revision());
  const Change& change = store_.put(r->table, key, parsed.value());
  api::ObjectPtr created = change.object;
  if (internal::is_crds(info)) sync_crd(name, request.process);  // the controllers react at once
  return created;
}

api::Result<api::ObjectPtr> ApiServer::write_update(const Resolved& r, const api::ObjectPtr& current,
                                                    nlohmann::json desired,
                                                    const WriteOptions& options) {
  const ResourceInfo& info = *r.info;
  const bool status = options.subresource == Subresource::kStatus;
  // The stored object's whole JSON is not built: its members and metadata are read apart.
  nlohmann::json next;
  if (status) {
    // The /status subresource writes the status and nothing else.
    next = current->to_json();
    set_or_erase(next, "status", field(desired, "status"));
    render_stored(info, next);
  } else {
    next = std::move(desired);
    if (info.has_status) set_or_erase(next, "status", current->member_value("status"));
    set_string(next, "apiVersion", info.api_version());
    set_string(next, "kind", info.kind);
    nlohmann::json& meta = next["metadata"];
    static constexpr std::string_view kSystemFields[] = {
        "name", "namespace", "uid", "creationTimestamp", "deletionTimestamp",
        "deletionGracePeriodSeconds", "generation"};
    for (const std::string_view key : kSystemFields) {
      set_or_erase(meta, key, current->metadata_field(key));
    }
    // The spec is compared as stored: a field Go's encoding leaves out is no change.
    render_stored(info, next);
    if (info.tracks_generation && generation_changes(info, *current, next)) {
      next["metadata"]["generation"] = current->generation() + 1;
    }
    if (internal::is_crds(info)) {
      if (auto bad = prepare_crd_update(current->json(), next)) return *bad;
    }
  }
  if (options.applied_managed_fields != nullptr) {
    set_or_erase(next["metadata"], "managedFields", *options.applied_managed_fields);
  } else if (options.track_fields) {
    track_managed_fields(info, current.get(), next, options.field_manager, options.subresource);
  }
  internal::drop_empty_metadata(next["metadata"]);
  nlohmann::json& rv = next["metadata"]["resourceVersion"];
  rv = std::string(current->resource_version());
  if (current->same_as(next)) return current;  // nothing changed: no write, no event
  const std::string key = object_key(info, r.ns, current->name());
  if (current->deletion_timestamp() && empty_finalizers(next) &&
      current->deletion_grace_period_seconds().value_or(0) == 0) {
    // The store's ShouldDeleteDuringUpdate: the update that removes the last finalizer of an
    // object being deleted is not written; the object is deleted (DELETED carries its last
    // stored state) and the caller gets the object it asked for.
    if (!options.dry_run) {
      auto deleted = finish_delete(r, key, current, false, options.process);
      if (!deleted) return deleted.status();
    }
    return stamp(std::move(next));
  }
  rv = std::to_string(store_.next_revision());
  if (options.dry_run) return stamp(std::move(next));
  auto parsed = stored_object(std::move(next));
  if (!parsed) return parsed.status();
  trace_write(options.process, status ? "api.update_status" : "api.update", r, current->name(),
              store_.next_revision());
  const Change& change = store_.put(r.table, key, parsed.value());
  api::ObjectPtr stored = change.object;
  if (internal::is_crds(info)) sync_crd(std::string(current->name()), options.process);
  return stored;
}

api::Result<api::ObjectPtr> ApiServer::update_object(const Request& request,
                                                     std::vector<std::string>* warnings) {
  const std::string_view ns = request.ns;
  const api::ObjectPtr& object = request.object;
  const api::UpdateOptions& options = request.update_options();
  const Subresource subresource = request.subresource;
  if (!object) return api::new_bad_request("the request has no object to update");
  auto r = resolve(request.resource, ns, false);
  if (!r) return r.status();
  const ResourceInfo& info = *r->info;
  const bool status = subresource == Subresource::kStatus;
  if (subresource != Subresource::kNone && !(status && info.has_status)) {
    return internal::unknown_resource();
  }
  // The object's own key is the one asked for when it names the request's namespace.
  std::string key_text;
  std::string_view key = object->key().view();
  if (info.namespaced ? ns.empty() || object->namespace_() != ns : !object->namespace_().empty()) {
    key_text = object_key(info, ns, object->name());
    key = key_text;
  }
  api::ObjectPtr current = object->name().empty() ? nullptr : store_.get(r->table, key);
  if (!current) {
    // The handler decodes the body before the store looks for the object.
    if (auto bad = validate_request(info, object->json(), ns, options.field_validation,
                                    warnings)) {
      return *bad;
    }
    return api::new_not_found(info.group_resource(), object->name());
  }
  const bool defaults = has_defaults(info);
  const bool tracked = !options.field_manager.empty();  // as in create_object
  if (!status && !options.dry_run && !tracked && fast_paths_ && !defaults) {
    const std::string next_rv = std::to_string(store_.next_revision());
    internal::TextUpdate fast = internal::text_update(info, *current, *object, next_rv);
    if (fast.outcome == internal::TextUpdate::Outcome::kUnchanged) return current;
    if (fast.outcome == internal::TextUpdate::Outcome::kWrite) {
      trace_write(request.process, "api.update", *r, current->name(), store_.next_revision());
      const Change& change = store_.put(r->table, key, std::move(fast.object));
      return change.object;
    }
  }
  // kube-apiserver's order: the handler's decode and name checks (400), the uid precondition,
  // the resourceVersion, and only then the validation of the new object (422).
  nlohmann::json defaulted;
  if (defaults) {
    defaulted = object->to_json();
    defaulting::apply_defaults(*info.go_type, defaulted);
  }
  const nlohmann::json& desired = defaults ? defaulted : object->json();
  auto bad = validate_update(info, *current, desired, ns, object->name(), status,
                             options.field_validation, /*patched=*/false, warnings);
  if (bad && bad->code == 400) return *bad;
  if (!object->uid().empty() && object->uid() != current->uid()) {
    return internal::precondition_failed(info, ns, object->name(),
                                         "Precondition failed: UID in precondition: " +
                                             std::string(object->uid()) + ", UID in object meta: " +
                                             std::string(current->uid()));
  }
  const std::string_view rv = object->resource_version();
  if (!rv.empty() && rv != current->resource_version()) {
    if (!internal::parse_revision(rv)) return internal::invalid_revision(rv);
    return api::new_conflict(info.group_resource(), object->name(), api::kOptimisticLockErrorMsg);
  }
  if (bad) return *bad;
  return write_update(*r, current, defaults ? std::move(defaulted) : object->json(),
                      {request.process, subresource, options.dry_run, options.field_validation,
                       true, options.field_manager});
}

api::Result<api::ObjectPtr> ApiServer::patch_object(const Request& request,
                                                    std::vector<std::string>* warnings) {
  const std::string_view ns = request.ns;
  const std::string_view name = request.name;
  const api::PatchType type = request.patch_type;
  const std::string_view body = request.patch_body;
  const api::PatchOptions& options = request.patch_options();
  const Subresource subresource = request.subresource;
  if (api::is_apply(type) || options.force) return apply_object(request, warnings);
  auto r = resolve(request.resource, ns, false);
  if (!r) return r.status();
  const ResourceInfo& info = *r->info;
  const bool status = subresource == Subresource::kStatus;
  if (subresource != Subresource::kNone && !(status && info.has_status)) {
    return internal::unknown_resource();
  }
  const std::string key = object_key(info, ns, name);
  api::ObjectPtr current = store_.get(r->table, key);
  if (!current) return api::new_not_found(info.group_resource(), name);
  // The stored object's JSON is built for the patch and not kept.
  const nlohmann::json old = current->to_json();
  auto patched = info.custom ? apply_patch(old, type, body, custom_resource_patch_schema())
                             : apply_patch(old, type, body,
                                           builtin_patch_schema(info.gvr.group, info.kind));
  if (!patched) return patched.status();
  if (has_defaults(info)) defaulting::apply_defaults(*info.go_type, patched.value());
  // As for update: name checks (400), then the resourceVersion, then validation (422).
  auto bad = validate_update(info, old, patched.value(), ns, name, status,
                             options.field_validation, /*patched=*/true, warnings);
  if (bad && bad->code == 400) return *bad;
  const nlohmann::json& patched_rv = field(field(patched.value(), "metadata"), "resourceVersion");
  if (patched_rv.is_string() && patched_rv.get<std::string>() != current->resource_version()) {
    return api::new_conflict(info.group_resource(), name, api::kOptimisticLockErrorMsg);
  }
  if (bad) return *bad;
  return write_update(*r, current, std::move(patched.value()),
                      {request.process, subresource, options.dry_run, options.field_validation,
                       true, options.field_manager});
}

}  // namespace kubesim::fakeapi
