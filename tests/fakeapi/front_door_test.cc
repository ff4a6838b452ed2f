// ApiServer's front door: serve() through the filter chain (recorder, user filters, fault rules,
// revision wait, watch delivery), write listeners, subresource fault rules, and clients that go
// away with requests and watches in flight.
#include "kubesim/fakeapi/server.h"

#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/sim/process.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;
using sim::Time;

template <class T>
sim::Task<void> capture_front_door(sim::Task<T> call, std::optional<T>* out) {
  T r = co_await std::move(call);
  out->emplace(std::move(r));
}

class FrontDoorTest : public ::testing::Test {
 protected:
  FrontDoorTest() { process_.set_link(link_); }

  template <class T>
  std::unique_ptr<std::optional<T>> start(sim::Task<T> call) {
    auto out = std::make_unique<std::optional<T>>();
    loop_.spawn(capture_front_door(std::move(call), out.get()), "call");
    return out;
  }
  api::Result<api::ObjectPtr> create_cm(InProcessClient& c, const std::string& name) {
    return loop_.run_until_complete(c.create(sim::Context(), kConfigMaps, "default",
                                             config_map("default", name, {{"k", "v"}}),
                                             api::CreateOptions()));
  }

  sim::Loop loop_;
  ApiServer server_{loop_};
  sim::Process process_{loop_, "replica-0"};
  std::shared_ptr<sim::NetworkLink> link_ = std::make_shared<sim::NetworkLink>(loop_, 5ms);
  InProcessClient client_{server_, process_};
};

TEST_F(FrontDoorTest, TheRecorderLogsEveryServedRequestWithItsCallerAndOutcome) {
  ASSERT_TRUE(create_cm(client_, "a").ok());
  ASSERT_TRUE(server_.create(kConfigMaps, "default", config_map("default", "direct"), {}).ok());
  auto missing = loop_.run_until_complete(
      client_.get(sim::Context(), kConfigMaps, "default", "nope", api::GetOptions()));
  ASSERT_FALSE(missing.ok());

  const auto& calls = server_.recorder().calls();
  ASSERT_EQ(calls.size(), 2u) << "the direct create is not a request";
  EXPECT_EQ(calls[0].seq, 1u);
  EXPECT_EQ(calls[0].process, "replica-0");
  EXPECT_EQ(calls[0].verb, Verb::kCreate);
  EXPECT_EQ(calls[0].resource, kConfigMaps);
  EXPECT_EQ(calls[0].ns, "default");
  EXPECT_EQ(calls[0].name, "a");
  EXPECT_EQ(calls[0].code, 201);
  EXPECT_EQ(calls[0].revision, server_.revision() - 1);
  EXPECT_EQ(calls[0].received, Time{} + 5ms);  // after one crossing of the link
  EXPECT_EQ(calls[0].answered, Time{} + 5ms);
  EXPECT_EQ(calls[1].verb, Verb::kGet);
  EXPECT_EQ(calls[1].code, 404);
  EXPECT_EQ(calls[1].reason, api::StatusReason::kNotFound);
  EXPECT_EQ(calls[1].revision, 0);
  EXPECT_EQ(server_.recorder().count([](const RecordedCall& c) { return c.ok(); }), 1u);

  std::ostringstream jsonl;
  server_.recorder().write_jsonl(jsonl);
  std::istringstream lines(jsonl.str());
  std::string first;
  std::getline(lines, first);
  const auto j = nlohmann::json::parse(first);
  EXPECT_EQ(j["verb"], "create");
  EXPECT_EQ(j["resource"], "configmaps");
  EXPECT_EQ(j["process"], "replica-0");
  EXPECT_EQ(j["code"], 201);
  EXPECT_EQ(j["receivedNs"], 5'000'000);
}

TEST_F(FrontDoorTest, TheRecorderNamesTheFaultRuleThatAnsweredAndIsBounded) {
  FaultRule rule = FaultRule::error(api::new_internal_error("injected"));
  rule.id = "cm-500";
  rule.verbs = {Verb::kCreate};
  rule.count = 1;
  server_.faults().add(rule);
  EXPECT_EQ(create_cm(client_, "a").status().code, 500);
  ASSERT_TRUE(create_cm(client_, "a").ok());
  ASSERT_EQ(server_.recorder().calls().size(), 2u);
  EXPECT_EQ(server_.recorder().calls()[0].fault, "cm-500");
  EXPECT_EQ(server_.recorder().calls()[0].revision, 0);
  EXPECT_EQ(server_.recorder().calls()[1].fault, "");

  Recorder small(loop_, 2);
  Request req;
  Response ok;
  for (int i = 0; i < 3; ++i) small.complete(req, ok);
  EXPECT_EQ(small.calls().size(), 2u);
  EXPECT_EQ(small.dropped(), 1u);
  EXPECT_EQ(small.calls().front().seq, 2u);
}

