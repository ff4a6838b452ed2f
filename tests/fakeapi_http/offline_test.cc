// The socket-free request path (internal/offline.h) that the fuzz target drives: every seed of
// the fuzz corpus replayed through it keeps the rules of answer_checks.h, pipelined requests are
// answered in order, and refusals by the parser end the connection.
#include "fakeapi/http/internal/offline.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/fakeapi_http/fuzz/answer_checks.h"

namespace kubesim::fakeapi::http::testing {
namespace {

using internal::OfflineAnswer;
using internal::OfflineServer;

const std::filesystem::path kCorpus = std::filesystem::path(__FILE__).parent_path() / "fuzz" / "corpus";

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Harness {
  sim::Loop loop;
  ApiServer server{loop};
  OfflineServer offline{loop, server, fuzz_options()};
};

std::vector<int> codes(const std::vector<OfflineAnswer>& answers) {
  std::vector<int> out;
  for (const auto& a : answers) out.push_back(a.code);
  return out;
}

TEST(OfflineTest, EverySeedOfTheFuzzCorpusKeepsTheRules) {
  std::size_t seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kCorpus)) {
    Harness h;
    const std::int64_t before = h.server.revision();
    const auto answers = h.offline.serve(slurp(entry.path()));
    EXPECT_FALSE(answers.empty()) << entry.path().filename();
    EXPECT_EQ(check_answers(answers, before), "") << entry.path().filename();
    ++seeds;
  }
  EXPECT_GE(seeds, 30u);
}

TEST(OfflineTest, PipelinedRequestsAreAnsweredInOrder) {
  Harness h;
  const auto answers = h.offline.serve(slurp(kCorpus / "pipelined"));
  // create, get, merge patch, watch, delete with a stale precondition, get
  ASSERT_EQ(codes(answers), (std::vector<int>{201, 200, 200, 200, 409, 200}));
  ASSERT_TRUE(answers[3].watch);
  // sendInitialEvents: the object, then the bookmark that ends the initial events.
  ASSERT_GE(answers[3].events.size(), 2u);
  const auto added = nlohmann::json::parse(answers[3].events[0]);
  EXPECT_EQ(added["type"], "ADDED");
  EXPECT_EQ(added["object"]["data"]["c"], "3");
  const auto bookmark = nlohmann::json::parse(answers[3].events[1]);
  EXPECT_EQ(bookmark["type"], "BOOKMARK");
  EXPECT_EQ(bookmark["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"], "true");
}

TEST(OfflineTest, AnHttp10RequestEndsTheConnection) {
  Harness h;
  EXPECT_EQ(codes(h.offline.serve(slurp(kCorpus / "http10_close"))), (std::vector<int>{201, 200}));
}

TEST(OfflineTest, ParserRefusalsAnswerAndEndTheConnection) {
  Harness h;
  EXPECT_EQ(codes(h.offline.serve(slurp(kCorpus / "malformed") + slurp(kCorpus / "get_cm"))),
            (std::vector<int>{400}));
  EXPECT_EQ(codes(h.offline.serve(slurp(kCorpus / "too_large"))), (std::vector<int>{413}));
  const std::string huge_header = "GET /api HTTP/1.1\r\nX: " + std::string(9000, 'a') + "\r\n\r\n";
  EXPECT_EQ(codes(h.offline.serve(huge_header)), (std::vector<int>{431}));
  // A request cut short gets no answer (the client is still sending).
  EXPECT_TRUE(h.offline.serve("GET /api HTTP/1.1\r\nHost: x\r\n").empty());
}

// Bytes that are not UTF-8 in a query value, a path or a YAML body get a clear error whose JSON
// is still valid (U+FFFD in their place), and change nothing.
TEST(OfflineTest, InvalidUtf8IsAnErrorWithValidJson) {
  Harness h;
  const std::int64_t before = h.server.revision();
  const std::string auth = "Authorization: Bearer fuzz\r\n";
  const std::string yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\ndata: {k: \"\xA3\"}\n";
  const std::string bytes =
      "GET /api/v1/namespaces/default/configmaps?resourceVersionMatch=Not\xA3 HTTP/1.1\r\n" + auth + "\r\n" +
      "GET /api/v1/namespaces/default/configmaps/%A3%FF HTTP/1.1\r\n" + auth + "\r\n" +
      "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\n" + auth +
      "Content-Type: application/yaml\r\nContent-Length: " + std::to_string(yaml.size()) + "\r\n\r\n" + yaml;
  const auto answers = h.offline.serve(bytes);
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0].code, 422);
  EXPECT_NE(answers[0].body.find("\xEF\xBF\xBD"), std::string::npos) << answers[0].body;
  EXPECT_GE(answers[1].code, 400);
  EXPECT_EQ(answers[2].code, 400);
  EXPECT_NE(answers[2].body.find("UTF-8"), std::string::npos) << answers[2].body;
  EXPECT_EQ(check_answers(answers, before), "");
}

TEST(OfflineTest, ChecksCatchAnErrorThatChangedTheStore) {
  OfflineAnswer a;
  a.code = 500;
  a.content_type = "application/json";
  a.body = R"({"kind":"Status","code":500})";
  a.revision = 2;
  EXPECT_NE(check_answers({a}, 1), "");
  a.revision = 1;
  EXPECT_EQ(check_answers({a}, 1), "");
  a.body = R"({"kind":"Status","code":404})";
  EXPECT_NE(check_answers({a}, 1), "");
}

}  // namespace
}  // namespace kubesim::fakeapi::http::testing
