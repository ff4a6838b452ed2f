// Bodies the decoder must refuse, each with the status and a message naming what is wrong:
// 415 for kinds and envelopes it cannot decode, 400 for malformed data and for fields it does
// not know. Nothing is silently dropped.
#include "kubesim/fakeapi/http/protobuf_body.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/k8s_protobuf/proto_encoder.h"

namespace kubesim::fakeapi::http {
namespace {

using test_k8s_protobuf::envelope;
using test_k8s_protobuf::Msg;
using ::testing::AllOf;
using ::testing::HasSubstr;

const api::GroupVersionKind kConfigMap{"", "v1", "ConfigMap"};

api::Status decode_error(const std::string& body, const api::GroupVersionKind& gvk = kConfigMap) {
  auto r = decode_protobuf_body(body, gvk);
  EXPECT_FALSE(r.ok());
  return r.ok() ? api::Status{} : r.status();
}

TEST(Errors, UnknownFieldNamesNumberMessageAndPath) {
  Msg cm = Msg().message(1, Msg().bytes(1, "x").varint(99, 1));
  api::Status s = decode_error(envelope("v1", "ConfigMap", cm.str()));
  EXPECT_TRUE(api::is_bad_request(s)) << s;
  EXPECT_THAT(s.message, AllOf(HasSubstr("ConfigMap in version \"v1\" cannot be handled as a ConfigMap"),
                               HasSubstr("unknown field number 99 (wire type 0)"),
                               HasSubstr("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"),
                               HasSubstr("at metadata")));
}

TEST(Errors, UnknownFieldDeepInsideNamesTheJsonPath) {
  Msg container = Msg().bytes(1, "c").bytes(500, "future");
  Msg pod_spec = Msg().message(2, Msg().bytes(1, "a")).message(2, container);
  Msg job = Msg().message(2, Msg().message(6, Msg().message(2, pod_spec)));
  api::Status s = decode_error(envelope("batch/v1", "Job", job.str()), {"batch", "v1", "Job"});
  EXPECT_TRUE(api::is_bad_request(s)) << s;
  EXPECT_THAT(s.message, AllOf(HasSubstr("unknown field number 500 (wire type 2)"),
                               HasSubstr("k8s.io.api.core.v1.Container"),
                               HasSubstr("at spec.template.spec.containers[1]")));
}

TEST(Errors, UnknownFieldInAnEntryOrALeafType) {
  Msg bad_entry = Msg().message(1, Msg()).message(2, Msg().bytes(1, "k").bytes(2, "v").varint(3, 1));
  EXPECT_THAT(decode_error(envelope("v1", "ConfigMap", bad_entry.str())).message,
              HasSubstr("unknown field number 3 (wire type 0) in a map entry of field 2 (data)"));
  Msg bad_time = Msg().message(1, Msg().message(8, Msg().varint(1, 5).varint(3, 1)));
  EXPECT_THAT(decode_error(envelope("v1", "ConfigMap", bad_time.str())).message,
              AllOf(HasSubstr("Time: unknown field number 3"), HasSubstr("at metadata.creationTimestamp")));
}

TEST(Errors, FieldOfATypeTheServerCannotRenderIsRefused) {
  // ControllerRevision.data (2) is a runtime.RawExtension: any object, as raw bytes.
  Msg revision = Msg().message(1, Msg().bytes(1, "rev")).message(2, Msg().bytes(1, "{}")).varint(3, 1);
  api::Status s = decode_error(envelope("apps/v1", "ControllerRevision", revision.str()),
                               {"apps", "v1", "ControllerRevision"});
  EXPECT_TRUE(api::is_bad_request(s)) << s;
  EXPECT_THAT(s.message, HasSubstr("field 2 (data) of message k8s.io.api.apps.v1.ControllerRevision "
                                   "has a type this server cannot decode"));
}

TEST(Errors, UnknownFieldInAStringList) {
  // An ExtraValue holds only `items` (1).
  Msg user = Msg().message(4, Msg().bytes(1, "scopes").message(2, Msg().bytes(1, "a").varint(2, 1)));
  Msg review = Msg().message(3, Msg().message(2, user));
  api::Status s = decode_error(envelope("authentication.k8s.io/v1", "TokenReview", review.str()),
                               {"authentication.k8s.io", "v1", "TokenReview"});
  EXPECT_TRUE(api::is_bad_request(s)) << s;
  EXPECT_THAT(s.message, AllOf(HasSubstr("ExtraValue: unknown field number 2 (wire type 0)"),
                               HasSubstr("at status.user.extra[\"scopes\"]")));
}

TEST(Errors, WrongWireType) {
  Msg cm = Msg().message(1, Msg().varint(1, 7));  // name as a varint
  EXPECT_THAT(decode_error(envelope("v1", "ConfigMap", cm.str())).message,
              HasSubstr("wrong wire type 0 for field 1 (name) of message "
                        "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
  Msg inline_varint = Msg().message(2, Msg().message(6, Msg().message(2, Msg().message(1, Msg().varint(2, 1)))));
  EXPECT_TRUE(api::is_bad_request(decode_error(envelope("batch/v1", "Job", inline_varint.str()), {})));
}

TEST(Errors, UnknownKindIsUnsupportedMediaType) {
  // resource.k8s.io is not served by default in 1.33, and not in k8s.io/api's v1 packages.
  const api::GroupVersionKind claim{"resource.k8s.io", "v1beta1", "ResourceClaim"};
  api::Status s = decode_error(envelope("resource.k8s.io/v1beta1", "ResourceClaim", ""), claim);
  EXPECT_TRUE(api::is_unsupported_media_type(s)) << s;
  EXPECT_EQ(s.code, 415);
  EXPECT_THAT(s.message, AllOf(HasSubstr("resource.k8s.io/v1beta1, Kind=ResourceClaim"),
                               HasSubstr("application/json"), HasSubstr("Deployment.apps"),
                               HasSubstr("StorageClass.storage.k8s.io")));
  // A known kind at a version the decoder has no tables for.
  EXPECT_TRUE(api::is_unsupported_media_type(decode_error(envelope("apps/v1beta1", "Deployment", ""))));
}

TEST(Errors, EnvelopeEncodingsOtherThanPlainProtobufAreUnsupported) {
  EXPECT_THAT(decode_error(envelope("v1", "ConfigMap", "", "gzip")).message, HasSubstr("contentEncoding \"gzip\""));
  api::Status s = decode_error(envelope("v1", "ConfigMap", "{}", "", "application/json"));
  EXPECT_TRUE(api::is_unsupported_media_type(s)) << s;
  EXPECT_THAT(s.message, HasSubstr("contentType \"application/json\""));
  // Bytes from the envelope that reach a message are valid UTF-8.
  s = decode_error(envelope("v1", "ConfigMap", "", "\xff"));
  EXPECT_THAT(s.message, HasSubstr("contentEncoding \"\xEF\xBF\xBD\""));
  EXPECT_NO_THROW((void)s.to_json_string());
}

TEST(Errors, MissingOrBadMagicAndEmptyBodies) {
  EXPECT_THAT(decode_error("").message, HasSubstr("empty data"));
  EXPECT_THAT(decode_error("{\"kind\":\"ConfigMap\"}").message,
              HasSubstr("provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]"));
  EXPECT_THAT(decode_error(std::string("k8s\0", 4)).message, HasSubstr("empty body"));
  EXPECT_TRUE(api::is_bad_request(decode_error("k8s")));
}

TEST(Errors, MissingKindOrVersion) {
  api::Status s = decode_error(envelope("", "", ""), {});
  EXPECT_TRUE(api::is_bad_request(s)) << s;
  EXPECT_THAT(s.message, HasSubstr("Object 'Kind' is missing"));
  s = decode_error(envelope("", "ConfigMap", ""), {});
  EXPECT_THAT(s.message, HasSubstr("Object 'apiVersion' is missing"));
  EXPECT_THAT(decode_error(envelope("a/b/c", "ConfigMap", "")).message,
              HasSubstr("unexpected GroupVersion string: a/b/c"));
}

TEST(Errors, TruncatedDataAtEveryLength) {
  Msg cm = Msg().message(1, Msg().bytes(1, "name").entry(11, "k", "v").message(8, Msg().varint(1, 1000)))
               .entry(2, "a", "b").varint(4, 1);
  const std::string full = envelope("v1", "ConfigMap", cm.str());
  ASSERT_TRUE(decode_protobuf_body(full, kConfigMap).ok());
  // Cutting the envelope anywhere past the magic leaves a length that runs past the end, except
  // right after typeMeta: an envelope without raw bytes holds an empty object.
  const std::size_t without_raw = envelope("v1", "ConfigMap", "").size() - 2;
  for (std::size_t n = 5; n < full.size(); ++n) {
    auto r = decode_protobuf_body(full.substr(0, n), kConfigMap);
    if (n == without_raw) {
      EXPECT_TRUE(r.ok());
      continue;
    }
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_TRUE(api::is_bad_request(r.status())) << n << ": " << r.status();
  }
  // Cutting the object inside an intact envelope.
  for (std::size_t n = 1; n < cm.str().size(); ++n) {
    auto r = decode_protobuf_body(envelope("v1", "ConfigMap", cm.str().substr(0, n)), kConfigMap);
    if (r.ok()) continue;  // a cut between two top-level fields is a shorter, valid object
    EXPECT_TRUE(api::is_bad_request(r.status())) << n << ": " << r.status();
  }
}

TEST(Errors, MalformedTagsAndVarints) {
  EXPECT_THAT(decode_error(envelope("v1", "ConfigMap", Msg().varint(0, 1).str())).message,
              HasSubstr("illegal tag 0"));
  EXPECT_THAT(decode_error(envelope("v1", "ConfigMap", Msg().tag(1, 7).str())).message,
              HasSubstr("illegal wire type 7"));
  EXPECT_THAT(decode_error(envelope("v1", "ConfigMap", std::string("\x0a\xff\xff", 3))).message,
              HasSubstr("unexpected end of data in a varint"));
  EXPECT_THAT(decode_error(envelope("v1", "ConfigMap", std::string("\x0a\x05\x0a", 3))).message,
              HasSubstr("length 5 runs past the end"));
  // A length past 2^32 must not wrap around.
  std::string huge = "\x0a" + test_k8s_protobuf::varint_bytes((std::uint64_t{1} << 32) + 1) + "\x0a";
  EXPECT_THAT(decode_error(envelope("v1", "ConfigMap", huge)).message, HasSubstr("runs past the end"));
}

TEST(Errors, InvalidSpecialValues) {
  auto with_limit = [](std::string_view quantity) {
    Msg rq = Msg().message(2, Msg().message(1, Msg().bytes(1, "cpu").message(2, Msg().bytes(1, quantity))));
    return envelope("v1", "ResourceQuota", rq.str());
  };
  EXPECT_TRUE(decode_protobuf_body(with_limit("1500m"), {}).ok());
  EXPECT_THAT(decode_error(with_limit("lots"), {}).message,
              AllOf(HasSubstr("quantities must match the regular expression"), HasSubstr("at spec.hard[\"cpu\"]")));
  EXPECT_THAT(decode_error(with_limit("1mk"), {}).message, HasSubstr("unable to parse quantity's suffix"));

  Msg port = Msg().message(1, Msg().varint(3, 80).message(4, Msg().varint(1, 2)));
  EXPECT_THAT(decode_error(envelope("v1", "Service", Msg().message(2, port).str()), {}).message,
              HasSubstr("IntOrString: impossible type 2"));

  auto with_fields = [](std::string_view raw) {
    Msg m = Msg().message(17, Msg().message(7, Msg().bytes(1, raw)));
    return envelope("v1", "ConfigMap", Msg().message(1, m).str());
  };
  EXPECT_THAT(decode_error(with_fields("{not json")).message, HasSubstr("FieldsV1: its raw bytes are not JSON"));
  EXPECT_THAT(decode_error(with_fields(std::string(100000, '['))).message, HasSubstr("nested deeper than"));

  Msg far_future = Msg().message(1, Msg().message(8, Msg().varint(1, std::uint64_t{1} << 40)));
  EXPECT_THAT(decode_error(envelope("v1", "ConfigMap", far_future.str())).message,
              HasSubstr("outside the years 0 to 9999"));
}

TEST(Errors, EnvelopeWithUnknownFields) {
  std::string body = std::string("k8s\0", 4) + Msg().message(1, Msg().bytes(2, "ConfigMap").bytes(1, "v1")).varint(9, 1).str();
  EXPECT_THAT(decode_error(body).message, HasSubstr("unknown field number 9 (wire type 0) in runtime.Unknown"));
}

}  // namespace
}  // namespace kubesim::fakeapi::http
