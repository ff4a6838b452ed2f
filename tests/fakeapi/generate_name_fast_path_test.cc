// The create fast path on generateName creates (fakeapi/internal/fastpath/text_create.h)
// answers exactly as the general path: two servers on loops with the same seed, one with the fast
// paths and one without, get the same creates and must give the same answers (stored text or the
// whole Status), warnings and revisions, and draw the same names — also when drawn names are
// taken and drawn again, up to the AlreadyExists after the last attempt.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "api/internal/object_access.h"
#include "fakeapi/internal/fastpath/fast_paths.h"
#include "fakeapi/internal/fastpath/text_create.h"
#include "fakeapi/internal/server_util.h"
#include "kubesim/fakeapi/server.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace generate_name_fast_path_test {

using nlohmann::json;
using testutil::kConfigMaps;
using testutil::kNamespaces;
using Layout = api::internal::Layout;

struct Side {
  explicit Side(bool fast_paths) : server(loop) {
    internal::FastPaths::set_enabled(server, fast_paths);
  }
  sim::Loop loop;
  ApiServer server;
  testutil::WarnedWrites writes{server};
};

// The stored text of a created object, or the whole Status of a refusal.
std::string answer(const api::Result<api::ObjectPtr>& r) {
  return r.ok() ? "object " + std::string(r.value()->serialized())
                : "error " + r.status().to_json_string();
}

// The benchmark workload's object: a ConfigMap with only a generateName, a namespace and data.
json workload_object() {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"generateName", "w-"}, {"namespace", "default"}}},
          {"data", {{"count", "1"}}}};
}

std::string layout_name(Layout layout) { return layout == Layout::kTree ? "tree" : "text"; }

// A namespace "ending" that is terminating: a ConfigMap with a finalizer holds it (the loop does
// not run, so the namespace's content is not even looked at).
void add_terminating_namespace(ApiServer& server) {
  ASSERT_TRUE(server.create(kNamespaces, "", testutil::namespace_object("ending"), {}).ok());
  json held = testutil::config_map_json("ending", "held");
  held["metadata"]["finalizers"] = {"example.com/hold"};
  ASSERT_TRUE(server.create(kConfigMaps, "ending", api::make_object(held), {}).ok());
  ASSERT_TRUE(server.delete_(kNamespaces, "", "ending", {}).ok());
}

// Sends the same create to both servers: the answers, warnings and revisions must agree.
void expect_alike(Side& fast, Side& general, std::string_view ns, const api::ObjectPtr& object) {
  const auto a = fast.writes.create(kConfigMaps, ns, object, {});
  const auto b = general.writes.create(kConfigMaps, ns, object, {});
  EXPECT_EQ(answer(a), answer(b));
  EXPECT_EQ(fast.writes.warnings(), general.writes.warnings());
  EXPECT_EQ(fast.server.revision(), general.server.revision());
}

TEST(GenerateNameFastPathTest, CreatesAnswerAsTheGeneralPath) {
  const std::string long_prefix(70, 'a');
  const std::vector<std::pair<const char*, std::function<void(json&)>>> cases = {
      {"plain", [](json&) {}},
      {"no data", [](json& j) { j.erase("data"); }},
      {"labels", [](json& j) { j["metadata"]["labels"] = {{"app", "x"}, {"example.com/y", "z"}}; }},
      {"uid", [](json& j) { j["metadata"]["uid"] = "00000000-0000-0000-0000-000000000001"; }},
      {"no namespace", [](json& j) { j["metadata"].erase("namespace"); }},
      {"prefix cut to 58", [&](json& j) { j["metadata"]["generateName"] = long_prefix; }},
      {"prefix cut at a dash",
       [](json& j) { j["metadata"]["generateName"] = std::string(57, 'a') + "-x.y"; }},
      {"prefix with a dot", [](json& j) { j["metadata"]["generateName"] = "a.b-"; }},
      {"prefix without a dash", [](json& j) { j["metadata"]["generateName"] = "w"; }},
      {"name and generateName", [](json& j) { j["metadata"]["name"] = "given"; }},
      {"empty name", [](json& j) { j["metadata"]["name"] = ""; }},
      {"empty generateName", [](json& j) { j["metadata"]["generateName"] = ""; }},
      {"upper-case prefix", [](json& j) { j["metadata"]["generateName"] = "W-"; }},
      {"prefix starting with a dash", [](json& j) { j["metadata"]["generateName"] = "-w"; }},
      {"prefix with an underscore", [](json& j) { j["metadata"]["generateName"] = "w_"; }},
      {"prefix too long for a name",
       [](json& j) { j["metadata"]["generateName"] = std::string(300, 'a'); }},
      {"non-string prefix", [](json& j) { j["metadata"]["generateName"] = 5; }},
      {"resourceVersion", [](json& j) { j["metadata"]["resourceVersion"] = "5"; }},
      {"other namespace", [](json& j) { j["metadata"]["namespace"] = "other"; }},
      {"annotations", [](json& j) { j["metadata"]["annotations"] = {{"a", "b"}}; }},
      {"finalizers", [](json& j) { j["metadata"]["finalizers"] = {"example.com/f"}; }},
      {"bad label", [](json& j) { j["metadata"]["labels"] = {{"bad key", "v"}}; }},
      {"bad data key", [](json& j) { j["data"]["..x"] = "v"; }},
      {"non-string data", [](json& j) { j["data"]["count"] = 5; }},
      {"binaryData", [](json& j) { j["binaryData"] = {{"k", "dg=="}}; }},
      {"status", [](json& j) { j["status"] = {{"a", "b"}}; }},
  };
  for (const auto& [name, edit] : cases) {
    for (const Layout layout : {Layout::kTree, Layout::kText}) {
      for (const std::string ns : {"default", "missing", "Bad_NS", "ending"}) {
        SCOPED_TRACE(std::string(name) + ", " + layout_name(layout) + ", namespace " + ns);
        Side fast(true);
        Side general(false);
        add_terminating_namespace(fast.server);
        add_terminating_namespace(general.server);
        json j = workload_object();
        if (ns != "default" && j["metadata"].contains("namespace")) j["metadata"]["namespace"] = ns;
        edit(j);
        auto object = api::internal::object_from_json(j, layout);
        if (!object.ok()) continue;  // not an object the API takes at all
        // Three creates, so that a draw out of step would show in the later names and uids.
        for (int i = 0; i < 3; ++i) expect_alike(fast, general, ns, object.value());
        const auto listed_a = fast.server.list(kConfigMaps, "", {});
        const auto listed_b = general.server.list(kConfigMaps, "", {});
        ASSERT_TRUE(listed_a.ok() && listed_b.ok());
        EXPECT_EQ(api::render_list_json(listed_a.value(), "v1", "ConfigMapList"),
                  api::render_list_json(listed_b.value(), "v1", "ConfigMapList"));
      }
    }
  }
}

