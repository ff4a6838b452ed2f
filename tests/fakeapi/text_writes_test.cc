// The write fast paths (fakeapi/internal/fastpath/text_create.h, text_update.h) answer exactly as the
// general path: two servers, one with the fast paths and one without, get the same random creates
// and updates and must give the same answers, warnings and stored objects.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "api/internal/object_access.h"
#include "fakeapi/internal/fastpath/fast_paths.h"
#include "kubesim/fakeapi/server.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;
using testutil::kConfigMaps;

struct TextSide {
  explicit TextSide(bool fast_paths) : server(loop) {
    internal::FastPaths::set_enabled(server, fast_paths);
  }
  sim::Loop loop;
  ApiServer server;
  testutil::WarnedWrites writes{server};
};

std::string describe(const api::Result<api::ObjectPtr>& r) {
  if (!r.ok()) {
    std::ostringstream out;
    out << "error " << r.status();
    return out.str();
  }
  return std::string(r.value()->serialized());
}

// Sends the same update to both servers: the answers, warnings and revisions must agree.
void update_both(TextSide& fast, TextSide& general, const api::GroupVersionResource& gvr,
                 const api::ObjectPtr& object, const api::UpdateOptions& options = {}) {
  const auto a = fast.writes.update(gvr, "default", object, options);
  const auto b = general.writes.update(gvr, "default", object, options);
  RC_ASSERT(describe(a) == describe(b));
  RC_ASSERT(fast.writes.warnings() == general.writes.warnings());
  RC_ASSERT(fast.server.revision() == general.server.revision());
}

// A data key: mostly valid config keys, sometimes ones the validation refuses.
rc::Gen<std::string> data_key() {
  return rc::gen::weightedOneOf<std::string>(
      {{8, rc::gen::element<std::string>("gen", "payload", "a", "b.c", "Z_9-x")},
       {1, rc::gen::element<std::string>(".", "..", "..x", "with space", "\u00e9", "q\"",
                                         std::string(254, 'k'), "")}});
}

rc::Gen<json> data_value() {
  return rc::gen::weightedOneOf<json>(
      {{8, rc::gen::element<json>("v", "", "line\nbreak", "quote\"d", "\u00e9\u4e2d", "\\",
                                  "x\xFF", "x\xEF\xBF\xBD")},
       {1, rc::gen::element<json>(json(), json(3), json::object(), json::array())},
       {1, rc::gen::just(json(std::string(512 * 1024, 'x')))}});
}

// The desired object: the stored one changed in a few random ways.
json desired_from(json j) {
  const int changes = *rc::gen::inRange(0, 4);
  for (int c = 0; c < changes; ++c) {
    switch (*rc::gen::inRange(0, 15)) {
      case 0:
      case 1:
      case 2:
      case 3:
        if (!j["data"].is_object()) j["data"] = json::object();
        j["data"][*data_key()] = *data_value();
        break;
      case 4:
        if (j["data"].is_object() && !j["data"].empty()) {
          j["data"].erase(j["data"].begin());
        }
        break;
      case 5:
        j[*rc::gen::element<std::string>("data", "binaryData", "immutable", "extra", "status",
                                         "dat", "datb")] =
            *rc::gen::element<json>(json(), json::object(), true, false, json{{"k", "dg=="}},
                                    json{{"gen", "1"}});
        break;
      case 6:
        j["metadata"]["resourceVersion"] = *rc::gen::element<json>("", "1", "x", json());
        break;
      case 7:
        j["metadata"].erase(*rc::gen::element<std::string>("resourceVersion", "uid",
                                                           "creationTimestamp", "namespace",
                                                           "labels", "name"));
        break;
      case 8:
        if (!j["metadata"]["labels"].is_object()) j["metadata"]["labels"] = json::object();
        j["metadata"]["labels"]["app"] = *rc::gen::element<std::string>("bench", "other", "-");
        break;
      case 9:
        j["metadata"][*rc::gen::element<std::string>("uid", "namespace", "generation",
                                                     "creationTimestamp", "other")] =
            *rc::gen::element<json>("x", 7, json());
        break;
      case 10:
        j[*rc::gen::element<std::string>("apiVersion", "kind")] =
            *rc::gen::element<json>("v1", "v2", "ConfigMap", "Secret", json());
        break;
      case 11:
        j.erase(*rc::gen::element<std::string>("apiVersion", "kind", "data", "immutable",
                                               "binaryData"));
        break;
      case 12:
        j["metadata"]["finalizers"] = json::array({"example.com/f"});
        break;
      case 13:
        // A blind update: the metadata a client writes from scratch.
        for (const char* kept : {"resourceVersion", "uid", "creationTimestamp", "namespace"}) {
          if (*rc::gen::inRange(0, 4) != 0) j["metadata"].erase(kept);
        }
        break;
      default:
        break;  // the stored object as it is
    }
  }
  return j;
}

