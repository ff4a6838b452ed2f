// Bad input over the wire: each gets its proper status, the store does not change, and the
// server goes on serving (the next request on a fresh connection succeeds).
#include "kubesim/fakeapi/http/http_server.h"

#include <gtest/gtest.h>

#include "tests/fakeapi_http/test_client.h"

namespace kubesim::fakeapi::http::testing {
namespace {

const std::string kAuth = std::string("Authorization: Bearer ") + kToken + "\r\n";

struct Case {
  const char* name;
  const char* method;
  std::string target;
  std::string body;
  std::map<std::string, std::string> headers;
  int code;
  const char* reason;
};

class HttpBadInputTest : public ::testing::Test {
 protected:
  void expect_unchanged_and_serving() {
    EXPECT_EQ(server_.revision(), before_);
    Client fresh(server_.port());
    EXPECT_EQ(fresh.get(kCms).code, 200);
  }
  TestServer server_;
  std::int64_t before_ = server_.revision();
};

TEST_F(HttpBadInputTest, RequestsThatParseButAreWrong) {
  const std::string cm = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}})";
  const std::vector<Case> cases = {
      {"malformed json", "POST", kCms, "{\"apiVersion\":", {{"content-type", "application/json"}}, 400, "BadRequest"},
      {"json array", "POST", kCms, "[1,2]", {{"content-type", "application/json"}}, 400, "BadRequest"},
      {"malformed yaml", "POST", kCms, "a: [b\n", {{"content-type", "application/yaml"}}, 400, "BadRequest"},
      {"yaml list", "POST", kCms, "- a\n- b\n", {{"content-type", "application/yaml"}}, 400, "BadRequest"},
      {"two yaml documents", "POST", kCms, "a: 1\n---\nb: 2\n", {{"content-type", "application/yaml"}}, 400, "BadRequest"},
      {"unknown body type", "POST", kCms, cm, {{"content-type", "text/plain"}}, 415, "UnsupportedMediaType"},
      {"garbage protobuf", "POST", kCms, std::string("k8s\0garbage", 11),
       {{"content-type", "application/vnd.kubernetes.protobuf"}}, 400, "BadRequest"},
      {"unknown patch type", "PATCH", std::string(kCms) + "/x", "{}", {{"content-type", "application/json"}}, 415, "UnsupportedMediaType"},
      {"unknown path", "GET", "/nonsense/path", "", {}, 404, "NotFound"},
      {"unknown resource", "GET", "/api/v1/namespaces/default/gizmos", "", {}, 404, "NotFound"},
      {"unknown group", "GET", "/apis/nope.io/v1/things", "", {}, 404, "NotFound"},
      {"too deep path", "GET", std::string(kCms) + "/x/status/extra", "", {}, 404, "NotFound"},
      {"unknown verb", "FOO", kCms, "", {}, 405, "MethodNotAllowed"},
      {"post to a name", "POST", std::string(kCms) + "/x", cm, {{"content-type", "application/json"}}, 405, "MethodNotAllowed"},
      {"put without name", "PUT", kCms, cm, {{"content-type", "application/json"}}, 405, "MethodNotAllowed"},
      {"delete on discovery", "DELETE", "/api/v1", "", {}, 405, "MethodNotAllowed"},
      {"bad limit", "GET", std::string(kCms) + "?limit=abc", "", {}, 400, "BadRequest"},
      {"bad timeoutSeconds", "GET", std::string(kCms) + "?watch=true&timeoutSeconds=1x", "", {}, 400, "BadRequest"},
      {"bad escape", "GET", std::string(kCms) + "?labelSelector=%zz", "", {}, 400, "BadRequest"},
      {"bad label selector", "GET", std::string(kCms) + "?labelSelector=a%20in%20(", "", {}, 400, "BadRequest"},
      {"bad field selector", "GET", std::string(kCms) + "?fieldSelector=spec.nope%3D1", "", {}, 400, "BadRequest"},
      {"bad resourceVersion", "GET", std::string(kCms) + "?resourceVersion=abc&resourceVersionMatch=Exact", "", {}, 400, "BadRequest"},
      {"bad resourceVersionMatch", "GET", std::string(kCms) + "?resourceVersionMatch=Sometimes", "", {}, 422, "Invalid"},
      {"bad dryRun", "POST", std::string(kCms) + "?dryRun=Some", cm, {{"content-type", "application/json"}}, 422, "Invalid"},
      {"bad fieldValidation", "POST", std::string(kCms) + "?fieldValidation=Loose", cm, {{"content-type", "application/json"}}, 422, "Invalid"},
      {"bad propagationPolicy", "DELETE", std::string(kCms) + "/x?propagationPolicy=Sideways", "", {}, 422, "Invalid"},
      {"bad delete body", "DELETE", std::string(kCms) + "/x", "{\"gracePeriodSeconds\":\"soon\"}", {{"content-type", "application/json"}}, 400, "BadRequest"},
      {"protobuf only accept", "GET", kCms, "", {{"accept", "application/vnd.kubernetes.protobuf"}}, 406, "NotAcceptable"},
      {"bad admin rule", "POST", "/kubesim/v1/faults", "{\"kind\":\"explode\"}", {{"content-type", "application/json"}}, 400, "BadRequest"},
      {"invalid object", "POST", kCms, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"Not_Valid"}})",
       {{"content-type", "application/json"}}, 422, "Invalid"},
  };
  Client c(server_.port());
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    Response r = c.request(k.method, k.target, k.body, k.headers);
    EXPECT_EQ(r.code, k.code) << r.body;
    EXPECT_EQ(r.header("content-type"), "application/json");
    EXPECT_EQ(r.json().value("reason", ""), k.reason) << r.body;
    EXPECT_EQ(r.json().value("kind", ""), "Status");
  }
  EXPECT_TRUE(c.open());  // none of these closed the connection
  expect_unchanged_and_serving();
}

