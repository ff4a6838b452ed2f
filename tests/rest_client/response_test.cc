// Responses into results: Status bodies are taken as sent, other error bodies become the Status
// client-go makes up (apimachinery's NewGenericServerResponse), and successes decode.
#include "api/rest/internal/response.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kubesim::api::rest::internal {
namespace {

const RequestInfo kGetCm("GET", GroupResource("", "configmaps"), "a");

HttpResponse response(int code, std::string content_type, std::string body) {
  HttpResponse r;
  r.code = code;
  r.content_type = std::move(content_type);
  r.body = std::move(body);
  return r;
}

TEST(ResponseTest, StatusBodyIsTakenAsTheServerSentIt) {
  const Status sent = new_conflict(GroupResource("", "configmaps"), "a", kOptimisticLockErrorMsg);
  const Status got =
      status_from_error_response(response(409, "application/json", sent.to_json_string()), kGetCm);
  EXPECT_EQ(got, sent);
  EXPECT_TRUE(is_conflict(got));
  // With charset parameters too, and on a success code (a Failure Status is a failure anyway).
  auto r = decode_object_response(
      response(200, "application/json; charset=utf-8", sent.to_json_string()), kGetCm);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status(), sent);
}

TEST(ResponseTest, HtmlFiveHundredBecomesInternalErrorQuotingTheText) {
  const Status s = status_from_error_response(
      response(500, "text/html", "<html><body>Bad \"gateway\"</body></html>\n"), kGetCm);
  EXPECT_EQ(s.code, 500);
  EXPECT_TRUE(is_internal_error(s));
  EXPECT_EQ(s.message,
            "an error on the server (\"<html><body>Bad \\\"gateway\\\"</body></html>\") has "
            "prevented the request from succeeding (get configmaps a)");
  ASSERT_TRUE(s.details);
  EXPECT_EQ(s.details->kind, "configmaps");
  EXPECT_EQ(s.details->name, "a");
  ASSERT_EQ(s.details->causes.size(), 1u);
  EXPECT_EQ(s.details->causes[0].type, kCauseTypeUnexpectedServerResponse);
  EXPECT_EQ(s.details->causes[0].message, "<html><body>Bad \"gateway\"</body></html>");
}

TEST(ResponseTest, NonStatusBodiesGetTheStockMessageOfTheirCode) {
  struct Case {
    int code;
    std::string method;
    std::string content_type;
    std::string body;
    StatusReason reason;
    std::string message;
  };
  const std::vector<Case> cases = {
      {404, "GET", "", "", StatusReason::kNotFound,
       "the server could not find the requested resource (get configmaps a)"},
      {409, "POST", "application/json", "{}", StatusReason::kAlreadyExists,
       "the server reported a conflict (post configmaps a)"},
      {409, "PUT", "text/plain", "busy", StatusReason::kConflict,
       "the server reported a conflict (put configmaps a)"},
      {401, "GET", "text/plain", "nope", StatusReason::kUnauthorized,
       "the server has asked for the client to provide credentials (get configmaps a)"},
      {403, "GET", "text/plain", "forbidden: user x\n", StatusReason::kForbidden,
       "forbidden: user x (get configmaps a)"},
      {503, "GET", "application/json", "[1]", StatusReason::kServiceUnavailable,
       "the server is currently unable to handle the request (get configmaps a)"},
      {502, "GET", "application/json", "{\"x\":1}", StatusReason::kInternalError,
       "an error on the server (\"unknown\") has prevented the request from succeeding (get "
       "configmaps a)"},
      {418, "GET", "", "teapot", StatusReason::kUnknown,
       "the server responded with the status code 418 but did not return more information (get "
       "configmaps a)"},
      {504, "DELETE", "", "", StatusReason::kTimeout,
       "the server was unable to return a response in the time allotted, but may still be "
       "processing the request (delete configmaps a)"},
  };
  for (const auto& c : cases) {
    RequestInfo info(c.method, GroupResource("", "configmaps"), "a");
    const Status s = status_from_error_response(response(c.code, c.content_type, c.body), info);
    EXPECT_EQ(s.code, c.code) << c.code;
    EXPECT_EQ(s.reason, c.reason) << c.code;
    EXPECT_EQ(s.message, c.message) << c.code;
  }
}

