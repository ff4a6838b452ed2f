// The Client interface is implementable and usable from coroutines: a minimal in-memory client
// (get/create/update with optimistic concurrency) and a read-modify-write loop written against
// the interface alone.
#include "kubesim/api/client.h"

#include <map>

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/sim/loop.h"

namespace kubesim::api {
namespace {


class MapClient final : public Client {
 public:
  sim::Task<Result<ObjectPtr>> get(sim::Context, GroupVersionResource r, std::string ns,
                                   std::string name, GetOptions) override {
    return get_impl(this, r, ns, name);
  }
  sim::Task<Result<ObjectList>> list(sim::Context, GroupVersionResource r, std::string,
                                     ListOptions) override {
    return unsupported<ObjectList>(r, "list");
  }
  sim::Task<Result<WatchPtr>> watch(sim::Context, GroupVersionResource r, std::string,
                                    ListOptions) override {
    return unsupported<WatchPtr>(r, "watch");
  }
  sim::Task<Result<ObjectPtr>> create(sim::Context, GroupVersionResource r, std::string ns,
                                      ObjectPtr object, CreateOptions) override {
    return write(this, r, ns, object, true);
  }
  sim::Task<Result<ObjectPtr>> update(sim::Context, GroupVersionResource r, std::string ns,
                                      ObjectPtr object, UpdateOptions) override {
    return write(this, r, ns, object, false);
  }
  sim::Task<Result<ObjectPtr>> patch(sim::Context, GroupVersionResource r, std::string,
                                     std::string, PatchType, std::string, PatchOptions) override {
    return unsupported<ObjectPtr>(r, "patch");
  }
  sim::Task<Result<ObjectPtr>> delete_(sim::Context, GroupVersionResource r, std::string,
                                       std::string, DeleteOptions) override {
    return unsupported<ObjectPtr>(r, "delete");
  }
  sim::Task<Result<void>> delete_collection(sim::Context, GroupVersionResource r, std::string,
                                            DeleteOptions, ListOptions) override {
    return unsupported<void>(r, "deletecollection");
  }

 private:
  template <class T>
  static sim::Task<Result<T>> unsupported(GroupVersionResource r, std::string verb) {
    co_return new_method_not_supported(GroupResource{r.group, r.resource}, verb);
  }
  static sim::Task<Result<ObjectPtr>> get_impl(MapClient* self, GroupVersionResource r,
                                               std::string ns, std::string name) {
    auto it = self->objects_.find(ns + "/" + name);
    if (it == self->objects_.end()) co_return new_not_found(GroupResource{r.group, r.resource}, name);
    co_return it->second;
  }
  static sim::Task<Result<ObjectPtr>> write(MapClient* self, GroupVersionResource r, std::string ns,
                                            ObjectPtr object, bool create) {
    const GroupResource gr{r.group, r.resource};
    const std::string key = ns + "/" + std::string(object->name());
    auto it = self->objects_.find(key);
    if (create && it != self->objects_.end()) co_return new_already_exists(gr, object->name());
    if (!create && it == self->objects_.end()) co_return new_not_found(gr, object->name());
    if (!create && !object->resource_version().empty() &&
        object->resource_version() != it->second->resource_version()) {
      co_return new_conflict(gr, object->name(),
                             "the object has been modified; please apply your changes to the "
                             "latest version and try again");
    }
    ObjectPtr stored = object->with_resource_version(std::to_string(++self->revision_));
    self->objects_[key] = stored;
    co_return stored;
  }

  std::map<std::string, ObjectPtr> objects_;
  int revision_ = 0;
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

}  // namespace
}  // namespace kubesim::api
