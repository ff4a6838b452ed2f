#include "kubesim/api/status.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck/gtest.h>

#include <functional>
#include <sstream>

#include "kubesim/api/result.h"

namespace kubesim::api {
namespace {

using nlohmann::json;

const GroupResource kConfigMaps{"", "configmaps"};
const GroupResource kDeployments{"apps", "deployments"};

TEST(StatusTest, ConstructorsMatchApimachinery) {
  struct Case {
    Status status;
    int code;
    StatusReason reason;
    std::string message;
  };
  const Case cases[] = {
      {new_not_found(kConfigMaps, "x"), 404, StatusReason::kNotFound,
       R"(configmaps "x" not found)"},
      {new_already_exists(kDeployments, "web"), 409, StatusReason::kAlreadyExists,
       R"(deployments.apps "web" already exists)"},
      {new_conflict(kConfigMaps, "x", kOptimisticLockErrorMsg), 409, StatusReason::kConflict,
       R"(Operation cannot be fulfilled on configmaps "x": the object has been modified; )"
       "please apply your changes to the latest version and try again"},
      {new_gone("gone away"), 410, StatusReason::kGone, "gone away"},
      {new_resource_expired(too_old_resource_version_message(5, 10)), 410, StatusReason::kExpired,
       "too old resource version: 5 (10)"},
      {new_bad_request("bad"), 400, StatusReason::kBadRequest, "bad"},
      {new_unauthorized(""), 401, StatusReason::kUnauthorized, "not authorized"},
      {new_forbidden(kConfigMaps, "x", "no"), 403, StatusReason::kForbidden,
       R"(configmaps "x" is forbidden: no)"},
      {new_forbidden(kConfigMaps, "", "no"), 403, StatusReason::kForbidden,
       "configmaps is forbidden: no"},
      {new_forbidden({}, "", "no"), 403, StatusReason::kForbidden, "forbidden: no"},
      {new_too_many_requests("slow down", 3), 429, StatusReason::kTooManyRequests, "slow down"},
      {new_internal_error("boom"), 500, StatusReason::kInternalError,
       "Internal error occurred: boom"},
      {new_service_unavailable("down"), 503, StatusReason::kServiceUnavailable, "down"},
      {new_timeout("slow", 2), 504, StatusReason::kTimeout, "Timeout: slow"},
      {new_server_timeout(kConfigMaps, "get", 1), 500, StatusReason::kServerTimeout,
       "The get operation against configmaps could not be completed at this time, please try "
       "again."},
      {new_method_not_supported(kDeployments, "patch"), 405, StatusReason::kMethodNotAllowed,
       R"(patch is not supported on resources of kind "deployments.apps")"},
      {new_request_entity_too_large("limit is 3145728"), 413, StatusReason::kRequestEntityTooLarge,
       "Request entity too large: limit is 3145728"},
      {new_unsupported_media_type("text/plain"), 415, StatusReason::kUnsupportedMediaType,
       "text/plain"},
      {new_not_acceptable("only json"), 406, StatusReason::kNotAcceptable, "only json"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    EXPECT_EQ(c.status.code, c.code);
    EXPECT_EQ(c.status.reason, c.reason);
    EXPECT_EQ(c.status.message, c.message);
  }
}

TEST(StatusTest, DetailsMatchApimachinery) {
  const Status nf = new_not_found(kDeployments, "web");
  ASSERT_TRUE(nf.details.has_value());
  EXPECT_EQ(nf.details->name, "web");
  EXPECT_EQ(nf.details->group, "apps");
  EXPECT_EQ(nf.details->kind, "deployments");

  EXPECT_FALSE(new_gone("x").details.has_value());
  EXPECT_EQ(new_too_many_requests("x", 7).details->retry_after_seconds, 7);
  const Status internal = new_internal_error("boom");
  ASSERT_EQ(internal.details->causes.size(), 1u);
  EXPECT_EQ(internal.details->causes[0].message, "boom");
  EXPECT_EQ(new_server_timeout(kConfigMaps, "list", 4).details->name, "list");
}

TEST(StatusTest, GoQuotesNames) {
  EXPECT_EQ(new_not_found(kConfigMaps, "a\"b\\c\n").message, R"(configmaps "a\"b\\c\n" not found)");
}

TEST(StatusTest, InvalidAggregatesCauses) {
  const GroupKind kind{"", "ConfigMap"};
  EXPECT_EQ(new_invalid(kind, "x", {}).message, R"(ConfigMap "x" is invalid)");
  const StatusCause name_cause{std::string(kCauseTypeFieldValueInvalid),
                               R"(Invalid value: "X": must be lowercase)", "metadata.name"};
  const Status one = new_invalid(kind, "X", {name_cause});
  EXPECT_EQ(one.code, 422);
  EXPECT_EQ(one.reason, StatusReason::kInvalid);
  EXPECT_EQ(one.message,
            R"(ConfigMap "X" is invalid: metadata.name: Invalid value: "X": must be lowercase)");
  ASSERT_TRUE(one.details.has_value());
  EXPECT_EQ(one.details->kind, "ConfigMap");
  EXPECT_EQ(one.details->causes, std::vector<StatusCause>{name_cause});

  const StatusCause data_cause{std::string(kCauseTypeFieldValueRequired), "Required value", "data"};
  const Status two = new_invalid({"apps", "Deployment"}, "d", {name_cause, data_cause, name_cause});
  EXPECT_EQ(two.message,
            R"(Deployment.apps "d" is invalid: [metadata.name: Invalid value: "X": must be )"
            R"(lowercase, data: Required value])");
  EXPECT_EQ(two.details->causes.size(), 3u);
}

TEST(StatusTest, JsonFormIsMetav1Status) {
  const Status s = new_conflict(kConfigMaps, "x", "stale");
  EXPECT_EQ(s.to_json_string(),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
            R"("message":"Operation cannot be fulfilled on configmaps \"x\": stale",)"
            R"("reason":"Conflict","details":{"name":"x","kind":"configmaps"},"code":409})");
  EXPECT_EQ(json::parse(s.to_json_string()), s.to_json());

  const Status invalid =
      new_invalid({"", "ConfigMap"}, "x", {{"FieldValueRequired", "Required value", "data"}});
  EXPECT_EQ(json::parse(invalid.to_json_string())["details"]["causes"],
            json::parse(
                R"([{"reason":"FieldValueRequired","message":"Required value","field":"data"}])"));

  const Status gone = new_resource_expired("old");
  EXPECT_EQ(gone.to_json_string(),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
            R"("message":"old","reason":"Expired","code":410})");
  EXPECT_EQ(new_too_many_requests("x", 2).to_json()["details"],
            json::parse(R"({"retryAfterSeconds":2})"));

  Status offering = new_resource_expired("old");
  offering.continue_token = "tok";
  EXPECT_EQ(offering.to_json_string(),
            R"({"kind":"Status","apiVersion":"v1","metadata":{"continue":"tok"},"status":"Failure",)"
            R"("message":"old","reason":"Expired","code":410})");
}

TEST(StatusTest, JsonRoundTrips) {
  const Status cases[] = {
      new_not_found(kConfigMaps, "x"),
      new_invalid({"apps", "Deployment"}, "d", {{"FieldValueInvalid", "bad", "spec.replicas"}}),
      new_too_many_requests("busy", 5),
      new_internal_error("boom"),
      new_server_timeout(kDeployments, "update", 0),
      new_gone("gone"),
      [] {
        Status s = new_resource_expired("old");
        s.continue_token = "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ";
        return s;
      }(),
      Status{418, StatusReason::kUnknown, "teapot", StatusDetails{"n", "g", "k", "u", {}, 0}},
  };
  for (const Status& s : cases) {
    SCOPED_TRACE(s.message);
    EXPECT_EQ(Status::from_json(s.to_json()), s);
    EXPECT_EQ(Status::from_json(json::parse(s.to_json_string())), s);
  }
}

TEST(StatusTest, FromJsonIsTolerant) {
  EXPECT_EQ(Status::from_json(json::array()), std::nullopt);
  const auto empty = Status::from_json(json::object());
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(*empty, Status{});

  const auto odd = Status::from_json(json::parse(
      R"({"code":"409","reason":"SomethingNew","message":7,"details":{"causes":[1,{"field":"f"}]}})"));
  ASSERT_TRUE(odd.has_value());
  EXPECT_EQ(odd->code, 0);
  EXPECT_EQ(odd->reason, StatusReason::kUnknown);
  EXPECT_EQ(odd->message, "");
  ASSERT_TRUE(odd->details.has_value());
  EXPECT_EQ(odd->details->causes, (std::vector<StatusCause>{{"", "", "f"}}));

  const auto success = Status::from_json(json::parse(R"({"kind":"Status","status":"Success"})"));
  EXPECT_EQ(success->code, 200);
  EXPECT_EQ(success->status_text(), "Success");
}

TEST(StatusTest, ReasonNamesRoundTrip) {
  for (int i = 0; i <= static_cast<int>(StatusReason::kServiceUnavailable); ++i) {
    const auto reason = static_cast<StatusReason>(i);
    EXPECT_EQ(parse_status_reason(to_string(reason)), reason) << to_string(reason);
  }
  EXPECT_EQ(to_string(StatusReason::kStoreReadError), "StorageReadError");
  EXPECT_EQ(to_string(StatusReason::kUnknown), "");
  EXPECT_EQ(parse_status_reason("NoSuchReason"), StatusReason::kUnknown);
}

using Predicate = std::function<bool(const Status&)>;

struct PredicateCase {
  const char* name;
  Predicate predicate;
  StatusReason reason;
  int code;
  bool code_alone_when_unknown;  // the code counts when the reason is unknown
  bool code_alone_always;        // the code counts whatever the reason
};

TEST(StatusTest, PredicatesCheckReasonThenCode) {
  const PredicateCase cases[] = {
      {"not_found", is_not_found, StatusReason::kNotFound, 404, true, false},
      {"already_exists", is_already_exists, StatusReason::kAlreadyExists, 409, false, false},
      {"conflict", is_conflict, StatusReason::kConflict, 409, true, false},
      {"gone", is_gone, StatusReason::kGone, 410, true, false},
      {"resource_expired", is_resource_expired, StatusReason::kExpired, 410, false, false},
      {"invalid", is_invalid, StatusReason::kInvalid, 422, true, false},
      {"bad_request", is_bad_request, StatusReason::kBadRequest, 400, true, false},
      {"unauthorized", is_unauthorized, StatusReason::kUnauthorized, 401, true, false},
      {"forbidden", is_forbidden, StatusReason::kForbidden, 403, true, false},
      {"too_many_requests", is_too_many_requests, StatusReason::kTooManyRequests, 429, true, true},
      {"entity_too_large", is_request_entity_too_large, StatusReason::kRequestEntityTooLarge, 413,
       true, true},
      {"internal_error", is_internal_error, StatusReason::kInternalError, 500, true, false},
      {"service_unavailable", is_service_unavailable, StatusReason::kServiceUnavailable, 503, true,
       false},
      {"timeout", is_timeout, StatusReason::kTimeout, 504, true, false},
      {"server_timeout", is_server_timeout, StatusReason::kServerTimeout, 500, false, false},
      {"method_not_supported", is_method_not_supported, StatusReason::kMethodNotAllowed, 405, true,
       false},
      {"not_acceptable", is_not_acceptable, StatusReason::kNotAcceptable, 406, true, false},
      {"unsupported_media_type", is_unsupported_media_type, StatusReason::kUnsupportedMediaType,
       415, true, false},
  };
  for (const PredicateCase& c : cases) {
    SCOPED_TRACE(c.name);
    // The reason alone decides, whatever the code.
    EXPECT_TRUE(c.predicate(Status{c.code, c.reason, "", std::nullopt}));
    EXPECT_TRUE(c.predicate(Status{599, c.reason, "", std::nullopt}));
    // The code with an unknown reason.
    EXPECT_EQ(c.predicate(Status{c.code, StatusReason::kUnknown, "", std::nullopt}),
              c.code_alone_when_unknown);
    // The code with another known reason.
    const StatusReason other =
        c.reason == StatusReason::kBadRequest ? StatusReason::kNotFound : StatusReason::kBadRequest;
    EXPECT_EQ(c.predicate(Status{c.code, other, "", std::nullopt}), c.code_alone_always);
    // Neither.
    EXPECT_FALSE(c.predicate(Status{599, other, "", std::nullopt}));
    EXPECT_FALSE(c.predicate(Status{}));
  }
}

TEST(StatusTest, PredicatesOnConstructors) {
  EXPECT_TRUE(is_not_found(new_not_found(kConfigMaps, "x")));
  EXPECT_TRUE(is_conflict(new_conflict(kConfigMaps, "x", "y")));
  EXPECT_FALSE(is_conflict(new_already_exists(kConfigMaps, "x")));
  EXPECT_TRUE(is_already_exists(new_already_exists(kConfigMaps, "x")));
  EXPECT_TRUE(is_already_exists(new_generate_name_conflict(kConfigMaps, "x-", 1)));
  EXPECT_TRUE(is_resource_expired(new_resource_expired("x")));
  EXPECT_FALSE(is_gone(new_resource_expired("x")));
  EXPECT_TRUE(is_gone(new_gone("x")));
  EXPECT_FALSE(is_resource_expired(new_gone("x")));
  EXPECT_TRUE(is_server_timeout(new_server_timeout(kConfigMaps, "get", 1)));
  EXPECT_FALSE(is_internal_error(new_server_timeout(kConfigMaps, "get", 1)));
  EXPECT_TRUE(is_timeout(new_timeout("x", 1)));
}

TEST(StatusTest, RetryAfterSeconds) {
  EXPECT_EQ(retry_after_seconds(new_too_many_requests("x", 3)), 3);
  EXPECT_EQ(retry_after_seconds(new_too_many_requests("x", 0)), std::nullopt);
  EXPECT_EQ(retry_after_seconds(new_server_timeout(kConfigMaps, "get", 0)), 0);
  EXPECT_EQ(retry_after_seconds(new_timeout("x", 2)), 2);
  EXPECT_EQ(retry_after_seconds(new_not_found(kConfigMaps, "x")), std::nullopt);
  EXPECT_EQ(retry_after_seconds(new_gone("x")), std::nullopt);
}

TEST(StatusTest, Prints) {
  std::ostringstream os;
  os << new_not_found(kConfigMaps, "x") << "|" << Status{} << "|"
     << new_context_error(sim::ContextError::kCanceled);
  EXPECT_EQ(os.str(),
            R"(404 NotFound: configmaps "x" not found|client error: |client error (Canceled): context canceled)");
}

TEST(StatusTest, ClientErrorsSayWhyNoAnswerCame) {
  const Status canceled = new_context_error(sim::ContextError::kCanceled);
  EXPECT_EQ(canceled.code, 0);
  EXPECT_EQ(canceled.message, "context canceled");
  EXPECT_TRUE(is_client_error(canceled));
  EXPECT_TRUE(is_context_canceled(canceled));
  EXPECT_TRUE(is_context_error(canceled));
  EXPECT_FALSE(is_deadline_exceeded(canceled));
  const Status deadline = new_context_error(sim::ContextError::kDeadlineExceeded);
  EXPECT_EQ(deadline.message, "context deadline exceeded");
  EXPECT_TRUE(is_deadline_exceeded(deadline));
  EXPECT_TRUE(is_context_error(deadline));
  const Status refused = new_client_error(ClientError::kConnectionRefused,
                                          "dial tcp 127.0.0.1:1: connect: connection refused");
  EXPECT_TRUE(is_connection_refused(refused));
  EXPECT_FALSE(is_network_timeout(refused));
  EXPECT_TRUE(is_network_timeout(new_client_error(ClientError::kNetworkTimeout, "i/o timeout")));
  EXPECT_TRUE(is_connection_lost(new_client_error(ClientError::kConnectionLost, "EOF")));
  // A server's answer is never a client error, whatever its code.
  for (const Status& answered : {new_timeout("slow", 1), new_service_unavailable("down")}) {
    EXPECT_FALSE(is_client_error(answered));
    EXPECT_FALSE(is_network_timeout(answered));
    EXPECT_FALSE(is_context_error(answered));
  }
  EXPECT_EQ(to_string(ClientError::kNetworkTimeout), "NetworkTimeout");
  EXPECT_EQ(to_string(ClientError::kNone), "");
}

TEST(ResultTest, HoldsValueOrStatus) {
  Result<int> good = 7;
  ASSERT_TRUE(good.ok());
  EXPECT_TRUE(static_cast<bool>(good));
  EXPECT_EQ(good.value(), 7);
  EXPECT_EQ(*good, 7);

  Result<int> bad = new_not_found(kConfigMaps, "x");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(is_not_found(bad.status()));

  Result<std::string> moved = std::string("abc");
  EXPECT_EQ(moved->size(), 3u);
  const std::string taken = std::move(moved).value();
  EXPECT_EQ(taken, "abc");

  Result<std::unique_ptr<int>> ptr = std::make_unique<int>(4);
  EXPECT_EQ(*ptr.value(), 4);

  const Status s = Result<int>(new_gone("g")).status();
  EXPECT_TRUE(is_gone(s));
}

TEST(ResultTest, Void) {
  Result<void> good;
  EXPECT_TRUE(good.ok());
  Result<void> bad = new_conflict(kConfigMaps, "x", "y");
  EXPECT_FALSE(bad);
  EXPECT_TRUE(is_conflict(bad.status()));
  const auto f = [](bool fail) -> Result<void> {
    if (fail) return new_bad_request("no");
    return {};
  };
  EXPECT_TRUE(f(false).ok());
  EXPECT_TRUE(is_bad_request(f(true).status()));
}

RC_GTEST_PROP(StatusProperty, JsonRoundTrip, ()) {
  const auto text = rc::gen::container<std::string>(rc::gen::inRange<char>(32, 127));
  Status s;
  s.code = *rc::gen::inRange(0, 600);
  s.reason = static_cast<StatusReason>(
      *rc::gen::inRange(0, static_cast<int>(StatusReason::kServiceUnavailable) + 1));
  s.message = *text;
  if (*rc::gen::arbitrary<bool>()) {
    StatusDetails d{*text, *text, *text, *text, {}, *rc::gen::inRange(0, 1000)};
    const int causes = *rc::gen::inRange(0, 3);
    for (int i = 0; i < causes; ++i) d.causes.push_back({*text, *text, *text});
    s.details = std::move(d);
  }
  const auto back = Status::from_json(json::parse(s.to_json_string()));
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == s);
  RC_ASSERT(Status::from_json(s.to_json()) == back);
}

}  // namespace
}  // namespace kubesim::api
