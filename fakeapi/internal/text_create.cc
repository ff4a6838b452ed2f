#include "fakeapi/internal/text_create.h"

#include "api/validation.h"
#include "fakeapi/internal/text_members.h"
#include "fakeapi/internal/validation_rules.h"

namespace kubesim::fakeapi::internal {
namespace {

// The string value's contents, when it is a string that needs no unescaping.
std::optional<std::string_view> plain_string(std::string_view value) {
  if (value.size() < 2 || value.front() != '"' || value.back() != '"') return std::nullopt;
  const std::string_view raw = value.substr(1, value.size() - 2);
  if (raw.find('\\') != std::string_view::npos) return std::nullopt;
  return raw;
}

// Labels the general path accepts and stores as they are: a non-empty map of valid label keys
// and values, written plainly.
bool labels_as_stored(std::string_view labels) {
  if (labels.size() < 2 || labels[0] != '{' || labels[1] == '}') return false;
  bool ok = true;
  json_text::for_each_member(labels, 0, [&](const json_text::Member& m) {
    const auto value = plain_string(labels.substr(m.value_begin, m.value_end - m.value_begin));
    ok = !m.escaped_key && value && api::is_qualified_name(m.raw_key).empty() &&
         api::is_valid_label_value(*value).empty();
    return ok;
  });
  return ok;
}

}  // namespace

std::optional<TextCreate> plan_text_create(const ResourceInfo& info, const api::Object& object,
                                           std::string_view ns) {
  if (info.custom || info.gvr.group != "" || info.kind != "ConfigMap" || !info.namespaced ||
      !validation::dns_label_messages(ns).empty()) {
    return std::nullopt;
  }
  Members top;
  if (!top.read(object.serialized())) return std::nullopt;
  TextCreate plan;
  const Members::Member* meta = nullptr;
  for (std::size_t i = 0; i < top.size(); ++i) {
    const Members::Member& m = top[i];
    const std::string_view value = top.value(m);
    if (m.key == "apiVersion" && value == "\"v1\"") continue;
    if (m.key == "kind" && value == "\"ConfigMap\"") continue;
    if (m.key == "data" && config_map_data_as_stored(value)) {
      plan.data = value;
    } else if (m.key == "metadata") {
      meta = &m;
    } else {
      return std::nullopt;
    }
  }
  if (meta == nullptr || top.find("apiVersion") == nullptr || top.find("kind") == nullptr) {
    return std::nullopt;
  }
  Members fields;
  if (!fields.read(top.value(*meta))) return std::nullopt;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const Members::Member& f = fields[i];
    const std::string_view value = fields.value(f);
    if (f.key == "name") {
      const auto name = plain_string(value);
      if (!name || name->empty() ||
          !validation::name_messages(*name, info.name_rule, false).empty()) {
        return std::nullopt;
      }
      plan.name = *name;
    } else if (f.key == "namespace") {
      if (plain_string(value) != ns) return std::nullopt;
    } else if (f.key == "labels") {
      if (!labels_as_stored(value)) return std::nullopt;
      plan.labels = value;
    } else if (f.key != "uid" || !plain_string(value)) {
      // The server replaces a uid; anything else is the general path's.
      return std::nullopt;
    }
  }
  if (plan.name.empty()) return std::nullopt;
  return plan;
}

std::string text_create(const ResourceInfo& info, const TextCreate& plan, std::string_view ns,
                        std::string_view uid, std::string_view creation_timestamp,
                        std::string_view resource_version) {
  // The members in key order, as the general path writes them.
  std::string out;
  out.reserve(plan.data.size() + plan.labels.size() + plan.name.size() + ns.size() + 200);
  const auto string_member = [&out](std::string_view key, std::string_view value) {
    out.append("\"").append(key).append("\":\"").append(value).append("\"");
  };
  out += '{';
  string_member("apiVersion", info.api_version());
  if (!plan.data.empty()) out.append(",\"data\":").append(plan.data);
  out += ',';
  string_member("kind", info.kind);
  out.append(",\"metadata\":{");
  string_member("creationTimestamp", creation_timestamp);
  if (!plan.labels.empty()) out.append(",\"labels\":").append(plan.labels);
  out += ',';
  string_member("name", plan.name);
  out += ',';
  string_member("namespace", ns);
  out += ',';
  string_member("resourceVersion", resource_version);
  out += ',';
  string_member("uid", uid);
  out.append("}}");
  return out;
}

}  // namespace kubesim::fakeapi::internal
