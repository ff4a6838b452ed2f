// Bad input to ApiServer: each case gets kube-apiserver's code and reason, and leaves the store
// exactly as it was (same revision, same objects, no watch event, no new watcher).
#include "kubesim/fakeapi/server.h"

#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace testutil;
using api::StatusReason;

// The state every case starts from: ConfigMaps a (updated once) and b in default, namespace
// "other", history compacted at revision 8 with a continue token taken at revision 7.
struct Env {
  sim::Loop loop;
  ApiServer server{loop};
  api::ObjectPtr a;        // current
  api::ObjectPtr a_stale;  // a before its update
  std::string old_continue;
  Revision compacted = 0;

  Env() {
    auto must = [](api::Result<api::ObjectPtr> r) {
      if (!r.ok()) ADD_FAILURE() << r.status();
      return r.ok() ? r.value() : nullptr;
    };
    must(server.create(kNamespaces, "", namespace_object("other"), api::CreateOptions()));  // 5
    a_stale = must(server.create(kConfigMaps, "default", config_map("default", "a", {{"k", "1"}}),
                                 api::CreateOptions()));  // 6
    must(server.create(kConfigMaps, "default", config_map("default", "b", {{"k", "1"}}),
                       api::CreateOptions()));  // 7
    api::ListOptions page;
    page.limit = 1;
    auto first = server.list(kConfigMaps, "default", page);
    if (first.ok()) old_continue = first->continue_token;
    a = must(server.update(kConfigMaps, "default", a_stale->edited([](nlohmann::json& j) { j["data"]["k"] = "2"; }),
                           api::UpdateOptions()));  // 8
    server.compact_now();
    compacted = server.store().compacted();
  }

  // Everything a client could observe, as text.
  std::string fingerprint() {
    std::string out = "rev=" + std::to_string(server.revision()) + "\n";
    for (const auto* gvr : {&kNamespaces, &kConfigMaps, &kSecrets, &kDeployments}) {
      auto list = server.list(*gvr, "", api::ListOptions());
      if (!list.ok()) return "list failed";
      for (const auto& item : list->items) (out += item->serialized()) += "\n";
    }
    return out;
  }
};

struct BadInputCase {
  std::string name;
  std::function<api::Status(Env&)> call;
  int code;
  StatusReason reason;
};

std::ostream& operator<<(std::ostream& os, const BadInputCase& c) { return os << c.name; }

template <class T>
api::Status status(const api::Result<T>& r) {
  return status_of(r);
}

api::ListOptions list_options(const std::function<void(api::ListOptions&)>& edit) {
  api::ListOptions o;
  edit(o);
  return o;
}

api::Status create_cm_json(Env& env, const std::string& ns, nlohmann::json j) {
  auto obj = api::Object::from_json(std::move(j));
  if (!obj.ok()) return obj.status();
  return status(env.server.create(kConfigMaps, ns, obj.value(), api::CreateOptions()));
}

api::Status update_a(Env& env, const std::function<void(nlohmann::json&)>& edit) {
  return status(env.server.update(kConfigMaps, "default", env.a->edited(edit), api::UpdateOptions()));
}

api::Status patch_a(Env& env, api::PatchType type, const std::string& body) {
  return status(env.server.patch(kConfigMaps, "default", "a", type, body, api::PatchOptions()));
}

api::Status list_cms(Env& env, const api::ListOptions& o) {
  return status(env.server.list(kConfigMaps, "default", o));
}

api::Status watch_cms(Env& env, const api::ListOptions& o) {
  return status(env.server.watch(kConfigMaps, "default", o));
}

// A watch that answers with one ERROR event: its Status, once it came.
api::Status watch_error(Env& env, const api::ListOptions& o) {
  auto w = env.server.watch(kConfigMaps, "default", o);
  if (!w.ok()) return w.status();
  EventLog log(env.loop, std::move(w.value()));
  env.loop.run_for(std::chrono::seconds(3));
  if (log.size() != 1 || !log[0].status()) return api::Status();
  return *log[0].status();
}

api::Status get_a(Env& env, const std::string& rv) {
  api::GetOptions o;
  o.resource_version = rv;
  return status(env.server.get(kConfigMaps, "default", "a", o));
}

