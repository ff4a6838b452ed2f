// A test double of structured-merge-diff's fixture.State: one object, its managed fields, and
// Apply/Update operations by named managers, run through the apply library at one apiVersion.
#ifndef KUBESIM_TESTS_APPLY_APPLY_STATE_H_
#define KUBESIM_TESTS_APPLY_APPLY_STATE_H_

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "fakeapi/internal/apply/field_walk.h"
#include "fakeapi/internal/apply/managed_fields.h"

namespace kubesim::fakeapi::apply::testing {

class ApplyState {
 public:
  explicit ApplyState(TypeRef type) : type_(type) {}

  // An Apply; the Status of a refused one is kept in last_error().
  bool apply(const std::string& manager, const nlohmann::json& config, bool force = false) {
    auto out = apply_configuration(object_, config, managed_, type_, manager, force, context());
    if (!out) {
      last_error_ = out.status();
      return false;
    }
    object_ = out.value().object;
    managed_ = out.value().managed;
    return true;
  }
  bool force_apply(const std::string& manager, const nlohmann::json& config) {
    return apply(manager, config, true);
  }
  void update(const std::string& manager, const nlohmann::json& next) {
    record_update(managed_, object_, next, type_, manager, context());
    object_ = next;
  }

  const nlohmann::json& object() const { return object_; }
  const ManagedFields& managed() const { return managed_; }
  const api::Status& last_error() const { return last_error_; }

  // The FieldsV1 of `manager`'s entry (any operation); null when it has none.
  nlohmann::json fields(const std::string& manager) const {
    for (const ManagedEntry& m : managed_) {
      if (m.manager == manager) return m.fields.to_fields_v1();
    }
    return nullptr;
  }
  const ManagedEntry* entry(const std::string& manager) const {
    for (const ManagedEntry& m : managed_) {
      if (m.manager == manager) return &m;
    }
    return nullptr;
  }

 private:
  OperationContext context() {
    OperationContext c;
    c.api_version = "v1";
    c.now = "2026-01-01T00:00:" + std::string(tick_ < 10 ? "0" : "") + std::to_string(tick_) + "Z";
    ++tick_;
    c.object_label = "default/test; v1, Kind=Test";
    return c;
  }

  TypeRef type_;
  nlohmann::json object_ = nlohmann::json::object();
  ManagedFields managed_;
  api::Status last_error_;
  int tick_ = 0;
};

}  // namespace kubesim::fakeapi::apply::testing

#endif  // KUBESIM_TESTS_APPLY_APPLY_STATE_H_
