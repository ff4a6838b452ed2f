// record_update and apply_configuration: structured-merge-diff's merge.Updater (Update, Apply,
// update, prune, addBackOwnedItems, addBackDanglingItems) under kube's managedFieldsUpdater,
// stripMetaManager and conflict errors (NewConflictError).
#include <algorithm>
#include <map>

#include "fakeapi/internal/apply/field_walk.h"
#include "fakeapi/internal/apply/managed_fields.h"

namespace kubesim::fakeapi::apply {
namespace {

using nlohmann::json;

// stripMetaManager's set: fields of every object that no manager owns.
const FieldSet& strip_set() {
  static const FieldSet kStrip = [] {
    FieldSet s;
    s.insert({field_element("apiVersion")});
    s.insert({field_element("kind")});
    s.insert({field_element("metadata")});
    for (const char* name : {"name", "namespace", "creationTimestamp", "selfLink", "uid",
                             "clusterName", "generation", "managedFields", "resourceVersion"}) {
      s.insert({field_element("metadata"), field_element(name)});
    }
    return s;
  }();
  return kStrip;
}

struct Conflict {
  const ManagedEntry* owner;
  std::vector<std::string> path;
};

ManagedFields::iterator find_manager(ManagedFields& managed, const std::string& id) {
  return std::find_if(managed.begin(), managed.end(),
                      [&](const ManagedEntry& m) { return m.identifier() == id; });
}

void drop_empty(ManagedFields& managed) {
  std::erase_if(managed, [](const ManagedEntry& m) { return m.fields.empty(); });
}

// Updater.update: the changes from `live` to `next` taken from every manager but `workflow`;
// without `force`, the fields other managers own that changed are returned as conflicts and
// nothing is taken.
std::vector<Conflict> take_changes(ManagedFields& managed, const json& live, const json& next,
                                   const TypeRef& type, const std::string& workflow,
                                   const OperationContext& context, bool force) {
  Comparison cmp = compare(live, next, type);
  const FieldSet changed = cmp.modified.union_with(cmp.added).recursive_difference(context.reset_fields);
  const FieldSet removed = cmp.removed.recursive_difference(context.reset_fields);
  std::vector<Conflict> conflicts;
  std::vector<std::pair<ManagedEntry*, FieldSet>> owned;
  for (ManagedEntry& m : managed) {
    if (m.identifier() == workflow) continue;
    FieldSet conflict = m.fields.intersection(changed);
    if (!conflict.empty()) owned.emplace_back(&m, std::move(conflict));
  }
  if (!force && !owned.empty()) {
    // Go iterates the managers in map order; kubesim takes them by identifier.
    std::sort(owned.begin(), owned.end(), [](const auto& a, const auto& b) {
      return a.first->identifier() < b.first->identifier();
    });
    for (const auto& owner : owned) {
      // (A structured binding cannot be captured by a lambda before C++20's clang 16.)
      const auto& entry = owner.first;
      owner.second.for_each(
          [&](const std::vector<std::string>& path) { conflicts.push_back({entry, path}); });
    }
    return conflicts;
  }
  for (auto& [entry, set] : owned) entry->fields = entry->fields.difference(set);
  if (!removed.empty()) {
    for (ManagedEntry& m : managed) {
      if (m.identifier() != workflow) m.fields = m.fields.difference(removed);
    }
  }
  drop_empty(managed);
  return conflicts;
}

api::Status conflict_error(const std::vector<Conflict>& conflicts) {
  api::Status s;
  s.code = 409;
  s.reason = api::StatusReason::kConflict;
  s.details.emplace();
  for (const Conflict& c : conflicts) {
    s.details->causes.push_back(
        {"FieldManagerConflict", "conflict with " + c.owner->printed(), path_to_string(c.path)});
  }
  if (conflicts.size() == 1) {
    s.message = "Apply failed with 1 conflict: conflict with " + conflicts[0].owner->printed() +
                ": " + path_to_string(conflicts[0].path);
    return s;
  }
  std::map<std::string, std::vector<const Conflict*>> by_manager;
  for (const Conflict& c : conflicts) by_manager[c.owner->identifier()].push_back(&c);
  std::string lines;
  for (const auto& [id, list] : by_manager) {
    if (!lines.empty()) lines += "\n";
    lines += "conflicts with " + list.front()->owner->printed() + ":";
    for (const Conflict* c : list) lines += "\n- " + path_to_string(c->path);
  }
  s.message = "Apply failed with " + std::to_string(conflicts.size()) + " conflicts: " + lines;
  return s;
}

// Updater.prune: what `manager` applied before (`last`) and no longer applies leaves the merged
// object, unless another manager owns it.
json prune(const json& merged, const ManagedFields& managed, const FieldSet& last, const TypeRef& type) {
  if (last.empty()) return merged;
  json pruned = remove_items(merged, ensure_named_fields_are_members(last, type), type);
  // addBackOwnedItems
  FieldSet owned;
  for (const ManagedEntry& m : managed) owned = owned.union_with(m.fields);
  const FieldSet merged_set = ensure_named_fields_are_members(fields_of(merged, type), type);
  FieldSet pruned_set = ensure_named_fields_are_members(fields_of(pruned, type), type);
  pruned = remove_items(
      merged,
      merged_set.difference(pruned_set.union_with(ensure_named_fields_are_members(owned, type))),
      type);
  // addBackDanglingItems
  pruned_set = ensure_named_fields_are_members(fields_of(pruned, type), type);
  const FieldSet last_named = ensure_named_fields_are_members(last, type);
  return remove_items(merged, merged_set.difference(pruned_set).intersection(last_named), type);
}

std::string validation_errors(const std::vector<std::string>& errors) {
  if (errors.size() == 1) return errors[0];
  std::string out = "errors:";
  for (const std::string& e : errors) out += "\n  " + e;
  return out;
}

// capManagersManager: past ten Update entries, the oldest are merged, per apiVersion, into an
// "ancient-changes" entry (the first of a version's oldest becomes it, the next ones join it).
void cap_update_managers(ManagedFields& managed) {
  constexpr std::size_t kMaxUpdateManagers = 10;
  std::vector<std::string> updaters;
  for (const ManagedEntry& m : managed) {
    if (m.operation == kOperationUpdate) updaters.push_back(m.identifier());
  }
  if (updaters.size() <= kMaxUpdateManagers) return;
  auto seconds_of = [&](const std::string& id) { return find_manager(managed, id)->time.substr(0, 19); };
  std::sort(updaters.begin(), updaters.end(), [&](const std::string& a, const std::string& b) {
    const std::string ta = seconds_of(a), tb = seconds_of(b);
    return ta != tb ? ta < tb : a < b;
  });
  std::map<std::string, std::string> first_of_version;  // apiVersion: the first one's identifier
  std::size_t length = updaters.size();
  for (std::size_t i = 0; i < updaters.size() && length > kMaxUpdateManagers; ++i) {
    const std::string version = find_manager(managed, updaters[i])->api_version;
    ManagedEntry bucket_key;
    bucket_key.manager = "ancient-changes";
    bucket_key.operation = std::string(kOperationUpdate);
    bucket_key.api_version = version;
    const std::string bucket_id = bucket_key.identifier();
    auto first = first_of_version.find(version);
    if (first == first_of_version.end()) {
      first_of_version.emplace(version, updaters[i]);
      continue;
    }
    if (find_manager(managed, bucket_id) == managed.end()) {
      auto renamed = find_manager(managed, first->second);
      renamed->manager = bucket_key.manager;
      renamed->subresource.clear();
    }
    auto entry = find_manager(managed, updaters[i]);
    auto bucket = find_manager(managed, bucket_id);
    bucket->fields = entry->fields.union_with(bucket->fields);
    bucket->time = entry->time;
    managed.erase(entry);
    --length;
  }
}

}  // namespace

void record_update(ManagedFields& managed, const json& live, const json& next, const TypeRef& type,
                   std::string_view manager, const OperationContext& context) {
  ManagedEntry self;
  self.manager = manager.empty() ? "unknown" : std::string(manager);
  self.operation = std::string(kOperationUpdate);
  self.api_version = context.api_version;
  self.subresource = context.subresource;
  // managedFieldsUpdater runs the update as "current-operation", a manager no entry has, so
  // the changed fields leave this manager's own entry too before they join it again.
  (void)take_changes(managed, live, next, type, "current-operation", context, /*force=*/true);
  Comparison cmp = compare(live, next, type);
  FieldSet set = cmp.modified.union_with(cmp.added).recursive_difference(context.reset_fields);
  set = set.difference(strip_set());
  if (set.empty()) return;
  auto it = find_manager(managed, self.identifier());
  if (it != managed.end()) {
    it->fields = set.union_with(it->fields);
    it->api_version = context.api_version;
    it->time = context.now;
  } else {
    self.fields = std::move(set);
    self.time = context.now;
    managed.push_back(std::move(self));
  }
  cap_update_managers(managed);
}

api::Result<ApplyOutcome> apply_configuration(const json& live, const json& config,
                                              ManagedFields managed, const TypeRef& type,
                                              std::string_view manager, bool force,
                                              const OperationContext& context) {
  std::vector<std::string> errors;
  FieldSet set = fields_of(config, type, &errors);
  if (!errors.empty()) {
    return api::Status{500, api::StatusReason::kUnknown,
                       "failed to create typed patch object (" + context.object_label +
                           "): " + validation_errors(errors),
                       std::nullopt};
  }
  set = set.recursive_difference(context.reset_fields);
  ManagedEntry self;
  self.manager = std::string(manager);
  self.operation = std::string(kOperationApply);
  self.api_version = context.api_version;
  self.subresource = context.subresource;
  const std::string id = self.identifier();

  json merged = merge(live, config, type);
  FieldSet last;
  auto it = find_manager(managed, id);
  if (it != managed.end()) {
    last = it->fields;
    it->fields = set;
    it->api_version = context.api_version;
  } else {
    self.fields = set;
    managed.push_back(self);
  }
  merged = prune(merged, managed, last, type);
  std::vector<Conflict> conflicts = take_changes(managed, live, merged, type, id, context, force);
  if (!conflicts.empty()) return conflict_error(conflicts);
  it = find_manager(managed, id);
  if (it != managed.end()) {
    it->fields = it->fields.difference(strip_set());
    if (it->fields.empty()) managed.erase(it);
  }
  ApplyOutcome out;
  out.changed = merged != live;
  if (out.changed) {
    it = find_manager(managed, id);
    if (it != managed.end()) it->time = context.now;
  }
  out.object = std::move(merged);
  out.managed = std::move(managed);
  return out;
}

}  // namespace kubesim::fakeapi::apply