std::vector<BadInputCase> cases() {
  using PT = api::PatchType;
  const auto cm = [](const std::string& ns, const std::string& name) { return config_map_json(ns, name); };
  std::vector<BadInputCase> out = {
      // --- create ----------------------------------------------------------------------------
      {"CreateInvalidName", [=](Env& e) { return create_cm_json(e, "default", cm("default", "Bad_Name")); },
       422, StatusReason::kInvalid},
      {"CreateNameTooLong",
       [=](Env& e) { return create_cm_json(e, "default", cm("default", std::string(254, 'a'))); }, 422,
       StatusReason::kInvalid},
      {"CreateWithoutNameOrGenerateName", [=](Env& e) { return create_cm_json(e, "default", cm("default", "")); },
       422, StatusReason::kInvalid},
      {"CreateInvalidGenerateName",
       [=](Env& e) {
         auto j = cm("default", "");
         j["metadata"]["generateName"] = "Bad_";
         return create_cm_json(e, "default", j);
       },
       422, StatusReason::kInvalid},
      {"CreateInvalidLabelValue",
       [=](Env& e) {
         auto j = cm("default", "c");
         j["metadata"]["labels"] = {{"k", "not a valid value"}};
         return create_cm_json(e, "default", j);
       },
       422, StatusReason::kInvalid},
      {"CreateWithoutNamespace", [=](Env& e) { return create_cm_json(e, "", cm("", "c")); }, 400,
       StatusReason::kBadRequest},
      {"CreateNamespaceMismatch", [=](Env& e) { return create_cm_json(e, "default", cm("other", "c")); }, 400,
       StatusReason::kBadRequest},
      {"CreateKindMismatch",
       [=](Env& e) {
         auto j = cm("default", "c");
         j["kind"] = "Secret";
         return create_cm_json(e, "default", j);
       },
       400, StatusReason::kBadRequest},
      {"CreateApiVersionMismatch",
       [=](Env& e) {
         auto j = cm("default", "c");
         j["apiVersion"] = "apps/v1";
         return create_cm_json(e, "default", j);
       },
       400, StatusReason::kBadRequest},
      {"CreateInAMissingNamespace", [=](Env& e) { return create_cm_json(e, "nowhere", cm("nowhere", "c")); }, 404,
       StatusReason::kNotFound},
      // NamespaceLifecycle admission comes before validation: the namespace's 404, not a 422.
      {"CreateWithAnInvalidNameInAMissingNamespace",
       [=](Env& e) { return create_cm_json(e, "nowhere", cm("nowhere", "Not_Valid")); }, 404,
       StatusReason::kNotFound},
      {"CreateExisting", [=](Env& e) { return create_cm_json(e, "default", cm("default", "a")); }, 409,
       StatusReason::kAlreadyExists},
      {"CreateUnknownResource",
       [](Env& e) {
         return status(e.server.create(api::GroupVersionResource("", "v1", "gizmos"), "default",
                                       config_map("default", "c"), api::CreateOptions()));
       },
       404, StatusReason::kNotFound},
      {"CreateClusterScopedInANamespace",
       [](Env& e) {
         return status(e.server.create(kNamespaces, "default", namespace_object("x"), api::CreateOptions()));
       },
       404, StatusReason::kNotFound},
      {"CreateNamespaceWithASubdomainName",
       [](Env& e) {
         return status(e.server.create(kNamespaces, "", namespace_object("a.b"), api::CreateOptions()));
       },
       422, StatusReason::kInvalid},
      // --- update ----------------------------------------------------------------------------
      {"UpdateStale",
       [](Env& e) {
         return status(e.server.update(kConfigMaps, "default",
                                       e.a_stale->edited([](nlohmann::json& j) { j["data"]["k"] = "3"; }),
                                       api::UpdateOptions()));
       },
       409, StatusReason::kConflict},
      {"UpdateMissing",
       [](Env& e) {
         return status(e.server.update(kConfigMaps, "default", config_map("default", "ghost"), api::UpdateOptions()));
       },
       404, StatusReason::kNotFound},
      {"UpdateUnparsableResourceVersion",
       [](Env& e) {
         return update_a(e, [](nlohmann::json& j) {
           j["metadata"]["resourceVersion"] = "abc";
           j["data"]["k"] = "3";
         });
       },
       500, StatusReason::kUnknown},
      {"UpdateNamespaceMismatch",
       [](Env& e) {
         return update_a(e, [](nlohmann::json& j) {
           j["metadata"]["namespace"] = "other";
           j["data"]["k"] = "3";
         });
       },
       400, StatusReason::kBadRequest},
      {"UpdateKindMismatch",
       [](Env& e) {
         return update_a(e, [](nlohmann::json& j) {
           j["kind"] = "Secret";
           j["data"]["k"] = "3";
         });
       },
       400, StatusReason::kBadRequest},
      {"UpdateInvalidLabel",
       [](Env& e) { return update_a(e, [](nlohmann::json& j) { j["metadata"]["labels"] = {{"-bad", "v"}}; }); },
       422, StatusReason::kInvalid},
      {"UpdateStatusOfAKindWithoutStatus",
       [](Env& e) {
         return status(e.server.update(kConfigMaps, "default",
                                       e.a->edited([](nlohmann::json& j) { j["data"]["k"] = "3"; }),
                                       api::UpdateOptions(), api::Subresource::kStatus));
       },
       404, StatusReason::kNotFound},
      // --- patch -----------------------------------------------------------------------------
      {"MergePatchNotJson", [](Env& e) { return patch_a(e, PT::kMergePatch, "{"); }, 400, StatusReason::kBadRequest},
      {"MergePatchNull", [](Env& e) { return patch_a(e, PT::kMergePatch, "null"); }, 400, StatusReason::kBadRequest},
      {"JsonPatchNotAnArray",
       [](Env& e) { return patch_a(e, PT::kJsonPatch, R"({"op":"add"})"); }, 400, StatusReason::kBadRequest},
      {"JsonPatchFailingTest",
       [](Env& e) {
         return patch_a(e, PT::kJsonPatch,
                        R"([{"op":"test","path":"/data/k","value":"x"},{"op":"replace","path":"/data/k","value":"y"}])");
       },
       422, StatusReason::kInvalid},
      {"StrategicPatchNotJson",
       [](Env& e) { return patch_a(e, PT::kStrategicMergePatch, "[1,"); }, 400, StatusReason::kBadRequest},
      {"PatchRenames",
       [](Env& e) { return patch_a(e, PT::kMergePatch, R"({"metadata":{"name":"renamed"}})"); }, 400,
       StatusReason::kBadRequest},
      {"PatchMovesNamespace",
       [](Env& e) { return patch_a(e, PT::kMergePatch, R"({"metadata":{"namespace":"other"}})"); }, 400,
       StatusReason::kBadRequest},
      {"PatchInvalidLabel",
       [](Env& e) { return patch_a(e, PT::kMergePatch, R"({"metadata":{"labels":{"k":"-"}}})"); }, 422,
       StatusReason::kInvalid},
      {"PatchStaleResourceVersion",
       [](Env& e) { return patch_a(e, PT::kMergePatch, R"({"metadata":{"resourceVersion":"6"},"data":{"k":"9"}})"); },
       409, StatusReason::kConflict},
      {"PatchMissing",
       [](Env& e) {
         return status(e.server.patch(kConfigMaps, "default", "ghost", PT::kMergePatch, "{}", api::PatchOptions()));
       },
       404, StatusReason::kNotFound},
      // --- delete ----------------------------------------------------------------------------
      {"DeleteMissing",
       [](Env& e) { return status(e.server.delete_(kConfigMaps, "default", "ghost", api::DeleteOptions())); }, 404,
       StatusReason::kNotFound},
      {"DeleteUidPrecondition",
       [](Env& e) {
         api::DeleteOptions o;
         o.preconditions.uid = "other-uid";
         return status(e.server.delete_(kConfigMaps, "default", "a", o));
       },
       409, StatusReason::kConflict},
      {"DeleteResourceVersionPrecondition",
       [](Env& e) {
         api::DeleteOptions o;
         o.preconditions.resource_version = "6";
         return status(e.server.delete_(kConfigMaps, "default", "a", o));
       },
       409, StatusReason::kConflict},
      {"DeleteDefaultNamespace",
       [](Env& e) { return status(e.server.delete_(kNamespaces, "", "default", api::DeleteOptions())); }, 403,
       StatusReason::kForbidden},
      // --- get -------------------------------------------------------------------------------
      {"GetUnparsableResourceVersion", [](Env& e) { return get_a(e, "abc"); }, 500, StatusReason::kUnknown},
      {"GetFutureResourceVersion", [](Env& e) { return get_a(e, "100"); }, 504, StatusReason::kTimeout},
      {"GetWithoutNamespace",
       [](Env& e) { return status(e.server.get(kConfigMaps, "", "a", api::GetOptions())); }, 400,
       StatusReason::kBadRequest},
      {"GetUnknownResource",
       [](Env& e) {
         return status(e.server.get(api::GroupVersionResource("nope.io", "v1", "things"), "default", "a",
                                    api::GetOptions()));
       },
       404, StatusReason::kNotFound},
      // --- list ------------------------------------------------------------------------------
      {"ListBadLabelSelector",
       [](Env& e) { return list_cms(e, list_options([](auto& o) { o.label_selector = "a in (b"; })); }, 400,
       StatusReason::kBadRequest},
      {"ListBadLabelValue",
       [](Env& e) { return list_cms(e, list_options([](auto& o) { o.label_selector = "a=b c"; })); }, 400,
       StatusReason::kBadRequest},
      {"ListBadFieldSelector",
       [](Env& e) { return list_cms(e, list_options([](auto& o) { o.field_selector = "metadata.name"; })); }, 400,
       StatusReason::kBadRequest},
      {"ListUnsupportedField",
       [](Env& e) { return list_cms(e, list_options([](auto& o) { o.field_selector = "spec.nodeName=x"; })); }, 400,
       StatusReason::kBadRequest},
      {"ListUnparsableResourceVersion",
       [](Env& e) { return list_cms(e, list_options([](auto& o) { o.resource_version = "abc"; })); }, 400,
       StatusReason::kBadRequest},
      {"ListNegativeResourceVersion",
       [](Env& e) { return list_cms(e, list_options([](auto& o) { o.resource_version = "-1"; })); }, 400,
       StatusReason::kBadRequest},
      {"ListFutureResourceVersion",
       [](Env& e) { return list_cms(e, list_options([](auto& o) { o.resource_version = "100"; })); }, 504,
       StatusReason::kTimeout},
      {"ListGarbageContinue",
       [](Env& e) { return list_cms(e, list_options([](auto& o) { o.continue_token = "not-a-token!"; })); }, 400,
       StatusReason::kBadRequest},
      {"ListContinueOfAnotherFormat",
       [](Env& e) {
         // base64url of {"v":"v0","rv":5,"start":"a"}
         return list_cms(e, list_options([](auto& o) { o.continue_token = "eyJ2IjoidjAiLCJydiI6NSwic3RhcnQiOiJhIn0"; }));
       },
       400, StatusReason::kBadRequest},
      {"ListContinueWithResourceVersion",
       [](Env& e) {
         return list_cms(e, list_options([&](auto& o) {
           o.continue_token = e.old_continue;
           o.resource_version = "8";
         }));
       },
       400, StatusReason::kBadRequest},
      {"ListCompactedContinue",
       [](Env& e) { return list_cms(e, list_options([&](auto& o) { o.continue_token = e.old_continue; })); }, 410,
       StatusReason::kExpired},
      {"ListExactCompacted",
       [](Env& e) {
         return list_cms(e, list_options([](auto& o) {
           o.resource_version = "6";
           o.resource_version_match = api::ResourceVersionMatch::kExact;
         }));
       },
       410, StatusReason::kExpired},
      {"ListMatchWithoutResourceVersion",
       [](Env& e) {
         return list_cms(e, list_options([](auto& o) { o.resource_version_match = api::ResourceVersionMatch::kExact; }));
       },
       422, StatusReason::kInvalid},
      {"ListExactZero",
       [](Env& e) {
         return list_cms(e, list_options([](auto& o) {
           o.resource_version = "0";
           o.resource_version_match = api::ResourceVersionMatch::kExact;
         }));
       },
       422, StatusReason::kInvalid},
      {"ListMatchWithContinue",
       [](Env& e) {
         return list_cms(e, list_options([&](auto& o) {
           o.continue_token = e.old_continue;
           o.resource_version = "8";
           o.resource_version_match = api::ResourceVersionMatch::kNotOlderThan;
         }));
       },
       422, StatusReason::kInvalid},
      {"ListSendInitialEvents",
       [](Env& e) { return list_cms(e, list_options([](auto& o) { o.send_initial_events = true; })); }, 422,
       StatusReason::kInvalid},
      {"ListClusterScopedInANamespace",
       [](Env& e) { return status(e.server.list(kNamespaces, "default", api::ListOptions())); }, 404,
       StatusReason::kNotFound},
      // --- watch -----------------------------------------------------------------------------
      {"WatchUnparsableResourceVersion",
       [](Env& e) { return watch_cms(e, list_options([](auto& o) { o.resource_version = "abc"; })); }, 500,
       StatusReason::kUnknown},
      {"WatchFutureResourceVersion",
       [](Env& e) { return watch_error(e, list_options([](auto& o) { o.resource_version = "100"; })); }, 504,
       StatusReason::kTimeout},
      {"WatchBadLabelSelector",
       [](Env& e) { return watch_cms(e, list_options([](auto& o) { o.label_selector = "!"; })); }, 400,
       StatusReason::kBadRequest},
      {"WatchUnsupportedField",
       [](Env& e) { return watch_cms(e, list_options([](auto& o) { o.field_selector = "status.phase=x"; })); }, 400,
       StatusReason::kBadRequest},
      {"WatchSendInitialEventsWithoutMatch",
       [](Env& e) { return watch_cms(e, list_options([](auto& o) { o.send_initial_events = true; })); }, 422,
       StatusReason::kInvalid},
      {"WatchMatchWithoutSendInitialEvents",
       [](Env& e) {
         return watch_cms(e, list_options([](auto& o) {
           o.resource_version_match = api::ResourceVersionMatch::kNotOlderThan;
         }));
       },
       422, StatusReason::kInvalid},
      {"WatchExact",
       [](Env& e) {
         return watch_cms(e, list_options([](auto& o) {
           o.send_initial_events = true;
           o.resource_version_match = api::ResourceVersionMatch::kExact;
         }));
       },
       422, StatusReason::kInvalid},
      {"WatchUnknownResource",
       [](Env& e) {
         return status(e.server.watch(api::GroupVersionResource("", "v1", "gizmos"), "", api::ListOptions()));
       },
       404, StatusReason::kNotFound},
  };
  return out;
}