// The workload's object is the fast path's, in both layouts; a prefix whose names the checks
// refuse is not.
TEST(GenerateNameFastPathTest, ThePlanTakesValidPrefixesOnly) {
  sim::Loop loop;
  ApiServer server(loop);
  const ResourceInfo* info = server.registry().find(kConfigMaps);
  ASSERT_NE(info, nullptr);
  for (const Layout layout : {Layout::kTree, Layout::kText}) {
    SCOPED_TRACE(layout_name(layout));
    const api::ObjectPtr object = api::internal::make_object(workload_object(), layout);
    const auto plan = internal::plan_text_create(*info, *object, "default");
    ASSERT_TRUE(plan.has_value());
    EXPECT_EQ(plan->generate_name, "w-");
    EXPECT_EQ(plan->name, "");
    const std::vector<std::string> refused = {"W-", "-w", "w_", std::string(300, 'a')};
    for (const std::string& prefix : refused) {
      json j = workload_object();
      j["metadata"]["generateName"] = prefix;
      EXPECT_FALSE(internal::plan_text_create(*info, *api::internal::make_object(j, layout),
                                              "default")
                       .has_value())
          << prefix;
    }
  }
}

// The names a server on a loop in the rng state `rng` draws for the prefix "w-" after `creates`
// named creates (each draws a uid: two 64-bit numbers).
std::vector<std::string> names_drawn(sim::Rng rng, int creates, int count) {
  for (int i = 0; i < 2 * creates; ++i) rng.next_u64();
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back(internal::generated_name("w-", &rng));
  return names;
}

// The first `taken` names the next generateName create would draw are taken (the last of them
// by an object being deleted when `deleting`): the create draws again, as the general path does,
// and after 8 taken names answers AlreadyExists for the 8th, as kube-apiserver does when it cannot
// generate a unique name (retry after 1 s).
TEST(GenerateNameFastPathTest, TakenNamesAreDrawnAgainAsTheGeneralPathDraws) {
  for (const int taken : {1, 2, 7, 8}) {
    for (const bool deleting : {false, true}) {
      for (const Layout layout : {Layout::kTree, Layout::kText}) {
        SCOPED_TRACE(std::to_string(taken) + " taken" + (deleting ? ", deleting" : "") + ", " +
                     layout_name(layout));
        Side fast(true);
        Side general(false);
        const std::vector<std::string> names = names_drawn(fast.loop.rng(), taken, taken + 1);
        for (Side* side : {&fast, &general}) {
          for (int i = 0; i < taken; ++i) {
            json held = testutil::config_map_json("default", names[i]);
            if (deleting && i == taken - 1) held["metadata"]["finalizers"] = {"example.com/hold"};
            const auto made = side->server.create(kConfigMaps, "default", api::make_object(held), {});
            ASSERT_TRUE(made.ok());
          }
          if (deleting) {
            ASSERT_TRUE(side->server.delete_(kConfigMaps, "default", names[taken - 1], {}).ok());
          }
        }
        const api::ObjectPtr object = api::internal::make_object(workload_object(), layout);
        const auto a = fast.writes.create(kConfigMaps, "default", object, {});
        const auto b = general.writes.create(kConfigMaps, "default", object, {});
        EXPECT_EQ(answer(a), answer(b));
        EXPECT_EQ(fast.server.revision(), general.server.revision());
        if (taken < 8) {
          ASSERT_TRUE(a.ok()) << a.status();
          EXPECT_EQ(a.value()->name(), names[taken]);
          EXPECT_EQ(a.value()->generate_name(), "w-");
        } else {
          ASSERT_FALSE(a.ok());
          EXPECT_TRUE(api::is_already_exists(a.status()));
          EXPECT_EQ(a.status().message, std::string(deleting ? "object is being deleted: " : "") +
                                            "configmaps \"" + names[7] +
                                            "\" already exists, the server was not able to generate a "
                                            "unique name for the object");
          ASSERT_TRUE(a.status().details.has_value());
          EXPECT_EQ(a.status().details->retry_after_seconds, 1);
        }
        // The generators are still in step: the next create draws the same in both.
        expect_alike(fast, general, "default", object);
      }
    }
  }
}

}  // namespace generate_name_fast_path_test
}  // namespace kubesim::fakeapi
