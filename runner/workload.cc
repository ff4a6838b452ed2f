#include "kubesim/runner/workload.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "kubesim/runner/checks.h"
#include "kubesim/runner/world.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::runner {

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

// Replaces every {{n}} of `s`, left to right, by `n`.
void replace_placeholders(std::string& s, std::string_view n) {
  for (std::size_t at = s.find(kPlaceholder); at != std::string::npos; at = s.find(kPlaceholder, at + n.size())) {
    s.replace(at, kPlaceholder.size(), n);
  }
}

void substitute_in_place(json& value, const std::string& n) {
  if (value.is_string()) {
    replace_placeholders(value.get_ref<std::string&>(), n);
  } else if (value.is_object() || value.is_array()) {
    for (auto& v : value) substitute_in_place(v, n);
  }
}

bool placeholder_in_a_key(const json& value) {
  if (value.is_object()) {
    for (const auto& [key, v] : value.items()) {
      if (key.find(kPlaceholder) != std::string::npos || placeholder_in_a_key(v)) return true;
    }
  } else if (value.is_array()) {
    return std::any_of(value.begin(), value.end(), [](const json& v) { return placeholder_in_a_key(v); });
  }
  return false;
}

// Traces an action that wrote nothing (a write is traced by the server):
// {"entry", "n", "verb", "key" (when one was picked), and `what`}.
void trace_action(World& w, std::size_t entry, std::int64_t n, std::string_view verb, std::string_view key,
                  json what) {
  what["entry"] = entry;
  what["n"] = n;
  what["verb"] = verb;
  if (!key.empty()) what["key"] = key;
  w.trace(kWorkload, "workload." + std::string(verb), what);
}

// The stream a random pick of action `n` of entry `entry` draws from: named by the run's seed,
// the entry and n, so that it does not move when a fault, a latency or another entry draws, nor
// when an earlier action of the entry had nothing to pick.
sim::Rng pick_stream(const World& w, std::size_t entry, std::int64_t n) {
  constexpr std::uint64_t kWorkloadStreams = 0x776f726b6c6f6164;  // "workload"
  return sim::Rng(w.options.seed)
      .split(kWorkloadStreams)
      .split(entry)
      .split(static_cast<std::uint64_t>(n));
}

