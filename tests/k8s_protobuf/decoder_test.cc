// What the decoder makes of hand-built messages: Go's JSON rules (omitempty, pointers, value
// structs, nil lists and maps), the special forms (Time, Quantity, IntOrString, bytes,
// FieldsV1), inlined structs and gogo's handling of repeated occurrences.
#include "kubesim/fakeapi/http/protobuf_body.h"

#include <gtest/gtest.h>

#include "tests/k8s_protobuf/proto_encoder.h"

namespace kubesim::fakeapi::http {
namespace {

using nlohmann::json;
using test_k8s_protobuf::envelope;
using test_k8s_protobuf::Msg;

json decode_ok(const std::string& body, const api::GroupVersionKind& gvk = {}) {
  auto r = decode_protobuf_body(body, gvk);
  EXPECT_TRUE(r.ok()) << (r.ok() ? json() : json(r.status().message));
  return r.ok() ? r.value() : json();
}

json decode_core(std::string_view kind, const Msg& object) {
  return decode_ok(envelope("v1", kind, object.str()));
}

Msg meta(std::string_view name) { return Msg().bytes(1, name); }

TEST(Decoder, ConfigMapWithDataBinaryDataAndPointerBool) {
  Msg cm;
  cm.message(1, meta("cm").bytes(3, "ns").entry(11, "app", "x").entry(12, "note", "n"))
      .entry(2, "a", "b")
      .entry(3, "bin", std::string("\x00\xff\x10", 3))
      .varint(4, 0);  // immutable: false, but a set pointer
  EXPECT_EQ(decode_core("ConfigMap", cm), json::parse(R"({
    "apiVersion": "v1", "kind": "ConfigMap",
    "metadata": {"name": "cm", "namespace": "ns", "labels": {"app": "x"},
                 "annotations": {"note": "n"}, "creationTimestamp": null},
    "data": {"a": "b"}, "binaryData": {"bin": "AP8Q"}, "immutable": false})"));
}

TEST(Decoder, LeasesDecodeWithTheirPointerFields) {
  Msg lease;
  lease.message(1, meta("lock").bytes(3, "kube-system"))
      .message(2, Msg().bytes(1, "node-a").varint(2, 0));  // leaseDurationSeconds: a set 0
  EXPECT_EQ(decode_ok(envelope("coordination.k8s.io/v1", "Lease", lease.str())), json::parse(R"({
    "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
    "metadata": {"name": "lock", "namespace": "kube-system", "creationTimestamp": null},
    "spec": {"holderIdentity": "node-a", "leaseDurationSeconds": 0}})"));
}

TEST(Decoder, GoZeroValuesAreOmittedOrWrittenAsGoWritesThem) {
  // gogo writes every non-pointer field, zero or not; Go's JSON then omits the omitempty ones.
  Msg ns;
  ns.message(1, Msg().bytes(1, "n").bytes(2, "").bytes(3, "").varint(7, 0).bytes(8, ""))
      .message(2, Msg())
      .message(3, Msg().bytes(1, ""));
  EXPECT_EQ(decode_core("Namespace", ns), json::parse(R"({
    "apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "n", "creationTimestamp": null},
    "spec": {}, "status": {}})"));
  // Nothing at all: value structs still appear, and so does the zero creationTimestamp (a value
  // Time without omitzero in 1.33: null).
  EXPECT_EQ(decode_core("Namespace", Msg()), json::parse(R"({
    "apiVersion": "v1", "kind": "Namespace", "metadata": {"creationTimestamp": null},
    "spec": {}, "status": {}})"));
}

TEST(Decoder, FieldsWithoutOmitemptyAreAlwaysWritten) {
  // OwnerReference's kind/name/uid/apiVersion have no omitempty; PodSpec.containers is a list
  // without omitempty (null when empty); DeploymentSpec.selector a pointer without omitempty.
  Msg job_owner = Msg().message(1, Msg().message(13, Msg().bytes(3, "owner")));
  json j = decode_ok(envelope("apps/v1", "Deployment",
                              job_owner.str() + Msg().message(2, Msg()).str()));
  EXPECT_EQ(j["metadata"]["ownerReferences"],
            json::parse(R"([{"apiVersion": "", "kind": "", "name": "owner", "uid": ""}])"));
  EXPECT_EQ(j["spec"], json::parse(R"({
    "selector": null, "strategy": {},
    "template": {"metadata": {"creationTimestamp": null}, "spec": {"containers": null}}})"));
  EXPECT_EQ(j["status"], json::object());
}

TEST(Decoder, PointerScalarsKeepZeroValues) {
  Msg spec = Msg().varint(1, 0).message(2, Msg().entry(1, "app", "d"));
  json j = decode_ok(envelope("apps/v1", "Deployment", Msg().message(2, spec).str()));
  EXPECT_EQ(j["spec"]["replicas"], 0);
  EXPECT_EQ(j["spec"]["selector"], json::parse(R"({"matchLabels": {"app": "d"}})"));
}

TEST(Decoder, IntOrStringTargetPortsAndNodePorts) {
  Msg ports = Msg()
                  .message(1, Msg().bytes(1, "web").bytes(2, "TCP").varint(3, 80)
                                  .message(4, Msg().varint(1, 0).varint(2, 8080)).varint(5, 30080))
                  .message(1, Msg().bytes(2, "TCP").varint(3, 443)
                                  .message(4, Msg().varint(1, 1).bytes(3, "https")))
                  .message(1, Msg().varint(3, 53));  // no targetPort: the zero IntOrString
  json j = decode_core("Service", Msg().message(2, ports.bytes(4, "NodePort")));
  EXPECT_EQ(j["spec"], json::parse(R"({"type": "NodePort", "ports": [
    {"name": "web", "protocol": "TCP", "port": 80, "targetPort": 8080, "nodePort": 30080},
    {"protocol": "TCP", "port": 443, "targetPort": "https"},
    {"port": 53, "targetPort": 0}]})"));
  EXPECT_EQ(j["status"], json::parse(R"({"loadBalancer": {}})"));
}

TEST(Decoder, SecretDataIsBase64AndStringDataPlain) {
  Msg secret = Msg().message(1, meta("s")).entry(2, "k", "hello").entry(2, "empty", "")
                   .bytes(3, "Opaque").entry(4, "plain", "text");
  // A map entry without a value field holds the zero value.
  secret.message(2, Msg().bytes(1, "novalue"));
  EXPECT_EQ(decode_core("Secret", secret), json::parse(R"({
    "apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "creationTimestamp": null},
    "type": "Opaque",
    "data": {"k": "aGVsbG8=", "empty": "", "novalue": ""}, "stringData": {"plain": "text"}})"));
}

Msg container_with_resources() {
  Msg limits = Msg().message(1, Msg().bytes(1, "cpu").message(2, Msg().bytes(1, "500m")))
                   .message(1, Msg().bytes(1, "memory").message(2, Msg().bytes(1, "64Mi")));
  return Msg().bytes(1, "c").bytes(2, "busybox").bytes(3, "sh").bytes(3, "-c")
      .message(8, limits.message(2, Msg().bytes(1, "cpu")));  // requests: cpu without a value
}

TEST(Decoder, JobWithPodTemplateQuantitiesAndRepeatedStrings) {
  Msg pod_spec = Msg().message(2, container_with_resources()).bytes(3, "Never");
  Msg job = Msg().message(1, meta("j")).message(2, Msg().varint(7, 4).message(6, Msg().message(2, pod_spec)));
  json j = decode_ok(envelope("batch/v1", "Job", job.str()));
  EXPECT_EQ(j["spec"], json::parse(R"({"backoffLimit": 4, "template": {"metadata": {"creationTimestamp": null}, "spec": {
    "restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox",
    "command": ["sh", "-c"],
    "resources": {"limits": {"cpu": "500m", "memory": "64Mi"}, "requests": {"cpu": "0"}}}]}}})"));
  EXPECT_EQ(j["status"], json::object());
}