// A random object to create: a ConfigMap the create fast path takes, changed in a few random
// ways that it takes or leaves to the general path.
json create_candidate() {
  json meta = {{"name", *rc::gen::element<std::string>("cm", "cm-2", "a.b")}};
  if (*rc::gen::arbitrary<bool>()) meta["namespace"] = "default";
  if (*rc::gen::arbitrary<bool>()) meta["uid"] = "00000000-0000-0000-0000-000000000001";
  if (*rc::gen::arbitrary<bool>()) meta["labels"] = {{"app", "bench"}, {"shard", "s1"}};
  json j = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}};
  if (*rc::gen::arbitrary<bool>()) j["data"] = {{"gen", "0"}, {"payload", "xyz"}};
  const int changes = *rc::gen::inRange(0, 3);
  for (int c = 0; c < changes; ++c) {
    json& m = j["metadata"];
    switch (*rc::gen::inRange(0, 9)) {
      case 0:
        m["name"] = *rc::gen::element<json>("", "CM", "a..b", std::string(254, 'n'), 5);
        break;
      case 1:
        m[*rc::gen::element<std::string>("namespace", "uid", "resourceVersion", "generation",
                                         "creationTimestamp", "annotations", "generateName",
                                         "finalizers", "other")] =
            *rc::gen::element<json>("", "0", "5", "other", 1, -1, "2024-01-01T00:00:00Z",
                                    "yesterday", json{{"a", "b"}},
                                    json::array({"example.com/f"}), json());
        break;
      case 2:
        if (!m["labels"].is_object()) m["labels"] = json::object();
        m["labels"][*rc::gen::element<std::string>("app", "example.com/x", "bad key", "-x")] =
            *rc::gen::element<std::string>("bench", "", "bad value", "-", "\u00e9");
        break;
      case 3:
        m["labels"] = json::object();
        break;
      case 4:
        j[*rc::gen::element<std::string>("apiVersion", "kind")] =
            *rc::gen::element<json>("v2", "Secret", json());
        break;
      case 5:
        j.erase(*rc::gen::element<std::string>("apiVersion", "kind", "metadata"));
        break;
      case 6:
        j[*rc::gen::element<std::string>("binaryData", "immutable", "extra", "status")] =
            *rc::gen::element<json>(true, json{{"k", "dg=="}}, json::object());
        break;
      case 7:
        if (!j["data"].is_object()) j["data"] = json::object();
        j["data"][*data_key()] = *data_value();
        break;
      default:
        j["data"] = *rc::gen::element<json>(json::object(), json(), "x");
        break;
    }
  }
  return j;
}

RC_GTEST_PROP(TextWritesProperty, CreatesAnswerAsTheGeneralPath, ()) {
  TextSide fast(true);
  TextSide general(false);
  const int steps = *rc::gen::inRange(1, 6);
  for (int step = 0; step < steps; ++step) {
    auto built = api::internal::object_from_json(create_candidate(), *rc::gen::element(
        api::internal::Layout::kTree, api::internal::Layout::kText));
    if (!built.ok()) continue;
    api::CreateOptions options;
    options.field_validation = *rc::gen::element(
        api::FieldValidation::kUnset, api::FieldValidation::kIgnore, api::FieldValidation::kWarn,
        api::FieldValidation::kStrict);
    const std::string ns =
        *rc::gen::element<std::string>("default", "default", "default", "missing", "Bad_NS");
    const auto a = fast.writes.create(kConfigMaps, ns, built.value(), options);
    const auto b = general.writes.create(kConfigMaps, ns, built.value(), options);
    RC_ASSERT(describe(a) == describe(b));
    RC_ASSERT(fast.writes.warnings() == general.writes.warnings());
    RC_ASSERT(fast.server.revision() == general.server.revision());
  }
  const auto listed_a = fast.server.list(kConfigMaps, "", {});
  const auto listed_b = general.server.list(kConfigMaps, "", {});
  RC_ASSERT(listed_a.ok() && listed_b.ok());
  RC_ASSERT(api::render_list_json(listed_a.value(), "v1", "ConfigMapList") ==
            api::render_list_json(listed_b.value(), "v1", "ConfigMapList"));
}