TEST_F(HttpBadInputTest, MalformedHttpGets400AndTheConnectionCloses) {
  Client c(server_.port());
  const std::string answer = c.raw("THIS IS NOT HTTP\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 400", 0), 0u) << answer;
  EXPECT_NE(answer.find("\"kind\":\"Status\""), std::string::npos);
  Client c2(server_.port());
  const std::string bad_length = c2.raw("POST " + std::string(kCms) + " HTTP/1.1\r\nHost: x\r\n" + kAuth +
                                        "Content-Length: nope\r\n\r\n");
  EXPECT_EQ(bad_length.rfind("HTTP/1.1 400", 0), 0u) << bad_length;
  expect_unchanged_and_serving();
}

TEST_F(HttpBadInputTest, OversizeBodyGets413BeforeItIsRead) {
  Client c(server_.port());
  const std::string answer = c.raw("POST " + std::string(kCms) + " HTTP/1.1\r\nHost: x\r\n" + kAuth +
                                   "Content-Type: application/json\r\nContent-Length: 3145729\r\n\r\n{");
  EXPECT_EQ(answer.rfind("HTTP/1.1 413", 0), 0u) << answer;
  EXPECT_NE(answer.find("RequestEntityTooLarge"), std::string::npos);
  // A chunked body that grows past the limit is cut off the same way.
  Client chunked(server_.port());
  std::string big(1 << 20, 'x');
  char size[16];
  std::snprintf(size, sizeof size, "%zx\r\n", big.size());
  std::string req = "POST " + std::string(kCms) + " HTTP/1.1\r\nHost: x\r\n" + kAuth +
                    "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 4; ++i) req += size + big + "\r\n";
  EXPECT_EQ(chunked.raw(req).rfind("HTTP/1.1 413", 0), 0u);
  expect_unchanged_and_serving();
}

TEST_F(HttpBadInputTest, OversizeHeaderGets431) {
  Client c(server_.port());
  const std::string answer = c.raw("GET " + std::string(kCms) + " HTTP/1.1\r\nHost: x\r\n" + kAuth +
                                   "X-Big: " + std::string(2 << 20, 'a') + "\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 431", 0), 0u) << answer.substr(0, 200);
  expect_unchanged_and_serving();
}

TEST_F(HttpBadInputTest, DeeplyNestedBodiesAreRefusedNotCrashedOn) {
  Client c(server_.port());
  const std::string deep_json = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(c.request("POST", kCms, deep_json, {{"content-type", "application/json"}}).code, 400);
  const std::string deep_yaml = std::string(5000, '[') + std::string(5000, ']');
  EXPECT_EQ(c.request("POST", kCms, deep_yaml, {{"content-type", "application/yaml"}}).code, 400);
  // An alias bomb expands past the node limit.
  std::string bomb = "a: &a [x,x,x,x,x,x,x,x,x,x]\n";
  for (char n = 'b'; n <= 'j'; ++n) {
    bomb += std::string(1, n) + ": &" + n + " [";
    for (int i = 0; i < 10; ++i) bomb += std::string(i ? "," : "") + "*" + static_cast<char>(n - 1);
    bomb += "]\n";
  }
  EXPECT_EQ(c.request("POST", kCms, bomb, {{"content-type", "application/yaml"}}).code, 400);
  expect_unchanged_and_serving();
}

}  // namespace
}  // namespace kubesim::fakeapi::http::testing
