// The generated Go type tables (fakeapi/internal/encoding/types/schema.h): which kinds they
// cover, that every kind resolves through go_type_of, the guarantees the header states, the
// ExtraValue leaf ([]string) as the typed JSON renders it, and the merge semantics recorded for
// server-side apply and strategic merge patch.
#include "fakeapi/internal/encoding/types/schema.h"

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "fakeapi/internal/encoding/types/go_encoding.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;
using types::Cardinality;
using types::FieldSpec;
using types::KindSpec;
using types::MessageSpec;
using types::ValueKind;

using Gvk = std::tuple<std::string, std::string, std::string>;

// Every kind with ObjectMeta that kube-apiserver 1.33 serves in the covered group versions, and
// the subresource bodies (Binding, Eviction, Scale, TokenRequest).
const std::vector<Gvk>& expected_kinds() {
  static const std::vector<Gvk> kinds = {
      {"", "v1", "Binding"}, {"", "v1", "ComponentStatus"}, {"", "v1", "ConfigMap"},
      {"", "v1", "Endpoints"}, {"", "v1", "Event"}, {"", "v1", "LimitRange"},
      {"", "v1", "Namespace"}, {"", "v1", "Node"}, {"", "v1", "PersistentVolume"},
      {"", "v1", "PersistentVolumeClaim"}, {"", "v1", "Pod"}, {"", "v1", "PodTemplate"},
      {"", "v1", "ReplicationController"}, {"", "v1", "ResourceQuota"}, {"", "v1", "Secret"},
      {"", "v1", "Service"}, {"", "v1", "ServiceAccount"},
      {"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"},
      {"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"},
      {"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding"},
      {"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"},
      {"apps", "v1", "ControllerRevision"}, {"apps", "v1", "DaemonSet"},
      {"apps", "v1", "Deployment"}, {"apps", "v1", "ReplicaSet"}, {"apps", "v1", "StatefulSet"},
      {"authentication.k8s.io", "v1", "SelfSubjectReview"},
      {"authentication.k8s.io", "v1", "TokenRequest"},
      {"authentication.k8s.io", "v1", "TokenReview"},
      {"authorization.k8s.io", "v1", "LocalSubjectAccessReview"},
      {"authorization.k8s.io", "v1", "SelfSubjectAccessReview"},
      {"authorization.k8s.io", "v1", "SelfSubjectRulesReview"},
      {"authorization.k8s.io", "v1", "SubjectAccessReview"},
      {"autoscaling", "v1", "HorizontalPodAutoscaler"}, {"autoscaling", "v1", "Scale"},
      {"autoscaling", "v2", "HorizontalPodAutoscaler"},
      {"batch", "v1", "CronJob"}, {"batch", "v1", "Job"},
      {"certificates.k8s.io", "v1", "CertificateSigningRequest"},
      {"coordination.k8s.io", "v1", "Lease"},
      {"discovery.k8s.io", "v1", "EndpointSlice"},
      {"events.k8s.io", "v1", "Event"},
      {"flowcontrol.apiserver.k8s.io", "v1", "FlowSchema"},
      {"flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration"},
      {"networking.k8s.io", "v1", "IPAddress"}, {"networking.k8s.io", "v1", "Ingress"},
      {"networking.k8s.io", "v1", "IngressClass"}, {"networking.k8s.io", "v1", "NetworkPolicy"},
      {"networking.k8s.io", "v1", "ServiceCIDR"},
      {"node.k8s.io", "v1", "RuntimeClass"},
      {"policy", "v1", "Eviction"}, {"policy", "v1", "PodDisruptionBudget"},
      {"rbac.authorization.k8s.io", "v1", "ClusterRole"},
      {"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"},
      {"rbac.authorization.k8s.io", "v1", "Role"},
      {"rbac.authorization.k8s.io", "v1", "RoleBinding"},
      {"scheduling.k8s.io", "v1", "PriorityClass"},
      {"storage.k8s.io", "v1", "CSIDriver"}, {"storage.k8s.io", "v1", "CSINode"},
      {"storage.k8s.io", "v1", "CSIStorageCapacity"}, {"storage.k8s.io", "v1", "StorageClass"},
      {"storage.k8s.io", "v1", "VolumeAttachment"},
  };
  return kinds;
}