RC_GTEST_PROP(TextWritesProperty, UpdatesAnswerAsTheGeneralPath, ()) {
  TextSide fast(true);
  TextSide general(false);
  const json initial = testutil::config_map_json(
      "default", "cm", {{"gen", "0"}, {"payload", "xyz"}}, {{"app", "bench"}});
  for (TextSide* side : {&fast, &general}) {
    RC_ASSERT(side->server.create(kConfigMaps, "default", api::make_object(initial), {}).ok());
  }
  const int steps = *rc::gen::inRange(1, 12);
  for (int step = 0; step < steps; ++step) {
    api::ObjectPtr stored = fast.server.get(kConfigMaps, "default", "cm", {}).value();
    api::ObjectPtr object;
    const int form = *rc::gen::inRange(0, 3);
    if (form == 0) {
      // An edit of the stored object's text.
      object = stored->with_value_at("data." + *data_key(), *data_value());
    } else {
      auto built = api::internal::object_from_json(desired_from(stored->to_json()),
                                          form == 1 ? api::internal::Layout::kTree
                                                    : api::internal::Layout::kText);
      if (!built.ok()) continue;
      object = built.value();
    }
    api::UpdateOptions options;
    options.field_validation = *rc::gen::element(
        api::FieldValidation::kUnset, api::FieldValidation::kIgnore, api::FieldValidation::kWarn,
        api::FieldValidation::kStrict);
    update_both(fast, general, kConfigMaps, object, options);
    const auto now_a = fast.server.get(kConfigMaps, "default", "cm", {});
    const auto now_b = general.server.get(kConfigMaps, "default", "cm", {});
    RC_ASSERT(describe(now_a) == describe(now_b));
  }
}

// Leases: renewals change one spec string; everything else goes the general way.
RC_GTEST_PROP(TextWritesProperty, LeaseUpdatesAnswerAsTheGeneralPath, ()) {
  TextSide fast(true);
  TextSide general(false);
  json lease = {
      {"apiVersion", "coordination.k8s.io/v1"},
      {"kind", "Lease"},
      {"metadata", {{"name", "lock"}, {"namespace", "default"}}},
      {"spec",
       {{"holderIdentity", "a"},
        {"leaseDurationSeconds", 15},
        {"acquireTime", "2025-01-01T00:00:00.000000Z"},
        {"renewTime", "2025-01-01T00:00:00.000000Z"},
        {"leaseTransitions", 0}}}};
  if (*rc::gen::arbitrary<bool>()) {
    lease["spec"]["strategy"] = "OldestEmulationVersion";
    lease["spec"]["preferredHolder"] = "a";
  }
  for (TextSide* side : {&fast, &general}) {
    RC_ASSERT(side->server.create(testutil::kLeases, "default", api::make_object(lease), {}).ok());
  }
  // MicroTimes as the server writes them, and others it rewrites (an offset, the zero time) or
  // refuses (no fraction).
  const auto spec_value = rc::gen::element<json>(
      "b", "", "\u00e9", "2025-01-01T00:00:02.000000Z", "2025-01-01T01:00:02.000001+01:00",
      "0001-01-01T00:00:00.000000Z", "2025-01-01T00:00:02Z", "yesterday", 5, -1, 0, json(),
      json::object());
  const int steps = *rc::gen::inRange(1, 8);
  for (int step = 0; step < steps; ++step) {
    api::ObjectPtr stored = fast.server.get(testutil::kLeases, "default", "lock", {}).value();
    const std::string field = *rc::gen::element<std::string>(
        "holderIdentity", "renewTime", "acquireTime", "leaseDurationSeconds", "leaseTransitions",
        "preferredHolder", "strategy", "unknown");
    api::ObjectPtr object;
    if (*rc::gen::arbitrary<bool>()) {
      object = stored->with_value_at("spec." + field, *spec_value);
    } else {
      json j = stored->to_json();
      j["spec"][field] = *spec_value;
      if (*rc::gen::inRange(0, 4) == 0) j["metadata"].erase("resourceVersion");
      if (*rc::gen::inRange(0, 6) == 0) j["metadata"]["labels"] = {{"a", "b"}};
      auto built = api::internal::object_from_json(j, *rc::gen::element(api::internal::Layout::kTree,
                                                                api::internal::Layout::kText));
      if (!built.ok()) continue;
      object = built.value();
    }
    update_both(fast, general, testutil::kLeases, object);
  }
}

