// Every options struct of the public headers (api, fakeapi, informer, workqueue, election, the
// HTTP front end and the REST client) is an aggregate that designated initialisers build. Each
// is built naming a field that is not its first, so that this file stops compiling (-Wextra
// -Werror: missing initializer) when a field without a default or a base class is added, and the
// static_asserts fail when a struct gains a user-declared constructor.
#include "kubesim/api/options.h"

#include <chrono>
#include <type_traits>

#include <gtest/gtest.h>

#include "kubesim/api/rest/rest_config.h"
#include "kubesim/election/config.h"
#include "kubesim/election/resource_lock.h"
#include "kubesim/fakeapi/http/http_server.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/request.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/fakeapi/watch_hub.h"
#include "kubesim/informer/delta_fifo.h"
#include "kubesim/informer/factory.h"
#include "kubesim/informer/lister_watcher.h"
#include "kubesim/informer/real_fifo.h"
#include "kubesim/informer/reflector.h"
#include "kubesim/informer/shared_informer.h"
#include "kubesim/workqueue/parallelize.h"
#include "kubesim/workqueue/queue.h"

namespace kubesim {
namespace {

using namespace std::chrono_literals;

static_assert(std::is_aggregate_v<api::ListOptions>);
static_assert(std::is_aggregate_v<api::GetOptions>);
static_assert(std::is_aggregate_v<api::CreateOptions>);
static_assert(std::is_aggregate_v<api::UpdateOptions>);
static_assert(std::is_aggregate_v<api::PatchOptions>);
static_assert(std::is_aggregate_v<api::Preconditions>);
static_assert(std::is_aggregate_v<api::DeleteOptions>);
static_assert(std::is_aggregate_v<api::Request>);
static_assert(std::is_aggregate_v<api::Response>);
static_assert(std::is_aggregate_v<fakeapi::WatchHubOptions>);
static_assert(std::is_aggregate_v<fakeapi::InProcessClientOptions>);
static_assert(std::is_aggregate_v<fakeapi::DeleteCollectionOptions>);
static_assert(std::is_aggregate_v<fakeapi::ServerOptions>);
static_assert(std::is_aggregate_v<informer::ListWatchOptions>);
static_assert(std::is_aggregate_v<informer::SharedIndexInformerOptions>);
static_assert(std::is_aggregate_v<informer::HandlerOptions>);
static_assert(std::is_aggregate_v<informer::RealFIFOOptions>);
static_assert(std::is_aggregate_v<informer::DeltaFIFOOptions>);
static_assert(std::is_aggregate_v<informer::SharedInformerFactoryOptions>);
static_assert(std::is_aggregate_v<informer::ReflectorOptions>);
static_assert(std::is_aggregate_v<workqueue::QueueConfig>);
static_assert(std::is_aggregate_v<workqueue::ParallelizeOptions>);
static_assert(std::is_aggregate_v<election::ResourceLockConfig>);
static_assert(std::is_aggregate_v<election::LeaderCallbacks>);
static_assert(std::is_aggregate_v<election::LeaderElectionConfig>);
static_assert(std::is_aggregate_v<api::rest::RestConfig>);
static_assert(std::is_aggregate_v<fakeapi::http::HttpServerOptions>);

TEST(OptionsDesignatedTest, ApiOptions) {
  const auto list = api::ListOptions{.field_selector = "metadata.name=a", .limit = 500};
  EXPECT_EQ(list.field_selector, "metadata.name=a");
  EXPECT_EQ(list.limit, 500);
  EXPECT_EQ(list.label_selector, "");
  EXPECT_EQ(api::GetOptions{.resource_version = "7"}.resource_version, "7");
  EXPECT_EQ(api::CreateOptions{.field_manager = "m"}.field_manager, "m");
  EXPECT_EQ(api::UpdateOptions{.field_manager = "m"}.field_manager, "m");
  EXPECT_EQ(api::UpdateOptions{.dry_run = true}.dry_run, true);
  EXPECT_EQ(api::PatchOptions{.field_manager = "m"}.field_manager, "m");
  const auto del = api::DeleteOptions{.preconditions = {.resource_version = "3"}};
  EXPECT_EQ(del.preconditions.resource_version, "3");
  EXPECT_FALSE(del.preconditions.uid.has_value());
  EXPECT_EQ(del.propagation_policy, api::PropagationPolicy::kUnset);
  const auto request = api::Request{.verb = api::Verb::kDelete, .ns = "default", .name = "a",
                                    .options = api::DeleteOptions{.dry_run = true}};
  EXPECT_EQ(request.verb, api::Verb::kDelete);
  EXPECT_TRUE(request.delete_options().dry_run);
  EXPECT_EQ(request.subresource, api::Subresource::kNone);
  const auto response = api::Response{.code = 201};
  EXPECT_TRUE(response.ok());
}

TEST(OptionsDesignatedTest, FakeapiOptions) {
  EXPECT_EQ(fakeapi::WatchHubOptions{.bookmark_interval = 5s}.bookmark_interval, 5s);
  EXPECT_EQ(fakeapi::InProcessClientOptions{.watch_partition_timeout = 7s}.watch_partition_timeout, 7s);
  const auto collection = fakeapi::DeleteCollectionOptions{.list = {.label_selector = "app=web"}};
  EXPECT_EQ(collection.list.label_selector, "app=web");
  const auto server = fakeapi::ServerOptions{.recorder_capacity = 10};
  EXPECT_EQ(server.recorder_capacity, 10u);
  EXPECT_EQ(server.compaction_interval, std::chrono::minutes(5));
}

TEST(OptionsDesignatedTest, InformerOptions) {
  EXPECT_EQ(informer::ListWatchOptions{.label_selector = "app=web"}.label_selector, "app=web");
  const auto shared = informer::SharedIndexInformerOptions{.resync_period = 30s};
  EXPECT_EQ(shared.resync_period, 30s);
  EXPECT_EQ(shared.name, "informer");
  EXPECT_EQ(informer::HandlerOptions{.resync_period = 1s}.resync_period, 1s);
  EXPECT_TRUE(informer::RealFIFOOptions{.atomic_events = true}.atomic_events);
  EXPECT_TRUE(informer::DeltaFIFOOptions{.emit_delta_type_replaced = true}.emit_delta_type_replaced);
  const auto factory = informer::SharedInformerFactoryOptions{.ns = "team-a", .informer = {.use_watch_list = false}};
  EXPECT_EQ(factory.ns, "team-a");
  EXPECT_FALSE(factory.informer.use_watch_list);
  EXPECT_EQ(informer::ReflectorOptions{.watch_list_page_size = 50}.watch_list_page_size, 50);
}

TEST(OptionsDesignatedTest, WorkqueueAndElectionOptions) {
  EXPECT_TRUE(workqueue::QueueConfig{.fail_on_unbalanced_done = true}.fail_on_unbalanced_done);
  EXPECT_EQ(workqueue::ParallelizeOptions{.chunk_size = 4}.chunk_size, 4);
  const auto lock = election::ResourceLockConfig{.epoch_unix_seconds = 0};
  EXPECT_EQ(lock.epoch_unix_seconds, 0);
  EXPECT_EQ(lock.identity, "");
  EXPECT_EQ(election::ResourceLockConfig{"node-1"}.identity, "node-1");
  const auto config = election::LeaderElectionConfig{
      .lease_duration = 20s, .callbacks = {.on_stopped_leading = [] {}}, .name = "lock"};
  EXPECT_EQ(config.lease_duration, 20s);
  EXPECT_EQ(config.renew_deadline, 10s);
  EXPECT_TRUE(config.callbacks.on_stopped_leading);
  EXPECT_FALSE(config.callbacks.on_started_leading);
  EXPECT_EQ(config.name, "lock");
}

TEST(OptionsDesignatedTest, HttpServerAndRestClientOptions) {
  const auto rest = api::rest::RestConfig{.server = "https://127.0.0.1:6443", .qps = -1};
  EXPECT_EQ(rest.server, "https://127.0.0.1:6443");
  EXPECT_EQ(rest.qps, -1);
  EXPECT_EQ(rest.burst, 10);
  const auto http = fakeapi::http::HttpServerOptions{.port = 8080, .anonymous = true};
  EXPECT_EQ(http.port, 8080);
  EXPECT_TRUE(http.anonymous);
  EXPECT_EQ(http.address, "127.0.0.1");
}

}  // namespace
}  // namespace kubesim
