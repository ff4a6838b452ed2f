// The REST request of each Client call: path, query string and body, as client-go builds them.
//
// Paths: core resources under /api/v1, groups under /apis/GROUP/VERSION; `namespaces/NS/` for a
// namespaced call; then the resource, the name and the subresource. Names and namespaces are
// checked as client-go's IsValidPathSegmentName checks them ('.', '..', '/' and '%' are refused)
// and escaped as Go's URL.EscapedPath escapes them.
//
// Query strings hold the options of kubesim/api/options.h, each only when set, with the keys sorted as
// Go's url.Values.Encode sorts them and the values escaped as url.QueryEscape escapes them (a
// space is '+'). DeleteOptions travel as a JSON body, as client-go sends them.
#ifndef KUBESIM_API_REST_INTERNAL_PATHS_H_
#define KUBESIM_API_REST_INTERNAL_PATHS_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/api/options.h"

namespace kubesim::api::rest::internal {

// Go's url.QueryEscape and url.PathEscape.
std::string query_escape(std::string_view s);
std::string path_escape(std::string_view s);

// Query parameters, encoded sorted by key (values of one key keep their order).
class Query {
 public:
  void add(std::string key, std::string value) { params_.emplace_back(std::move(key), std::move(value)); }
  bool empty() const { return params_.empty(); }
  // "a=1&b=x+y", without the leading '?'.
  std::string encode() const;

 private:
  std::vector<std::pair<std::string, std::string>> params_;
};

// The message of a refused name or namespace ("invalid resource name \"a/b\": [may not contain
// '/']"), or nullopt when it is fine. `what` is "resource name" or "namespace".
std::optional<std::string> check_path_segment(std::string_view what, std::string_view value);

// "/api/v1/namespaces/ns/configmaps/name/status", prefixed with `base_path` (no trailing '/').
// The caller has checked `ns` and `name` with check_path_segment.
std::string resource_path(std::string_view base_path, const GroupVersionResource& resource,
                          std::string_view ns, std::string_view name = {},
                          std::string_view subresource = {});

// `path` followed by "?query" when the query is not empty.
std::string with_query(std::string path, const Query& query);

Query list_query(const ListOptions& options, bool watch);
Query get_query(const GetOptions& options);
// create, update and patch: dryRun=All, fieldManager, fieldValidation.
Query write_query(bool dry_run, std::string_view field_manager, FieldValidation validation);

// The DeleteOptions JSON body: only the fields that are set, in metav1.DeleteOptions' order;
// "{}" when nothing is set.
std::string delete_body(const DeleteOptions& options);

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_PATHS_H_
