// libFuzzer target: raw bytes as one HTTP/1.1 connection's requests, through the request path
// (Beast's parser, authentication, routing, query and body decoding, the loop side and the
// store) without sockets, on a fresh server per input. Aborts when an answer breaks a rule of
// answer_checks.h; the sanitizers catch the rest.
//
//   fakeapi_http_fuzz -max_total_time=20 -dict=tests/fakeapi_http/fuzz/http.dict CORPUS_DIR SEED_DIR
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fakeapi/http/internal/offline.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/loop.h"
#include "tests/fakeapi_http/fuzz/answer_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kubesim;
  sim::Loop loop;
  fakeapi::ApiServer server(loop);
  const std::int64_t before = server.revision();
  std::vector<fakeapi::http::internal::OfflineAnswer> answers;
  {
    fakeapi::http::internal::OfflineServer offline(loop, server, fakeapi::http::testing::fuzz_options());
    answers = offline.serve(std::string_view(reinterpret_cast<const char*>(data), size));
  }
  const std::string broken = fakeapi::http::testing::check_answers(answers, before);
  if (!broken.empty()) {
    std::fprintf(stderr, "broken rule: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