// An existing object to act on, from the entry's index, as the server holds it now (read
// directly: not a request).
api::ObjectPtr pick(World& w, std::size_t entry, std::int64_t n, scenarios::Pick how) {
  const PickIndex* index = w.workload->entry_picks[entry];
  sim::Rng rng = pick_stream(w, entry, n);
  const std::optional<std::string> key = index->pick(how, rng);
  if (!key) return nullptr;
  const std::size_t slash = key->find('/');
  const std::string ns = slash == std::string::npos ? "" : key->substr(0, slash);
  const std::string name = slash == std::string::npos ? *key : key->substr(slash + 1);
  auto got = w.server.get(index->resource(), ns, name, api::GetOptions());
  return got.ok() ? std::move(got).value() : nullptr;
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

// How an action ended (EntryWrites' fields).
enum class Outcome { kWritten, kRefused, kFailed, kSkipped };

// A failed answer's outcome: refused when the server answered the request as sent with a 4xx
// (an AlreadyExists 409 included) and no fault rule did; failed otherwise (an injected fault, no
// answer, a 5xx or 429, a Conflict past the retries, or — `picked` — the picked object deleted
// meanwhile).
Outcome outcome_of(const api::Response& r, bool picked) {
  if (!r.fault_rule.empty() || r.code < 400 || r.code >= 500 || r.code == 429) return Outcome::kFailed;
  if (r.code == 409 && r.error && r.error->reason == api::StatusReason::kConflict) return Outcome::kFailed;
  if (picked && r.code == 404) return Outcome::kFailed;
  return Outcome::kRefused;
}

// Counts action n of `entry`; the first refusal of an entry that does not expect them breaks
// the seed, at this instant, naming the request and the server's answer.
void count(World& w, std::size_t entry, std::int64_t n, Outcome outcome, std::string_view what,
           const std::string& why) {
  EntryWrites& c = w.workload->writes[entry];
  switch (outcome) {
    case Outcome::kWritten: ++c.written; return;
    case Outcome::kFailed: ++c.failed; return;
    case Outcome::kSkipped: ++c.skipped; return;
    case Outcome::kRefused: break;
  }
  if (++c.refused > 1 || c.expect_refused || !w.checker) return;
  const scenarios::WorkloadEntry& e = w.scenario.workload[entry];
  w.checker->fail(Failure{
      "workload " + c.verb + " refused", "refusedWrite", e.mark, w.loop.now(),
      "action " + std::to_string(n) + " of the entry (" + std::string(what) + "): " + why +
          "\nthe entry's writes do not happen, so what it was meant to exercise is not tested; if "
          "refusals are what it tests, write expect: {refused: true} on the entry"});
}

// The answer's code and reason and the server's message ("422 Invalid: …"), or the client's
// error when no answer came.
std::string answer_text(const api::Response& r) {
  std::string text = std::to_string(r.code);
  if (r.error) {
    if (r.error->reason != api::StatusReason::kUnknown) text += " " + std::string(api::to_string(r.error->reason));
    text += ": " + r.error->message;
  }
  if (!r.fault_rule.empty()) text += " (fault rule " + r.fault_rule + ")";
  return text;
}

void trace_answer(World& w, std::size_t entry, std::int64_t n, std::string_view verb, std::string_view key,
                  const api::Response& r) {
  trace_action(w, entry, n, verb, key, {{"code", r.code}, {"error", r.error ? r.error->message : ""}});
}

// A request of the workload's client: `verb` on `gvr`, `ns`, `name`.
api::Request request(api::Verb verb, const api::GroupVersionResource& gvr, std::string ns, std::string name) {
  api::Request r;
  r.verb = verb;
  r.resource = gvr;
  r.ns = std::move(ns);
  r.name = std::move(name);
  return r;
}

sim::Task<void> create(World* w, std::size_t entry, std::int64_t n, const scenarios::CreateAction* action, sim::Context ctx) {
  auto object = object_to_create(w->workload->create_texts[entry], action->object, n);
  const fakeapi::ResourceInfo* info = nullptr;
  if (object.ok()) {
    const auto gv = api::parse_api_version(object.value()->api_version());
    if (gv) info = w->server.registry().find_kind({gv->group, gv->version, std::string(object.value()->kind())});
  }
  if (info == nullptr) {
    const std::string why = object.ok() ? "the server does not serve this kind" : object.status().message;
    trace_action(*w, entry, n, "create", "", {{"error", why}});
    count(*w, entry, n, Outcome::kRefused, "create", why);
    co_return;
  }
  std::string ns;
  if (info->namespaced) ns = object.value()->namespace_().empty() ? "default" : std::string(object.value()->namespace_());
  api::Request req = request(api::Verb::kCreate, info->gvr, ns, std::string(object.value()->name()));
  req.options = api::CreateOptions();
  req.object = object.value();
  const api::Response made = co_await w->workload->client->send(ctx, std::move(req));
  if (w->closing()) co_return;
  if (made.ok()) {  // the server traced the write
    ++w->workload->writes[entry].written;
    co_return;
  }
  trace_answer(*w, entry, n, "create", "", made);
  const std::string what = "create " + std::string(object.value()->kind()) + " " + (ns.empty() ? "" : ns + "/") +
                           std::string(object.value()->name().empty() ? object.value()->generate_name()
                                                                      : object.value()->name());
  count(*w, entry, n, outcome_of(made, false), what, answer_text(made));
}

// client-go's retry.DefaultRetry, as RetryOnConflict uses it: five tries, 10ms apart plus up
// to 10 % of jitter.
constexpr int kConflictTries = 5;
constexpr sim::Duration kConflictWait = std::chrono::milliseconds(10);
constexpr double kConflictJitter = 0.1;

sim::Task<void> update(World* w, std::size_t entry, std::int64_t n, const scenarios::UpdateAction* action, sim::Context ctx) {
  api::ObjectPtr current = pick(*w, entry, n, action->pick);
  if (!current) {
    trace_action(*w, entry, n, "update", "", {{"skipped", "nothing to pick"}});
    count(*w, entry, n, Outcome::kSkipped, "update", "");
    co_return;
  }
  const std::string key(current->key().view());
  const std::string ns(current->namespace_());
  const std::string name(current->name());
  // The jitter of the waits draws from the action's own stream, after its pick's.
  sim::Rng jitter = pick_stream(*w, entry, n).split(kConflictTries);
  for (int attempt = 1;; ++attempt) {
    api::ObjectPtr changed = current;
    for (const auto& [path, value] : action->set) {
      auto next = set_path(changed, path, substitute_n(value, n));
      if (!next.ok()) {
        trace_action(*w, entry, n, "update", key, {{"error", next.status().message}});
        count(*w, entry, n, Outcome::kRefused, "update " + key, "set " + path + ": " + next.status().message);
        co_return;
      }
      changed = std::move(next).value();
    }
    api::Request req = request(api::Verb::kUpdate, action->resource.gvr, ns, name);
    req.options = api::UpdateOptions();
    req.object = std::move(changed);
    const api::Response updated = co_await w->workload->client->send(ctx, std::move(req));
    if (w->closing()) co_return;
    if (updated.ok()) {  // the server traced the write
      ++w->workload->writes[entry].written;
      co_return;
    }
    trace_answer(*w, entry, n, "update", key, updated);
    const bool conflict = updated.code == 409 && updated.error && updated.error->reason == api::StatusReason::kConflict;
    if (!conflict || attempt == kConflictTries) {
      count(*w, entry, n, outcome_of(updated, true), "update " + key, answer_text(updated));
      co_return;
    }
    // As a user's tool does on a conflict: wait a little, read the object again, change it again.
    ++w->workload->writes[entry].retried;
    const auto wait = kConflictWait + sim::Duration(static_cast<sim::Duration::rep>(
                                          jitter.uniform_real() * kConflictJitter * kConflictWait.count()));
    if (!co_await sim::sleep_for(ctx, w->workload->process->clock(), wait) || w->closing()) co_return;
    api::Request get = request(api::Verb::kGet, action->resource.gvr, ns, name);
    get.options = api::GetOptions();
    api::Response read = co_await w->workload->client->send(ctx, std::move(get));
    if (w->closing()) co_return;
    if (!read.ok()) {
      trace_answer(*w, entry, n, "get", key, read);
      count(*w, entry, n, outcome_of(read, true), "update " + key, "reading it again after a conflict: " + answer_text(read));
      co_return;
    }
    current = std::move(read.object);
  }
}

sim::Task<void> remove(World* w, std::size_t entry, std::int64_t n, const scenarios::DeleteAction* action, sim::Context ctx) {
  api::ObjectPtr picked = pick(*w, entry, n, action->pick);
  if (!picked) {
    trace_action(*w, entry, n, "delete", "", {{"skipped", "nothing to pick"}});
    count(*w, entry, n, Outcome::kSkipped, "delete", "");
    co_return;
  }
  const std::string key(picked->key().view());
  api::Request req = request(api::Verb::kDelete, action->resource.gvr, std::string(picked->namespace_()),
                             std::string(picked->name()));
  req.options = api::DeleteOptions();
  const api::Response deleted = co_await w->workload->client->send(ctx, std::move(req));
  if (w->closing()) co_return;
  if (deleted.ok()) {  // the server traced the write
    ++w->workload->writes[entry].written;
    co_return;
  }
  trace_answer(*w, entry, n, "delete", key, deleted);
  count(*w, entry, n, outcome_of(deleted, true), "delete " + key, answer_text(deleted));
}

sim::Task<void> act(World* w, std::size_t entry, std::int64_t n, sim::Context ctx) {
  const scenarios::WorkloadAction& action = w->scenario.workload[entry].action;
  if (const auto* c = std::get_if<scenarios::CreateAction>(&action)) {
    co_await create(w, entry, n, c, ctx);
  } else if (const auto* u = std::get_if<scenarios::UpdateAction>(&action)) {
    co_await update(w, entry, n, u, ctx);
  } else if (const auto* d = std::get_if<scenarios::DeleteAction>(&action)) {
    co_await remove(w, entry, n, d, ctx);
  }
}

// One entry's ticks: every `every` over [from, until), from the first tick not before now (a
// restarted workload process goes on where the schedule is).
sim::Task<void> entry_main(World* w, std::size_t i, sim::Context ctx) {
  const scenarios::WorkloadEntry& e = w->scenario.workload[i];
  const sim::Time from = sim::Time{} + e.from;
  const sim::Time until = e.until ? std::min(sim::Time{} + *e.until, w->end) : w->end;
  const sim::Duration every = std::max(e.every, sim::Duration(1));
  sim::Time next = from;
  if (w->loop.now() > from) next = from + ((w->loop.now() - from + every - sim::Duration(1)) / every) * every;
  while (next < until) {
    const bool slept = co_await sim::sleep_until(ctx, w->loop, next);
    if (!slept || w->closing()) co_return;
    const std::int64_t n = ++w->workload->counts[i];
    w->workload->group.spawn(act(w, i, n, ctx), "workload");
    next += every;
  }
}

sim::Task<void> workload_main(World* w, sim::Context ctx) {
  if (ctx.done() || w->closing()) co_return;
  for (std::size_t i = 0; i < w->scenario.workload.size(); ++i) {
    w->workload->group.spawn(entry_main(w, i, ctx), "workload");
  }
}

// One index per resource and namespace that update and delete entries pick from, filled from
// the server's current state and then kept by a write listener.
void make_pick_indexes(World& w) {
  Workload& wl = *w.workload;
  for (const scenarios::WorkloadEntry& e : w.scenario.workload) {
    const scenarios::ResourceRef* resource = nullptr;
    const std::string* ns = nullptr;
    if (const auto* u = std::get_if<scenarios::UpdateAction>(&e.action)) {
      resource = &u->resource;
      ns = &u->ns;
    } else if (const auto* d = std::get_if<scenarios::DeleteAction>(&e.action)) {
      resource = &d->resource;
      ns = &d->ns;
    }
    PickIndex* index = nullptr;
    for (const auto& p : wl.picks) {
      if (resource != nullptr && p->resource() == resource->gvr && p->ns() == *ns) index = p.get();
    }
    if (resource != nullptr && index == nullptr) {
      wl.picks.push_back(std::make_unique<PickIndex>(resource->gvr, *ns));
      index = wl.picks.back().get();
      auto listed = w.server.list(resource->gvr, *ns, api::ListOptions());
      if (listed.ok()) {
        for (const auto& o : listed.value().items) index->add(o);
      }
    }
    wl.entry_picks.push_back(index);
  }
  if (wl.picks.empty()) return;
  Workload* workload = &wl;
  w.server.add_write_listener([workload](const fakeapi::CommittedWrite& write) {
    if (write.resource == nullptr || !write.object) return;
    for (const auto& p : workload->picks) {
      if (!p->covers(*write.resource, write.object->namespace_())) continue;
      if (write.type == fakeapi::ChangeType::kDeleted) {
        p->remove(write.object->key().view());
      } else if (write.type == fakeapi::ChangeType::kAdded) {
        p->add(write.object);
      }
    }
  });
}

}  // namespace