// A filter that records what it sees, and answers creates of "forbidden" with 403.
class Gatekeeper final : public Filter {
 public:
  explicit Gatekeeper(std::vector<std::string>* log, std::string name)
      : log_(log), name_(std::move(name)) {}
  Step admit(Request& request) override {
    log_->push_back(name_ + " admit " + std::string(to_string(request.verb)));
    if (request.verb == Verb::kCreate && request.name == "forbidden") {
      return Step::answer_with(Response::failure(
          api::new_forbidden(api::GroupResource{"", "configmaps"}, request.name, "by policy")));
    }
    if (request.verb == Verb::kCreate && request.name == "slow") return Step::delay_by(1s);
    return Step::pass();
  }
  void complete(const Request& request, Response& response) override {
    log_->push_back(name_ + " complete " + std::string(to_string(request.verb)) + " " +
                    std::to_string(response.code));
  }

 private:
  std::vector<std::string>* log_;
  std::string name_;
};

TEST_F(FrontDoorTest, UserFiltersRunInOrderAndMayAnswerOrDelay) {
  std::vector<std::string> log;
  auto first = std::make_shared<Gatekeeper>(&log, "first");
  auto second = std::make_shared<Gatekeeper>(&log, "second");
  server_.add_filter(first);
  server_.add_filter(second);
  EXPECT_TRUE(create_cm(client_, "a").ok());
  EXPECT_EQ(log, (std::vector<std::string>{"first admit create", "second admit create",
                                           "second complete create 201",
                                           "first complete create 201"}));
  log.clear();
  auto refused = create_cm(client_, "forbidden");
  EXPECT_TRUE(api::is_forbidden(refused.status())) << refused.status();
  EXPECT_FALSE(server_.get(kConfigMaps, "default", "forbidden", {}).ok());
  // The first filter answered: the second never saw the request.
  EXPECT_EQ(log, (std::vector<std::string>{"first admit create", "first complete create 403"}));
  EXPECT_EQ(server_.recorder().calls().back().code, 403);

  const Time sent = loop_.now();
  ASSERT_TRUE(create_cm(client_, "slow").ok());
  EXPECT_EQ(loop_.now() - sent, 2s + 10ms);  // each filter's delay, and two crossings

  EXPECT_TRUE(server_.remove_filter(first.get()));
  EXPECT_FALSE(server_.remove_filter(first.get()));
  log.clear();
  ASSERT_TRUE(create_cm(client_, "b").ok());
  EXPECT_EQ(log, (std::vector<std::string>{"second admit create", "second complete create 201"}));
}

TEST_F(FrontDoorTest, ARequestWaitingAtTheServerIsAbandonedWhenItsContextEnds) {
  server_.faults().add(FaultRule::latency(10s));
  auto call = sim::with_timeout(sim::Context(), loop_, 2s);
  auto r = loop_.run_until_complete(client_.create(call.ctx, kConfigMaps, "default",
                                                   config_map("default", "a"), api::CreateOptions()));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_deadline_exceeded(r.status())) << r.status();
  EXPECT_TRUE(api::is_client_error(r.status()));
  loop_.run();
  EXPECT_FALSE(server_.get(kConfigMaps, "default", "a", {}).ok()) << "never written";
  ASSERT_EQ(server_.recorder().calls().size(), 1u);
  EXPECT_EQ(server_.recorder().calls()[0].code, 0);
}

TEST_F(FrontDoorTest, AReadAtAFutureRevisionWaitsForItAtTheServer) {
  api::GetOptions at;
  at.resource_version = std::to_string(server_.revision() + 1);
  auto read = start(client_.get(sim::Context(), kConfigMaps, "default", "a", at));
  loop_.run_until(Time{} + 1s);
  EXPECT_FALSE(read->has_value()) << "waiting for the revision";
  ASSERT_TRUE(server_.create(kConfigMaps, "default", config_map("default", "a"), {}).ok());
  loop_.run();
  ASSERT_TRUE(read->has_value());
  ASSERT_TRUE((*read)->ok()) << (*read)->status();
  EXPECT_EQ((*read)->value()->name(), "a");
}

