// The pure parts of the front end: query strings, paths, booleans, YAML, token files, the
// kubeconfig, /version and manifests.
#include "fakeapi/http/internal/request.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "kubesim/fakeapi/http/auth.h"
#include "fakeapi/http/internal/dispatch.h"
#include "kubesim/fakeapi/http/kubeconfig.h"
#include "kubesim/fakeapi/http/manifests.h"
#include "kubesim/api/yaml.h"

namespace kubesim::fakeapi::http::internal {
namespace {

using nlohmann::json;
using api::yaml_documents_to_json;
using api::yaml_to_json;

TEST(QueryTest, FormDecodingAndFirstValueWins) {
  auto q = parse_query("labelSelector=watch-this+in+%28a%2Cb%29&x=1&x=2&flag");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(*q->get("labelSelector"), "watch-this in (a,b)");
  EXPECT_EQ(*q->get("x"), "1");
  EXPECT_EQ(*q->get("flag"), "");
  EXPECT_EQ(q->get("nope"), nullptr);
  EXPECT_FALSE(parse_query("a=%2").ok());
  EXPECT_FALSE(parse_query("a=%g0").ok());
}

TEST(QueryTest, BooleansAsApimachineryConvertsThem) {
  for (const char* t : {"true", "True", "1", "yes", ""}) EXPECT_TRUE(query_bool(t)) << t;
  for (const char* f : {"false", "False", "FALSE", "0"}) EXPECT_FALSE(query_bool(f)) << f;
}

TEST(RouteTest, KubernetesPaths) {
  auto r = parse_route("/api/v1/namespaces/ns1/configmaps/cm/status").value();
  EXPECT_EQ(r.kind, Route::Kind::kResource);
  EXPECT_EQ(r.ns, "ns1");
  EXPECT_EQ(r.resource, "configmaps");
  EXPECT_EQ(r.name, "cm");
  EXPECT_EQ(r.subresource, "status");
  auto ns = parse_route("/api/v1/namespaces/ns1").value();
  EXPECT_EQ(ns.resource, "namespaces");
  EXPECT_EQ(ns.name, "ns1");
  EXPECT_EQ(ns.ns, "");
  auto ns_status = parse_route("/api/v1/namespaces/ns1/status").value();
  EXPECT_EQ(ns_status.resource, "namespaces");
  EXPECT_EQ(ns_status.subresource, "status");
  auto group = parse_route("/apis/apps/v1/deployments").value();
  EXPECT_EQ(group.group, "apps");
  EXPECT_EQ(group.resource, "deployments");
  EXPECT_TRUE(parse_route("/apis/apps/v1/watch/namespaces/a/deployments").value().watch_prefix);
  EXPECT_EQ(parse_route("/apis").value().kind, Route::Kind::kGroupList);
  EXPECT_EQ(parse_route("/apis/apps/v1/").value().kind, Route::Kind::kResourceList);
  EXPECT_EQ(parse_route("/openapi/v3/apis/apps/v1").value().kind, Route::Kind::kOpenApiV3);
  EXPECT_EQ(parse_route("/kubesim/v1/faults/x").value().admin, "faults/x");
  EXPECT_EQ(parse_route("/elsewhere").value().kind, Route::Kind::kNotFound);
  EXPECT_FALSE(parse_route("/api/v1/%zz").ok());
}

// A stray flow indicator: yaml-cpp 0.7's LoadAll would read the same empty document forever.
TEST(YamlTest, AStrayCommaIsAnErrorNotAHang) {
  for (const char* text : {",", ",\n", "a: 1\n---\n,\n", "]", "}"}) {
    auto bad = yaml_documents_to_json(text);
    ASSERT_FALSE(bad.ok()) << text;
    EXPECT_EQ(bad.status().code, 400) << text;
    EXPECT_NE(bad.status().message.find("line"), std::string::npos) << bad.status().message;
  }
  const api::YamlScan scan = api::scan_yaml_documents("a: 1\n---\nb: [2]\n");
  ASSERT_EQ(scan.roots.size(), 2u);
  EXPECT_EQ(scan.roots[1].line, 2);
  EXPECT_FALSE(scan.stalled_at);
  EXPECT_FALSE(scan.error);
  EXPECT_EQ(api::scan_yaml_documents("a: 1\n---\nb: 2\n---\nc: 3\n", 2).roots.size(), 2u);
}

TEST(YamlTest, ScalarsResolveAsGoYamlV2Does) {
  auto j = yaml_to_json(
      "s: '1'\nq: \"true\"\ni: 42\nneg: -7\nh: 0x1f\no: 0755\nf: 1.5\ne: 1e3\nb: yes\noff: off\nnul: ~\n"
      "empty:\nstr: hello\nver: 1.2.3\nlist: [a, 2]\n");
  ASSERT_TRUE(j.ok()) << j.status();
  const json expect = json::parse(R"({"s":"1","q":"true","i":42,"neg":-7,"h":31,"o":493,"f":1.5,"e":1000.0,
    "b":true,"false":false,"nul":null,"empty":null,"str":"hello","ver":"1.2.3","list":["a",2]})");
  EXPECT_EQ(j.value(), expect);
  auto docs = yaml_documents_to_json("a: 1\n---\n---\nb: 2\n");
  ASSERT_TRUE(docs.ok());
  EXPECT_EQ(docs->size(), 2u);
  auto bad = yaml_to_json("a: [1,\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code, 400);
  EXPECT_NE(bad.status().message.find("line"), std::string::npos);
}

TEST(TokenFileTest, KubeApiserverFormat) {
  auto t = parse_token_file("tok1,alice,uid1,\"dev,ops\"\n\n,skipped,x\ntok2,bob,uid2\r\n");
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->size(), 2u);
  EXPECT_EQ(t->at("tok1").name, "alice");
  EXPECT_EQ(t->at("tok1").groups, (std::vector<std::string>{"dev", "ops"}));
  EXPECT_TRUE(t->at("tok2").groups.empty());
  auto short_line = parse_token_file("tok,alice\n");
  ASSERT_FALSE(short_line.ok());
  EXPECT_NE(short_line.status().message.find("line 1"), std::string::npos);
  EXPECT_FALSE(parse_token_file("tok,alice,uid,\"unterminated\n").ok());
  EXPECT_EQ(bearer_token("Bearer abc"), "abc");
  EXPECT_EQ(bearer_token("bearer  abc "), "abc");
  EXPECT_EQ(bearer_token("Basic abc"), "");
  EXPECT_EQ(bearer_token("Bearer a b"), "");
}

TEST(KubeconfigTest, RendersAYamlDocumentClientsRead) {
  KubeconfigSpec spec;
  spec.server = "https://127.0.0.1:6443";
  spec.ca_pem = "CA";
  spec.token = "t\"ok";
  auto j = yaml_to_json(render_kubeconfig(spec));
  ASSERT_TRUE(j.ok()) << j.status();
  EXPECT_EQ(j.value()["current-context"], "kubesim");
  EXPECT_EQ(j.value()["clusters"][0]["cluster"]["server"], "https://127.0.0.1:6443");
  EXPECT_EQ(j.value()["clusters"][0]["cluster"]["certificate-authority-data"], "Q0E=");
  EXPECT_EQ(j.value()["users"][0]["user"]["token"], "t\"ok");
}

TEST(VersionTest, MinorFromGitVersion) {
  auto v = version_json("v1.31.9");
  ASSERT_TRUE(v);
  EXPECT_EQ(json::parse(*v)["minor"], "31");
  EXPECT_FALSE(version_json("1.31"));
  EXPECT_FALSE(version_json("vX.1"));
}

TEST(ManifestsTest, DirectoriesMultiDocumentAndLists) {
  const auto dir = std::filesystem::temp_directory_path() / ("kubesim-manifests-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "b.yaml") << "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n---\n"
                                   "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n";
  std::ofstream(dir / "a.json") << R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}})";
  std::ofstream(dir / "ignored.txt") << "not a manifest";
  auto read = read_manifests(dir.string());
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 3u);
  EXPECT_EQ(read->at(0).object["kind"], "Namespace");
  EXPECT_EQ(read->at(2).object["metadata"]["name"], "c");
  std::ofstream(dir / "c.yaml") << "apiVersion: v1\nkind: Gizmo\nmetadata: {name: g}\n";
  auto with_unknown = read_manifests(dir.string());
  ASSERT_TRUE(with_unknown.ok());
  sim::Loop loop;
  ApiServer server(loop);
  auto created = create_manifests(server, with_unknown.value());
  ASSERT_FALSE(created.ok());
  EXPECT_NE(created.status().message.find("c.yaml: document 1"), std::string::npos) << created.status();
  EXPECT_FALSE(read_manifests((dir / "missing").string()).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kubesim::fakeapi::http::internal
