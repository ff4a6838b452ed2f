// Bad input through api::Client over both transports, with the table of the core suite
// (tests/fakeapi/server_bad_input_test.cc): each case gets kube-apiserver's code and reason, and
// leaves the store exactly as it was (same revision, same objects, no new watcher).
//
// Cases of the core table not reachable through api::Client: an update whose body names another
// object than the URL (RestClient builds the URL from the body's name). Where the HTTP front end
// answers before the ApiServer (an unknown resource or a cluster-scoped one under a namespace:
// the generic "the server could not find the requested resource"), the code and reason are the
// same and only the message differs, as with kube-apiserver's own router.
#include <gtest/gtest.h>

#include <functional>
#include <tuple>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

using namespace std::chrono_literals;

class ErrorsTest;

struct ErrorCase {
  std::string name;
  std::function<Status(ErrorsTest&)> call;
  int code;
  StatusReason reason;
};

std::ostream& operator<<(std::ostream& os, const ErrorCase& c) { return os << c.name; }

fakeapi::ServerOptions short_fresh_wait() {
  fakeapi::ServerOptions o;
  o.watch.fresh_wait = 100ms;  // reads and watches at a future revision: 504 after this
  return o;
}

// The state every case starts from, made on the ApiServer as the core suite makes it:
// namespace "other" (5), ConfigMaps a (6, updated at 8) and b (7) in default, a continue token
// taken at 7, history compacted at 8.
class ErrorsTest : public TransportTest<std::tuple<Transport, ErrorCase>> {
 public:
  ErrorsTest() : TransportTest(short_fresh_wait()) {}

  Client& client() { return c(); }
  sim::Context context() { return ctx(); }
  template <class T>
  Status status(sim::Task<Result<T>> task) {
    return status_of(run(std::move(task)));
  }
  Status create_json(const std::string& ns, nlohmann::json j) {
    auto obj = Object::from_json(std::move(j));
    if (!obj.ok()) return obj.status();
    return status(c().create(ctx(), kConfigMaps, ns, obj.value(), CreateOptions()));
  }
  Status update_a(const std::function<void(nlohmann::json&)>& edit) {
    return status(c().update(ctx(), kConfigMaps, "default", a_->edited(edit), UpdateOptions()));
  }
  Status patch_a(PatchType type, const std::string& body) {
    return status(c().patch(ctx(), kConfigMaps, "default", "a", type, body, PatchOptions()));
  }
  Status get_a(const std::string& rv) {
    GetOptions o;
    o.resource_version = rv;
    return status(c().get(ctx(), kConfigMaps, "default", "a", o));
  }
  Status list(const std::function<void(ListOptions&)>& edit) {
    ListOptions o;
    edit(o);
    return status(c().list(ctx(), kConfigMaps, "default", o));
  }
  // A watch refused at once, or one that answers with a single ERROR event: its Status.
  Status watch(const std::function<void(ListOptions&)>& edit) {
    ListOptions o;
    edit(o);
    auto w = run(c().watch(ctx(), kConfigMaps, "default", o));
    if (!w.ok()) return w.status();
    auto events = take_all(*w.value());
    if (events.size() != 1 || !events[0].status()) return Status();
    return *events[0].status();
  }
  const ObjectPtr& a_stale() const { return a_stale_; }
  const std::string& old_continue() const { return old_continue_; }

  // Everything a client could observe, as text.
  std::string fingerprint() {
    std::string out = "rev=" + std::to_string(api_->revision()) + "\n";
    for (const auto* gvr : {&kNamespaces, &kConfigMaps, &kSecrets, &kDeployments}) {
      auto list = api_->list(*gvr, "", ListOptions());
      if (!list.ok()) return "list failed";
      for (const auto& item : list->items) (out += item->serialized()) += "\n";
    }
    return out;
  }