TEST_F(FrontDoorTest, WriteListenersSeeEveryCommittedWriteWithItsPreviousState) {
  std::vector<std::string> seen;
  const auto id = server_.add_write_listener([&](const CommittedWrite& w) {
    std::string line = w.resource->to_string() + " " + std::to_string(static_cast<int>(w.type)) + " " +
                       std::to_string(w.revision) + " " + std::string(w.object->name());
    if (w.previous) line += " was@" + std::string(w.previous->resource_version());
    seen.push_back(line);
  });
  auto a = server_.create(kConfigMaps, "default", config_map("default", "a", {{"k", "1"}}), {});
  ASSERT_TRUE(a.ok());
  const Revision created = server_.revision();
  ASSERT_TRUE(create_cm(client_, "b").ok());  // served writes too
  auto updated = server_.update(kConfigMaps, "default",
                                a.value()->edited([](nlohmann::json& j) { j["data"]["k"] = "2"; }), {});
  ASSERT_TRUE(updated.ok());
  ASSERT_TRUE(server_.delete_(kConfigMaps, "default", "a", {}).ok());
  const std::string c = std::to_string(created);
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "configmaps 0 " + c + " a",
                      "configmaps 0 " + std::to_string(created + 1) + " b",
                      "configmaps 1 " + std::to_string(created + 2) + " a was@" + c,
                      "configmaps 2 " + std::to_string(created + 3) + " a was@" +
                          std::to_string(created + 2)}));
  server_.remove_write_listener(id);
  ASSERT_TRUE(create_cm(client_, "c").ok());
  EXPECT_EQ(seen.size(), 4u);
}

TEST_F(FrontDoorTest, AWriteListenerMayRemoveItselfWhileCalled) {
  int calls = 0;
  std::uint64_t id = 0;
  id = server_.add_write_listener([&](const CommittedWrite&) {
    ++calls;
    server_.remove_write_listener(id);
  });
  ASSERT_TRUE(create_cm(client_, "a").ok());
  ASSERT_TRUE(create_cm(client_, "b").ok());
  EXPECT_EQ(calls, 1);
}

TEST_F(FrontDoorTest, AFaultRuleOnTheStatusSubresourceFailsOnlyStatusWrites) {
  auto rule = FaultRule::from_json(
      {{"kind", "error"}, {"verbs", {"update", "patch"}}, {"resource", "deployments/status"},
       {"status", api::new_internal_error("status store down").to_json()}});
  ASSERT_TRUE(rule.ok()) << rule.status();
  EXPECT_EQ(rule.value().resource, "deployments");
  EXPECT_EQ(rule.value().subresource, "status");
  server_.faults().add(rule.value());
  auto d = loop_.run_until_complete(client_.create(sim::Context(), kDeployments, "default",
                                                   deployment("default", "d", 1), {}));
  ASSERT_TRUE(d.ok()) << d.status();
  auto with_status = d.value()->edited([](nlohmann::json& j) { j["status"]["replicas"] = 1; });
  auto status = loop_.run_until_complete(
      client_.update_status(sim::Context(), kDeployments, "default", with_status, {}));
  EXPECT_EQ(status.status().code, 500);
  auto patched = loop_.run_until_complete(client_.patch(sim::Context(), kDeployments, "default", "d",
                                                        api::PatchType::kMergePatch,
                                                        R"({"status":{"replicas":1}})", api::PatchOptions(),
                                                        api::Subresource::kStatus));
  EXPECT_EQ(patched.status().code, 500);
  auto main = loop_.run_until_complete(client_.patch(sim::Context(), kDeployments, "default", "d",
                                                     api::PatchType::kMergePatch,
                                                     R"({"spec":{"replicas":2}})", {}));
  EXPECT_TRUE(main.ok()) << main.status();
  const auto& calls = server_.recorder().calls();
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_EQ(calls[1].subresource, "status");
  EXPECT_EQ(calls[2].subresource, "status");
  EXPECT_EQ(calls[3].subresource, "");
  EXPECT_EQ(calls[3].code, 200);
}

