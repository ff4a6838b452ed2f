// The Client interface is implementable and usable from coroutines: a minimal in-memory client
// (get/create/update with optimistic concurrency) and a read-modify-write loop written against
// the interface alone.
#include "kubesim/api/client.h"

#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/api/resources.h"
#include "kubesim/sim/loop.h"

namespace kubesim::api {
namespace {


class MapClient final : public Client {
 public:
  sim::Task<Response> send(sim::Context, Request request) override {
    switch (request.verb) {
      case Verb::kGet:
        return get_impl(this, request.resource, request.ns, request.name);
      case Verb::kCreate:
        return write(this, request.resource, request.ns, request.object, true);
      case Verb::kUpdate:
        return write(this, request.resource, request.ns, request.object, false);
      default:
        return unsupported(request.resource, std::string(to_string(request.verb)));
    }
  }

 private:
  static sim::Task<Response> unsupported(GroupVersionResource r, std::string verb) {
    co_return Response::failure(new_method_not_supported(GroupResource{r.group, r.resource}, verb));
  }
  static sim::Task<Response> answer(ObjectPtr object) {
    Response r;
    r.object = std::move(object);
    co_return r;
  }
  static sim::Task<Response> get_impl(MapClient* self, GroupVersionResource r, std::string ns,
                                      std::string name) {
    auto it = self->objects_.find(ns + "/" + name);
    if (it == self->objects_.end()) {
      co_return Response::failure(new_not_found(GroupResource{r.group, r.resource}, name));
    }
    Response found;
    found.object = it->second;
    co_return found;
  }
  static sim::Task<Response> write(MapClient* self, GroupVersionResource r, std::string ns,
                                   ObjectPtr object, bool create) {
    const GroupResource gr{r.group, r.resource};
    const std::string key = ns + "/" + std::string(object->name());
    auto it = self->objects_.find(key);
    if (create && it != self->objects_.end()) {
      co_return Response::failure(new_already_exists(gr, object->name()));
    }
    if (!create && it == self->objects_.end()) {
      co_return Response::failure(new_not_found(gr, object->name()));
    }
    if (!create && !object->resource_version().empty() &&
        object->resource_version() != it->second->resource_version()) {
      co_return Response::failure(new_conflict(gr, object->name(),
                                               "the object has been modified; please apply your "
                                               "changes to the latest version and try again"));
    }
    ObjectPtr stored = object->with_resource_version(std::to_string(++self->revision_));
    self->objects_[key] = stored;
    Response written;
    written.code = create ? 201 : 200;
    written.object = stored;
    co_return written;
  }

  std::map<std::string, ObjectPtr> objects_;
  int revision_ = 0;
};

// Remembers the requests the typed verbs send and answers each with an empty success.
class RequestLog final : public Client {
 public:
  sim::Task<Response> send(sim::Context, Request request) override {
    sent.push_back(std::move(request));
    return empty();
  }
  std::vector<Request> sent;

