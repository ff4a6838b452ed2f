// The fixture the ApiServer tests share: a loop, a server on it, and the calls the tests make
// over and over (create/get/update of ConfigMaps in "default", watches from now), plus the
// builders of fault rules. Object builders and the event log are in testing_util.h.
#ifndef KUBESIM_TESTS_FAKEAPI_FIXTURES_H_
#define KUBESIM_TESTS_FAKEAPI_FIXTURES_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/fakeapi/faults.h"
#include "kubesim/fakeapi/server.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi::testutil {

// A rule injecting the error `code`/`reason` with `message`.
inline FaultRule error_rule(int code, api::StatusReason reason, std::string message) {
  api::Status status;
  status.code = code;
  status.reason = reason;
  status.message = std::move(message);
  return FaultRule::error(std::move(status));
}

class ServerTest : public ::testing::Test {
 protected:
  ServerTest() : server_(loop_) {}
  explicit ServerTest(ServerOptions options) : server_(loop_, std::move(options)) {}

  // The value of a call that must succeed (null, and a test failure, otherwise).
  api::ObjectPtr must(api::Result<api::ObjectPtr> r) {
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : nullptr;
  }
  // ConfigMap `name` in "default" with `data`, `labels` and `finalizers`.
  api::ObjectPtr create_cm(const std::string& name, const StringMap& data = {},
                           const StringMap& labels = {}, const std::vector<std::string>& finalizers = {}) {
    auto obj = config_map("default", name, data, labels);
    if (!finalizers.empty()) obj = obj->with_finalizers(finalizers);
    return must(server_.create(kConfigMaps, "default", obj, api::CreateOptions()));
  }
  api::Result<api::ObjectPtr> get_cm(const std::string& name) {
    return server_.get(kConfigMaps, "default", name, api::GetOptions());
  }
  api::Result<api::ObjectPtr> delete_cm(const std::string& name, api::DeleteOptions options = {}) {
    return server_.delete_(kConfigMaps, "default", name, options);
  }
  // An update of a ConfigMap or a Deployment (by its kind), of the main resource or its status.
  api::Result<api::ObjectPtr> update(const api::ObjectPtr& obj, bool status = false) {
    return server_.update(obj->gvk().kind == "Deployment" ? kDeployments : kConfigMaps,
                          std::string(obj->namespace_()), obj, api::UpdateOptions(),
                          status ? api::Subresource::kStatus : api::Subresource::kNone);
  }
  static api::ObjectPtr with_data(const api::ObjectPtr& obj, const std::string& key,
                                  const std::string& value) {
    return obj->edited([&](nlohmann::json& j) { j["data"][key] = value; });
  }
  // A watch of `gvr` in `ns` ("" for all) from the current revision.
  std::unique_ptr<EventLog> watch_from_now(const api::GroupVersionResource& gvr, const std::string& ns = "") {
    api::ListOptions options;
    options.resource_version = std::to_string(server_.revision());
    auto w = server_.watch(gvr, ns, options);
    EXPECT_TRUE(w.ok()) << w.status();
    if (!w.ok()) return nullptr;
    return std::make_unique<EventLog>(loop_, std::move(w.value()));
  }

  sim::Loop loop_;
  ApiServer server_;
};

}  // namespace kubesim::fakeapi::testutil

#endif  // KUBESIM_TESTS_FAKEAPI_FIXTURES_H_
