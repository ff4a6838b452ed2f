// What must hold for every answer of the HTTP request path, whatever the bytes: a real status
// code; a JSON body wherever the Content-Type says JSON; an error is a Status whose code is the
// HTTP code; a watch's events are JSON objects with a type and an object; and a request that gets
// an error changes nothing in the store (its revision stays). Shared by the fuzz target and the
// corpus replay test.
#ifndef KUBESIM_TESTS_FAKEAPI_HTTP_FUZZ_ANSWER_CHECKS_H_
#define KUBESIM_TESTS_FAKEAPI_HTTP_FUZZ_ANSWER_CHECKS_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fakeapi/http/internal/offline.h"

namespace kubesim::fakeapi::http::testing {

// The first broken rule, or "" when every answer is sound. `revision_before` is the store's
// revision before the first request.
inline std::string check_answers(const std::vector<internal::OfflineAnswer>& answers,
                                 std::int64_t revision_before) {
  std::int64_t revision = revision_before;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const auto& a = answers[i];
    const std::string where = "answer " + std::to_string(i) + " (" + std::to_string(a.code) + "): ";
    if (a.code != 0 && (a.code < 200 || a.code > 599)) return where + "not a status code";
    if (a.code >= 400 && a.revision != revision) return where + "an error changed the store";
    revision = a.revision;
    if (a.content_type == "application/json" && a.code != 0) {
      const auto j = nlohmann::json::parse(a.watch ? "{}" : a.body, nullptr, false);
      if (j.is_discarded()) return where + "the JSON body does not parse: " + a.body.substr(0, 200);
      if (a.code >= 400) {
        if (!j.is_object() || j.value("kind", "") != "Status" || !j.contains("code") ||
            j["code"] != a.code) {
          return where + "an error that is not a matching Status: " + a.body.substr(0, 200);
        }
      }
    }
    for (const auto& line : a.events) {
      const auto e = nlohmann::json::parse(line, nullptr, false);
      if (e.is_discarded() || !e.is_object() || !e.contains("type") || !e.contains("object")) {
        return where + "a watch event that is not {type, object}: " + line.substr(0, 200);
      }
    }
  }
  return "";
}

// The options of the fuzz target and the replay test: one token ("fuzz"), small limits so that
// 413 and 431 are in reach.
inline HttpServerOptions fuzz_options() {
  HttpServerOptions o;
  UserInfo admin;
  admin.name = "fuzz";
  admin.groups = {"system:masters"};
  o.tokens["fuzz"] = admin;
  o.max_body_bytes = 64 * 1024;
  o.max_header_bytes = 8 * 1024;
  return o;
}

}  // namespace kubesim::fakeapi::http::testing

#endif  // KUBESIM_TESTS_FAKEAPI_HTTP_FUZZ_ANSWER_CHECKS_H_