// The message a kind's table holds, named as its proto message: k8s.io.api.<pkg>.<v>.<Kind>.
std::string proto_name(const KindSpec& k) {
  const std::string pkg =
      k.group.empty() ? "core" : std::string(k.group.substr(0, k.group.find('.')));
  return "k8s.io.api." + pkg + "." + std::string(k.version) + "." + std::string(k.kind);
}

TEST(SchemaTablesTest, DecodableKindsAreExactlyTheServedKindsOnce) {
  std::set<Gvk> seen;
  for (const KindSpec& k : types::decodable_kinds()) {
    const Gvk gvk{std::string(k.group), std::string(k.version), std::string(k.kind)};
    EXPECT_TRUE(seen.insert(gvk).second) << k.kind << " listed twice";
    ASSERT_NE(k.message, nullptr) << k.kind;
    EXPECT_EQ(k.message->name, proto_name(k));
  }
  EXPECT_EQ(seen, std::set<Gvk>(expected_kinds().begin(), expected_kinds().end()));
}

TEST(SchemaTablesTest, EveryKindResolvesThroughGoTypeOf) {
  for (const KindSpec& k : types::decodable_kinds()) {
    EXPECT_EQ(types::go_type_of(k.group, k.version, k.kind), k.message) << k.kind;
    EXPECT_NE(types::go_type_of(k.group, k.kind), nullptr) << k.kind;
  }
  // Without a version: the group's preferred one.
  const MessageSpec* hpa = types::go_type_of("autoscaling", "HorizontalPodAutoscaler");
  ASSERT_NE(hpa, nullptr);
  EXPECT_EQ(hpa->name, "k8s.io.api.autoscaling.v2.HorizontalPodAutoscaler");
  EXPECT_EQ(types::go_type_of("autoscaling", "v1", "HorizontalPodAutoscaler")->name,
            "k8s.io.api.autoscaling.v1.HorizontalPodAutoscaler");
  // Two Events, one per group.
  EXPECT_EQ(types::go_type_of("", "Event")->name, "k8s.io.api.core.v1.Event");
  EXPECT_EQ(types::go_type_of("events.k8s.io", "Event")->name, "k8s.io.api.events.v1.Event");
  EXPECT_EQ(types::go_type_of("autoscaling", "v3", "HorizontalPodAutoscaler"), nullptr);
  EXPECT_EQ(types::go_type_of("apps", "v1", "Widget"), nullptr);
}

// Calls `visit` once for every message reachable from the kinds.
template <typename Visit>
void for_each_message(Visit visit) {
  std::set<const MessageSpec*> seen;
  std::vector<const MessageSpec*> todo;
  for (const KindSpec& k : types::decodable_kinds()) todo.push_back(k.message);
  while (!todo.empty()) {
    const MessageSpec* m = todo.back();
    todo.pop_back();
    if (!seen.insert(m).second) continue;
    visit(*m);
    for (const FieldSpec& f : m->fields) {
      if (f.message != nullptr) todo.push_back(f.message);
    }
  }
}

TEST(SchemaTablesTest, EveryTableKeepsTheHeadersGuarantees) {
  int messages = 0;
  for_each_message([&messages](const MessageSpec& m) {
    ++messages;
    for (std::size_t i = 0; i < m.fields.size(); ++i) {
      const FieldSpec& f = m.fields[i];
      if (i > 0) {
        EXPECT_LT(m.fields[i - 1].number, f.number) << m.name;
      }
      EXPECT_EQ(f.kind == ValueKind::kMessage, f.message != nullptr) << m.name << "." << f.name;
      EXPECT_EQ(m.find(f.number), &f);
    }
  });
  EXPECT_GT(messages, 400);
}

