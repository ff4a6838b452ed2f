// Properties over generated input: whatever the bytes, decoding never crashes or throws and
// ends in either a 400/415 Status or a JSON object the API layer accepts; and generated
// ConfigMaps and Secrets decode to exactly the JSON they model.
#include "kubesim/fakeapi/http/protobuf_body.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/api/object.h"
#include "tests/k8s_protobuf/proto_encoder.h"

namespace kubesim::fakeapi::http {
namespace {

using nlohmann::json;
using test_k8s_protobuf::envelope;
using test_k8s_protobuf::Msg;

const std::vector<api::GroupVersionKind>& kinds() {
  static const std::vector<api::GroupVersionKind> k = {
      {"", "v1", "Namespace"}, {"", "v1", "ConfigMap"}, {"", "v1", "Secret"},
      {"", "v1", "ServiceAccount"}, {"", "v1", "Service"}, {"", "v1", "ResourceQuota"},
      {"apps", "v1", "Deployment"}, {"batch", "v1", "Job"}, {"batch", "v1", "CronJob"},
      {"rbac.authorization.k8s.io", "v1", "ClusterRole"}, {"policy", "v1", "PodDisruptionBudget"},
      {"networking.k8s.io", "v1", "Ingress"}};
  return k;
}

// The invariant every decode must keep.
void check_outcome(const std::string& body, const api::GroupVersionKind& gvk) {
  auto r = decode_protobuf_body(body, gvk);
  if (!r.ok()) {
    RC_ASSERT(r.status().code == 400 || r.status().code == 415);
    RC_ASSERT(!r.status().message.empty());
    (void)r.status().to_json_string();  // throws on invalid UTF-8
    return;
  }
  RC_ASSERT(r.value().is_object());
  RC_ASSERT(r.value().contains("kind"));
  (void)r.value().dump();  // throws on invalid UTF-8
  auto obj = api::Object::from_json(r.value());
  RC_ASSERT(obj.ok());
}

std::string read_fixture(const std::string& name) {
  std::ifstream in(std::filesystem::path(__FILE__).parent_path() / "data" / (name + ".pb"),
                   std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

RC_GTEST_PROP(K8sProtobufProperty, RandomBytesNeverCrash, (const std::string& bytes)) {
  check_outcome(bytes, {});
  check_outcome(std::string("k8s\0", 4) + bytes, {"", "v1", "ConfigMap"});
}

RC_GTEST_PROP(K8sProtobufProperty, RandomObjectBytesInAValidEnvelopeNeverCrash,
              (const std::string& raw)) {
  const auto& gvk = *rc::gen::elementOf(kinds());
  check_outcome(envelope(gvk.api_version(), gvk.kind, raw), gvk);
}

RC_GTEST_PROP(K8sProtobufProperty, MutatedKubectlBodiesNeverCrash, ()) {
  static const std::vector<std::string> names = {
      "configmap_files", "secret_tls", "service_clusterip", "deployment_port",
      "job_from_cronjob", "cronjob", "ingress", "quota", "rolebinding"};
  std::string body = read_fixture(*rc::gen::elementOf(names));
  RC_PRE(body.size() > 8);
  const int edits = *rc::gen::inRange(1, 6);
  for (int i = 0; i < edits; ++i) {
    const std::size_t pos = *rc::gen::inRange<std::size_t>(4, body.size());
    switch (*rc::gen::inRange(0, 4)) {
      case 0: body[pos] = *rc::gen::arbitrary<char>(); break;
      case 1: body.erase(pos, *rc::gen::inRange<std::size_t>(1, 8)); break;
      case 2: body.insert(pos, *rc::gen::container<std::string>(*rc::gen::inRange(1, 8), rc::gen::arbitrary<char>())); break;
      default: body.resize(pos); break;
    }
    if (body.size() <= 4) break;
  }
  check_outcome(body, {});
}

// A printable, non-empty key (keys of the same map must differ; std::map takes care of that).
rc::Gen<std::string> key_gen() {
  return rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::inRange('a', 'z')));
}

RC_GTEST_PROP(K8sProtobufProperty, GeneratedConfigMapsRoundTrip, ()) {
  const auto name = *key_gen();
  const auto labels = *rc::gen::container<std::map<std::string, std::string>>(key_gen(), rc::gen::string<std::string>());
  const auto data = *rc::gen::container<std::map<std::string, std::string>>(key_gen(), rc::gen::string<std::string>());
  const auto immutable = *rc::gen::maybe(rc::gen::arbitrary<bool>());

  Msg meta = Msg().bytes(1, name).bytes(3, "");
  for (const auto& [k, v] : labels) meta.entry(11, k, v);
  Msg cm = Msg().message(1, meta);
  for (const auto& [k, v] : data) cm.entry(2, k, v);
  if (immutable) cm.varint(4, *immutable ? 1 : 0);

  json expected = {{"apiVersion", "v1"},
                   {"kind", "ConfigMap"},
                   {"metadata", {{"name", name}, {"creationTimestamp", nullptr}}}};
  for (const auto& [k, v] : labels) expected["metadata"]["labels"][k] = v;
  for (const auto& [k, v] : data) expected["data"][k] = v;
  if (immutable) expected["immutable"] = *immutable;

  bool ascii = true;
  for (const auto& [k, v] : labels) ascii = ascii && std::all_of(v.begin(), v.end(), [](char c) { return c > 0; });
  for (const auto& [k, v] : data) ascii = ascii && std::all_of(v.begin(), v.end(), [](char c) { return c > 0; });
  auto r = decode_protobuf_body(envelope("v1", "ConfigMap", cm.str()), {"", "v1", "ConfigMap"});
  RC_ASSERT(r.ok());
  if (ascii) {
    RC_ASSERT(r.value() == expected);
  } else {  // bytes past 0x7F may be invalid UTF-8 and come back replaced
    RC_ASSERT(r.value()["metadata"]["name"] == name);
    RC_ASSERT(r.value()["data"].size() == data.size());
  }
}

RC_GTEST_PROP(K8sProtobufProperty, GeneratedSecretDataIsBase64OfTheBytes, ()) {
  const auto data = *rc::gen::container<std::map<std::string, std::string>>(key_gen(), rc::gen::string<std::string>());
  Msg secret = Msg().message(1, Msg().bytes(1, "s"));
  for (const auto& [k, v] : data) secret.entry(2, k, v);
  auto r = decode_protobuf_body(envelope("v1", "Secret", secret.str()), {});
  RC_ASSERT(r.ok());
  for (const auto& [k, v] : data) {
    // Decode the base64 back and compare with the original bytes.
    const std::string text = r.value()["data"][k];
    std::string back;
    int bits = 0;
    std::uint32_t acc = 0;
    for (char c : text) {
      if (c == '=') break;
      const auto pos = std::string_view(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").find(c);
      RC_ASSERT(pos != std::string_view::npos);
      acc = (acc << 6) | static_cast<std::uint32_t>(pos);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        back += static_cast<char>((acc >> bits) & 0xFF);
      }
    }
    RC_ASSERT(back == v);
    RC_ASSERT(text.size() % 4 == 0);
  }
  const bool data_as_expected =
      data.empty() ? !r.value().contains("data") : r.value()["data"].size() == data.size();
  RC_ASSERT(data_as_expected);
}

}  // namespace
}  // namespace kubesim::fakeapi::http
