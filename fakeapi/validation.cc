// The request checks of kube-apiserver's handlers (k8s.io/apiserver pkg/endpoints/handlers:
// create.go, update.go, patch.go, rest.go's transformDecodeError and checkName; pkg/registry/rest:
// EnsureObjectNamespaceMatchesRequestNamespace), then the kind's validation rules.
#include "kubesim/fakeapi/validation.h"

#include <array>
#include <cstdio>

#include "fakeapi/internal/crd/prune.h"
#include "fakeapi/internal/encoding/types/go_encoding.h"
#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi {
namespace {

using internal::validation::FieldErrors;
using internal::validation::Json;
using internal::validation::KindRules;
using internal::validation::member;
using internal::validation::MetaRules;
using internal::validation::present;
using internal::validation::quote;
using internal::validation::string_member;
using internal::validation::Subject;

// Where kube-apiserver's scheme was created, which "not registered" errors name.
constexpr std::string_view kLegacyScheme = "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30";

struct Gvk {
  std::string group;
  std::string version;
  std::string kind;
  std::string group_version() const { return group.empty() ? version : group + "/" + version; }
};

// Types kube-apiserver's scheme knows, so a body naming one of them decodes and then fails to
// convert, rather than failing as unregistered.
bool registered(const Gvk& g) {
  struct Entry {
    std::string_view group;
    std::string_view version;
    std::string_view kinds;
  };
  static constexpr std::array<Entry, 10> kKnown = {{
      {"", "v1",
       " Pod Service ConfigMap Secret Namespace Node Endpoints Event ServiceAccount "
       "PersistentVolume "
       "PersistentVolumeClaim ReplicationController PodTemplate LimitRange ResourceQuota Binding "},
      {"apps", "v1", " Deployment ReplicaSet StatefulSet DaemonSet ControllerRevision "},
      {"batch", "v1", " Job CronJob "},
      {"coordination.k8s.io", "v1", " Lease "},
      {"apiextensions.k8s.io", "v1", " CustomResourceDefinition "},
      {"policy", "v1", " PodDisruptionBudget Eviction "},
      {"rbac.authorization.k8s.io", "v1", " Role RoleBinding ClusterRole ClusterRoleBinding "},
      {"networking.k8s.io", "v1", " Ingress IngressClass NetworkPolicy "},
      {"events.k8s.io", "v1", " Event "},
      {"discovery.k8s.io", "v1", " EndpointSlice "},
  }};
  for (const Entry& e : kKnown) {
    if (e.group == g.group && e.version == g.version &&
        e.kinds.find(" " + g.kind + " ") != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

// The Go package of a group's internal types, as conversion errors print them.
std::string internal_package(const std::string& group) {
  if (group.empty()) return "core";
  return group.substr(0, group.find('.'));
}

// summarizeData(body, 30): JSON text up to 30 bytes, or hex for anything not starting with '{'.
std::string summarize(const Json& body) {
  const std::string text = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.empty()) return "<empty>";
  const bool more = text.size() > 30;
  const std::string head = text.substr(0, 30);
  if (head.front() == '{') return more ? head + " ..." : head;
  std::string hex;
  for (unsigned char c : head) {
    std::array<char, 3> buf{};
    std::snprintf(buf.data(), buf.size(), "%02x", c);
    hex += buf.data();
  }
  return more ? hex + " ..." : hex;
}

std::string json_word(const Json& v) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  return "number";
}

api::Status unrecognized(const ResourceInfo& info, const Json& body, const std::string& error) {
  return api::new_bad_request("the object provided is unrecognized (must be of type " + info.kind +
                              "): " + error + " (" + summarize(body) + ")");
}

api::Status cannot_handle(const Gvk& data, const ResourceInfo& info, const std::string& error) {
  return api::new_bad_request(data.kind + " in version " + quote(data.version) +
                              " cannot be handled as a " + info.kind + ": " + error);
}

api::Status version_mismatch(const Gvk& data, const ResourceInfo& info) {
  return api::new_bad_request("the API version in the data (" + data.group_version() +
                              ") does not match the expected API version (" + info.api_version() +
                              ")");
}

// gvkWithDefaults: the body's type with the resource's filling in what the body leaves out.
Gvk with_defaults(Gvk data, const ResourceInfo& info) {
  if (data.kind.empty()) data.kind = info.kind;
  if (data.version.empty() && data.group.empty()) {
    data.group = info.gvr.group;
    data.version = info.gvr.version;
  }
  if (data.version.empty() && data.group == info.gvr.group) data.version = info.gvr.version;
  return data;
}

// The decode step: SimpleMetaFactory.Interpret, the scheme lookup and conversion, and the typed
// unmarshal.
std::optional<api::Status> check_decode(const ResourceInfo& info, const Json& body) {
  if (body.is_null()) return std::nullopt;  // "null" decodes to an empty object
  constexpr std::string_view parse_error =
      "couldn't get version/kind; json parse error: json: cannot unmarshal ";
  if (!body.is_object()) {
    return unrecognized(info, body,
                        std::string(parse_error) + json_word(body) +
                            " into Go value of type struct { APIVersion string "
                            "\"json:\\\"apiVersion,omitempty\\\"\"; "
                            "Kind string \"json:\\\"kind,omitempty\\\"\" }");
  }
  for (const char* f : {"apiVersion", "kind"}) {
    const Json& v = member(body, f);
    if (present(v) && !v.is_string()) {
      return unrecognized(
          info, body,
          std::string(parse_error) + json_word(v) + " into Go struct field ." + f +
              " of type string");
    }
  }
  const std::string api_version = string_member(body, "apiVersion");
  std::optional<api::GroupVersion> gv = api::parse_api_version(api_version);
  if (!gv) return unrecognized(info, body, "unexpected GroupVersion string: " + api_version);
  const Gvk data = with_defaults(Gvk{gv->group, gv->version, string_member(body, "kind")}, info);
  const bool same =
      data.group == info.gvr.group && data.version == info.gvr.version && data.kind == info.kind;
  if (info.custom) {
    // Custom resources decode as unstructured objects; only the group/version is checked here.
    if (data.group != info.gvr.group || data.version != info.gvr.version) {
      return version_mismatch(data, info);
    }
    return std::nullopt;
  }
  if (same) {
    // A Time that does not decode ends the decode: it comes before any type error.
    if (info.go_type != nullptr) {
      if (auto error = types::time_error(*info.go_type, body)) {
        return cannot_handle(data, info, *error);
      }
    }
    if (auto error = internal::validation::decode_error(info.gvr.group, info.kind, body)) {
      return cannot_handle(data, info, *error);
    }
    return std::nullopt;
  }
  if (data.version.empty()) {
    return cannot_handle(data, info,
                         "Object 'apiVersion' is missing in '" +
                             body.dump(-1, ' ', false, Json::error_handler_t::replace) + "'");
  }
  if (!registered(data)) {
    return cannot_handle(data, info,
                         "no kind " + quote(data.kind) + " is registered for version " +
                             quote(data.group_version()) + " in scheme " + quote(kLegacyScheme));
  }
  if (data.group == info.gvr.group && data.kind == info.kind) return version_mismatch(data, info);
  return cannot_handle(data, info,
                       "converting (" + data.version + "." + data.kind + ") to (" +
                           internal_package(info.gvr.group) + "." + info.kind +
                           "): unknown conversion");
}

std::optional<api::Status> check_namespace(const ResourceInfo& info, const Json& body,
                                           std::string_view ns) {
  const std::string body_ns = string_member(member(body, "metadata"), "namespace");
  if (info.namespaced && !ns.empty() && !body_ns.empty() && body_ns != ns) {
    return api::new_bad_request(
        "the namespace of the provided object does not match the namespace sent on the request");
  }
  return std::nullopt;
}

MetaRules meta_rules(const ResourceInfo& info) {
  MetaRules rules;
  rules.name_rule = info.name_rule;
  rules.namespaced = info.namespaced;
  const std::string& g = info.gvr.group;
  rules.kube_finalizers = !info.custom && (g.empty() || g == "apps" || g == "batch");
  return rules;
}

KindRules rules_for(const ResourceInfo& info) {
  using namespace internal::validation;
  if (info.custom) return custom_resource_rules();
  const KindRules generic{validate_meta_create, validate_meta_update, validate_meta_identity};
  struct Entry {
    std::string_view group;
    std::string_view kind;
    KindRules (*rules)();
  };
  static constexpr std::array<Entry, 11> kKinds = {{
      {"", "ConfigMap", config_map_rules},
      {"", "Secret", secret_rules},
      {"", "Namespace", namespace_rules},
      {"", "Service", service_rules},
      {"", "Pod", pod_rules},
      {"apps", "Deployment", deployment_rules},
      {"apps", "ReplicaSet", replica_set_rules},
      {"apps", "StatefulSet", stateful_set_rules},
      {"apps", "DaemonSet", daemon_set_rules},
      {"batch", "Job", job_rules},
      {"coordination.k8s.io", "Lease", lease_rules},
  }};
  for (const Entry& e : kKinds) {
    if (e.group == info.gvr.group && e.kind == info.kind) return e.rules();
  }
  return generic;
}

// customResourceValidator.ValidateTypeMeta: a custom resource's kind must be the CRD's.
std::optional<api::Status> check_custom_kind(const ResourceInfo& info, const Json& obj) {
  const std::string kind = string_member(obj, "kind");
  if (!info.custom || kind.empty() || kind == info.kind) return std::nullopt;
  FieldErrors errs;
  errs.invalid("kind", quote(kind), "must be " + info.kind);
  return internal::validation::invalid_status(
      {info.gvr.group, info.kind}, string_member(member(obj, "metadata"), "name"), errs.take());
}

// Whether two metadata objects are equal but for resourceVersion.
bool same_metadata(const Json& now, const Json& before) {
  if (!now.is_object() || !before.is_object()) return false;
  auto a = now.begin();
  auto b = before.begin();
  for (;;) {
    if (a != now.end() && a.key() == "resourceVersion") ++a;
    if (b != before.end() && b.key() == "resourceVersion") ++b;
    if (a == now.end() || b == before.end()) return a == now.end() && b == before.end();
    if (a.key() != b.key() || *a != *b) return false;
    ++a;
    ++b;
  }
}

std::optional<api::Status> run(const Subject& s, internal::validation::Rule rule) {
  if (auto bad = check_custom_kind(s.info, s.obj)) return bad;
  FieldErrors errs;
  if (rule != nullptr) rule(s, errs);
  if (errs.empty()) return std::nullopt;
  return internal::validation::invalid_status({s.info.gvr.group, s.info.kind},
                                              string_member(s.metadata(), "name"), errs.take());
}

// The strict decoder's second pass: fields the kind's Go type (or the custom resource's schema)
// does not have, as the paths it names.
std::vector<std::string> unknown_fields(const ResourceInfo& info, const Json& body) {
  std::vector<std::string> unknown;
  if (info.custom) {
    Json pruned = body;
    internal::prune_custom_resource(info.schema, pruned, &unknown);
  } else if (info.go_type != nullptr) {
    unknown = types::unknown_fields(*info.go_type, body);
  }
  return unknown;
}

// Strict refuses unknown fields; Warn (the default) names each in a warning, which the answer
// carries whatever happens after the decode.
std::optional<api::Status> check_strict(const ResourceInfo& info, const Json& body,
                                        api::FieldValidation field_validation, bool patched,
                                        std::vector<std::string>* warnings) {
  if (field_validation == api::FieldValidation::kIgnore) return std::nullopt;
  if (field_validation != api::FieldValidation::kStrict && warnings == nullptr) return std::nullopt;
  const std::vector<std::string> unknown = unknown_fields(info, body);
  if (unknown.empty()) return std::nullopt;
  if (field_validation != api::FieldValidation::kStrict) {
    for (const std::string& path : unknown) warnings->push_back("unknown field " + quote(path));
    return std::nullopt;
  }
  std::string error = "strict decoding error: ";
  for (std::size_t i = 0; i < unknown.size(); ++i) {
    if (i > 0) error += ", ";
    error += "unknown field " + quote(unknown[i]);
  }
  if (patched) return api::new_bad_request(error);
  const Gvk data{info.gvr.group, info.gvr.version, info.kind};
  return cannot_handle(data, info, error);
}

std::optional<api::Status> check_request(const ResourceInfo& info, const Json& body,
                                         std::string_view ns,
                                         api::FieldValidation field_validation, bool patched,
                                         std::vector<std::string>* warnings) {
  if (auto bad = check_decode(info, body)) return bad;
  if (auto bad = check_strict(info, body, field_validation, patched, warnings)) return bad;
  return check_namespace(info, body, ns);
}

}  // namespace

std::optional<api::Status> validate_create(const ResourceInfo& info, const nlohmann::json& body,
                                           std::string_view ns,
                                           api::FieldValidation field_validation,
                                           std::vector<std::string>* warnings) {
  if (auto bad = check_request(info, body, ns, field_validation, false, warnings)) return bad;
  const Subject s{info, body, nullptr, info.namespaced ? ns : std::string_view(), meta_rules(info)};
  return run(s, rules_for(info).create);
}

namespace {

// validate_update over the stored object, given either as JSON holding its members (all but
// apiVersion, kind and metadata; see api::Object::members) or as the Object, whose members the
// rules then read one by one. `old_meta` gives the stored metadata, built only when the
// ObjectMeta rules need it: when `meta_unchanged` is false.
template <typename OldMeta>
std::optional<api::Status> validate_update_of(const ResourceInfo& info, const Json* old_members,
                                              const api::Object* old_object,
                                              bool meta_unchanged, const OldMeta& old_meta,
                                              const Json& new_obj, std::string_view ns,
                                              std::string_view name, bool status,
                                              api::FieldValidation field_validation, bool patched,
                                              std::vector<std::string>* warnings) {
  if (auto bad = check_request(info, new_obj, ns, field_validation, patched, warnings)) return bad;
  const Json& body_name_json = member(member(new_obj, "metadata"), "name");
  const std::string_view body_name =
      body_name_json.is_string() ? std::string_view(body_name_json.get_ref<const std::string&>())
                                 : std::string_view();
  if (body_name != name) {
    return api::new_bad_request("the name of the object (" + std::string(body_name) +
                                ") does not match the name on the URL (" + std::string(name) + ")");
  }
  Json built_meta;
  const Json* meta = nullptr;
  if (!meta_unchanged) {
    built_meta = old_meta();
    meta = &built_meta;
  }
  const Subject s{info,
                  new_obj,
                  old_members,
                  info.namespaced ? ns : std::string_view(),
                  meta_rules(info),
                  meta_unchanged,
                  meta,
                  old_object};
  const KindRules rules = rules_for(info);
  return run(s, status ? rules.update_status : rules.update);
}

}  // namespace

std::optional<api::Status> validate_update(const ResourceInfo& info, const nlohmann::json& old_obj,
                                           const nlohmann::json& new_obj, std::string_view ns,
                                           std::string_view name, bool status,
                                           api::FieldValidation field_validation, bool patched,
                                           std::vector<std::string>* warnings) {
  const Json& old_meta = member(old_obj, "metadata");
  return validate_update_of(info, &old_obj, nullptr,
                            same_metadata(member(new_obj, "metadata"), old_meta),
                            [&] { return old_meta; }, new_obj, ns, name, status, field_validation,
                            patched, warnings);
}

std::optional<api::Status> validate_update(const ResourceInfo& info, const api::Object& old_obj,
                                           const nlohmann::json& new_obj, std::string_view ns,
                                           std::string_view name, bool status,
                                           api::FieldValidation field_validation, bool patched,
                                           std::vector<std::string>* warnings) {
  const bool meta_unchanged =
      old_obj.metadata_equals(member(new_obj, "metadata"), "resourceVersion");
  return validate_update_of(info, nullptr, &old_obj, meta_unchanged,
                            [&] { return old_obj.metadata_json(); }, new_obj, ns, name, status,
                            field_validation, patched, warnings);
}

std::optional<api::Status> validate_request(const ResourceInfo& info,
                                            const nlohmann::json& body, std::string_view ns,
                                            api::FieldValidation field_validation,
                                            std::vector<std::string>* warnings) {
  return check_request(info, body, ns, field_validation, false, warnings);
}

}  // namespace kubesim::fakeapi
