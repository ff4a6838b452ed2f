// ObjectMeta validation: apimachinery's pkg/api/validation/objectmeta.go
// (ValidateObjectMetaAccessor, ValidateObjectMetaAccessorUpdate, ValidateOwnerReferences,
// ValidateFinalizers, ValidateAnnotations), pkg/apis/meta/v1/validation (ValidateLabels) and the
// finalizer rule core's ValidateObjectMeta adds.
#include <algorithm>
#include <cctype>
#include <set>

#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

constexpr std::int64_t kTotalAnnotationSizeLimit = 256 * (1 << 10);
constexpr std::string_view kImmutable = "field is immutable";

// maskTrailingDash, quirk included: it drops the last two characters before appending 'a'.
std::string mask_trailing_dash(std::string_view name) {
  if (name.size() > 1 && name.back() == '-') {
    return std::string(name.substr(0, name.size() - 2)) + "a";
  }
  return std::string(name);
}

std::vector<std::string> path_segment_prefix_messages(std::string_view name) {
  std::vector<std::string> errs;
  for (std::string_view illegal : {std::string_view("/"), std::string_view("%")}) {
    if (name.find(illegal) != std::string_view::npos) {
      errs.push_back("may not contain '" + std::string(illegal) + "'");
    }
  }
  return errs;
}

bool is_standard_finalizer(std::string_view f) {
  return f == "kubernetes" || f == "orphan" || f == "foregroundDeletion";
}

// An OwnerReference as Go's json.Marshal prints it (fields in declaration order).
nlohmann::ordered_json owner_ref_json(const Json& ref) {
  nlohmann::ordered_json out;
  for (const char* f : {"apiVersion", "kind", "name", "uid"}) out[f] = string_member(ref, f);
  for (const char* f : {"controller", "blockOwnerDeletion"}) {
    const Json& b = member(ref, f);
    if (b.is_boolean()) out[f] = b.get<bool>();
  }
  return out;
}

void validate_owner_reference(const Json& ref, const std::string& path, FieldErrors& errs) {
  const std::string api_version = string_member(ref, "apiVersion");
  const std::string kind = string_member(ref, "kind");
  std::optional<api::GroupVersion> gv = api::parse_api_version(api_version);
  if (api_version.empty()) {
    errs.required(child(path, "apiVersion"), "must not be empty");
  } else if (!gv || gv->version.empty()) {
    errs.invalid(child(path, "apiVersion"), quote(api_version),
                 "must be <group>/<version> or <version>");
  }
  if (kind.empty()) errs.required(child(path, "kind"), "must not be empty");
  if (string_member(ref, "name").empty()) errs.required(child(path, "name"), "must not be empty");
  if (string_member(ref, "uid").empty()) errs.required(child(path, "uid"), "must not be empty");
  if (gv && gv->group.empty() && gv->version == "v1" && kind == "Event") {
    errs.invalid(path, go_json(owner_ref_json(ref)),
                 "/v1, Kind=Event is disallowed from being an owner");
  }
}


std::vector<std::string> string_list(const Json& j) {
  std::vector<std::string> out;
  if (!j.is_array()) return out;
  for (const Json& v : j) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}


// validateKubeFinalizerName for each finalizer, at its index.
void validate_kube_finalizers(const Subject& s, FieldErrors& errs) {
  if (!s.meta.kube_finalizers) return;
  const Json& finalizers = member(s.metadata(), "finalizers");
  if (!finalizers.is_array()) return;
  for (std::size_t i = 0; i < finalizers.size(); ++i) {
    if (!finalizers[i].is_string()) continue;
    const std::string& f = finalizers[i].get_ref<const std::string&>();
    if (f.find('/') == std::string::npos && !is_standard_finalizer(f)) {
      errs.invalid(index("metadata.finalizers", i), quote(f),
                   "name is neither a standard finalizer name nor is it fully qualified");
    }
  }
}

std::string effective_namespace(const Subject& s) {
  if (!s.meta.namespaced) return "";
  const std::string ns = string_member(s.metadata(), "namespace");
  return ns.empty() ? std::string(s.ns) : ns;
}

void validate_immutable_string(const Json& meta, const Json& old_meta, const char* field,
                               FieldErrors& errs) {
  const std::string now = string_member(meta, field);
  if (now != string_member(old_meta, field)) {
    errs.invalid(child("metadata", field), quote(now), kImmutable);
  }
}

}  // namespace

void validate_owner_references(const Json& refs, std::string_view path, FieldErrors& errs) {
  if (!refs.is_array()) return;
  std::string first_controller;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const Json& ref = refs[i];
    validate_owner_reference(ref, index(path, i), errs);
    const Json& controller = member(ref, "controller");
    if (!controller.is_boolean() || !controller.get<bool>()) continue;
    const std::string current = string_member(ref, "kind") + "/" + string_member(ref, "name");
    if (first_controller.empty()) {
      first_controller = current;
      continue;
    }
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const Json& r : refs) all.push_back(owner_ref_json(r));
    errs.invalid(
        std::string(path), go_json(all),
        "Only one reference can have Controller set to true. Found \"true\" in references for " +
            first_controller + " and " + current);
  }
}

