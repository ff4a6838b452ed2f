// The metadata fields whose type an Object guarantees, and the lookup of a member name.
#ifndef KUBESIM_API_INTERNAL_META_FIELD_H_
#define KUBESIM_API_INTERNAL_META_FIELD_H_

#include <string_view>

namespace kubesim::api::internal {

enum class MetaField {
  kOther,
  kName,
  kNamespace,
  kGenerateName,
  kUid,
  kResourceVersion,
  kCreationTimestamp,
  kDeletionTimestamp,
  kSelfLink,
  kGeneration,
  kDeletionGracePeriodSeconds,
  kLabels,
  kAnnotations,
  kFinalizers,
  kOwnerReferences,
};

inline MetaField meta_field(std::string_view key) {
  // Dispatch on length first: most keys are rejected by one integer comparison.
  switch (key.size()) {
    case 3:
      return key == "uid" ? MetaField::kUid : MetaField::kOther;
    case 4:
      return key == "name" ? MetaField::kName : MetaField::kOther;
    case 6:
      return key == "labels" ? MetaField::kLabels : MetaField::kOther;
    case 8:
      return key == "selfLink" ? MetaField::kSelfLink : MetaField::kOther;
    case 9:
      return key == "namespace" ? MetaField::kNamespace : MetaField::kOther;
    case 10:
      if (key == "generation") return MetaField::kGeneration;
      return key == "finalizers" ? MetaField::kFinalizers : MetaField::kOther;
    case 11:
      return key == "annotations" ? MetaField::kAnnotations : MetaField::kOther;
    case 12:
      return key == "generateName" ? MetaField::kGenerateName : MetaField::kOther;
    case 15:
      if (key == "resourceVersion") return MetaField::kResourceVersion;
      return key == "ownerReferences" ? MetaField::kOwnerReferences : MetaField::kOther;
    case 17:
      if (key == "creationTimestamp") return MetaField::kCreationTimestamp;
      return key == "deletionTimestamp" ? MetaField::kDeletionTimestamp : MetaField::kOther;
    case 26:
      return key == "deletionGracePeriodSeconds" ? MetaField::kDeletionGracePeriodSeconds
                                                 : MetaField::kOther;
    default:
      return MetaField::kOther;
  }
}

}  // namespace kubesim::api::internal

#endif  // KUBESIM_API_INTERNAL_META_FIELD_H_