TEST_F(FrontDoorTest, ARuleWithoutASubresourceMatchesTheSubresourcesToo) {
  FaultRule rule{.verbs = {Verb::kPatch},
                 .resource = "deployments",
                 .effect = ErrorFault{api::new_internal_error("down")}};
  server_.faults().add(rule);
  ASSERT_TRUE(server_.create(kDeployments, "default", deployment("default", "d", 1), {}).ok());
  auto patched = loop_.run_until_complete(client_.patch(sim::Context(), kDeployments, "default", "d",
                                                        api::PatchType::kMergePatch,
                                                        R"({"status":{"replicas":1}})", api::PatchOptions(),
                                                        api::Subresource::kStatus));
  EXPECT_EQ(patched.status().code, 500);
  EXPECT_FALSE(FaultRule::from_json({{"kind", "stallWatch"}, {"resource", "deployments/"}}).ok());
  EXPECT_FALSE(FaultRule::from_json({{"kind", "stallWatch"},
                                     {"resource", "deployments/status"},
                                     {"subresource", "status"}})
                   .ok());
}

TEST_F(FrontDoorTest, AnUnknownSubresourceIsNotFound) {
  ASSERT_TRUE(create_cm(client_, "a").ok());
  auto r = loop_.run_until_complete(client_.patch(sim::Context(), kConfigMaps, "default", "a",
                                                  api::PatchType::kMergePatch, "{}",
                                                  api::PatchOptions(), api::Subresource::kScale));
  EXPECT_TRUE(api::is_not_found(r.status())) << r.status();
  auto status = loop_.run_until_complete(client_.patch(sim::Context(), kConfigMaps, "default", "a",
                                                       api::PatchType::kMergePatch, "{}", api::PatchOptions(), api::Subresource::kStatus));
  EXPECT_TRUE(api::is_not_found(status.status())) << "ConfigMaps have no /status";
}

TEST_F(FrontDoorTest, ADestroyedClientEndsItsWatchesSafely) {
  auto other = std::make_unique<InProcessClient>(server_, process_);
  auto w = loop_.run_until_complete(other->watch(sim::Context(), kConfigMaps, "default", {}));
  ASSERT_TRUE(w.ok());
  api::WatchPtr stream = std::move(w.value());
  ASSERT_TRUE(create_cm(client_, "a").ok());
  other.reset();  // with its watch open and events in flight
  ASSERT_TRUE(create_cm(client_, "b").ok());
  loop_.run();
  EXPECT_EQ(server_.watches().watcher_count(), 0u) << "the server's watch ended with the client";
  std::vector<std::string> seen;
  for (;;) {
    auto e = loop_.run_until_complete(stream->next(sim::Context()));
    if (!e) break;
    seen.push_back(std::string(e->object->name()));
  }
  EXPECT_LE(seen.size(), 1u);
}

TEST_F(FrontDoorTest, ACrashEndsTheProcesssWatches) {
  auto w = loop_.run_until_complete(client_.watch(sim::Context(), kConfigMaps, "default", {}));
  ASSERT_TRUE(w.ok());
  loop_.run_until(loop_.now() + 1s);  // not past the watch's timeout
  EXPECT_EQ(server_.watches().watcher_count(), 1u);
  process_.crash();
  loop_.run_until(loop_.now() + 1s);
  EXPECT_EQ(server_.watches().watcher_count(), 0u);
  auto e = loop_.run_until_complete(w.value()->next(sim::Context()));
  EXPECT_FALSE(e.has_value());
}

// A request sent before a pause is on the wire: the server serves it on arrival, and the answer
// reaches the process when it runs again.
TEST_F(FrontDoorTest, ARequestInFlightWhenItsProcessPausesIsServedAndAnsweredAfterThePause) {
  // The process's own code makes the call, under its context.
  auto call = start(client_.create(process_.context(), kConfigMaps, "default",
                                   config_map("default", "a"), api::CreateOptions()));
  loop_.add_timer(Time{} + 2ms, [&] { process_.pause(1s); });
  loop_.run_until(Time{} + 5ms);
  EXPECT_TRUE(server_.get(kConfigMaps, "default", "a", {}).ok()) << "served on arrival";
  loop_.run_until(Time{} + 1s);
  EXPECT_FALSE(call->has_value()) << "the answer waits for the pause to end";
  loop_.run_until(Time{} + 1s + 2ms);
  ASSERT_TRUE(call->has_value());
  EXPECT_TRUE((*call)->ok());
}

}  // namespace
}  // namespace kubesim::fakeapi