void validate_finalizers(const Json& finalizers, std::string_view path, FieldErrors& errs) {
  const std::vector<std::string> names = string_list(finalizers);
  bool orphan = false;
  bool foreground = false;
  for (const std::string& f : names) {
    for (const std::string& msg : api::is_qualified_name(f)) errs.invalid(std::string(path), quote(f), msg);
    orphan = orphan || f == "orphan";
    foreground = foreground || f == "foregroundDeletion";
  }
  if (orphan && foreground) {
    errs.invalid(std::string(path), go_json(finalizers),
                 "finalizer orphan and foregroundDeletion cannot be both set");
  }
}

std::vector<std::string> dns_label_messages(std::string_view value) {
  return api::is_dns1123_label(value);
}

std::vector<std::string> dns_subdomain_messages(std::string_view value) {
  return api::is_dns1123_subdomain(value);
}

std::vector<std::string> name_messages(std::string_view name, api::NameRule rule, bool prefix) {
  const std::string value = prefix ? mask_trailing_dash(name) : std::string(name);
  switch (rule) {
    case api::NameRule::kDns1123Subdomain:
      return dns_subdomain_messages(value);
    case api::NameRule::kDns1123Label:
      return dns_label_messages(value);
    case api::NameRule::kDns1035Label:
      return api::is_dns1035_label(value);
    case api::NameRule::kPathSegment:
      return prefix ? path_segment_prefix_messages(name) : api::is_valid_path_segment_name(name);
  }
  return {};
}

std::vector<std::string> config_key_messages(std::string_view key) {
  std::vector<std::string> errs;
  if (key.size() > 253) errs.emplace_back("must be no more than 253 characters");
  const bool chars_ok = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
  });
  if (!chars_ok) {
    errs.emplace_back(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. "
        "'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is "
        "'[-._a-zA-Z0-9]+')");
  }
  if (key == ".") {
    errs.emplace_back("must not be '.'");
  } else if (key == "..") {
    errs.emplace_back("must not be '..'");
  } else if (key.rfind("..", 0) == 0) {
    errs.emplace_back("must not start with '..'");
  }
  return errs;
}

void validate_label_name(std::string_view name, std::string_view path, FieldErrors& errs) {
  for (const std::string& msg : api::is_qualified_name(name)) errs.invalid(std::string(path), quote(name), msg);
}

void validate_label_map(const Json& labels, std::string_view path, FieldErrors& errs) {
  if (!labels.is_object()) return;
  for (const auto& [k, v] : labels.items()) {
    validate_label_name(k, path, errs);
    if (!v.is_string()) continue;
    const std::string& value = v.get_ref<const std::string&>();
    for (const std::string& msg : api::is_valid_label_value(value)) {
      errs.invalid(std::string(path), quote(value), msg);
    }
  }
}

void validate_annotation_map(const Json& annotations, std::string_view path, FieldErrors& errs) {
  if (!annotations.is_object()) return;
  std::int64_t total = 0;
  for (const auto& [k, v] : annotations.items()) {
    std::string lower = k;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const std::string& msg : api::is_qualified_name(lower)) errs.invalid(std::string(path), quote(k), msg);
    total += static_cast<std::int64_t>(k.size());
    if (v.is_string()) total += static_cast<std::int64_t>(v.get_ref<const std::string&>().size());
  }
  if (total > kTotalAnnotationSizeLimit) errs.too_long(std::string(path), kTotalAnnotationSizeLimit);
}

void validate_finalizer_name(std::string_view name, std::string_view path, FieldErrors& errs) {
  for (const std::string& msg : api::is_qualified_name(name)) errs.invalid(std::string(path), quote(name), msg);
  if (name.find('/') == std::string_view::npos && !is_standard_finalizer(name)) {
    errs.invalid(std::string(path), quote(name),
                 "name is neither a standard finalizer name nor is it fully qualified");
  }
}

void validate_nonnegative(const Json& value, std::string_view path, FieldErrors& errs) {
  if (auto v = as_int(value); v && *v < 0) {
    errs.invalid(std::string(path), render_int(*v), "must be greater than or equal to 0");
  }
}