TEST(Decoder, TimesAreRfc3339InUtcWithoutNanoseconds) {
  Msg m = meta("t")
              .message(8, Msg().varint(1, 1714557600).varint(2, 999))  // 2024-05-01T10:00:00Z
              .message(9, Msg().varint(1, 0));                         // the Unix epoch, set
  json j = decode_core("ConfigMap", Msg().message(1, m));
  EXPECT_EQ(j["metadata"]["creationTimestamp"], "2024-05-01T10:00:00Z");
  EXPECT_EQ(j["metadata"]["deletionTimestamp"], "1970-01-01T00:00:00Z");
  // An empty Time payload is the zero time: null, for a value Time and for a pointer set to it.
  json zero = decode_core("ConfigMap", Msg().message(1, Msg().bytes(8, "").bytes(9, "")));
  EXPECT_TRUE(zero["metadata"].contains("creationTimestamp"));
  EXPECT_TRUE(zero["metadata"]["creationTimestamp"].is_null());
  EXPECT_TRUE(zero["metadata"]["deletionTimestamp"].is_null());
  // Before the epoch.
  json old = decode_core("ConfigMap", Msg().message(1, Msg().message(8, Msg().varint(1, static_cast<std::uint64_t>(-86401)))));
  EXPECT_EQ(old["metadata"]["creationTimestamp"], "1969-12-30T23:59:59Z");
}