 protected:
  void SetUp() override {
    auto must_write = [](Result<ObjectPtr> r) {
      EXPECT_TRUE(r.ok()) << r.status();
      return r.ok() ? r.value() : nullptr;
    };
    must_write(api_->create(kNamespaces, "",
                            make_object({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "other"}}}}),
                            CreateOptions()));
    a_stale_ = must_write(api_->create(kConfigMaps, "default", cm("a", "1"), CreateOptions()));
    must_write(api_->create(kConfigMaps, "default", cm("b", "1"), CreateOptions()));
    ListOptions page;
    page.limit = 1;
    auto first = api_->list(kConfigMaps, "default", page);
    if (first.ok()) old_continue_ = first->continue_token;
    ASSERT_TRUE(a_stale_);
    a_ = must_write(api_->update(kConfigMaps, "default",
                                 a_stale_->edited([](nlohmann::json& j) { j["data"]["k"] = "2"; }), UpdateOptions()));
    api_->compact_now();
  }

  ObjectPtr a_;
  ObjectPtr a_stale_;
  std::string old_continue_;
};

nlohmann::json cm_json(const std::string& ns, const std::string& name) {
  nlohmann::json meta = nlohmann::json::object();
  if (!name.empty()) meta["name"] = name;
  if (!ns.empty()) meta["namespace"] = ns;
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}};
}

