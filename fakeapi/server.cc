#include "kubesim/fakeapi/server.h"

#include "kubesim/api/fields.h"
#include "kubesim/api/labels.h"
#include "kubesim/api/resources.h"
#include "fakeapi/internal/filters.h"
#include "fakeapi/internal/server_util.h"
#include "kubesim/fakeapi/watch_delivery.h"
#include "kubesim/fakeapi/validation.h"

namespace kubesim::fakeapi {

using internal::object_key;
using internal::parse_revision;

ApiServer::ApiServer(sim::Loop& loop, ServerOptions options)
    : loop_(&loop),
      options_(std::move(options)),
      hub_(loop, store_, options_.watch),
      faults_(loop),
      recorder_(std::make_shared<Recorder>(loop, options_.recorder_capacity)) {
  fault_filters_ = {std::make_shared<internal::LatencyFaults>(faults_),
                    std::make_shared<internal::ErrorFaults>(faults_),
                    std::make_shared<internal::RevisionWait>(store_),
                    std::make_shared<WatchDelivery>(faults_, options_.watch.max_backlog),
                    std::make_shared<internal::StaleReads>(*this, faults_),
                    std::make_shared<internal::ForcedGone>(*this, faults_)};
  rebuild_chain();
  store_.set_listener([this](const Change& change) {
    if (revision_times_.empty() || revision_times_.back().first != loop_->now()) {
      revision_times_.emplace_back(loop_->now(), change.revision);
    } else {
      revision_times_.back().second = change.revision;
    }
    while (!revision_waiters_.empty() && revision_waiters_.begin()->first <= change.revision) {
      revision_waiters_.begin()->second->set();
      revision_waiters_.erase(revision_waiters_.begin());
    }
    hub_.dispatch(change);
    if (!write_listeners_.empty()) notify_write(change);
    if (!compaction_armed_) schedule_compaction();
  });
  namespaces_table_ = store_.table(registry_.find(api::kNamespaces)->group_resource());
  for (const auto& ns : options_.initial_namespaces) {
    auto created = create(api::kNamespaces, "",
                          api::make_object({{"apiVersion", "v1"},
                                            {"kind", "Namespace"},
                                            {"metadata", {{"name", ns}}}}),
                          api::CreateOptions());
    (void)created;
  }
}

ApiServer::~ApiServer() {
  loop_->cancel_timer(compaction_timer_);
  for (const auto& [name, timer] : crd_check_timers_) loop_->cancel_timer(timer);
}

api::Result<ApiServer::Resolved> ApiServer::resolve(const api::GroupVersionResource& gvr,
                                                    std::string_view ns, bool collection) const {
  const ResourceInfo* info = nullptr;
  TableId table = 0;
  if (last_resolved_ && last_resolved_->info->gvr == gvr) {
    info = last_resolved_->info;
    table = last_resolved_->table;
  } else {
    info = registry_.find(gvr);
    if (info == nullptr) return internal::unknown_resource();
    table = const_cast<Store&>(store_).table(info->group_resource());
    last_resolved_ = Resolved{info, table, {}};
  }
  if (!info->namespaced && !ns.empty()) return internal::unknown_resource();
  if (info->namespaced && ns.empty() && !collection) {
    return api::new_bad_request("a namespace must be specified for " + gvr.resource);
  }
  Resolved r;
  r.info = info;
  r.table = table;
  r.ns = std::string(ns);
  return r;
}

api::Result<Revision> ApiServer::not_older_than(std::string_view rv) const {
  if (rv.empty() || rv == "0") return store_.revision();
  auto parsed = parse_revision(rv);
  if (!parsed) return internal::invalid_revision(rv);
  if (*parsed > store_.revision()) return internal::too_large_revision(*parsed, store_.revision());
  return store_.revision();
}

sim::Task<bool> ApiServer::wait_for_revision(Revision revision, sim::Context ctx) {
  if (store_.revision() >= revision) co_return true;
  auto reached = std::make_shared<sim::Event>(*loop_);
  auto entry = revision_waiters_.emplace(revision, reached);
  auto limit = sim::with_timeout(ctx, *loop_, options_.watch.fresh_wait);
  const bool woken = co_await reached->wait(limit.ctx);
  limit.cancel();
  if (!woken) revision_waiters_.erase(entry);  // still there: only a write removes it
  co_return woken;
}

Revision ApiServer::revision_before(sim::Duration lag) const {
  const sim::Time then = loop_->now() - lag;
  Revision at = store_.compacted();
  for (const auto& [t, rev] : revision_times_) {
    if (t > then) break;
    at = rev;
  }
  return std::max(at, store_.compacted());
}

api::Result<std::function<bool(const api::Object&)>> ApiServer::predicate(
    const ResourceInfo& info, const api::ListOptions& options) const {
  using Predicate = std::function<bool(const api::Object&)>;
  std::optional<api::LabelSelector> labels;
  std::optional<api::FieldSelector> fields;
  if (!options.label_selector.empty()) {
    auto parsed = api::parse_label_selector(options.label_selector);
    if (!parsed) return api::new_bad_request("unable to parse requirement: " + parsed.error().message);
    if (!parsed.value().empty()) labels = parsed.value();
  }
  if (!options.field_selector.empty()) {
    auto parsed = api::parse_field_selector(options.field_selector);
    if (!parsed) return api::new_bad_request(parsed.error().message);
    for (const auto& req : parsed.value().requirements()) {
      if (!info.supports_field(req.field)) {
        return api::new_bad_request("field label not supported: " + req.field);
      }
    }
    if (!parsed.value().empty()) fields = parsed.value();
  }
  if (!labels && !fields) return Predicate();
  const ResourceInfo* resource = &info;
  return Predicate([labels = std::move(labels), fields = std::move(fields), resource](const api::Object& obj) {
    if (labels && !labels->matches([&](std::string_view key) { return obj.label(key); })) {
      return false;
    }
    if (fields) {
      auto lookup = [&](std::string_view path) -> std::optional<std::string> {
        // Answered without building the object's whole JSON: the name and namespace natively,
        // the rest from the fields the value is made of.
        if (path == "metadata.name") return std::string(obj.name());
        if (path == "metadata.namespace") {
          return resource->namespaced ? std::string(obj.namespace_()) : std::string();
        }
        return field_value(*resource, obj, path);
      };
      if (!fields->matches(lookup)) return false;
    }
    return true;
  });
}

api::Result<api::ObjectPtr> ApiServer::get_object(const Request& request, Revision cached) {
  const std::string_view ns = request.ns;
  const std::string_view name = request.name;
  auto r = resolve(request.resource, ns, false);
  if (!r) return r.status();
  Revision at = store_.revision();
  const std::string& rv = request.get_options().resource_version;
  if (rv == "0") {
    at = cached;
  } else {
    auto checked = not_older_than(rv);
    if (!checked) return checked.status();
  }
  const std::string& key = internal::object_key_into(key_buffer_, *r->info, ns, name);
  api::ObjectPtr obj = at == store_.revision() ? store_.get(r->table, key) : store_.get_at(r->table, key, at);
  if (!obj) return api::new_not_found(r->info->group_resource(), name);
  return obj;
}

}  // namespace kubesim::fakeapi

