// ConfigMap, Secret and Namespace (kubernetes pkg/apis/core/validation: ValidateConfigMap,
// ValidateConfigMapUpdate, ValidateSecret, ValidateSecretUpdate, ValidateNamespace) and Lease
// (pkg/apis/coordination/validation: ValidateLease, ValidateLeaseSpec).
#include <map>

#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

constexpr std::int64_t kMaxSecretSize = 1 * 1024 * 1024;
constexpr std::string_view kImmutableWhenSet = "field is immutable when `immutable` is set";

// The length of the bytes a []byte JSON value decodes to (base64 text or an array of bytes).
std::int64_t byte_length(const Json& v) {
  if (v.is_array()) return static_cast<std::int64_t>(v.size());
  if (!v.is_string()) return 0;
  std::int64_t chars = 0;
  for (char c : v.get_ref<const std::string&>()) {
    if (c != '\n' && c != '\r' && c != '=') ++chars;
  }
  return (chars * 6) / 8;
}

// reflect.DeepEqual of two Go maps decoded from JSON: a missing or null map is nil, which differs
// from an empty one; a null value is the element type's zero value.
bool go_maps_equal(const Json& a, const Json& b, const Json& zero) {
  const bool a_nil = !a.is_object();
  const bool b_nil = !b.is_object();
  if (a_nil || b_nil) return a_nil == b_nil;
  if (a.size() != b.size()) return false;
  for (const auto& [k, v] : a.items()) {
    auto it = b.find(k);
    if (it == b.end()) return false;
    const Json& x = v.is_null() ? zero : v;
    const Json& y = it->is_null() ? zero : *it;
    if (x != y) return false;
  }
  return true;
}

// Whether an object's `immutable` member is true.
bool immutable_true(const Json& v) { return v.is_boolean() && v.get<bool>(); }
bool immutable_set(const Json& obj) { return immutable_true(member(obj, "immutable")); }

void validate_config_map(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  const Json& data = member(s.obj, "data");
  const Json& binary = member(s.obj, "binaryData");
  std::int64_t total = 0;
  if (data.is_object()) {
    for (const auto& [k, v] : data.items()) {
      for (const std::string& msg : config_key_messages(k)) {
        errs.invalid(key("data", k), quote(k), msg);
      }
      if (binary.is_object() && binary.contains(k)) {
        errs.invalid(key("data", k), quote(k), "duplicate of key present in binaryData");
      }
      if (v.is_string()) total += static_cast<std::int64_t>(v.get_ref<const std::string&>().size());
    }
  }
  if (binary.is_object()) {
    for (const auto& [k, v] : binary.items()) {
      for (const std::string& msg : config_key_messages(k)) {
        errs.invalid(key("binaryData", k), quote(k), msg);
      }
      total += byte_length(v);
    }
  }
  // The path is "" because the limit is on the whole object.
  if (total > kMaxSecretSize) errs.too_long("", kMaxSecretSize);
}

void update_config_map(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  if (immutable_true(s.old_member("immutable"))) {
    if (!immutable_set(s.obj)) errs.forbidden("immutable", kImmutableWhenSet);
    if (!go_maps_equal(member(s.obj, "data"), s.old_member("data"), Json(""))) {
      errs.forbidden("data", kImmutableWhenSet);
    }
    if (!go_maps_equal(member(s.obj, "binaryData"), s.old_member("binaryData"), Json(""))) {
      errs.forbidden("binaryData", kImmutableWhenSet);
    }
  }
  validate_config_map(s, errs);
}