class BadInputTest : public ::testing::TestWithParam<BadInputCase> {};

TEST_P(BadInputTest, GetsItsStatusAndChangesNothing) {
  const BadInputCase& c = GetParam();
  Env env;
  ASSERT_FALSE(env.old_continue.empty());
  ASSERT_EQ(env.compacted, 8);
  api::ListOptions from_now;
  from_now.resource_version = std::to_string(env.server.revision());
  auto w = env.server.watch(kConfigMaps, "", from_now);
  ASSERT_TRUE(w.ok());
  EventLog log(env.loop, std::move(w.value()));
  const std::string before = env.fingerprint();
  const std::size_t watchers = env.server.watches().watcher_count();

  const api::Status s = c.call(env);
  EXPECT_EQ(s.code, c.code) << s;
  EXPECT_EQ(s.reason, c.reason) << s;
  EXPECT_FALSE(s.message.empty());

  settle(env.loop);
  EXPECT_EQ(env.fingerprint(), before);
  EXPECT_EQ(env.server.revision(), 8);
  EXPECT_EQ(env.server.store().compacted(), 8);
  EXPECT_EQ(log.size(), 0u);
  EXPECT_EQ(env.server.watches().watcher_count(), watchers);
}

INSTANTIATE_TEST_SUITE_P(Cases, BadInputTest, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<BadInputCase>& info) { return info.param.name; });

}  // namespace
}  // namespace kubesim::fakeapi
