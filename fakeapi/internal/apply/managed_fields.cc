// metadata.managedFields entries: DecodeManagedFields, encodeManagedFields and
// sortEncodedManagedFields (managedfields.go), BuildManagerIdentifier, printManager
// (conflict.go), and the reset fields of kubesim's endpoints.
#include <algorithm>

#include "fakeapi/internal/apply/managed_fields.h"
#include "fakeapi/internal/patch/patch_meta.h"
#include "kubesim/api/go_strings.h"

namespace kubesim::fakeapi::apply {
namespace {

using nlohmann::json;

std::string string_member(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The Unix seconds of an RFC 3339 time (0 when unset), for the sort: the times kube writes are
// all in UTC with a Z, so their text orders as their seconds do.
std::string_view seconds_text(const std::string& time) {
  return std::string_view(time).substr(0, std::min<std::size_t>(time.size(), 19));
}

}  // namespace

std::string ManagedEntry::identifier() const {
  // json.Marshal of the entry without fieldsType, fieldsV1 and time, in the Go struct's field
  // order; an Apply's apiVersion left out.
  std::string out = "{";
  auto add = [&](const char* key, const std::string& value) {
    if (value.empty()) return;
    if (out.size() > 1) out += ",";
    out += "\"" + std::string(key) + "\":" + internal::go_marshal(json(value));
  };
  add("manager", manager);
  add("operation", operation);
  if (operation != kOperationApply) add("apiVersion", api_version);
  add("subresource", subresource);
  return out + "}";
}

std::string ManagedEntry::printed() const {
  std::string out = api::go_quote(manager);
  if (!subresource.empty()) out += " with subresource " + api::go_quote(subresource);
  if (operation == kOperationUpdate) out += " using " + api_version;
  return out;
}

std::optional<ManagedFields> decode_managed_fields(const json& entries, std::string* error) {
  auto fail = [&](std::string text) -> std::optional<ManagedFields> {
    if (error != nullptr) *error = std::move(text);
    return std::nullopt;
  };
  ManagedFields out;
  if (entries.is_null()) return out;
  if (!entries.is_array()) return fail("managedFields must be a list");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const json& e = entries[i];
    if (!e.is_object()) return fail("managed fields entry " + std::to_string(i) + " is not an object");
    ManagedEntry entry;
    entry.manager = string_member(e, "manager");
    entry.operation = string_member(e, "operation");
    entry.api_version = string_member(e, "apiVersion");
    entry.subresource = string_member(e, "subresource");
    entry.time = string_member(e, "time");
    if (entry.operation != kOperationApply && entry.operation != kOperationUpdate) {
      return fail("operation must be `Apply` or `Update`");
    }
    if (entry.api_version.empty()) return fail("apiVersion must not be empty");
    const std::string type = string_member(e, "fieldsType");
    if (type.empty()) return fail("missing fieldsType in managed fields entry " + std::to_string(i));
    if (type != "FieldsV1") {
      return fail("invalid fieldsType \"" + type + "\" in managed fields entry " + std::to_string(i));
    }
    std::string set_error;
    auto it = e.find("fieldsV1");
    auto fields = FieldSet::from_fields_v1(it == e.end() ? json::object() : *it, &set_error);
    if (!fields) return fail("error decoding set: " + set_error);
    entry.fields = std::move(*fields);
    // A later entry of the same manager replaces an earlier one, as the decoded map does.
    const std::string id = entry.identifier();
    auto same = std::find_if(out.begin(), out.end(),
                             [&](const ManagedEntry& m) { return m.identifier() == id; });
    if (same != out.end()) {
      *same = std::move(entry);
    } else {
      out.push_back(std::move(entry));
    }
  }
  return out;
}

bool resets_managed_fields(const json& entries) {
  if (!entries.is_array()) return false;
  if (entries.empty()) return true;
  return entries.size() == 1 && entries[0].is_object() && entries[0].empty();
}

json encode_managed_fields(ManagedFields managed) {
  if (managed.empty()) return nullptr;
  std::stable_sort(managed.begin(), managed.end(), [](const ManagedEntry& p, const ManagedEntry& q) {
    if (p.operation != q.operation) return p.operation < q.operation;
    if (seconds_text(p.time) != seconds_text(q.time)) return seconds_text(p.time) < seconds_text(q.time);
    if (p.manager != q.manager) return p.manager < q.manager;
    if (p.api_version != q.api_version) return p.api_version < q.api_version;
    return p.subresource < q.subresource;
  });
  json out = json::array();
  for (const ManagedEntry& m : managed) {
    json e = json::object();
    if (!m.manager.empty()) e["manager"] = m.manager;
    e["operation"] = m.operation;
    e["apiVersion"] = m.api_version;
    if (!m.time.empty()) e["time"] = m.time;
    e["fieldsType"] = "FieldsV1";
    e["fieldsV1"] = m.fields.to_fields_v1();
    if (!m.subresource.empty()) e["subresource"] = m.subresource;
    out.push_back(std::move(e));
  }
  return out;
}

FieldSet reset_fields_for(bool has_status, std::string_view subresource, const json& object) {
  FieldSet reset;
  if (subresource == "status") {
    if (object.is_object()) {
      for (const auto& [key, value] : object.items()) {
        if (key != "status") reset.insert({field_element(key)});
      }
    }
    for (const char* key : {"apiVersion", "kind", "metadata", "spec"}) reset.insert({field_element(key)});
  } else if (has_status) {
    reset.insert({field_element("status")});
  }
  return reset;
}

}  // namespace kubesim::fakeapi::apply