void validate_meta_create(const Subject& s, FieldErrors& errs) {
  if (s.meta_unchanged) return;
  const Json& meta = s.metadata();
  const std::string generate_name = string_member(meta, "generateName");
  const std::string name = string_member(meta, "name");
  if (!generate_name.empty()) {
    for (const std::string& msg : name_messages(generate_name, s.meta.name_rule, true)) {
      errs.invalid("metadata.generateName", quote(generate_name), msg);
    }
  }
  // The server generates the name after validation, so a generateName stands in for it.
  if (name.empty() && generate_name.empty()) {
    errs.required("metadata.name", "name or generateName is required");
  } else if (!name.empty()) {
    for (const std::string& msg : name_messages(name, s.meta.name_rule, false)) {
      errs.invalid("metadata.name", quote(name), msg);
    }
  }
  if (s.meta.namespaced) {
    const std::string ns = effective_namespace(s);
    if (ns.empty()) {
      errs.required("metadata.namespace");
    } else {
      for (const std::string& msg : dns_label_messages(ns)) {
        errs.invalid("metadata.namespace", quote(ns), msg);
      }
    }
  }
  validate_nonnegative(member(meta, "generation"), "metadata.generation", errs);
  validate_label_map(member(meta, "labels"), "metadata.labels", errs);
  validate_annotation_map(member(meta, "annotations"), "metadata.annotations", errs);
  validate_owner_references(member(meta, "ownerReferences"), "metadata.ownerReferences", errs);
  validate_finalizers(member(meta, "finalizers"), "metadata.finalizers", errs);
  validate_kube_finalizers(s, errs);
}

void validate_meta_update(const Subject& s, FieldErrors& errs) {
  if (s.meta_unchanged) return;
  const Json& meta = s.metadata();
  const Json& old_meta = s.old_metadata();
  if (present(member(old_meta, "deletionTimestamp"))) {
    const std::vector<std::string> now = string_list(member(meta, "finalizers"));
    const std::vector<std::string> before = string_list(member(old_meta, "finalizers"));
    std::set<std::string> extra(now.begin(), now.end());
    for (const std::string& f : before) extra.erase(f);
    if (!extra.empty()) {
      errs.forbidden(
          "metadata.finalizers",
          "no new finalizers can be added if the object is being deleted, found new finalizers " +
              go_string_slice({extra.begin(), extra.end()}));
    }
  }
  validate_meta_identity(s, errs);
  // creationTimestamp is not checked: BeforeUpdate restores the stored one, as the server does.
  // deletionTimestamp and deletionGracePeriodSeconds are restored when the stored object has them.
  const Json& deletion = member(meta, "deletionTimestamp");
  if (!present(member(old_meta, "deletionTimestamp")) && present(deletion)) {
    errs.invalid("metadata.deletionTimestamp", render(deletion), kImmutable);
  }
  const Json& grace = member(meta, "deletionGracePeriodSeconds");
  const Json& old_grace = member(old_meta, "deletionGracePeriodSeconds");
  if (present(grace) && grace != old_grace) {
    errs.invalid("metadata.deletionGracePeriodSeconds", render(grace), kImmutable);
  }
  validate_label_map(member(meta, "labels"), "metadata.labels", errs);
  validate_annotation_map(member(meta, "annotations"), "metadata.annotations", errs);
  validate_owner_references(member(meta, "ownerReferences"), "metadata.ownerReferences", errs);
  validate_kube_finalizers(s, errs);
}

void validate_meta_identity(const Subject& s, FieldErrors& errs) {
  if (s.meta_unchanged) return;
  const Json& meta = s.metadata();
  const Json& old_meta = s.old_metadata();
  validate_immutable_string(meta, old_meta, "name", errs);
  if (s.meta.namespaced) {
    const std::string ns = effective_namespace(s);
    std::string old_ns = string_member(old_meta, "namespace");
    if (old_ns.empty()) old_ns = std::string(s.ns);
    if (ns != old_ns) errs.invalid("metadata.namespace", quote(ns), kImmutable);
  }
  // An update without a uid keeps the stored one.
  if (!string_member(meta, "uid").empty()) validate_immutable_string(meta, old_meta, "uid", errs);
}

std::string port_range_message() { return "must be between 1 and 65535, inclusive"; }

std::vector<std::string> port_name_messages(std::string_view port) {
  std::vector<std::string> errs;
  if (port.size() > 15) errs.emplace_back("must be no more than 15 characters");
  const bool charset = !port.empty() && std::all_of(port.begin(), port.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
  if (!charset) {
    errs.emplace_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  }
  if (std::none_of(port.begin(), port.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
    errs.emplace_back("must contain at least one letter (a-z)");
  }
  if (port.find("--") != std::string_view::npos) {
    errs.emplace_back("must not contain consecutive hyphens");
  }
  if (!port.empty() && (port.front() == '-' || port.back() == '-')) {
    errs.emplace_back("must not begin or end with a hyphen");
  }
  return errs;
}

void validate_port_num_or_name(const Json& port, const std::string& path, FieldErrors& errs) {
  if (port.is_string()) {
    const std::string& name = port.get_ref<const std::string&>();
    for (const std::string& msg : port_name_messages(name)) errs.invalid(path, quote(name), msg);
    return;
  }
  const std::int64_t n = as_int(port).value_or(0);
  if (n < 1 || n > 65535) errs.invalid(path, render_int(n), port_range_message());
}

}  // namespace kubesim::fakeapi::internal::validation