TEST(Decoder, OwnerReferencesFinalizersAndManagedFields) {
  Msg owner = Msg().bytes(1, "CronJob").bytes(3, "cj").bytes(4, "uid-1").bytes(5, "batch/v1")
                  .varint(6, 1).varint(7, 0);
  Msg managed = Msg().bytes(1, "kubectl").bytes(2, "Update").bytes(3, "v1")
                    .message(4, Msg().varint(1, 1700000000)).bytes(6, "FieldsV1")
                    .message(7, Msg().bytes(1, R"({"f:data":{".":{},"f:a":{}}})"));
  Msg m = meta("x").bytes(2, "gen-").message(13, owner).bytes(14, "a/b").bytes(14, "c/d")
              .message(17, managed).varint(10, 30);
  json j = decode_core("ConfigMap", Msg().message(1, m));
  EXPECT_EQ(j["metadata"], json::parse(R"({"name": "x", "generateName": "gen-", "creationTimestamp": null,
    "deletionGracePeriodSeconds": 30, "finalizers": ["a/b", "c/d"],
    "ownerReferences": [{"kind": "CronJob", "name": "cj", "uid": "uid-1", "apiVersion": "batch/v1",
                         "controller": true, "blockOwnerDeletion": false}],
    "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "v1",
                       "time": "2023-11-14T22:13:20Z", "fieldsType": "FieldsV1",
                       "fieldsV1": {"f:data": {".": {}, "f:a": {}}}}]})"));
}

TEST(Decoder, InlinedVolumeSourceJoinsTheVolume) {
  Msg empty_dir = Msg().bytes(1, "Memory").message(2, Msg().bytes(1, "1Gi"));
  Msg volume = Msg().bytes(1, "scratch").message(2, Msg().message(2, empty_dir));
  Msg pod_spec = Msg().message(1, volume).message(2, Msg().bytes(1, "c"));
  json j = decode_ok(envelope("batch/v1", "Job", Msg().message(2, Msg().message(6, Msg().message(2, pod_spec))).str()));
  EXPECT_EQ(j["spec"]["template"]["spec"]["volumes"],
            json::parse(R"([{"name": "scratch", "emptyDir": {"medium": "Memory", "sizeLimit": "1Gi"}}])"));
}

TEST(Decoder, PackedAndUnpackedRepeatedIntegers) {
  // PodSecurityContext.supplementalGroups (repeated int64): one unpacked value, then a packed run.
  Msg sc = Msg().varint(4, 1000).bytes(4, test_k8s_protobuf::varint_bytes(2000) +
                                           test_k8s_protobuf::varint_bytes(static_cast<std::uint64_t>(-1)));
  Msg pod_spec = Msg().message(2, Msg().bytes(1, "c")).message(14, sc);
  json j = decode_ok(envelope("batch/v1", "Job", Msg().message(2, Msg().message(6, Msg().message(2, pod_spec))).str()));
  EXPECT_EQ(j["spec"]["template"]["spec"]["securityContext"],
            json::parse(R"({"supplementalGroups": [1000, 2000, -1]})"));
}

TEST(Decoder, RepeatedOccurrencesFollowGogo) {
  // Last scalar wins, messages merge, lists append, map keys overwrite.
  Msg cm = Msg().message(1, meta("first").entry(11, "a", "1").bytes(14, "f1"))
               .message(1, meta("second").entry(11, "a", "2").entry(11, "b", "3").bytes(14, "f2"));
  EXPECT_EQ(decode_core("ConfigMap", cm)["metadata"], json::parse(R"({
    "name": "second", "labels": {"a": "2", "b": "3"}, "finalizers": ["f1", "f2"],
    "creationTimestamp": null})"));
}