// Secrets: a data value changes, as base64 the decoder takes or not, in Secrets of several types.
RC_GTEST_PROP(TextWritesProperty, SecretUpdatesAnswerAsTheGeneralPath, ()) {
  TextSide fast(true);
  TextSide general(false);
  json secret = {{"apiVersion", "v1"},
                 {"kind", "Secret"},
                 {"metadata", {{"name", "s"}, {"namespace", "default"}}},
                 {"data", {{"a", "dg=="}, {"ssh-privatekey", "eA=="}}}};
  const json type = *rc::gen::element<json>(json(), "Opaque", "kubernetes.io/ssh-auth",
                                            "kubernetes.io/basic-auth", "example.com/x");
  if (!type.is_null()) secret["type"] = type;
  if (*rc::gen::inRange(0, 4) == 0) secret["immutable"] = *rc::gen::arbitrary<bool>();
  const auto created_a = fast.writes.create(testutil::kSecrets, "default", api::make_object(secret), {});
  const auto created_b =
      general.writes.create(testutil::kSecrets, "default", api::make_object(secret), {});
  RC_ASSERT(describe(created_a) == describe(created_b));
  if (!created_a.ok()) return;  // a type whose keys this data lacks
  const auto data_value = rc::gen::element<json>("dg==", "eHl6", "", "AAAA", "dg=", "d g==",
                                                 "dg\n==", "====", "a===", "dg==dg==", 5);
  const int steps = *rc::gen::inRange(1, 6);
  for (int step = 0; step < steps; ++step) {
    api::ObjectPtr stored = fast.server.get(testutil::kSecrets, "default", "s", {}).value();
    const std::string key = *rc::gen::element<std::string>("a", "ssh-privatekey", "new");
    api::ObjectPtr object;
    if (*rc::gen::inRange(0, 3) != 0) {
      object = stored->with_value_at("data." + key, *data_value);
    } else {
      json j = stored->to_json();
      j["data"][key] = *data_value;
      j[*rc::gen::element<std::string>("stringData", "type", "immutable")] =
          *rc::gen::element<json>(json{{"a", "x"}}, "Opaque", true, json());
      auto built = api::internal::object_from_json(j, *rc::gen::element(api::internal::Layout::kTree,
                                                                api::internal::Layout::kText));
      if (!built.ok()) continue;
      object = built.value();
    }
    update_both(fast, general, testutil::kSecrets, object);
  }
}

// In the tables below: what names a case and its layout, and the check that both servers
// answered alike.
std::string case_name(const std::string& name, api::internal::Layout layout) {
  return name + (layout == api::internal::Layout::kTree ? " (tree)" : "");
}

void expect_text_alike(TextSide& fast, TextSide& general, const api::Result<api::ObjectPtr>& a,
                  const api::Result<api::ObjectPtr>& b) {
  EXPECT_EQ(describe(a), describe(b));
  EXPECT_EQ(fast.writes.warnings(), general.writes.warnings());
}

