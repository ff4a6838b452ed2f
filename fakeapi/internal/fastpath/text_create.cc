#include "fakeapi/internal/fastpath/text_create.h"

#include "kubesim/api/validation.h"
#include "fakeapi/internal/fastpath/text_members.h"
#include "fakeapi/internal/server_util.h"
#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal {
namespace {

// The string value's contents, when it is a string that needs no unescaping.
std::optional<std::string_view> plain_string(std::string_view value) {
  if (value.size() < 2 || value.front() != '"' || value.back() != '"') return std::nullopt;
  const std::string_view raw = value.substr(1, value.size() - 2);
  if (raw.find('\\') != std::string_view::npos) return std::nullopt;
  return raw;
}

// The checks of both plans on one value: a name, a label.
bool name_as_stored(const ResourceInfo& info, std::string_view name) {
  return !name.empty() && validation::name_messages(name, info.name_rule, false).empty();
}
// A generateName the general path accepts and keeps: a valid prefix whose drawn names are valid.
bool generate_name_as_stored(const ResourceInfo& info, std::string_view prefix) {
  return !prefix.empty() && validation::name_messages(prefix, info.name_rule, true).empty() &&
         name_as_stored(info, generated_name(prefix, nullptr));
}
bool label_as_stored(std::string_view key, std::string_view value) {
  return api::is_qualified_name(key).empty() && api::is_valid_label_value(value).empty();
}

// Labels the general path accepts and stores as they are: a non-empty map of valid label keys
// and values, written plainly.
bool labels_as_stored(std::string_view labels) {
  if (labels.size() < 2 || labels[0] != '{' || labels[1] == '}') return false;
  bool ok = true;
  json_text::for_each_member(labels, 0, [&](const json_text::Member& m) {
    const auto value = plain_string(labels.substr(m.value_begin, m.value_end - m.value_begin));
    ok = !m.escaped_key && value && label_as_stored(m.raw_key, *value);
    return ok;
  });
  return ok;
}

using Json = nlohmann::json;

const std::string* tree_string(const Json& j) {
  return j.is_string() ? &j.get_ref<const std::string&>() : nullptr;
}

// plan_text_create for an object held as a JSON tree: the same checks on the tree's values.
std::optional<TextCreate> plan_tree_create(const ResourceInfo& info, const Json& j,
                                           std::string_view ns) {
  TextCreate plan;
  bool api_version = false;
  bool kind = false;
  const Json* meta = nullptr;
  for (const auto& [key, value] : j.items()) {
    const std::string* text = tree_string(value);
    if (key == "apiVersion" && text && *text == "v1") {
      api_version = true;
    } else if (key == "kind" && text && *text == "ConfigMap") {
      kind = true;
    } else if (key == "data" && value.is_object() && !value.empty()) {
      std::int64_t total = 0;
      for (const auto& [k, v] : value.items()) {
        const std::string* entry = tree_string(v);
        if (!entry || !validation::config_key_messages(k).empty()) return std::nullopt;
        total += static_cast<std::int64_t>(entry->size());
      }
      if (total > kMaxConfigMapSize) return std::nullopt;
      plan.data_tree = &value;
    } else if (key == "metadata" && value.is_object()) {
      meta = &value;
    } else {
      return std::nullopt;
    }
  }
  if (!api_version || !kind || meta == nullptr) return std::nullopt;
  for (const auto& [key, value] : meta->items()) {
    const std::string* text = tree_string(value);
    if (key == "name" && text && name_as_stored(info, *text)) {
      plan.name = *text;
    } else if (key == "generateName" && text && generate_name_as_stored(info, *text)) {
      plan.generate_name = *text;
    } else if (key == "namespace" && text && *text == ns) {
      continue;
    } else if (key == "labels" && value.is_object() && !value.empty()) {
      for (const auto& [k, v] : value.items()) {
        const std::string* label = tree_string(v);
        if (!label || !label_as_stored(k, *label)) return std::nullopt;
      }
      plan.labels_tree = &value;
    } else if (key != "uid" || !text) {
      return std::nullopt;
    }
  }
  if (plan.name.empty() && plan.generate_name.empty()) return std::nullopt;
  return plan;
}

}  // namespace

std::optional<TextCreate> plan_text_create(const ResourceInfo& info, const api::Object& object,
                                           std::string_view ns) {
  if (info.custom || info.gvr.group != "" || info.kind != "ConfigMap" || !info.namespaced ||
      !validation::dns_label_messages(ns).empty()) {
    return std::nullopt;
  }
  // A tree is read as it is; writing its text first would cost more than the create.
  if (layout_of(object) == Layout::kTree) return plan_tree_create(info, object.json(), ns);
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
      if (!name || !name_as_stored(info, *name)) return std::nullopt;
      plan.name = *name;
    } else if (f.key == "generateName") {
      const auto prefix = plain_string(value);
      if (!prefix || !generate_name_as_stored(info, *prefix)) return std::nullopt;
      plan.generate_name = *prefix;
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
  if (plan.name.empty() && plan.generate_name.empty()) return std::nullopt;
  return plan;
}

api::ObjectPtr text_create(const ResourceInfo& info, const TextCreate& plan, std::string_view name,
                           std::string_view ns, std::string_view uid,
                           std::string_view creation_timestamp, std::string_view resource_version) {
  // The members in key order, as the general path writes them; every string written here needs
  // no escape (names and the server's own values), so each one's place is noted as it is written.
  std::string out;
  out.reserve(plan.data.size() + plan.labels.size() + name.size() + plan.generate_name.size() +
              ns.size() + 200);
  api::internal::WrittenMetadata written;
  const auto string_member = [&out](std::string_view key, std::string_view value) {
    out.append("\"").append(key).append("\":\"");
    const api::internal::WrittenMetadata::Span at{static_cast<std::uint32_t>(out.size()),
                                                  static_cast<std::uint32_t>(value.size())};
    out.append(value).append("\"");
    return at;
  };
  // ,"key":value from the tree when there is one, else from the text; nothing when absent.
  // Returns where the value starts, or npos.
  const auto kept_member = [&out](std::string_view key, const nlohmann::json* tree,
                                  std::string_view text) {
    if (tree == nullptr && text.empty()) return std::string_view::npos;
    out.append(",\"").append(key).append("\":");
    const std::size_t at = out.size();
    if (tree != nullptr) {
      json_text::write(*tree, out);
    } else {
      out.append(text);
    }
    return at;
  };
  out += '{';
  written.api_version = string_member("apiVersion", info.api_version());
  kept_member("data", plan.data_tree, plan.data);
  out += ',';
  written.kind = string_member("kind", info.kind);
  out.append(",\"metadata\":");
  written.metadata_begin = out.size();
  out += '{';
  written.creation_timestamp = string_member("creationTimestamp", creation_timestamp);
  if (!plan.generate_name.empty()) {
    out += ',';
    written.generate_name = string_member("generateName", plan.generate_name);
  }
  written.labels = kept_member("labels", plan.labels_tree, plan.labels);
  out += ',';
  written.name = string_member("name", name);
  out += ',';
  written.namespace_ = string_member("namespace", ns);
  out += ',';
  written.resource_version = string_member("resourceVersion", resource_version);
  out += ',';
  written.uid = string_member("uid", uid);
  out += '}';
  written.metadata_end = out.size();
  out += '}';
  return make_written_text_object(out, written);
}

}  // namespace kubesim::fakeapi::internal
