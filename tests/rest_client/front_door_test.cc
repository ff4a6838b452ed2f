// The front door over both transports: subresource writes and fault rules through the in-process
// client and over HTTP, and a random request sequence sent through each giving the same answers
// and the same recorder log.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <sstream>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

class FrontDoorTest : public BothTransportsTest {};

TEST_P(FrontDoorTest, AFaultRuleOnAStatusSubresourceFailsOnlyItsWrites) {
  auto rule = fakeapi::FaultRule::from_json(
      {{"kind", "error"}, {"verbs", {"update", "patch"}}, {"resource", "deployments/status"},
       {"status", new_service_unavailable("status writes are down").to_json()}});
  ASSERT_TRUE(rule.ok()) << rule.status();
  api_->faults().add(rule.value());
  auto d = create(kDeployments, deployment("default", "d", 1));
  ASSERT_TRUE(d);
  auto with_status = d->edited([](nlohmann::json& j) { j["status"]["replicas"] = 1; });
  auto updated = run(c().update_status(ctx(), kDeployments, "default", with_status, UpdateOptions()));
  EXPECT_EQ(status_of(updated).code, 503);
  auto patched = run(c().patch(ctx(), kDeployments, "default", "d", PatchType::kMergePatch,
                               R"({"status":{"replicas":1}})", PatchOptions(), Subresource::kStatus));
  EXPECT_EQ(status_of(patched).code, 503);
  auto spec = run(c().patch(ctx(), kDeployments, "default", "d", PatchType::kMergePatch,
                            R"({"spec":{"replicas":3}})", PatchOptions()));
  ASSERT_TRUE(spec.ok()) << spec.status();
  api_->faults().clear();
  auto status = run(c().patch(ctx(), kDeployments, "default", "d", PatchType::kMergePatch,
                              R"({"spec":{"replicas":9},"status":{"replicas":2}})", PatchOptions(), Subresource::kStatus));
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(status.value()->json()["status"]["replicas"], 2);
  EXPECT_EQ(status.value()->json()["spec"]["replicas"], 3) << "/status leaves the spec alone";

  const auto& calls = api_->recorder().calls();
  ASSERT_EQ(calls.size(), 5u);
  EXPECT_EQ(calls[1].subresource, "status");
  EXPECT_EQ(calls[1].verb, fakeapi::Verb::kUpdate);
  EXPECT_EQ(calls[1].code, 503);
  EXPECT_EQ(calls[1].fault, rule.value().id.empty() ? calls[1].fault : rule.value().id);
  EXPECT_FALSE(calls[1].fault.empty());
  EXPECT_EQ(calls[2].subresource, "status");
  EXPECT_EQ(calls[3].subresource, "");
  EXPECT_EQ(calls[4].code, 200);
  EXPECT_EQ(calls[4].revision, api_->revision());
}

INSTANTIATE_TEST_SUITE_P(Transports, FrontDoorTest, both_transports(), transport_name);

// --- The same requests through both transports -------------------------------------------------

// One environment: a server, and a client of one transport named "admin" (the REST token's user).
struct Env {
  explicit Env(Transport t) {
    api = std::make_unique<fakeapi::ApiServer>(loop);
    if (t == Transport::kRest) {
      fakeapi::http::HttpServerOptions o;
      fakeapi::http::UserInfo admin;
      admin.name = "admin";
      o.tokens["t"] = admin;
      http = std::make_unique<fakeapi::http::HttpServer>(loop, *api, o);
      RestConfig config;
      config.server = http->url();
      config.bearer_token = "t";
      config.qps = -1;
      client = std::make_unique<RestClient>(loop, config);
    } else {
      client = std::make_unique<fakeapi::InProcessClient>(*api, "admin");
    }
  }
  ~Env() {
    client.reset();
    if (http) http->stop(std::chrono::seconds(1));
  }
  template <class T>
  T run(sim::Task<T> task) {
    return run_real(loop, std::move(task));
  }

  sim::Loop loop{real_mode()};
  std::unique_ptr<fakeapi::ApiServer> api;
  std::unique_ptr<fakeapi::http::HttpServer> http;
  std::unique_ptr<Client> client;
};

// An object as both transports must agree on it: the instants it was stamped with (the loops
// run on the real clock) and its uid left out, and its managedFields: over HTTP the client's
// User-Agent names a field manager (kubesim-rest-client), whose Update entries the server
// records, where an in-process client names none.
std::string normalized(const ObjectPtr& o) {
  nlohmann::json j = o->to_json();
  j["metadata"].erase("creationTimestamp");
  j["metadata"].erase("uid");
  j["metadata"].erase("managedFields");
  return j.dump();
}

template <class T>
std::string front_door_outcome(const Result<T>& r);

std::string failure(const Status& s) {
  std::ostringstream out;
  out << s.code << " " << s.reason << " " << s.message;
  return out.str();
}

template <>
std::string front_door_outcome(const Result<ObjectPtr>& r) {
  return r.ok() ? normalized(r.value()) : failure(r.status());
}
template <>
std::string front_door_outcome(const Result<ObjectList>& r) {
  if (!r.ok()) return failure(r.status());
  std::string s = "list@" + r.value().resource_version + " continue=" + r.value().continue_token;
  for (const auto& item : r.value().items) s += " " + normalized(item);
  return s;
}
template <>
std::string front_door_outcome(const Result<void>& r) {
  return r.ok() ? "ok" : failure(r.status());
}