TEST(ResponseTest, RetryAfterHeaderGoesIntoTheDetails) {
  HttpResponse r = response(429, "text/plain", "slow down");
  r.retry_after_seconds = 3;
  const Status s = status_from_error_response(r, RequestInfo("GET", GroupResource("apps", "deployments"), ""));
  EXPECT_TRUE(is_too_many_requests(s));
  EXPECT_EQ(retry_after_seconds(s), 3);
  EXPECT_EQ(s.message,
            "the server has received too many requests and has asked us to try again later (get "
            "deployments.apps)");
  EXPECT_EQ(s.details->group, "apps");
}

TEST(ResponseTest, TransportErrorsAndUndecodableSuccessesAreClientErrors) {
  HttpResponse down;
  down.error = "Get \"http://x/api\": dial tcp: connection refused";
  auto r = decode_object_response(down, kGetCm);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 0);
  EXPECT_EQ(r.status().message, down.error);
  EXPECT_TRUE(is_connection_refused(r.status()));
  // Each transport failure is classified by what it says.
  const std::pair<const char*, ClientError> causes[] = {
      {"Get \"http://x/api\": context canceled", ClientError::kCanceled},
      {"Get \"http://x/api\": context deadline exceeded", ClientError::kDeadlineExceeded},
      {"Get \"http://x/api\": dial tcp 10.0.0.1:443: i/o timeout", ClientError::kNetworkTimeout},
      {"Get \"http://x/api\": EOF: end of stream", ClientError::kConnectionLost},
  };
  for (const auto& [text, cause] : causes) {
    HttpResponse failed;
    failed.error = text;
    EXPECT_EQ(decode_object_response(failed, kGetCm).status().client_error, cause) << text;
  }
  EXPECT_EQ(decode_object_response(response(200, "application/json", "{nope"), kGetCm).status().client_error,
            ClientError::kInvalidResponse);
  EXPECT_EQ(decode_object_response(response(200, "application/json", "{nope"), kGetCm).status().code, 0);
  EXPECT_EQ(decode_object_response(response(200, "text/html", "<html>"), kGetCm).status().message,
            "serializer for text/html doesn't exist");
  EXPECT_EQ(decode_object_response(response(200, "application/json", ""), kGetCm).status().message,
            "0-length response with status code: 200 and content type: application/json");
  EXPECT_EQ(decode_object_response(
                response(200, "application/json", R"({"metadata":{"name":5}})"), kGetCm)
                .status()
                .code,
            0);
}

TEST(ResponseTest, ObjectsListsAndSuccessStatuses) {
  auto obj = decode_object_response(
      response(201, "application/json", R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}})"),
      kGetCm);
  ASSERT_TRUE(obj.ok());
  EXPECT_EQ(obj.value()->name(), "a");

  auto list = decode_list_response(
      response(200, "application/json",
               R"({"apiVersion":"v1","kind":"ConfigMapList","metadata":{"resourceVersion":"9",)"
               R"("continue":"c1","remainingItemCount":4},"items":[{"metadata":{"name":"a"}},)"
               R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}]})"),
      kGetCm);
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->resource_version, "9");
  EXPECT_EQ(list->continue_token, "c1");
  EXPECT_EQ(list->remaining_item_count, 4);
  ASSERT_EQ(list->items.size(), 2u);
  EXPECT_EQ(list->items[0]->kind(), "ConfigMap");
  EXPECT_EQ(list->items[0]->api_version(), "v1");

  auto empty = decode_list_response(response(200, "application/json", R"({"items":null})"), kGetCm);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->items.empty());

  const std::string success = R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success",)"
                              R"("details":{"name":"a","kind":"configmaps"}})";
  auto deleted = decode_object_response(response(200, "application/json", success), kGetCm);
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(deleted.value()->kind(), "Status");
  EXPECT_TRUE(decode_empty_response(response(200, "application/json", success), kGetCm).ok());
  EXPECT_TRUE(decode_empty_response(response(204, "", ""), kGetCm).ok());
  EXPECT_TRUE(is_not_found(decode_empty_response(response(404, "", ""), kGetCm).status()));
}

}  // namespace
}  // namespace kubesim::api::rest::internal