ObjectPtr namespace_object(const std::string& name) {
  return make_object({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
}

std::vector<ErrorCase> create_and_update_cases() {
  using E = ErrorsTest;
  using R = StatusReason;
  const auto with = [](nlohmann::json j, const std::function<void(nlohmann::json&)>& edit) {
    edit(j);
    return j;
  };
  return {
      {"CreateInvalidName", [](E& e) { return e.create_json("default", cm_json("default", "Bad_Name")); }, 422, R::kInvalid},
      {"CreateNameTooLong", [](E& e) { return e.create_json("default", cm_json("default", std::string(254, 'a'))); },
       422, R::kInvalid},
      {"CreateWithoutNameOrGenerateName", [](E& e) { return e.create_json("default", cm_json("default", "")); }, 422,
       R::kInvalid},
      {"CreateInvalidGenerateName",
       [=](E& e) {
         return e.create_json("default", with(cm_json("default", ""), [](auto& j) { j["metadata"]["generateName"] = "Bad_"; }));
       },
       422, R::kInvalid},
      {"CreateInvalidLabelValue",
       [=](E& e) {
         return e.create_json("default",
                              with(cm_json("default", "c"), [](auto& j) { j["metadata"]["labels"] = {{"k", "not valid"}}; }));
       },
       422, R::kInvalid},
      {"CreateWithoutNamespace", [](E& e) { return e.create_json("", cm_json("", "c")); }, 400, R::kBadRequest},
      {"CreateNamespaceMismatch", [](E& e) { return e.create_json("default", cm_json("other", "c")); }, 400,
       R::kBadRequest},
      {"CreateKindMismatch",
       [=](E& e) { return e.create_json("default", with(cm_json("default", "c"), [](auto& j) { j["kind"] = "Secret"; })); },
       400, R::kBadRequest},
      {"CreateApiVersionMismatch",
       [=](E& e) {
         return e.create_json("default", with(cm_json("default", "c"), [](auto& j) { j["apiVersion"] = "apps/v1"; }));
       },
       400, R::kBadRequest},
      {"CreateInAMissingNamespace", [](E& e) { return e.create_json("nowhere", cm_json("nowhere", "c")); }, 404,
       R::kNotFound},
      {"CreateExisting", [](E& e) { return e.create_json("default", cm_json("default", "a")); }, 409, R::kAlreadyExists},
      {"CreateUnknownResource",
       [](E& e) {
         return e.status(e.client().create(e.context(), GroupVersionResource("", "v1", "gizmos"), "default",
                                           make_object(cm_json("default", "c")), CreateOptions()));
       },
       404, R::kNotFound},
      {"CreateClusterScopedInANamespace",
       [](E& e) {
         return e.status(e.client().create(e.context(), kNamespaces, "default", namespace_object("x"), CreateOptions()));
       },
       404, R::kNotFound},
      {"CreateNamespaceWithASubdomainName",
       [](E& e) { return e.status(e.client().create(e.context(), kNamespaces, "", namespace_object("a.b"), CreateOptions())); },
       422, R::kInvalid},
      {"UpdateStale",
       [](E& e) {
         return e.status(e.client().update(e.context(), kConfigMaps, "default",
                                           e.a_stale()->edited([](nlohmann::json& j) { j["data"]["k"] = "3"; }),
                                           UpdateOptions()));
       },
       409, R::kConflict},
      {"UpdateMissing",
       [](E& e) {
         return e.status(e.client().update(e.context(), kConfigMaps, "default", make_object(cm_json("default", "ghost")),
                                           UpdateOptions()));
       },
       404, R::kNotFound},
      {"UpdateUnparsableResourceVersion",
       [](E& e) {
         return e.update_a([](nlohmann::json& j) {
           j["metadata"]["resourceVersion"] = "abc";
           j["data"]["k"] = "3";
         });
       },
       500, R::kUnknown},
      {"UpdateNamespaceMismatch",
       [](E& e) {
         return e.update_a([](nlohmann::json& j) {
           j["metadata"]["namespace"] = "other";
           j["data"]["k"] = "3";
         });
       },
       400, R::kBadRequest},
      {"UpdateKindMismatch",
       [](E& e) {
         return e.update_a([](nlohmann::json& j) {
           j["kind"] = "Secret";
           j["data"]["k"] = "3";
         });
       },
       400, R::kBadRequest},
      {"UpdateInvalidLabel", [](E& e) { return e.update_a([](nlohmann::json& j) { j["metadata"]["labels"] = {{"-bad", "v"}}; }); },
       422, R::kInvalid},
      {"UpdateStatusOfAKindWithoutStatus",
       [](E& e) {
         return e.status(e.client().update_status(e.context(), kConfigMaps, "default",
                                                  make_object(cm_json("default", "a")), UpdateOptions()));
       },
       404, R::kNotFound},
  };
}

std::vector<ErrorCase> patch_delete_and_get_cases() {
  using E = ErrorsTest;
  using R = StatusReason;
  using PT = PatchType;
  const auto delete_a = [](E& e, const std::function<void(DeleteOptions&)>& edit) {
    DeleteOptions o;
    edit(o);
    return e.status(e.client().delete_(e.context(), kConfigMaps, "default", "a", o));
  };
  return {
      {"MergePatchNotJson", [](E& e) { return e.patch_a(PT::kMergePatch, "{"); }, 400, R::kBadRequest},
      {"MergePatchNull", [](E& e) { return e.patch_a(PT::kMergePatch, "null"); }, 400, R::kBadRequest},
      {"JsonPatchNotAnArray", [](E& e) { return e.patch_a(PT::kJsonPatch, R"({"op":"add"})"); }, 400, R::kBadRequest},
      {"JsonPatchFailingTest",
       [](E& e) {
         return e.patch_a(PT::kJsonPatch,
                          R"([{"op":"test","path":"/data/k","value":"x"},{"op":"replace","path":"/data/k","value":"y"}])");
       },
       422, R::kInvalid},
      {"StrategicPatchNotJson", [](E& e) { return e.patch_a(PT::kStrategicMergePatch, "[1,"); }, 400, R::kBadRequest},
      {"PatchRenames", [](E& e) { return e.patch_a(PT::kMergePatch, R"({"metadata":{"name":"renamed"}})"); }, 400,
       R::kBadRequest},
      {"PatchMovesNamespace", [](E& e) { return e.patch_a(PT::kMergePatch, R"({"metadata":{"namespace":"other"}})"); },
       400, R::kBadRequest},
      {"PatchInvalidLabel", [](E& e) { return e.patch_a(PT::kMergePatch, R"({"metadata":{"labels":{"k":"-"}}})"); },
       422, R::kInvalid},
      {"PatchStaleResourceVersion",
       [](E& e) { return e.patch_a(PT::kMergePatch, R"({"metadata":{"resourceVersion":"6"},"data":{"k":"9"}})"); },
       409, R::kConflict},
      {"PatchMissing",
       [](E& e) {
         return e.status(e.client().patch(e.context(), kConfigMaps, "default", "ghost", PT::kMergePatch, "{}", PatchOptions()));
       },
       404, R::kNotFound},
      {"DeleteMissing",
       [](E& e) { return e.status(e.client().delete_(e.context(), kConfigMaps, "default", "ghost", DeleteOptions())); },
       404, R::kNotFound},
      {"DeleteUidPrecondition", [=](E& e) { return delete_a(e, [](auto& o) { o.preconditions.uid = "other-uid"; }); },
       409, R::kConflict},
      {"DeleteResourceVersionPrecondition",
       [=](E& e) { return delete_a(e, [](auto& o) { o.preconditions.resource_version = "6"; }); }, 409, R::kConflict},
      {"DeleteDefaultNamespace",
       [](E& e) { return e.status(e.client().delete_(e.context(), kNamespaces, "", "default", DeleteOptions())); }, 403,
       R::kForbidden},
      {"DeleteCollectionBadSelector",
       [](E& e) {
         ListOptions o;
         o.label_selector = "app in (";
         return e.status(e.client().delete_collection(e.context(), kConfigMaps, "default", DeleteOptions(), o));
       },
       400, R::kBadRequest},
      {"GetUnparsableResourceVersion", [](E& e) { return e.get_a("abc"); }, 500, R::kUnknown},
      {"GetFutureResourceVersion", [](E& e) { return e.get_a("100"); }, 504, R::kTimeout},
      {"GetWithoutNamespace",
       [](E& e) { return e.status(e.client().get(e.context(), kConfigMaps, "", "a", GetOptions())); }, 400,
       R::kBadRequest},
      {"GetUnknownResource",
       [](E& e) {
         return e.status(e.client().get(e.context(), GroupVersionResource("nope.io", "v1", "things"), "default", "a",
                                        GetOptions()));
       },
       404, R::kNotFound},
  };
}

std::vector<ErrorCase> list_and_watch_cases() {
  using E = ErrorsTest;
  using R = StatusReason;
  using M = ResourceVersionMatch;
  return {
      {"ListBadLabelSelector", [](E& e) { return e.list([](auto& o) { o.label_selector = "a in (b"; }); }, 400,
       R::kBadRequest},
      {"ListBadLabelValue", [](E& e) { return e.list([](auto& o) { o.label_selector = "a=b c"; }); }, 400, R::kBadRequest},
      {"ListBadFieldSelector", [](E& e) { return e.list([](auto& o) { o.field_selector = "metadata.name"; }); }, 400,
       R::kBadRequest},
      {"ListUnsupportedField", [](E& e) { return e.list([](auto& o) { o.field_selector = "spec.nodeName=x"; }); }, 400,
       R::kBadRequest},
      {"ListUnparsableResourceVersion", [](E& e) { return e.list([](auto& o) { o.resource_version = "abc"; }); }, 400,
       R::kBadRequest},
      {"ListNegativeResourceVersion", [](E& e) { return e.list([](auto& o) { o.resource_version = "-1"; }); }, 400,
       R::kBadRequest},
      {"ListFutureResourceVersion", [](E& e) { return e.list([](auto& o) { o.resource_version = "100"; }); }, 504,
       R::kTimeout},
      {"ListGarbageContinue", [](E& e) { return e.list([](auto& o) { o.continue_token = "not-a-token!"; }); }, 400,
       R::kBadRequest},
      {"ListContinueOfAnotherFormat",
       [](E& e) {
         // base64url of {"v":"v0","rv":5,"start":"a"}
         return e.list([](auto& o) { o.continue_token = "eyJ2IjoidjAiLCJydiI6NSwic3RhcnQiOiJhIn0"; });
       },
       400, R::kBadRequest},
      {"ListContinueWithResourceVersion",
       [](E& e) {
         return e.list([&](auto& o) {
           o.continue_token = e.old_continue();
           o.resource_version = "8";
         });
       },
       400, R::kBadRequest},
      {"ListCompactedContinue", [](E& e) { return e.list([&](auto& o) { o.continue_token = e.old_continue(); }); }, 410,
       R::kExpired},
      {"ListExactCompacted",
       [](E& e) {
         return e.list([](auto& o) {
           o.resource_version = "6";
           o.resource_version_match = M::kExact;
         });
       },
       410, R::kExpired},
      {"ListMatchWithoutResourceVersion", [](E& e) { return e.list([](auto& o) { o.resource_version_match = M::kExact; }); },
       422, R::kInvalid},
      {"ListExactZero",
       [](E& e) {
         return e.list([](auto& o) {
           o.resource_version = "0";
           o.resource_version_match = M::kExact;
         });
       },
       422, R::kInvalid},
      {"ListMatchWithContinue",
       [](E& e) {
         return e.list([&](auto& o) {
           o.continue_token = e.old_continue();
           o.resource_version = "8";
           o.resource_version_match = M::kNotOlderThan;
         });
       },
       422, R::kInvalid},
      {"ListSendInitialEvents", [](E& e) { return e.list([](auto& o) { o.send_initial_events = true; }); }, 422,
       R::kInvalid},
      {"ListClusterScopedInANamespace",
       [](E& e) { return e.status(e.client().list(e.context(), kNamespaces, "default", ListOptions())); }, 404,
       R::kNotFound},
      {"WatchUnparsableResourceVersion", [](E& e) { return e.watch([](auto& o) { o.resource_version = "abc"; }); }, 500,
       R::kUnknown},
      {"WatchFutureResourceVersion", [](E& e) { return e.watch([](auto& o) { o.resource_version = "100"; }); }, 504,
       R::kTimeout},
      {"WatchCompactedResourceVersion", [](E& e) { return e.watch([](auto& o) { o.resource_version = "6"; }); }, 410,
       R::kExpired},
      {"WatchBadLabelSelector", [](E& e) { return e.watch([](auto& o) { o.label_selector = "!"; }); }, 400,
       R::kBadRequest},
      {"WatchUnsupportedField", [](E& e) { return e.watch([](auto& o) { o.field_selector = "status.phase=x"; }); }, 400,
       R::kBadRequest},
      {"WatchSendInitialEventsWithoutMatch", [](E& e) { return e.watch([](auto& o) { o.send_initial_events = true; }); },
       422, R::kInvalid},
      {"WatchMatchWithoutSendInitialEvents",
       [](E& e) { return e.watch([](auto& o) { o.resource_version_match = M::kNotOlderThan; }); }, 422, R::kInvalid},
      {"WatchExact",
       [](E& e) {
         return e.watch([](auto& o) {
           o.send_initial_events = true;
           o.resource_version_match = M::kExact;
         });
       },
       422, R::kInvalid},
      {"WatchUnknownResource",
       [](E& e) {
         return e.status(e.client().watch(e.context(), GroupVersionResource("", "v1", "gizmos"), "", ListOptions()));
       },
       404, R::kNotFound},
  };
}

std::vector<ErrorCase> all_cases() {
  std::vector<ErrorCase> out;
  for (auto part : {create_and_update_cases(), patch_delete_and_get_cases(), list_and_watch_cases()}) {
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

TEST_P(ErrorsTest, GetsItsStatusAndChangesNothing) {
  const ErrorCase& tc = std::get<1>(GetParam());
  ASSERT_FALSE(old_continue().empty());
  ASSERT_EQ(api_->store().compacted(), 8);
  const std::string before = fingerprint();
  const std::size_t watchers = api_->watches().watcher_count();

  const Status s = tc.call(*this);
  EXPECT_EQ(s.code, tc.code) << s;
  EXPECT_EQ(s.reason, tc.reason) << s;
  EXPECT_FALSE(s.message.empty());

  EXPECT_EQ(fingerprint(), before);
  EXPECT_EQ(api_->revision(), 8);
  EXPECT_EQ(api_->store().compacted(), 8);
  EXPECT_EQ(api_->watches().watcher_count(), watchers);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ErrorsTest, ::testing::Combine(both_transports(), ::testing::ValuesIn(all_cases())),
    [](const ::testing::TestParamInfo<std::tuple<Transport, ErrorCase>>& info) {
      return std::get<1>(info.param).name + "_" + transport_label(std::get<0>(info.param));
    });

}  // namespace
}  // namespace kubesim::api::rest::testing
