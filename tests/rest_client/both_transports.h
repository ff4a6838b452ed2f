// The same Client test cases over both transports: the in-process client, and RestClient over a
// loopback socket to the fakeapi HTTP front end — the same ApiServer, on one real-mode loop that
// the test thread drives (the HTTP server's and RestClient's I/O threads hand their work to it).
#ifndef KUBESIM_TESTS_REST_CLIENT_BOTH_TRANSPORTS_H_
#define KUBESIM_TESTS_REST_CLIENT_BOTH_TRANSPORTS_H_

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/client.h"
#include "api/rest/rest_client.h"
#include "fakeapi/http/http_server.h"
#include "fakeapi/inprocess_client.h"
#include "fakeapi/server.h"
#include "tests/rest_client/real_loop.h"

namespace kubesim::api::rest::testing {

enum class Transport { kInProcess, kRest };

inline std::string transport_name(const ::testing::TestParamInfo<Transport>& info) {
  return info.param == Transport::kRest ? "Rest" : "InProcess";
}

inline const GroupVersionResource kConfigMaps{"", "v1", "configmaps"};
inline const GroupVersionResource kDeployments{"apps", "v1", "deployments"};
inline const GroupVersionResource kNamespaces{"", "v1", "namespaces"};
inline const GroupVersionResource kCrds{"apiextensions.k8s.io", "v1", "customresourcedefinitions"};
inline const GroupVersionResource kWidgets{"example.com", "v1", "widgets"};

class BothTransportsTest : public ::testing::TestWithParam<Transport> {
 protected:
  BothTransportsTest() {
    api_ = std::make_unique<fakeapi::ApiServer>(loop_);
    if (GetParam() == Transport::kRest) {
      fakeapi::http::HttpServerOptions o;
      fakeapi::http::UserInfo admin;
      admin.name = "admin";
      admin.groups = {"system:masters"};
      o.tokens["test-token"] = admin;
      http_ = std::make_unique<fakeapi::http::HttpServer>(loop_, *api_, o);
      RestConfig config;
      config.server = http_->url();
      config.bearer_token = "test-token";
      config.qps = -1;  // no client-side limit in tests
      client_ = std::make_unique<RestClient>(loop_, config);
    } else {
      client_ = std::make_unique<fakeapi::InProcessClient>(*api_);
    }
  }
  ~BothTransportsTest() override {
    client_.reset();
    if (http_) http_->stop(std::chrono::seconds(1));
    http_.reset();
  }

  Client& c() { return *client_; }
  // A context that ends a hung test instead of hanging it.
  sim::Context ctx() { return guard(loop_).ctx; }
  template <class T>
  T run(sim::Task<T> task) {
    return run_real(loop_, std::move(task));
  }

  ObjectPtr cm(const std::string& name, const std::string& value = "v",
               nlohmann::json labels = nlohmann::json::object()) {
    nlohmann::json meta = {{"name", name}, {"namespace", "default"}};
    if (!labels.empty()) meta["labels"] = labels;
    return make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}, {"data", {{"k", value}}}});
  }
  ObjectPtr create_cm(const std::string& name, const std::string& value = "v",
                      nlohmann::json labels = nlohmann::json::object()) {
    auto r = run(c().create(ctx(), kConfigMaps, "default", cm(name, value, labels), CreateOptions()));
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : nullptr;
  }
  // The next `n` events of `w` (fewer if it ends).
  std::vector<WatchEvent> take(WatchStream& w, std::size_t n) {
    std::vector<WatchEvent> out;
    while (out.size() < n) {
      auto e = run(w.next(ctx()));
      if (!e) break;
      out.push_back(std::move(*e));
    }
    return out;
  }

  sim::Loop loop_{real_mode()};
  std::unique_ptr<fakeapi::ApiServer> api_;
  std::unique_ptr<fakeapi::http::HttpServer> http_;
  std::unique_ptr<Client> client_;
};

}  // namespace kubesim::api::rest::testing

#endif  // KUBESIM_TESTS_REST_CLIENT_BOTH_TRANSPORTS_H_