TEST(SchemaTablesTest, OnlyControllerRevisionDataHasATypeTheServerCannotRender) {
  // runtime.RawExtension: any object, as raw bytes.
  std::vector<std::string> unsupported;
  for_each_message([&unsupported](const MessageSpec& m) {
    for (const FieldSpec& f : m.fields) {
      if (f.kind == ValueKind::kUnsupported) {
        unsupported.push_back(std::string(m.name) + "." + std::string(f.name));
      }
    }
  });
  EXPECT_EQ(unsupported, std::vector<std::string>{"k8s.io.api.apps.v1.ControllerRevision.data"});
}

// The field named `json_name` of `m` (inlined structs not searched).
const FieldSpec* field(const MessageSpec* m, std::string_view json_name) {
  if (m == nullptr) return nullptr;
  for (const FieldSpec& f : m->fields) {
    if (f.name == json_name) return &f;
  }
  return nullptr;
}

// The field at a dotted path of JSON names from a kind's message.
const FieldSpec* field_at(std::string_view group, std::string_view kind, std::string_view path) {
  const MessageSpec* m = types::go_type_of(group, kind);
  const FieldSpec* f = nullptr;
  while (m != nullptr && !path.empty()) {
    const std::size_t dot = path.find('.');
    f = field(m, path.substr(0, dot));
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    m = f == nullptr ? nullptr : f->message;
  }
  return path.empty() ? f : nullptr;
}

TEST(SchemaTablesTest, ExtraValuesAreStringListLeaves) {
  for (auto [group, kind, path] : {
           std::tuple{"authentication.k8s.io", "TokenReview", "status.user.extra"},
           std::tuple{"authorization.k8s.io", "SubjectAccessReview", "spec.extra"},
           std::tuple{"certificates.k8s.io", "CertificateSigningRequest", "spec.extra"},
       }) {
    const FieldSpec* f = field_at(group, kind, path);
    ASSERT_NE(f, nullptr) << kind << " " << path;
    EXPECT_EQ(f->kind, ValueKind::kStringList) << kind;
    EXPECT_EQ(f->cardinality, Cardinality::kMap) << kind;
    EXPECT_EQ(f->message, nullptr) << kind;
  }
}

TEST(SchemaTablesTest, StringListsRenderAsGoWritesAnExtraValue) {
  // An ExtraValue with no items is a nil []string: null, as protobuf storage gives it back.
  json review = {{"spec", {{"user", "u"}, {"extra", {{"scopes", {"a", "b"}}, {"none", json::array()},
                                                      {"null", nullptr}}}}}};
  types::render_go_json(*types::go_type_of("authorization.k8s.io", "SubjectAccessReview"), review);
  EXPECT_EQ(review["spec"]["extra"],
            json({{"scopes", {"a", "b"}}, {"none", nullptr}, {"null", nullptr}}));
  // An empty map is absent, and extra is omitempty.
  json empty = {{"spec", {{"user", "u"}, {"extra", json::object()}}}};
  types::render_go_json(*types::go_type_of("authorization.k8s.io", "SubjectAccessReview"), empty);
  EXPECT_FALSE(empty["spec"].contains("extra"));
}

// ---- Merge semantics ------------------------------------------------------------------------

using types::ListType;

const FieldSpec& must(const FieldSpec* f) {
  static const FieldSpec missing{0, "missing", ValueKind::kUnsupported, Cardinality::kSingular, 0, nullptr};
  EXPECT_NE(f, nullptr);
  return f != nullptr ? *f : missing;
}