namespace kubesim::fakeapi {
namespace {

api::Status invalid_list_options(std::vector<api::StatusCause> causes) {
  return api::new_invalid(api::GroupKind{"meta.k8s.io", "ListOptions"}, "", std::move(causes));
}

api::StatusCause forbidden(std::string field, std::string message) {
  return {"FieldValueForbidden", "Forbidden: " + message, std::move(field)};
}

// kube-apiserver's ValidateListOptions for lists and watches.
std::vector<api::StatusCause> validate_list_options(const api::ListOptions& o, bool watch) {
  using api::ResourceVersionMatch;
  std::vector<api::StatusCause> causes;
  const auto match = o.resource_version_match;
  if (watch) {
    if (o.send_initial_events && match != ResourceVersionMatch::kNotOlderThan) {
      causes.push_back(forbidden("resourceVersionMatch",
                                 "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
    }
    if (match != ResourceVersionMatch::kUnset) {
      if (!o.send_initial_events) {
        causes.push_back(forbidden("resourceVersionMatch",
                                   "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
      }
      if (match != ResourceVersionMatch::kNotOlderThan) {
        causes.push_back({"FieldValueNotSupported",
                          "Unsupported value: \"Exact\": supported values: \"NotOlderThan\"",
                          "resourceVersionMatch"});
      }
      if (!o.continue_token.empty()) {
        causes.push_back(forbidden("resourceVersionMatch",
                                   "resourceVersionMatch is forbidden when continue is provided"));
      }
    }
    return causes;
  }
  if (match != ResourceVersionMatch::kUnset) {
    if (o.resource_version.empty()) {
      causes.push_back(forbidden("resourceVersionMatch",
                                 "resourceVersionMatch is forbidden unless resourceVersion is provided"));
    }
    if (!o.continue_token.empty()) {
      causes.push_back(forbidden("resourceVersionMatch",
                                 "resourceVersionMatch is forbidden when continue is provided"));
    }
    if (match == ResourceVersionMatch::kExact && o.resource_version == "0") {
      causes.push_back(forbidden("resourceVersionMatch",
                                 "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
    }
  }
  if (o.send_initial_events) {
    causes.push_back(forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
  }
  return causes;
}

}  // namespace

api::Result<ApiServer::ListPlan> ApiServer::plan_list(const Request& request, Revision cached) {
  using api::ResourceVersionMatch;
  const api::ListOptions& options = request.list_options();
  auto r = resolve(request.resource, request.ns, true);
  if (!r) return r.status();
  if (auto causes = validate_list_options(options, false); !causes.empty()) {
    return invalid_list_options(std::move(causes));
  }
  auto pred = predicate(*r->info, options);
  if (!pred) return pred.status();

  ListPlan plan;
  plan.r = std::move(r).value();
  plan.predicate = std::move(pred).value();
  const std::string& rv = options.resource_version;
  plan.at = store_.revision();
  plan.limit = options.limit;
  if (!options.continue_token.empty()) {
    if (!rv.empty() && rv != "0") {
      return api::new_bad_request("specifying resource version is not allowed when using continue");
    }
    if (!internal::decode_continue(options.continue_token, plan.start, plan.at)) {
      return api::new_bad_request("invalid continue token");
    }
    if (plan.at < 0) {
      plan.at = store_.revision();  // the rest at the latest revision, as the 410 below offers
    } else if (plan.at < store_.compacted()) {
      return internal::continue_expired(plan.start);
    } else {
      plan.continued = true;
    }
  } else if (rv == "0" && options.resource_version_match != ResourceVersionMatch::kExact) {
    // Served from the watch cache: any revision will do, and the cache does not paginate.
    plan.at = cached;
    plan.limit = 0;
  } else if (!rv.empty()) {
    auto parsed = parse_revision(rv);
    if (!parsed) {
      // storage.ValidateListOptions wraps the versioner's error in a BadRequest.
      return api::new_bad_request("invalid resource version: " + internal::invalid_revision(rv).message);
    }
    if (*parsed > store_.revision()) return internal::too_large_revision(*parsed, store_.revision());
    const bool exact = options.resource_version_match == ResourceVersionMatch::kExact ||
                       (options.resource_version_match == ResourceVersionMatch::kUnset && plan.limit > 0);
    if (exact) {
      if (*parsed < store_.compacted()) {
        return api::new_resource_expired("The resourceVersion for the provided list is too old.");
      }
      plan.at = *parsed;
    }
  }
  return plan;
}

api::ObjectList ApiServer::scan_list(const ListPlan& plan) {
  const std::string_view ns = plan.r.ns;
  const auto& pred = plan.predicate;
  const std::int64_t limit = plan.limit;
  api::ObjectList out;
  out.resource_version = std::to_string(plan.at);
  const std::string prefix = plan.r.info->namespaced && !ns.empty() ? std::string(ns) + "/" : std::string();
  std::string last_key;
  bool more = false;
  std::int64_t remaining = 0;
  store_.scan(plan.r.table, plan.at, prefix, plan.start, [&](std::string_view key, const api::ObjectPtr& obj) {
    if (limit > 0 && static_cast<std::int64_t>(out.items.size()) >= limit) {
      // As etcd3's GetList: any key after the last one returned means more, selected or not,
      // and only an unfiltered list counts them.
      more = true;
      if (pred) return false;
      ++remaining;
      return true;
    }
    if (!pred || pred(*obj)) {
      out.items.push_back(obj);
      last_key = key;
    }
    return true;
  });
  if (more) {
    out.continue_token = internal::encode_continue(last_key + std::string(1, '\0'), plan.at);
    if (!pred) out.remaining_item_count = remaining;
  }
  return out;
}

api::Result<ApiServer::WatchPlan> ApiServer::plan_watch(const Request& request) {
  const api::ListOptions& options = request.list_options();
  auto r = resolve(request.resource, request.ns, true);
  if (!r) return r.status();
  if (auto causes = validate_list_options(options, true); !causes.empty()) {
    return invalid_list_options(std::move(causes));
  }
  auto pred = predicate(*r->info, options);
  if (!pred) return pred.status();
  WatchPlan plan;
  plan.r = std::move(r).value();
  plan.predicate = std::move(pred).value();
  return plan;
}

api::Result<WatchStart> ApiServer::start_watch(const Request& request, WatchPlan plan) {
  const api::ListOptions& options = request.list_options();
  const ResourceInfo& info = *plan.r.info;
  WatchSpec spec;
  spec.table = plan.r.table;
  spec.api_version = info.api_version();
  spec.kind = info.kind;
  spec.ns = info.namespaced ? plan.r.ns : std::string();
  spec.predicate = std::move(plan.predicate);
  spec.bookmarks = options.allow_watch_bookmarks;
  if (options.timeout_seconds && *options.timeout_seconds > 0) {
    spec.timeout = std::chrono::seconds(*options.timeout_seconds);
  } else {
    spec.timeout = options_.min_request_timeout +
                   loop_->rng().uniform_duration(sim::Duration::zero(), options_.min_request_timeout);
  }
  const std::string& rv = options.resource_version;
  const bool initial = options.send_initial_events.value_or(false);
  if (rv.empty() || rv == "0" || initial) {
    // State first: the synthetic ADDED events of kube-apiserver, or the streaming list, at the
    // current revision, or at the requested one once the store reaches it (the hub waits).
    Revision from = store_.revision();
    if (!rv.empty() && rv != "0") {
      auto parsed = parse_revision(rv);
      if (!parsed) return internal::invalid_revision(rv);
      from = std::max(from, *parsed);
    }
    spec.start = WatchSpec::Start::kInitialEvents;
    spec.from = from;
    spec.end_bookmark = initial && options.allow_watch_bookmarks;
    if (options.send_initial_events.has_value() && !initial) spec.start = WatchSpec::Start::kReplay;
    return hub_.start(std::move(spec));
  }
  auto parsed = parse_revision(rv);
  // The cacher returns the versioner's error as is: a 500 with the field error's text.
  if (!parsed) return internal::invalid_revision(rv);
  // A revision the store has not reached: the hub waits for it, then ends the watch with the
  // 504 ResourceVersionTooLarge ERROR event if it does not come.
  if (*parsed < store_.compacted()) {
    return hub_.start_error(
        api::new_resource_expired(api::too_old_resource_version_message(*parsed, store_.compacted())));
  }
  spec.start = WatchSpec::Start::kReplay;
  spec.from = *parsed;
  return hub_.start(std::move(spec));
}

void ApiServer::compact_now() {
  store_.compact(store_.revision());
  while (!revision_times_.empty() && revision_times_.front().second <= store_.compacted()) {
    revision_times_.pop_front();
  }
  loop_->trace().record(loop_->now(), "apiserver", "compact", {{"revision", store_.compacted()}});
}

void ApiServer::schedule_compaction() {
  // Like kube-apiserver: every interval, compact to the revision seen at the previous tick, so
  // history is kept for between one and two intervals.
  compaction_timer_ = loop_->add_timer(loop_->now() + options_.compaction_interval, [this] {
    if (compaction_mark_ > store_.compacted()) {
      store_.compact(compaction_mark_);
      while (!revision_times_.empty() && revision_times_.front().second <= store_.compacted()) {
        revision_times_.pop_front();
      }
    }
    compaction_mark_ = store_.revision();
    compaction_armed_ = false;
    // Keep ticking while there is history to compact; a later write re-arms the timer, so an
    // idle server lets the loop go idle.
    if (compaction_mark_ > store_.compacted()) schedule_compaction();
  });
  compaction_armed_ = true;
}

void ApiServer::restart() {
  hub_.close_all();
  loop_->trace().record(loop_->now(), "apiserver", "restart", {{"revision", store_.revision()}});
}

std::size_t ApiServer::close_watches(const api::GroupVersionResource& gvr) {
  auto r = resolve(gvr, {}, /*collection=*/true);
  if (!r.ok()) return 0;
  const std::size_t before = hub_.watcher_count();
  hub_.close_table(r.value().table);
  const std::size_t closed = before - hub_.watcher_count();
  loop_->trace().record(loop_->now(), "apiserver", "close-watches",
                        {{"resource", gvr.resource}, {"closed", closed}});
  return closed;
}

}  // namespace kubesim::fakeapi
