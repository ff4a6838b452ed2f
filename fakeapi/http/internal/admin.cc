// The admin endpoints under /kubesim/v1/: fault rules, compaction, restart and stats.
//
//   GET    /kubesim/v1/faults        {"rules":[...]}
//   POST   /kubesim/v1/faults        a rule (or a list of rules) as FaultRule JSON → {"ids":[...]}
//   DELETE /kubesim/v1/faults        removes every rule
//   DELETE /kubesim/v1/faults/<id>   removes one rule (404 when there is none)
//   POST   /kubesim/v1/compact       compacts history to the current revision
//   POST   /kubesim/v1/restart       cuts every watch (each stream ends cleanly), keeps the state
//   GET    /kubesim/v1/stats         revision, compaction, objects per resource, watches
#include "fakeapi/http/internal/loop_side.h"
#include "fakeapi/internal/server_util.h"

namespace kubesim::fakeapi::http::internal {
namespace {

using nlohmann::json;

using fakeapi::internal::method_not_allowed;

api::Status admin_not_found(const std::string& path) {
  api::Status s;
  s.code = 404;
  s.reason = api::StatusReason::kNotFound;
  s.message = "no admin endpoint /kubesim/v1/" + path;
  return s;
}

}  // namespace

Reply LoopSide::admin(ApiCall& call) {
  const std::string& path = call.route.admin;
  FaultInjector& faults = server_->faults();
  const Method m = call.method;
  if (path == "faults") {
    if (m == Method::kGet) {
      json rules = json::array();
      for (const auto& rule : faults.rules()) rules.push_back(rule.to_json());
      return Reply::of_json(200, json{{"rules", rules}}.dump());
    }
    if (m == Method::kDelete) {
      faults.clear();
      return Reply::of_json(200, R"({"rules":[]})");
    }
    if (m != Method::kPost) return Reply::of_status(method_not_allowed());
    json body = json::parse(call.body, nullptr, false);
    if (body.is_discarded()) return Reply::of_status(api::new_bad_request("the fault rule is not valid JSON"));
    std::vector<FaultRule> parsed;
    for (const json& j : body.is_array() ? body : json::array({body})) {
      auto rule = FaultRule::from_json(j);
      if (!rule) return Reply::of_status(rule.status());  // nothing added
      parsed.push_back(std::move(rule.value()));
    }
    json ids = json::array();
    for (auto& rule : parsed) ids.push_back(faults.add(std::move(rule)));
    return Reply::of_json(201, json{{"ids", ids}}.dump());
  }
  if (path.rfind("faults/", 0) == 0) {
    if (m != Method::kDelete) return Reply::of_status(method_not_allowed());
    const std::string id = path.substr(7);
    if (!faults.remove(id)) return Reply::of_status(admin_not_found(path));
    return Reply::of_json(200, json{{"removed", id}}.dump());
  }
  if (path == "compact") {
    if (m != Method::kPost) return Reply::of_status(method_not_allowed());
    server_->compact_now();
    return Reply::of_json(200, json{{"compacted", server_->store().compacted()}}.dump());
  }
  if (path == "restart") {
    if (m != Method::kPost) return Reply::of_status(method_not_allowed());
    server_->restart();
    return Reply::of_json(200, json{{"restarted", true}, {"revision", server_->revision()}}.dump());
  }
  if (path == "stats") {
    if (m != Method::kGet) return Reply::of_status(method_not_allowed());
    json objects = json::object();
    const Store& store = server_->store();
    for (const ResourceInfo* info : server_->registry().all()) {
      if (!info->storage) continue;
      const auto table = store.find_table(info->group_resource());
      const std::size_t n = table ? store.size(*table) : 0;
      if (n > 0) objects[info->group_resource().to_string()] = n;
    }
    json stats = {{"revision", server_->revision()},
                  {"compacted", store.compacted()},
                  {"objects", objects},
                  {"watchers", server_->watches().watcher_count()},
                  {"http_watches", watches_.size()},
                  {"events_delivered", server_->watches().delivered()},
                  {"watchers_closed_for_backlog", server_->watches().closed_for_backlog()},
                  {"fault_rules", faults.rules().size()}};
    return Reply::of_json(200, stats.dump());
  }
  return Reply::of_status(admin_not_found(path));
}

}  // namespace kubesim::fakeapi::http::internal