// Updates chosen to sit on each of the fast path's edges; both paths answer each alike.
TEST(TextWritesTest, EdgesAnswerAsTheGeneralPath) {
  struct Case {
    const char* name;
    json stored_extra;  // members the stored object has besides data
    std::function<void(json&)> edit;
  };
  const std::string big(700 * 1024, 'x');
  const std::vector<Case> cases = {
      {"immutable dropped", {{"immutable", true}},
       [](json& j) { j.erase("immutable"); j["data"]["gen"] = "2"; }},
      {"immutable kept", {{"immutable", true}}, [](json& j) { j["data"]["gen"] = "2"; }},
      {"immutable false", {{"immutable", false}}, [](json& j) { j["data"]["gen"] = "2"; }},
      {"binaryData duplicate", {}, [](json& j) { j["binaryData"] = {{"gen", "dg=="}}; }},
      {"data emptied", {}, [](json& j) { j["data"] = json::object(); }},
      {"data removed", {}, [](json& j) { j.erase("data"); }},
      {"member before data", {}, [](json& j) { j["dat"] = "x"; }},
      {"no resourceVersion", {}, [](json& j) { j["metadata"].erase("resourceVersion"); j["data"]["gen"] = "2"; }},
      {"system fields left out", {},
       [](json& j) {
         for (const char* f : {"resourceVersion", "uid", "creationTimestamp", "namespace"}) {
           j["metadata"].erase(f);
         }
         j["data"]["gen"] = "2";
       }},
      {"labels left out", {}, [](json& j) { j["metadata"].erase("labels"); j["data"]["gen"] = "2"; }},
      {"stale resourceVersion", {}, [](json& j) { j["metadata"]["resourceVersion"] = "1"; j["data"]["gen"] = "2"; }},
      {"too large", {}, [&](json& j) { j["data"]["a"] = big; j["data"]["b"] = big; }},
      {"value grows past the limit", {{"data", {{"gen", "0"}, {"a", big}}}},
       [&](json& j) { j["data"]["gen"] = big; }},
      {"value changes beside a large one", {{"data", {{"gen", "0"}, {"a", big}}}},
       [&](json& j) { j["data"]["gen"] = "1"; }},
      {"bad key", {}, [](json& j) { j["data"]["..x"] = "v"; }},
      {"escaped value", {}, [](json& j) { j["data"]["gen"] = "tab\there \u00e9"; }},
      {"labels changed", {}, [](json& j) { j["metadata"]["labels"]["app"] = "other"; }},
      {"unknown member", {}, [](json& j) { j["spec"] = {{"x", 1}}; }},
      {"null value", {}, [](json& j) { j["data"]["gen"] = nullptr; }},
      // A string whose bytes are the stored text of the members after it, or its escapes.
      {"string holding the next member", {{"data", {{"a", "1"}, {"b", "2"}}}},
       [](json& j) { j["data"] = {{"a", "1\",\"b\":\"2"}}; }},
      {"backslash doubled", {{"data", {{"a", "x\\"}}}}, [](json& j) { j["data"]["a"] = "x\\\\"; }},
      {"quote unescaped", {{"data", {{"a", "x\"y"}}}}, [](json& j) { j["data"]["a"] = "x\\\"y"; }},
      {"same escaped value", {{"data", {{"a", "x\ny"}, {"gen", "0"}}}},
       [](json& j) { j["data"]["gen"] = "1"; }},
      // Invalid UTF-8 is written replaced (U+FFFD): the same text as the stored value's.
      {"invalid UTF-8 written as stored", {{"data", {{"a", "x\xEF\xBF\xBD"}}}},
       [](json& j) { j["data"]["a"] = "x\xFF"; }},
      {"invalid UTF-8 written anew", {{"data", {{"a", "x"}}}},
       [](json& j) { j["data"]["a"] = "y\xFF"; }},
  };
  // Each layout starts from a fresh pair of servers: the first update would leave nothing to
  // change for the second.
  for (const Case& c : cases) {
    for (const auto layout : {api::internal::Layout::kText, api::internal::Layout::kTree}) {
      SCOPED_TRACE(case_name(c.name, layout));
      TextSide fast(true);
      TextSide general(false);
      json initial = testutil::config_map_json("default", "cm", {{"gen", "0"}}, {{"app", "x"}});
      if (c.stored_extra.is_object()) initial.update(c.stored_extra);
      for (TextSide* side : {&fast, &general}) {
        ASSERT_TRUE(
            side->server.create(kConfigMaps, "default", api::make_object(initial), {}).ok());
      }
      json desired = fast.server.get(kConfigMaps, "default", "cm", {}).value()->to_json();
      c.edit(desired);
      const api::ObjectPtr object = api::internal::make_object(desired, layout);
      const auto a = fast.writes.update(kConfigMaps, "default", object, {});
      const auto b = general.writes.update(kConfigMaps, "default", object, {});
      expect_text_alike(fast, general, a, b);
    }
  }
}

