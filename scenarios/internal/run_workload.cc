#include "run_workload.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "kubesim/sim/sleep.h"
#include "run_world.h"

namespace kubesim::scenarios::runner {

using nlohmann::json;

namespace {

constexpr std::string_view kWorkload = "workload";
constexpr std::string_view kPlaceholder = "{{n}}";

bool has_placeholder(const json& value) {
  if (value.is_string()) return value.get_ref<const std::string&>().find(kPlaceholder) != std::string::npos;
  if (value.is_object() || value.is_array()) {
    return std::any_of(value.begin(), value.end(), [](const json& v) { return has_placeholder(v); });
  }
  return false;
}

void substitute_in_place(json& value, const std::string& n) {
  if (value.is_string()) {
    std::string& s = value.get_ref<std::string&>();
    for (std::size_t at = s.find(kPlaceholder); at != std::string::npos; at = s.find(kPlaceholder, at + n.size())) {
      s.replace(at, kPlaceholder.size(), n);
    }
  } else if (value.is_object() || value.is_array()) {
    for (auto& v : value) substitute_in_place(v, n);
  }
}

json outcome(std::size_t entry, std::int64_t n, std::string_view verb) {
  return {{"entry", entry}, {"n", n}, {"verb", verb}};
}

template <class T>
void add_answer(json& fields, const api::Result<T>& result) {
  if (result.ok()) {
    fields["ok"] = true;
  } else {
    fields["code"] = result.status().code;
    fields["error"] = result.status().message;
  }
}

// An existing object of `gvr` in `ns`, read from the server directly (not a request).
api::ObjectPtr pick(World& w, const api::GroupVersionResource& gvr, const std::string& ns, Pick how) {
  auto listed = w.server.list(gvr, ns, api::ListOptions());
  if (!listed.ok() || listed.value().items.empty()) return nullptr;
  const auto& items = listed.value().items;
  if (how == Pick::kRandom) return items[w.loop.rng().uniform(items.size())];
  const auto older = [](const api::ObjectPtr& a, const api::ObjectPtr& b) {
    if (a->creation_timestamp() != b->creation_timestamp()) return a->creation_timestamp() < b->creation_timestamp();
    return a->key().view() < b->key().view();
  };
  return how == Pick::kOldest ? *std::min_element(items.begin(), items.end(), older)
                              : *std::max_element(items.begin(), items.end(), older);
}

// `object` with `value` at the dotted `path`; metadata goes through validation (a bad label is
// an error, not a crash).
api::Result<api::ObjectPtr> set_path(const api::ObjectPtr& object, const std::string& path, const json& value) {
  const bool top = path.rfind("metadata", 0) == 0 || path == "apiVersion" || path == "kind";
  if (!top) return object->with_value_at(path, value);
  json j = object->to_json();
  json* at = &j;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!at->is_object()) *at = json::object();
    at = &(*at)[key];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  *at = value;
  return api::Object::from_json(std::move(j));
}

sim::Task<void> create(World* w, std::size_t entry, std::int64_t n, const CreateAction* action, sim::Context ctx) {
  json fields = outcome(entry, n, "create");
  auto object = api::Object::from_json(substitute_n(action->object, n));
  const fakeapi::ResourceInfo* info = nullptr;
  if (object.ok()) {
    const auto gv = api::parse_api_version(object.value()->api_version());
    if (gv) info = w->server.registry().find_kind({gv->group, gv->version, std::string(object.value()->kind())});
  }
  if (info == nullptr) {
    fields["error"] = object.ok() ? "the server does not serve this kind" : object.status().message;
    w->trace(kWorkload, "workload.create", fields);
    co_return;
  }
  std::string ns;
  if (info->namespaced) ns = object.value()->namespace_().empty() ? "default" : std::string(object.value()->namespace_());
  auto made = co_await w->workload->client->create(ctx, info->gvr, ns, object.value(), api::CreateOptions());
  if (w->closing) co_return;
  add_answer(fields, made);
  if (made.ok()) fields["key"] = made.value()->key().str();
  w->trace(kWorkload, "workload.create", fields);
}

sim::Task<void> update(World* w, std::size_t entry, std::int64_t n, const UpdateAction* action, sim::Context ctx) {
  json fields = outcome(entry, n, "update");
  api::ObjectPtr picked = pick(*w, action->resource.gvr, action->ns, action->pick);
  if (!picked) {
    fields["skipped"] = "nothing to pick";
    w->trace(kWorkload, "workload.update", fields);
    co_return;
  }
  fields["key"] = picked->key().str();
  api::ObjectPtr changed = picked;
  for (const auto& [path, value] : action->set) {
    auto next = set_path(changed, path, substitute_n(value, n));
    if (!next.ok()) {
      fields["error"] = next.status().message;
      w->trace(kWorkload, "workload.update", fields);
      co_return;
    }
    changed = std::move(next).value();
  }
  const std::string ns(picked->namespace_());
  auto updated = co_await w->workload->client->update(ctx, action->resource.gvr, ns, changed, api::UpdateOptions());
  if (w->closing) co_return;
  add_answer(fields, updated);
  w->trace(kWorkload, "workload.update", fields);
}

sim::Task<void> remove(World* w, std::size_t entry, std::int64_t n, const DeleteAction* action, sim::Context ctx) {
  json fields = outcome(entry, n, "delete");
  api::ObjectPtr picked = pick(*w, action->resource.gvr, action->ns, action->pick);
  if (!picked) {
    fields["skipped"] = "nothing to pick";
    w->trace(kWorkload, "workload.delete", fields);
    co_return;
  }
  fields["key"] = picked->key().str();
  const std::string ns(picked->namespace_());
  const std::string name(picked->name());
  auto deleted = co_await w->workload->client->delete_(ctx, action->resource.gvr, ns, name, api::DeleteOptions());
  if (w->closing) co_return;
  add_answer(fields, deleted);
  w->trace(kWorkload, "workload.delete", fields);
}

sim::Task<void> act(World* w, std::size_t entry, std::int64_t n, sim::Context ctx) {
  const WorkloadAction& action = w->scenario.workload[entry].action;
  if (const auto* c = std::get_if<CreateAction>(&action)) {
    co_await create(w, entry, n, c, ctx);
  } else if (const auto* u = std::get_if<UpdateAction>(&action)) {
    co_await update(w, entry, n, u, ctx);
  } else if (const auto* d = std::get_if<DeleteAction>(&action)) {
    co_await remove(w, entry, n, d, ctx);
  }
}

// One entry's ticks: every `every` over [from, until), from the first tick not before now (a
// restarted workload process goes on where the schedule is).
sim::Task<void> entry_main(World* w, std::size_t i, sim::Context ctx) {
  const WorkloadEntry& e = w->scenario.workload[i];
  const sim::Time from = sim::Time{} + e.from;
  const sim::Time until = e.until ? std::min(sim::Time{} + *e.until, w->end) : w->end;
  const sim::Duration every = std::max(e.every, sim::Duration(1));
  sim::Time next = from;
  if (w->loop.now() > from) next = from + ((w->loop.now() - from + every - sim::Duration(1)) / every) * every;
  while (next < until) {
    const bool slept = co_await sim::sleep_until(ctx, w->loop, next);
    if (!slept || w->closing) co_return;
    const std::int64_t n = ++w->workload->counts[i];
    w->workload->group.spawn(act(w, i, n, ctx), "workload");
    next += every;
  }
}

sim::Task<void> workload_main(World* w, sim::Context ctx) {
  if (ctx.done() || w->closing) co_return;
  for (std::size_t i = 0; i < w->scenario.workload.size(); ++i) {
    w->workload->group.spawn(entry_main(w, i, ctx), "workload");
  }
}

}  // namespace

json substitute_n(const json& value, std::int64_t n) {
  if (!has_placeholder(value)) return value;
  json out = value;
  substitute_in_place(out, std::to_string(n));
  return out;
}

void make_workload(World& w) {
  w.workload = std::make_unique<Workload>(w.loop);
  Workload& wl = *w.workload;
  wl.process = std::make_unique<sim::Process>(w.loop, std::string(kWorkload));
  wl.link = std::make_shared<sim::NetworkLink>(w.loop, w.scenario.network.min,
                                               w.scenario.network.max - w.scenario.network.min);
  wl.process->set_link(wl.link);
  wl.client = std::make_unique<fakeapi::InProcessClient>(w.server, *wl.process);
  wl.counts.assign(w.scenario.workload.size(), 0);
}

void start_workload(World& w) {
  World* world = &w;
  w.workload->process->start([world](sim::Context ctx) { return workload_main(world, std::move(ctx)); });
}

}  // namespace kubesim::scenarios::runner