 private:
  static sim::Task<Response> empty() { co_return Response(); }
};

// Increments data.count with optimistic concurrency, retrying on conflict.
sim::Task<int> increment(Client* client, ObjectPtr stale_first_read) {
  int conflicts = 0;
  ObjectPtr current = stale_first_read;
  for (;;) {
    ObjectPtr next = current->edited([](nlohmann::json& j) {
      const int n = std::stoi(j["data"]["count"].get<std::string>());
      j["data"]["count"] = std::to_string(n + 1);
    });
    Result<ObjectPtr> written = co_await client->update(sim::Context(), kConfigMaps, "default", next, UpdateOptions());
    if (written.ok()) co_return conflicts;
    if (!is_conflict(written.status())) throw std::runtime_error("unexpected error");
    ++conflicts;
    Result<ObjectPtr> fresh = co_await client->get(sim::Context(), kConfigMaps, "default", "counter", GetOptions());
    current = fresh.value();
  }
}

TEST(ClientTest, ReadModifyWriteRetriesOnConflict) {
  sim::Loop loop;
  MapClient client;
  auto cm = make_object({{"apiVersion", "v1"},
                         {"kind", "ConfigMap"},
                         {"metadata", {{"name", "counter"}, {"namespace", "default"}}},
                         {"data", {{"count", "0"}}}});
  auto created = loop.run_until_complete(client.create(sim::Context(), kConfigMaps, "default", cm, {}));
  ASSERT_TRUE(created.ok());
  ObjectPtr first = created.value();
  // Someone else writes first: our copy is now stale.
  ASSERT_TRUE(loop.run_until_complete(client.update(sim::Context(), kConfigMaps, "default",
                                                    first->with_resource_version(""), {})).ok());
  EXPECT_EQ(loop.run_until_complete(increment(&client, first)), 1);
  auto final = loop.run_until_complete(client.get(sim::Context(), kConfigMaps, "default", "counter", {}));
  ASSERT_TRUE(final.ok());
  EXPECT_EQ(final.value()->json()["data"]["count"], "1");
  EXPECT_EQ(final.value()->resource_version(), "3");
}

TEST(ClientTest, ErrorsAreValues) {
  sim::Loop loop;
  MapClient client;
  auto missing = loop.run_until_complete(client.get(sim::Context(), kConfigMaps, "default", "nope", {}));
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(is_not_found(missing.status()));
  auto listed = loop.run_until_complete(client.list(sim::Context(), kConfigMaps, "", {}));
  ASSERT_FALSE(listed.ok());
  EXPECT_TRUE(is_method_not_supported(listed.status()));
}

// Each typed verb sends one Request that says everything the call said: its verb, target,
// subresource, options and body.
TEST(ClientTest, TypedVerbsSendOneRequestEach) {
  sim::Loop loop;
  RequestLog client;
  auto cm = make_object({{"apiVersion", "v1"},
                         {"kind", "ConfigMap"},
                         {"metadata", {{"name", "c1"}, {"namespace", "ns1"}}}});
  GetOptions get;
  get.resource_version = "7";
  ListOptions list;
  list.label_selector = "app=web";
  list.limit = 5;
  CreateOptions create;
  create.field_manager = "maker";
  UpdateOptions update;
  update.dry_run = true;
  PatchOptions patch;
  patch.field_validation = FieldValidation::kStrict;
  DeleteOptions del;
  del.grace_period_seconds = 0;
  const sim::Context ctx;
  ASSERT_TRUE(loop.run_until_complete(client.get(ctx, kConfigMaps, "ns1", "c1", get)).ok());
  ASSERT_TRUE(loop.run_until_complete(client.list(ctx, kConfigMaps, "ns1", list)).ok());
  ASSERT_TRUE(loop.run_until_complete(client.watch(ctx, kConfigMaps, "", list)).ok());
  ASSERT_TRUE(loop.run_until_complete(client.create(ctx, kConfigMaps, "ns1", cm, create)).ok());
  ASSERT_TRUE(loop.run_until_complete(client.update(ctx, kConfigMaps, "ns1", cm, update)).ok());
  ASSERT_TRUE(loop.run_until_complete(client.update_status(ctx, kConfigMaps, "ns1", cm, update)).ok());
  ASSERT_TRUE(loop.run_until_complete(client.patch(ctx, kConfigMaps, "ns1", "c1", PatchType::kJsonPatch,
                                                   "[]", patch, Subresource::kScale)).ok());
  ASSERT_TRUE(loop.run_until_complete(client.delete_(ctx, kConfigMaps, "ns1", "c1", del)).ok());
  ASSERT_TRUE(loop.run_until_complete(client.delete_collection(ctx, kConfigMaps, "ns1", del, list)).ok());

  const std::vector<Request>& r = client.sent;
  ASSERT_EQ(r.size(), 9u);
  const Verb verbs[] = {Verb::kGet,    Verb::kList,  Verb::kWatch,  Verb::kCreate,          Verb::kUpdate,
                        Verb::kUpdate, Verb::kPatch, Verb::kDelete, Verb::kDeleteCollection};
  const Subresource subresources[] = {Subresource::kNone,   Subresource::kNone, Subresource::kNone,
                                      Subresource::kNone,   Subresource::kNone, Subresource::kStatus,
                                      Subresource::kScale,  Subresource::kNone, Subresource::kNone};
  const char* names[] = {"c1", "", "", "c1", "c1", "c1", "c1", "c1", ""};
  for (std::size_t i = 0; i < r.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r[i].verb, verbs[i]);
    EXPECT_EQ(r[i].subresource, subresources[i]);
    EXPECT_EQ(r[i].name, names[i]);
    EXPECT_EQ(r[i].resource, kConfigMaps);
    EXPECT_EQ(r[i].ns, i == 2 ? "" : "ns1");
  }
  EXPECT_EQ(r[0].get_options().resource_version, "7");
  EXPECT_EQ(r[1].list_options().label_selector, "app=web");
  EXPECT_EQ(r[2].list_options().limit, 5);
  EXPECT_EQ(r[3].create_options().field_manager, "maker");
  EXPECT_EQ(r[3].object, cm);
  EXPECT_TRUE(r[5].update_options().dry_run);
  EXPECT_EQ(r[6].patch_type, PatchType::kJsonPatch);
  EXPECT_EQ(r[6].patch_body, "[]");
  EXPECT_EQ(r[6].patch_options().field_validation, FieldValidation::kStrict);
  EXPECT_EQ(r[7].delete_options().grace_period_seconds, 0);
  EXPECT_EQ(r[8].delete_options().grace_period_seconds, 0);
  EXPECT_EQ(r[8].list_options().label_selector, "app=web");
}

TEST(ClientTest, VerbsAndSubresourcesHaveTheirWireNames) {
  for (Verb v : {Verb::kGet, Verb::kList, Verb::kWatch, Verb::kCreate, Verb::kUpdate, Verb::kPatch,
                 Verb::kDelete, Verb::kDeleteCollection}) {
    EXPECT_EQ(parse_verb(to_string(v)), v);
  }
  EXPECT_EQ(to_string(Verb::kDeleteCollection), "deletecollection");
  EXPECT_FALSE(parse_verb("GET").has_value());
  for (Subresource s :
       {Subresource::kNone, Subresource::kStatus, Subresource::kScale, Subresource::kFinalize,
        Subresource::kBinding, Subresource::kEviction, Subresource::kEphemeralContainers,
        Subresource::kResize, Subresource::kToken, Subresource::kApproval, Subresource::kLog,
        Subresource::kExec, Subresource::kAttach, Subresource::kPortForward, Subresource::kProxy}) {
    EXPECT_EQ(parse_subresource(to_string(s)), s);
  }
  EXPECT_EQ(to_string(Subresource::kStatus), "status");
  EXPECT_EQ(to_string(Subresource::kPortForward), "portforward");
  EXPECT_FALSE(parse_subresource("checkpoint").has_value());  // alpha in 1.33: not served
}

}  // namespace
}  // namespace kubesim::api