TEST(Decoder, ExtraValuesAreListsOfStrings) {
  // UserInfo.extra (4): map<string, ExtraValue>, ExtraValue being {repeated string items = 1}.
  Msg user = Msg().bytes(1, "jane").bytes(3, "dev")
                 .message(4, Msg().bytes(1, "scopes").message(2, Msg().bytes(1, "read").bytes(1, "write")))
                 .message(4, Msg().bytes(1, "empty").message(2, Msg()))
                 .message(4, Msg().bytes(1, "novalue"));
  Msg review = Msg().message(1, meta("r")).message(3, Msg().varint(1, 1).message(2, user));
  json j = decode_ok(envelope("authentication.k8s.io/v1", "TokenReview", review.str()));
  EXPECT_EQ(j["status"], json::parse(R"({"authenticated": true, "user": {"username": "jane",
    "groups": ["dev"], "extra": {"scopes": ["read", "write"], "empty": null, "novalue": null}}})"));
  // The same leaf in certificates (CertificateSigningRequestSpec.extra, 6) and authorization
  // (SubjectAccessReviewSpec.extra, 5).
  Msg csr = Msg().message(2, Msg().message(6, Msg().bytes(1, "k").message(2, Msg().bytes(1, "v"))));
  EXPECT_EQ(decode_ok(envelope("certificates.k8s.io/v1", "CertificateSigningRequest", csr.str()))
                ["spec"]["extra"], json::parse(R"({"k": ["v"]})"));
  Msg sar = Msg().message(2, Msg().message(5, Msg().bytes(1, "k").message(2, Msg().bytes(1, "\xff"))));
  EXPECT_EQ(decode_ok(envelope("authorization.k8s.io/v1", "SubjectAccessReview", sar.str()))
                ["spec"]["extra"], json::parse("{\"k\": [\"\\ufffd\"]}"));
}

TEST(Decoder, KindsOfEveryServedGroupDecode) {
  Msg hpa = Msg().message(1, meta("h")).message(2, Msg().varint(3, 5));  // maxReplicas
  EXPECT_EQ(decode_ok(envelope("autoscaling/v2", "HorizontalPodAutoscaler", hpa.str()))["spec"],
            json::parse(R"({"maxReplicas": 5, "scaleTargetRef": {"kind": "", "name": ""}})"));
  EXPECT_EQ(decode_ok(envelope("autoscaling/v1", "HorizontalPodAutoscaler", hpa.str()))["spec"],
            json::parse(R"({"maxReplicas": 5, "scaleTargetRef": {"kind": "", "name": ""}})"));
  Msg binding = Msg().message(1, meta("p")).message(2, Msg().bytes(1, "Node").bytes(3, "n1"));
  EXPECT_EQ(decode_core("Binding", binding)["target"], json::parse(R"({"kind": "Node", "name": "n1"})"));
  Msg storage_class = Msg().message(1, meta("fast")).bytes(2, "csi.example.com").entry(3, "type", "ssd");
  EXPECT_EQ(decode_ok(envelope("storage.k8s.io/v1", "StorageClass", storage_class.str())),
            json::parse(R"({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
              "metadata": {"name": "fast", "creationTimestamp": null},
              "provisioner": "csi.example.com", "parameters": {"type": "ssd"}})"));
}

TEST(Decoder, Int32KeepsTheLow32BitsAndBoolAnyNonZero) {
  Msg spec = Msg().varint(1, (std::uint64_t{1} << 32) + 5).varint(7, 2);  // replicas, paused
  json j = decode_ok(envelope("apps/v1", "Deployment", Msg().message(2, spec).str()));
  EXPECT_EQ(j["spec"]["replicas"], 5);
  EXPECT_EQ(j["spec"]["paused"], true);
}

TEST(Decoder, InvalidUtf8BecomesReplacementCharacters) {
  json j = decode_core("ConfigMap", Msg().message(1, meta("a\xff" "b")).entry(2, "k\xc0", "\xed\xa0\x80"));
  EXPECT_EQ(j["metadata"]["name"], "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(j["data"], json::parse("{\"k\\ufffd\": \"\\ufffd\\ufffd\\ufffd\"}"));
  EXPECT_NO_THROW((void)j.dump());
}

TEST(Decoder, KindAndVersionDefaultFromThePath) {
  const api::GroupVersionKind path{"", "v1", "ConfigMap"};
  json j = decode_ok(envelope("", "", Msg().message(1, meta("d")).str()), path);
  EXPECT_EQ(j["kind"], "ConfigMap");
  EXPECT_EQ(j["apiVersion"], "v1");
  EXPECT_EQ(j["metadata"]["name"], "d");
}

TEST(Decoder, AnotherKindThanThePathsIsReturnedForTheServerToRefuse) {
  json j = decode_ok(envelope("v1", "Secret", Msg().message(1, meta("s")).str()),
                     {"", "v1", "ConfigMap"});
  EXPECT_EQ(j["kind"], "Secret");
}

TEST(Decoder, ProtobufContentTypeInTheEnvelopeIsAccepted) {
  json j = decode_ok(envelope("v1", "ConfigMap", Msg().message(1, meta("c")).str(), "",
                              "application/vnd.kubernetes.protobuf"));
  EXPECT_EQ(j["metadata"]["name"], "c");
}

}  // namespace
}  // namespace kubesim::fakeapi::http
