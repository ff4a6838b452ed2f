// The verb of a resource request and its options, from the query string and the body.
#include <cerrno>
#include <cstdlib>

#include "fakeapi/http/internal/request.h"
#include "fakeapi/internal/server_util.h"
#include "fakeapi/http/internal/utf8.h"
#include "kubesim/api/yaml.h"

namespace kubesim::fakeapi::http::internal {
namespace {

using fakeapi::internal::method_not_allowed;

// Go's strconv.ParseInt(s, 10, 64) with its error text.
std::optional<api::Status> parse_int64(const std::string& text, std::int64_t& out) {
  bool ok = !text.empty();
  std::size_t i = (text.size() > 1 && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  for (; ok && i < text.size(); ++i) ok = text[i] >= '0' && text[i] <= '9';
  if (ok) {
    errno = 0;
    out = std::strtoll(text.c_str(), nullptr, 10);
    if (errno != ERANGE) return std::nullopt;
    return api::new_bad_request("strconv.ParseInt: parsing " + quote(text) +
                                ": value out of range");
  }
  return api::new_bad_request("strconv.ParseInt: parsing " + quote(text) +
                              ": invalid syntax");
}

api::Status unsupported(std::string_view options_kind, std::string field, const std::string& value,
                        std::string supported) {
  return api::new_invalid(api::GroupKind{"meta.k8s.io", std::string(options_kind)}, "",
                          {{"FieldValueNotSupported",
                            "Unsupported value: " + quote(value) +
                                ": supported values: " + supported,
                            std::move(field)}});
}

// dryRun, fieldManager and fieldValidation, shared by create, update and patch.
std::optional<api::Status> write_options(const Query& q, std::string_view kind, bool& dry_run,
                                         std::string& field_manager,
                                         api::FieldValidation& field_validation) {
  for (const auto& [k, v] : q.params) {
    if (k != "dryRun") continue;
    if (v != "All") {
      return api::new_invalid(api::GroupKind{"meta.k8s.io", std::string(kind)}, "",
                              {{"FieldValueNotSupported",
                                "Unsupported value: []string{" + quote(v) +
                                    "}: supported values: \"All\"",
                                "dryRun"}});
    }
    dry_run = true;
  }
  if (const auto* fm = q.get("fieldManager")) field_manager = *fm;
  if (const auto* fv = q.get("fieldValidation")) {
    const auto parsed = api::parse_field_validation(*fv);
    if (!parsed) {
      return unsupported(kind, "fieldValidation", *fv, "\"\", \"Ignore\", \"Warn\", \"Strict\"");
    }
    field_validation = *parsed;
  }
  return std::nullopt;
}

std::optional<api::Status> list_options(ApiCall& call) {
  const Query& q = call.query;
  api::ListOptions& o = call.list;
  if (const auto* v = q.get("labelSelector")) o.label_selector = *v;
  if (const auto* v = q.get("fieldSelector")) o.field_selector = *v;
  if (const auto* v = q.get("resourceVersion")) o.resource_version = *v;
  if (const auto* v = q.get("continue")) o.continue_token = *v;
  if (const auto* v = q.get("resourceVersionMatch")) {
    auto m = api::parse_resource_version_match(*v);
    if (!m) return unsupported("ListOptions", "resourceVersionMatch", *v,
                               "\"Exact\", \"NotOlderThan\", \"\"");
    o.resource_version_match = *m;
  }
  if (const auto* v = q.get("limit")) {
    if (auto e = parse_int64(*v, o.limit)) return e;
    if (o.limit < 0) o.limit = 0;
  }
  if (const auto* v = q.get("timeoutSeconds")) {
    std::int64_t t = 0;
    if (auto e = parse_int64(*v, t)) return e;
    o.timeout_seconds = t;
  }
  if (const auto* v = q.get("allowWatchBookmarks")) o.allow_watch_bookmarks = query_bool(*v);
  if (const auto* v = q.get("sendInitialEvents")) o.send_initial_events = query_bool(*v);
  if (!call.route.name.empty()) {
    // A watch of one object: kube-apiserver turns the name into a field selector.
    const std::string by_name = "metadata.name=" + call.route.name;
    if (o.field_selector.empty()) {
      o.field_selector = by_name;
    } else if (o.field_selector != by_name) {
      return api::new_bad_request("fieldSelector metadata.name doesn't match requested name");
    }
  }
  return std::nullopt;
}

std::optional<api::Status> delete_query_options(ApiCall& call) {
  const Query& q = call.query;
  if (const auto* v = q.get("gracePeriodSeconds")) {
    std::int64_t g = 0;
    if (auto e = parse_int64(*v, g)) return e;
    call.del.grace_period_seconds = g;
  }
  if (const auto* v = q.get("propagationPolicy")) {
    auto p = api::parse_propagation_policy(*v);
    if (!p) return unsupported("DeleteOptions", "propagationPolicy", *v,
                               "\"Foreground\", \"Background\", \"Orphan\", \"nil\"");
    call.del.propagation_policy = *p;
  }
  bool dry_run = false;
  std::string unused;
  api::FieldValidation unused_validation = api::FieldValidation::kUnset;
  if (auto e = write_options(q, "DeleteOptions", dry_run, unused, unused_validation)) return e;
  call.del.dry_run = dry_run;
  return std::nullopt;
}

}  // namespace

std::optional<api::Status> parse_verb_and_options(ApiCall& call) {
  const Route& r = call.route;
  const bool named = !r.name.empty();
  // The server answers which resource has which subresource; one no resource has is unknown.
  if (!r.subresource.empty() && !api::parse_subresource(r.subresource)) {
    return api::new_not_found(api::GroupResource{r.group, r.resource + "/" + r.subresource}, r.name);
  }
  const bool watch_param = call.query.get("watch") != nullptr && query_bool(*call.query.get("watch"));
  switch (call.method) {
    case Method::kGet:
    case Method::kHead:
      if (!r.subresource.empty()) {
        call.verb = "get";
      } else if (watch_param || r.watch_prefix) {
        call.verb = "watch";
      } else {
        call.verb = named ? "get" : "list";
      }
      break;
    case Method::kPost:
      // A named POST creates a subresource's object (pods/NAME/binding, pods/NAME/eviction).
      if (named && r.subresource.empty()) return method_not_allowed();
      call.verb = "create";
      break;
    case Method::kPut:
      if (!named) return method_not_allowed();
      call.verb = "update";
      break;
    case Method::kPatch:
      if (!named) return method_not_allowed();
      call.verb = "patch";
      break;
    case Method::kDelete:
      if (!r.subresource.empty() && r.subresource != "proxy") return method_not_allowed();
      call.verb = named ? "delete" : "deletecollection";
      break;
    case Method::kOther:
      return method_not_allowed();
  }
  if (r.watch_prefix && call.verb != "watch") return method_not_allowed();
  if (call.verb == "get") {
    if (const auto* v = call.query.get("resourceVersion")) call.get.resource_version = *v;
    return std::nullopt;
  }
  if (call.verb == "list" || call.verb == "watch") return list_options(call);
  if (call.verb == "create") {
    return write_options(call.query, "CreateOptions", call.create.dry_run, call.create.field_manager,
                         call.create.field_validation);
  }
  if (call.verb == "update") {
    return write_options(call.query, "UpdateOptions", call.update.dry_run, call.update.field_manager,
                         call.update.field_validation);
  }
  if (call.verb == "patch") {
    // PatchOptions.force is a *bool: set whenever the parameter is there (then only an apply
    // may carry it).
    if (const auto* force = call.query.get("force")) call.patch.force = query_bool(*force);
    return write_options(call.query, "PatchOptions", call.patch.dry_run, call.patch.field_manager,
                         call.patch.field_validation);
  }
  if (auto e = delete_query_options(call)) return e;
  if (call.verb == "deletecollection") {
    call.route.name.clear();
    return list_options(call);
  }
  return std::nullopt;
}

}  // namespace kubesim::fakeapi::http::internal