// Creates chosen to sit on the create fast path's edges, in both layouts.
TEST(TextWritesTest, CreateEdgesAnswerAsTheGeneralPath) {
  const std::string big(600 * 1024, 'x');
  const std::vector<std::pair<const char*, std::function<void(json&)>>> cases = {
      {"plain", [](json&) {}},
      {"bad data key", [](json& j) { j["data"]["..x"] = "v"; }},
      {"data too large", [&](json& j) { j["data"]["a"] = big; j["data"]["b"] = big; }},
      {"bad name", [](json& j) { j["metadata"]["name"] = "Bad_Name"; }},
      {"bad label key", [](json& j) { j["metadata"]["labels"]["bad key"] = "v"; }},
      {"bad label value", [](json& j) { j["metadata"]["labels"]["app"] = "bad value"; }},
      {"other namespace", [](json& j) { j["metadata"]["namespace"] = "other"; }},
      {"annotations", [](json& j) { j["metadata"]["annotations"] = {{"a", "b"}}; }},
      {"generateName", [](json& j) { j["metadata"]["generateName"] = "cm-"; }},
      {"non-string data", [](json& j) { j["data"]["gen"] = 5; }},
      {"extra member", [](json& j) { j["extra"] = 1; }},
      {"apiVersion v2", [](json& j) { j["apiVersion"] = "v2"; }},
  };
  for (const auto& [name, edit] : cases) {
    for (const auto layout : {api::internal::Layout::kTree, api::internal::Layout::kText}) {
      SCOPED_TRACE(case_name(name, layout));
      TextSide fast(true);
      TextSide general(false);
      json j = testutil::config_map_json("default", "cm", {{"gen", "0"}}, {{"app", "x"}});
      edit(j);
      const api::ObjectPtr object = api::internal::make_object(j, layout);
      const auto a = fast.writes.create(kConfigMaps, "default", object, {});
      const auto b = general.writes.create(kConfigMaps, "default", object, {});
      expect_text_alike(fast, general, a, b);
    }
  }
}

// The fast path's writes are ordinary writes: a watcher sees them, with the new resourceVersion.
TEST(TextWritesTest, WritesAreWatchedAndVersioned) {
  sim::Loop loop;
  ApiServer server(loop);
  const auto created =
      server.create(kConfigMaps, "default", testutil::config_map("default", "cm", {{"gen", "0"}}),
                    {}).value();
  api::ListOptions from;
  from.resource_version = std::string(created->resource_version());
  testutil::EventLog log(loop, server.watch(kConfigMaps, "default", from).value());
  const auto updated =
      server.update(kConfigMaps, "default", created->with_value_at("data.gen", "1"), {}).value();
  EXPECT_EQ(updated->value_at("data.gen"), "1");
  EXPECT_EQ(updated->resource_version(), std::to_string(server.revision()));
  EXPECT_NE(updated->resource_version(), created->resource_version());
  EXPECT_EQ(updated->uid(), created->uid());
  // Unchanged: no write.
  const auto same = server.update(kConfigMaps, "default", updated, {}).value();
  EXPECT_EQ(same, updated);
  // A stale resourceVersion is a conflict.
  const auto stale = server.update(kConfigMaps, "default", created->with_value_at("data.gen", "2"), {});
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.status().code, 409);
  testutil::settle(loop);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].type, api::EventType::kModified);
  EXPECT_EQ(log[0].object, updated);
}

}  // namespace
}  // namespace kubesim::fakeapi