TEST(SchemaTablesTest, MapListsAreKeyedAsTheMarkersSay) {
  const FieldSpec& containers = must(field_at("", "Pod", "spec.containers"));
  EXPECT_EQ(containers.list_type, ListType::kMap);
  EXPECT_EQ(containers.list_map_keys, "name");
  EXPECT_EQ(containers.patch_merge_key, "name");
  EXPECT_TRUE(containers.has(types::kPatchMerge));

  // Two keys for server-side apply, one merge key for strategic merge patch.
  const FieldSpec& ports = must(field(containers.message, "ports"));
  EXPECT_EQ(ports.list_type, ListType::kMap);
  EXPECT_EQ(ports.list_map_keys, "containerPort,protocol");
  EXPECT_EQ(ports.patch_merge_key, "containerPort");
  const FieldSpec& service_ports = must(field_at("", "Service", "spec.ports"));
  EXPECT_EQ(service_ports.list_type, ListType::kMap);
  EXPECT_EQ(service_ports.list_map_keys, "port,protocol");
  EXPECT_EQ(service_ports.patch_merge_key, "port");

  const FieldSpec& owners = must(field_at("apps", "Deployment", "metadata.ownerReferences"));
  EXPECT_EQ(owners.list_type, ListType::kMap);
  EXPECT_EQ(owners.list_map_keys, "uid");
  EXPECT_EQ(owners.patch_merge_key, "uid");
  EXPECT_TRUE(owners.message->atomic);  // OwnerReference is +structType=atomic

  const FieldSpec& conditions = must(field_at("apps", "Deployment", "status.conditions"));
  EXPECT_EQ(conditions.list_type, ListType::kMap);
  EXPECT_EQ(conditions.list_map_keys, "type");
}

TEST(SchemaTablesTest, SetsAndAtomicLists) {
  const FieldSpec& finalizers = must(field_at("", "ConfigMap", "metadata.finalizers"));
  EXPECT_EQ(finalizers.list_type, ListType::kSet);
  EXPECT_TRUE(finalizers.has(types::kPatchMerge));
  EXPECT_EQ(finalizers.patch_merge_key, "");
  EXPECT_EQ(must(field_at("", "Pod", "spec.tolerations")).list_type, ListType::kAtomic);
  EXPECT_EQ(must(field_at("", "ConfigMap", "metadata.managedFields")).list_type, ListType::kAtomic);
  // +listType=atomic wins over the patch tags: a Job's conditions merge by type for strategic
  // merge patch only.
  const FieldSpec& job_conditions = must(field_at("batch", "Job", "status.conditions"));
  EXPECT_EQ(job_conditions.list_type, ListType::kAtomic);
  EXPECT_EQ(job_conditions.list_map_keys, "");
  EXPECT_EQ(job_conditions.patch_merge_key, "type");
}

TEST(SchemaTablesTest, AtomicAndGranularMapsAndStructs) {
  const FieldSpec& labels = must(field_at("", "Pod", "metadata.labels"));
  EXPECT_EQ(labels.cardinality, Cardinality::kMap);
  EXPECT_FALSE(labels.has(types::kAtomic));
  EXPECT_EQ(labels.list_type, ListType::kNone);
  EXPECT_TRUE(must(field_at("", "Pod", "spec.nodeSelector")).has(types::kAtomic));  // +mapType
  EXPECT_TRUE(must(field_at("", "Service", "spec.selector")).has(types::kAtomic));

  // LabelSelector is +structType=atomic: every selector field is atomic through its type.
  const FieldSpec& selector = must(field_at("apps", "Deployment", "spec.selector"));
  EXPECT_TRUE(selector.has(types::kAtomic));
  EXPECT_TRUE(selector.message->atomic);
  EXPECT_FALSE(must(field_at("apps", "Deployment", "spec.template")).has(types::kAtomic));
  EXPECT_FALSE(must(field_at("apps", "Deployment", "spec")).has(types::kAtomic));
  // A field's +structType=granular overrides its type's atomic.
  EXPECT_TRUE(must(field_at("", "Event", "involvedObject")).has(types::kAtomic));
  const FieldSpec& claim_ref = must(field_at("", "PersistentVolume", "spec.claimRef"));
  EXPECT_TRUE(claim_ref.message->atomic);
  EXPECT_FALSE(claim_ref.has(types::kAtomic));
}