// The bytes of a []byte JSON value: base64 text (already checked by the decoder) or an array.
std::string decoded_bytes(const Json& v) {
  std::string out;
  if (v.is_array()) {
    for (const Json& b : v) out.push_back(static_cast<char>(as_int(b).value_or(0)));
    return out;
  }
  if (!v.is_string()) return out;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : v.get_ref<const std::string&>()) {
    int value = -1;
    if (c >= 'A' && c <= 'Z') value = c - 'A';
    if (c >= 'a' && c <= 'z') value = c - 'a' + 26;
    if (c >= '0' && c <= '9') value = c - '0' + 52;
    if (c == '+') value = 62;
    if (c == '/') value = 63;
    if (value < 0) continue;
    buffer = (buffer << 6) | static_cast<unsigned>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

// Secret.data after conversion to the internal type: decoded bytes, with stringData entries
// overwriting data entries.
Json secret_data(const Json& obj) {
  Json data;
  if (member(obj, "data").is_object()) {
    data = Json::object();
    for (const auto& [k, v] : member(obj, "data").items()) data[k] = decoded_bytes(v);
  }
  const Json& string_data = member(obj, "stringData");
  if (string_data.is_object()) {
    if (!data.is_object()) data = Json::object();
    for (const auto& [k, v] : string_data.items()) data[k] = v;
  }
  return data;
}

std::int64_t value_length(const Json& v) {
  return v.is_string() ? static_cast<std::int64_t>(v.get_ref<const std::string&>().size()) : 0;
}

std::string secret_type(const Json& obj) {
  std::string type = string_member(obj, "type");
  return type.empty() ? "Opaque" : type;
}

void validate_secret_type(const Subject& s, const Json& data, FieldErrors& errs) {
  const std::string type = secret_type(s.obj);
  auto has = [&](const char* k) { return data.is_object() && data.contains(k); };
  auto required_key = [&](const char* k) { errs.required(key("data", k)); };
  if (type == "kubernetes.io/service-account-token") {
    const std::string sa =
        string_member(member(s.metadata(), "annotations"), "kubernetes.io/service-account.name");
    if (sa.empty()) errs.required("metadata.annotations[kubernetes.io/service-account.name]");
  } else if (type == "kubernetes.io/dockercfg") {
    if (!has(".dockercfg")) required_key(".dockercfg");
  } else if (type == "kubernetes.io/dockerconfigjson") {
    if (!has(".dockerconfigjson")) required_key(".dockerconfigjson");
  } else if (type == "kubernetes.io/basic-auth") {
    if (!has("username") && !has("password")) {
      required_key("username");
      required_key("password");
    }
  } else if (type == "kubernetes.io/ssh-auth") {
    if (!has("ssh-privatekey") || value_length(data["ssh-privatekey"]) == 0) {
      required_key("ssh-privatekey");
    }
  } else if (type == "kubernetes.io/tls") {
    if (!has("tls.crt")) required_key("tls.crt");
    if (!has("tls.key")) required_key("tls.key");
  }
}

void validate_secret(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  const Json data = secret_data(s.obj);
  std::int64_t total = 0;
  if (data.is_object()) {
    for (const auto& [k, v] : data.items()) {
      for (const std::string& msg : config_key_messages(k)) {
        errs.invalid(key("data", k), quote(k), msg);
      }
      total += value_length(v);
    }
  }
  if (total > kMaxSecretSize) errs.too_long("data", kMaxSecretSize);
  validate_secret_type(s, data, errs);
}

void update_secret(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  const std::string type = secret_type(s.obj);
  const Json old_secret = {{"type", s.old_member("type")},
                           {"data", s.old_member("data")},
                           {"stringData", s.old_member("stringData")}};
  if (type != secret_type(old_secret)) errs.invalid("type", quote(type), "field is immutable");
  if (immutable_true(s.old_member("immutable"))) {
    if (!immutable_set(s.obj)) errs.forbidden("immutable", kImmutableWhenSet);
    if (!go_maps_equal(secret_data(s.obj), secret_data(old_secret), Json(""))) {
      errs.forbidden("data", kImmutableWhenSet);
    }
  }
  validate_secret(s, errs);
}

void validate_namespace(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  const Json& finalizers = member(s.spec(), "finalizers");
  if (!finalizers.is_array()) return;
  for (const Json& f : finalizers) {
    if (f.is_string()) {
      validate_finalizer_name(f.get_ref<const std::string&>(), "spec.finalizers", errs);
    }
  }
}

void update_namespace(const Subject& s, FieldErrors& errs) {
  validate_namespace(s, errs);
  validate_meta_update(s, errs);
}

void validate_lease_spec(const Subject& s, FieldErrors& errs) {
  const Json& spec = s.spec();
  if (auto d = as_int(member(spec, "leaseDurationSeconds")); d && *d <= 0) {
    errs.invalid("spec.leaseDurationSeconds", render_int(*d), "must be greater than 0");
  }
  if (auto t = as_int(member(spec, "leaseTransitions")); t && *t < 0) {
    errs.invalid("spec.leaseTransitions", render_int(*t), "must be greater than or equal to 0");
  }
  if (!string_member(spec, "preferredHolder").empty() && string_member(spec, "strategy").empty()) {
    errs.forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined");
  }
}

void validate_lease(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  validate_lease_spec(s, errs);
}

void update_lease(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  validate_lease_spec(s, errs);
}

}  // namespace

KindRules config_map_rules() {
  return {validate_config_map, update_config_map, validate_meta_identity};
}
KindRules secret_rules() { return {validate_secret, update_secret, validate_meta_identity}; }
KindRules namespace_rules() {
  return {validate_namespace, update_namespace, validate_meta_identity};
}
KindRules lease_rules() { return {validate_lease, update_lease, validate_meta_identity}; }

}  // namespace kubesim::fakeapi::internal::validation