bool PickIndex::covers(const api::GroupResource& resource, std::string_view ns) const {
  return resource.resource == resource_.resource && resource.group == resource_.group && (ns_.empty() || ns_ == ns);
}

void PickIndex::add(api::ObjectPtr object) {
  const std::string_view key = object->key().view();
  if (where_.contains(key)) return;
  by_age_.emplace(object->creation_timestamp(), key);
  where_.emplace(key, objects_.size());
  objects_.push_back(std::move(object));
}

void PickIndex::remove(std::string_view key) {
  auto it = where_.find(key);
  if (it == where_.end()) return;
  const std::size_t at = it->second;
  const api::Object& gone = *objects_[at];
  by_age_.erase({gone.creation_timestamp(), gone.key().view()});
  where_.erase(it);  // before the object its key views goes
  if (at + 1 != objects_.size()) {  // the last object takes the removed one's place
    objects_[at] = std::move(objects_.back());
    where_.find(objects_[at]->key().view())->second = at;
  }
  objects_.pop_back();
}

std::optional<std::string> PickIndex::pick(scenarios::Pick how, sim::Rng& rng) const {
  if (objects_.empty()) return std::nullopt;
  switch (how) {
    case scenarios::Pick::kRandom:
      return std::string(objects_[rng.uniform(objects_.size())]->key().view());
    case scenarios::Pick::kOldest:
      return std::string(by_age_.begin()->second);
    case scenarios::Pick::kNewest:
      return std::string(by_age_.rbegin()->second);
  }
  return std::nullopt;
}

