// Warning headers: parsed as apimachinery's net.ParseWarningHeaders parses them
// (api/rest/internal/warnings.h), and handed to RestConfig::warning_handler before a call's result.
#include "api/rest/internal/warnings.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "kubesim/api/resources.h"
#include "kubesim/api/rest/rest_client.h"
#include "kubesim/fakeapi/http/http_server.h"
#include "tests/rest_client/real_loop.h"

namespace kubesim::api::rest::testing {
namespace {

using internal::parse_warning_headers;
using Parsed = std::vector<std::tuple<int, std::string, std::string>>;

Parsed parse(const std::vector<std::string>& values, std::vector<std::string>* errors = nullptr) {
  Parsed out;
  for (const auto& w : parse_warning_headers(values, errors)) {
    out.emplace_back(w.code, w.agent, w.text);
  }
  return out;
}

TEST(WarningHeadersTest, TheFormsKubeApiServerAndOthersSend) {
  EXPECT_EQ(parse({R"(299 - "unknown field \"dta\"")"}),
            (Parsed{{299, "-", R"(unknown field "dta")"}}));
  // Several in one header, a date, a backslash, spaces around.
  EXPECT_EQ(parse({R"(  299 - "a" "Thu, 26 Nov 2026 00:00:00 GMT" , 199 agent:1 "b\\c")",
                   R"(214 proxy "x")"}),
            (Parsed{{299, "-", "a"}, {199, "agent:1", "b\\c"}, {214, "proxy", "x"}}));
  EXPECT_EQ(parse({R"(299 - "caf)" "\xc3\xa9" R"(")"}), (Parsed{{299, "-", "caf\xc3\xa9"}}));
}

TEST(WarningHeadersTest, AMalformedWarningEndsItsHeaderOnly) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"299 -", "invalid warning header: fewer than 3 segments"},
      {"29 - \"x\"", "invalid warning header: code segment is not 3 digits between 100-299"},
      {"299  \"x\"", "invalid warning header: empty agent segment"},
      {"299 - x", "invalid warning header: invalid quoted string: missing initial quote"},
      {"299 - \"x", "invalid warning header: invalid quoted string: missing closing quote"},
      {"299 - \"x\" \"date", "invalid warning header: unterminated date segment"},
      {"299 - \"x\" junk", "invalid warning header: unexpected token after warn-date"},
      {"299 - \"a\x01\"", "invalid warning header: invalid text"},
      {"299 - \"\xff\"", "invalid warning header: invalid text"},
      {"299 \x7f \"x\"", "invalid warning header: invalid agent"},
  };
  for (const auto& [header, message] : cases) {
    std::vector<std::string> errors;
    EXPECT_EQ(parse({"299 - \"before\", " + header, "299 - \"next\""}, &errors),
              (Parsed{{299, "-", "before"}, {299, "-", "next"}}))
        << header;
    EXPECT_EQ(errors, std::vector<std::string>{message}) << header;
  }
}

TEST(WarningHeadersTest, RestClientHandsThemToTheHandlerBeforeTheResult) {
  sim::Loop loop{real_mode()};
  fakeapi::ApiServer api{loop};
  fakeapi::http::HttpServerOptions o;
  fakeapi::http::UserInfo admin;
  admin.name = "admin";
  admin.groups = {"system:masters"};
  o.tokens["t"] = admin;
  fakeapi::http::HttpServer http(loop, api, o);
  Parsed seen;
  bool result_seen_first = false;
  bool done = false;
  RestConfig config;
  config.server = http.url();
  config.bearer_token = "t";
  config.warning_handler = [&](int code, std::string_view agent, std::string_view text) {
    result_seen_first = result_seen_first || done;
    seen.emplace_back(code, std::string(agent), std::string(text));
  };
  {
    RestClient client(loop, config);
    auto typo = make_object({{"apiVersion", "v1"},
                             {"kind", "ConfigMap"},
                             {"metadata", {{"name", "t"}, {"namespace", "default"}}},
                             {"dta", {{"k", "v"}}}});
    auto g = guard(loop);
    CreateOptions warn;
    warn.field_validation = FieldValidation::kWarn;
    auto created = run_real(loop, client.create(g.ctx, kConfigMaps, "default", typo, warn));
    done = true;
    ASSERT_TRUE(created.ok()) << created.status();
    EXPECT_EQ(seen, (Parsed{{299, "-", R"(unknown field "dta")"}}));
    EXPECT_FALSE(result_seen_first);
    // Ignore sends none.
    seen.clear();
    CreateOptions ignore;
    ignore.field_validation = FieldValidation::kIgnore;
    ASSERT_TRUE(run_real(loop, client.create(g.ctx, kConfigMaps, "default", typo->with_name("u"), ignore))
                    .ok());
    EXPECT_TRUE(seen.empty());
  }
  http.stop(std::chrono::seconds(1));
}

}  // namespace
}  // namespace kubesim::api::rest::testing
