#include "api/rest/internal/paths.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace kubesim::api::rest::internal {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

bool unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~';
}

void percent(std::string& out, unsigned char c) {
  out.push_back('%');
  out.push_back(kHex[c >> 4]);
  out.push_back(kHex[c & 15]);
}

}  // namespace

std::string query_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (unreserved(c)) {
      out.push_back(static_cast<char>(c));
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      percent(out, c);
    }
  }
  return out;
}

std::string path_escape(std::string_view s) {
  // Go's encodePathSegment: unreserved plus "$&+,:;=@" stay as they are.
  static constexpr std::string_view kKeep = "$&+,:;=@";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (unreserved(c) || kKeep.find(static_cast<char>(c)) != std::string_view::npos) {
      out.push_back(static_cast<char>(c));
    } else {
      percent(out, c);
    }
  }
  return out;
}

std::string Query::encode() const {
  auto sorted = params_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (const auto& [k, v] : sorted) {
    if (!out.empty()) out.push_back('&');
    out += query_escape(k);
    out.push_back('=');
    out += query_escape(v);
  }
  return out;
}

std::optional<std::string> check_path_segment(std::string_view what, std::string_view value) {
  std::vector<std::string> msgs;
  if (value == "." || value == "..") {
    msgs.push_back("may not be '" + std::string(value) + "'");
  } else {
    if (value.find('/') != std::string_view::npos) msgs.push_back("may not contain '/'");
    if (value.find('%') != std::string_view::npos) msgs.push_back("may not contain '%'");
  }
  if (msgs.empty()) return std::nullopt;
  std::string list;
  for (const auto& m : msgs) list += (list.empty() ? "" : " ") + m;
  return "invalid " + std::string(what) + " \"" + std::string(value) + "\": [" + list + "]";
}

std::string resource_path(std::string_view base_path, const GroupVersionResource& resource,
                          std::string_view ns, std::string_view name,
                          std::string_view subresource) {
  std::string p(base_path);
  if (resource.group.empty()) {
    p += "/api/" + path_escape(resource.version);
  } else {
    p += "/apis/" + path_escape(resource.group) + "/" + path_escape(resource.version);
  }
  if (!ns.empty()) p += "/namespaces/" + path_escape(ns);
  p += "/" + path_escape(resource.resource);
  if (!name.empty()) p += "/" + path_escape(name);
  if (!subresource.empty()) p += "/" + path_escape(subresource);
  return p;
}

std::string with_query(std::string path, const Query& query) {
  if (query.empty()) return path;
  return path + "?" + query.encode();
}

Query list_query(const ListOptions& o, bool watch) {
  Query q;
  if (!o.label_selector.empty()) q.add("labelSelector", o.label_selector);
  if (!o.field_selector.empty()) q.add("fieldSelector", o.field_selector);
  if (watch) q.add("watch", "true");
  if (!o.resource_version.empty()) q.add("resourceVersion", o.resource_version);
  if (o.resource_version_match != ResourceVersionMatch::kUnset) {
    q.add("resourceVersionMatch", std::string(to_string(o.resource_version_match)));
  }
  if (o.timeout_seconds) q.add("timeoutSeconds", std::to_string(*o.timeout_seconds));
  if (o.limit > 0) q.add("limit", std::to_string(o.limit));
  if (!o.continue_token.empty()) q.add("continue", o.continue_token);
  if (o.allow_watch_bookmarks) q.add("allowWatchBookmarks", "true");
  if (o.send_initial_events) q.add("sendInitialEvents", *o.send_initial_events ? "true" : "false");
  return q;
}

Query get_query(const GetOptions& o) {
  Query q;
  if (!o.resource_version.empty()) q.add("resourceVersion", o.resource_version);
  return q;
}

Query write_query(bool dry_run, std::string_view field_manager, FieldValidation validation) {
  Query q;
  if (dry_run) q.add("dryRun", "All");
  if (!field_manager.empty()) q.add("fieldManager", std::string(field_manager));
  if (validation != FieldValidation::kUnset) {
    q.add("fieldValidation", std::string(to_string(validation)));
  }
  return q;
}

std::string delete_body(const DeleteOptions& o) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (o.grace_period_seconds) j["gracePeriodSeconds"] = *o.grace_period_seconds;
  if (o.preconditions.uid || o.preconditions.resource_version) {
    nlohmann::ordered_json pre = nlohmann::ordered_json::object();
    if (o.preconditions.uid) pre["uid"] = *o.preconditions.uid;
    if (o.preconditions.resource_version) pre["resourceVersion"] = *o.preconditions.resource_version;
    j["preconditions"] = std::move(pre);
  }
  if (o.propagation_policy != PropagationPolicy::kUnset) {
    j["propagationPolicy"] = std::string(to_string(o.propagation_policy));
  }
  if (o.dry_run) j["dryRun"] = nlohmann::ordered_json::array({"All"});
  return j.dump();
}

}  // namespace kubesim::api::rest::internal