std::vector<std::string> recorded(const fakeapi::Recorder& recorder) {
  std::vector<std::string> out;
  for (const auto& c : recorder.calls()) {
    nlohmann::json j = c.to_json();
    j.erase("receivedNs");
    j.erase("answeredNs");
    out.push_back(j.dump());
  }
  return out;
}

// One random request, sent the same way to either environment (bodies built from that
// environment's own stored objects, which are the same but for their instants and uids).
struct Op {
  int kind = 0;
  std::string name;
  std::string value;
  bool stale = false;
};

std::string apply(Env& e, const Op& op) {
  const sim::ContextWithCancel ctx = guard(e.loop);
  Client& c = *e.client;
  auto stored = e.api->get(kConfigMaps, "default", op.name, GetOptions());
  auto stored_d = e.api->get(kDeployments, "default", op.name, GetOptions());
  auto cm = make_object({{"apiVersion", "v1"},
                         {"kind", "ConfigMap"},
                         {"metadata", {{"name", op.name}, {"namespace", "default"}}},
                         {"data", {{"k", op.value}}}});
  switch (op.kind) {
    case 0:
      return front_door_outcome(e.run(c.create(ctx.ctx, kConfigMaps, "default", cm, CreateOptions())));
    case 1:
      return front_door_outcome(e.run(c.get(ctx.ctx, kConfigMaps, "default", op.name, GetOptions())));
    case 2: {
      ListOptions o;
      o.limit = op.stale ? 2 : 0;
      return front_door_outcome(e.run(c.list(ctx.ctx, kConfigMaps, "default", o)));
    }
    case 3: {
      ObjectPtr body = stored.ok() ? stored.value()->edited([&](nlohmann::json& j) { j["data"]["k"] = op.value; })
                                   : cm;
      if (op.stale) body = body->with_resource_version("2");
      return front_door_outcome(e.run(c.update(ctx.ctx, kConfigMaps, "default", body, UpdateOptions())));
    }
    case 4:
      return front_door_outcome(e.run(c.patch(ctx.ctx, kConfigMaps, "default", op.name, PatchType::kMergePatch,
                                   nlohmann::json{{"data", {{"p", op.value}}}}.dump(), PatchOptions())));
    case 5:
      return front_door_outcome(e.run(c.delete_(ctx.ctx, kConfigMaps, "default", op.name, DeleteOptions())));
    case 6:
      return front_door_outcome(e.run(c.create(ctx.ctx, kDeployments, "default", deployment("default", op.name, 1),
                                    CreateOptions())));
    case 7: {
      if (!stored_d.ok()) {
        return front_door_outcome(e.run(c.update_status(ctx.ctx, kDeployments, "default",
                                             deployment("default", op.name, 1), UpdateOptions())));
      }
      auto body = stored_d.value()->edited(
          [&](nlohmann::json& j) { j["status"]["replicas"] = static_cast<int>(op.value.size()); });
      return front_door_outcome(e.run(c.update_status(ctx.ctx, kDeployments, "default", body, UpdateOptions())));
    }
    case 8:
      return front_door_outcome(e.run(c.patch(ctx.ctx, kDeployments, "default", op.name, PatchType::kMergePatch,
                                   R"({"status":{"readyReplicas":1}})", PatchOptions(), Subresource::kStatus)));
    case 9: {
      fakeapi::FaultRule rule;
      rule.id = "r";
      rule.resource = op.stale ? "configmaps" : "deployments";
      rule.effect = fakeapi::ErrorFault{new_too_many_requests("slow down", 1)};
      rule.count = 1;
      e.api->faults().add(rule);
      return "fault added";
    }
    default: {
      ListOptions selector;
      selector.label_selector = op.stale ? "app=x" : "";
      return front_door_outcome(e.run(c.delete_collection(ctx.ctx, kConfigMaps, "default", DeleteOptions(), selector)));
    }
  }
}

RC_GTEST_PROP(FrontDoorEquivalence, BothTransportsGiveTheSameAnswersAndTheSameLog, ()) {
  const auto ops = *rc::gen::container<std::vector<Op>>(rc::gen::build<Op>(
      rc::gen::set(&Op::kind, rc::gen::inRange(0, 11)),
      rc::gen::set(&Op::name, rc::gen::element<std::string>("a", "b", "Bad_Name")),
      rc::gen::set(&Op::value, rc::gen::element<std::string>("1", "22", "333")),
      rc::gen::set(&Op::stale, rc::gen::arbitrary<bool>())));
  Env in_process(Transport::kInProcess);
  Env rest(Transport::kRest);
  for (const Op& op : ops) {
    const std::string a = apply(in_process, op);
    const std::string b = apply(rest, op);
    RC_LOG() << "op " << op.kind << " " << op.name << " " << op.value << " " << op.stale << "\n";
    RC_ASSERT(a == b);
  }
  RC_ASSERT(recorded(in_process.api->recorder()) == recorded(rest.api->recorder()));
  RC_ASSERT(in_process.api->revision() == rest.api->revision());
}

}  // namespace
}  // namespace kubesim::api::rest::testing