json substitute_n(const json& value, std::int64_t n) {
  if (!has_placeholder(value)) return value;
  json out = value;
  substitute_in_place(out, std::to_string(n));
  return out;
}

std::string create_text(const json& object) {
  // Every {{n}} of the text then lies in a string value, written as it is (no escape holds one),
  // so replacing them in the text gives the text of substitute_n's object.
  if (!object.is_object() || placeholder_in_a_key(object)) return {};
  std::string text = object.dump(-1, ' ', false, json::error_handler_t::replace);
  const bool ascii = std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return ascii ? text : std::string();
}

api::Result<api::ObjectPtr> object_to_create(const std::string& text, const json& object, std::int64_t n) {
  if (text.empty()) return api::Object::from_json(substitute_n(object, n));
  std::string with_n = text;
  replace_placeholders(with_n, std::to_string(n));
  return api::Object::from_string(with_n);
}

void make_workload(World& w) {
  w.workload = &w.cluster.add_replica<Workload>(std::string(kWorkload), w.scenario.network.min,
                                                 w.scenario.network.max - w.scenario.network.min, w.loop);
  Workload& wl = *w.workload;
  wl.client = std::make_unique<fakeapi::InProcessClient>(w.server, *wl.process);
  wl.counts.assign(w.scenario.workload.size(), 0);
  for (std::size_t i = 0; i < w.scenario.workload.size(); ++i) {
    const scenarios::WorkloadEntry& e = w.scenario.workload[i];
    EntryWrites counted;
    counted.entry = i;
    counted.verb = std::holds_alternative<scenarios::CreateAction>(e.action)   ? "create"
                   : std::holds_alternative<scenarios::UpdateAction>(e.action) ? "update"
                                                                                 : "delete";
    counted.expect_refused = e.expect_refused;
    wl.writes.push_back(std::move(counted));
    const auto* c = std::get_if<scenarios::CreateAction>(&e.action);
    wl.create_texts.push_back(c != nullptr ? create_text(c->object) : std::string());
  }
  make_pick_indexes(w);
}

void start_workload(World& w) {
  World* world = &w;
  w.workload->process->start([world](sim::Context ctx) { return workload_main(world, std::move(ctx)); });
}

}  // namespace kubesim::runner