TEST(SchemaTablesTest, PatchStrategiesFromTheStructTags) {
  const FieldSpec& volumes = must(field_at("", "Pod", "spec.volumes"));
  EXPECT_TRUE(volumes.has(types::kPatchMerge));
  EXPECT_TRUE(volumes.has(types::kPatchRetainKeys));
  const FieldSpec& strategy = must(field_at("apps", "Deployment", "spec.strategy"));
  EXPECT_FALSE(strategy.has(types::kPatchMerge));
  EXPECT_TRUE(strategy.has(types::kPatchRetainKeys));
  EXPECT_EQ(must(field_at("", "Pod", "spec.nodeName")).flags & (types::kPatchMerge | types::kAtomic), 0);
}

TEST(SchemaTablesTest, DefaultMarkersAreRecordedAsJson) {
  const FieldSpec& ports = must(field_at("", "Service", "spec.ports"));
  EXPECT_EQ(must(field(ports.message, "protocol")).default_json, "\"TCP\"");
  EXPECT_EQ(must(field_at("", "ReplicationController", "spec.replicas")).default_json, "1");
  EXPECT_EQ(must(field_at("", "ReplicationController", "spec.minReadySeconds")).default_json, "0");
  EXPECT_EQ(must(field_at("", "Pod", "spec.nodeName")).default_json, "");
  // ref(AzureDataDiskCachingReadWrite): the constant's value.
  const FieldSpec& volumes = must(field_at("", "Pod", "spec.volumes"));
  const FieldSpec* source = nullptr;
  for (const FieldSpec& f : volumes.message->fields) {
    if (f.has(types::kInline)) source = field(f.message, "azureDisk");
  }
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(must(field(source->message, "cachingMode")).default_json, "\"ReadWrite\"");
  EXPECT_EQ(must(field(source->message, "readOnly")).default_json, "false");
}

// Whether `m` or a struct inlined in it has a field named `json_name`.
bool has_json_field(const MessageSpec& m, std::string_view json_name) {
  for (const FieldSpec& f : m.fields) {
    if (f.has(types::kInline) ? has_json_field(*f.message, json_name) : f.name == json_name) {
      return true;
    }
  }
  return false;
}

TEST(SchemaTablesTest, EveryFieldsMergeSemanticsAreConsistent) {
  for_each_message([](const MessageSpec& m) {
    for (const FieldSpec& f : m.fields) {
      const std::string where = std::string(m.name) + "." + std::string(f.name);
      EXPECT_EQ(f.cardinality == Cardinality::kRepeated, f.list_type != ListType::kNone) << where;
      EXPECT_EQ(f.list_type == ListType::kMap, !f.list_map_keys.empty()) << where;
      if (f.list_type == ListType::kMap) {
        ASSERT_NE(f.message, nullptr) << where;
        std::string_view keys = f.list_map_keys;
        while (!keys.empty()) {
          const std::size_t comma = keys.find(',');
          EXPECT_TRUE(has_json_field(*f.message, keys.substr(0, comma))) << where << " " << keys;
          keys = comma == std::string_view::npos ? std::string_view() : keys.substr(comma + 1);
        }
      }
      if (f.list_type == ListType::kSet) {
        EXPECT_EQ(f.message, nullptr) << where;
      }
      if (f.has(types::kAtomic)) {
        EXPECT_TRUE(f.cardinality == Cardinality::kMap ||
                    (f.cardinality == Cardinality::kSingular && f.kind == ValueKind::kMessage))
            << where;
      }
      if (!f.patch_merge_key.empty()) {
        EXPECT_TRUE(f.has(types::kPatchMerge)) << where;
      }
      if (!f.default_json.empty()) {
        EXPECT_FALSE(json::parse(f.default_json, nullptr, false).is_discarded()) << where;
      }
    }
  });
}

}  // namespace
}  // namespace kubesim::fakeapi
