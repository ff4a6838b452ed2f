// The watch stream decoders: events framed however the body is split (byte by byte, at random
// points, through chunked transfer coding), ERROR events, and bad input.
#include "api/rest/internal/watch_decoder.h"

#include "api/rest/internal/chunked_decoder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <sstream>

namespace kubesim::api::rest::internal {
namespace {

std::string event_json(const std::string& type, const std::string& name, const std::string& value) {
  nlohmann::json j = {{"type", type},
                      {"object",
                       {{"apiVersion", "v1"},
                        {"kind", "ConfigMap"},
                        {"metadata", {{"name", name}, {"resourceVersion", "1"}}},
                        {"data", {{"k", value}}}}}};
  return j.dump();
}

std::vector<WatchEvent> decode_all(const std::vector<std::string>& pieces, WatchDecoder& d) {
  std::vector<WatchEvent> out;
  for (const auto& p : pieces) d.feed(p, out);
  return out;
}

TEST(WatchDecoderTest, OneEventPerLineFedByteByByte) {
  const std::string body = event_json("ADDED", "a", "x") + "\n" + event_json("MODIFIED", "a", "}{\"\\") +
                           "\n" + event_json("DELETED", "a", "") + "\n";
  WatchDecoder d;
  std::vector<WatchEvent> out;
  for (char c : body) d.feed(std::string_view(&c, 1), out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].type, EventType::kAdded);
  EXPECT_EQ(out[1].type, EventType::kModified);
  EXPECT_EQ(out[1].object->json()["data"]["k"], "}{\"\\");
  EXPECT_EQ(out[2].type, EventType::kDeleted);
  EXPECT_EQ(d.pending_bytes(), 0u);
  EXPECT_FALSE(d.finished());
}

TEST(WatchDecoderTest, EventsWithoutSeparatorsAndAPartialTail) {
  WatchDecoder d;
  const std::string two = event_json("ADDED", "a", "1") + event_json("BOOKMARK", "b", "2");
  auto out = decode_all({two + "{\"type\":\"ADD"}, d);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].type, EventType::kBookmark);
  EXPECT_GT(d.pending_bytes(), 0u);
}

TEST(WatchDecoderTest, ErrorEventCarriesItsStatusAndEndsTheStream) {
  const Status gone = new_resource_expired(too_old_resource_version_message(5, 10));
  const std::string body = R"({"type":"ERROR","object":)" + gone.to_json_string() + "}\n" +
                           event_json("ADDED", "late", "x") + "\n";
  WatchDecoder d;
  auto out = decode_all({body}, d);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].type, EventType::kError);
  ASSERT_TRUE(out[0].status());
  EXPECT_EQ(*out[0].status(), gone);
  EXPECT_TRUE(is_resource_expired(*out[0].status()));
  EXPECT_TRUE(d.finished());
}

TEST(WatchDecoderTest, BadInputEndsTheStreamWithClientGosDecodingError) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"type":"RENAMED","object":{}})", "got invalid watch event type: RENAMED"},
      {R"({"type":"ADDED"})", "unable to decode watch event: the event has no object"},
      {R"({"type":"ADDED","object":{"metadata":{"name":3}}})", "unable to decode watch event"},
      {R"({"type":"ADDED","object":{"a":tru}})", "malformed JSON"},
      {"hello", "invalid character 'h' looking for beginning of value"},
  };
  for (const auto& [input, fragment] : cases) {
    WatchDecoder d;
    auto out = decode_all({event_json("ADDED", "ok", "1") + "\n" + input + "\n" + event_json("ADDED", "x", "")}, d);
    ASSERT_EQ(out.size(), 2u) << input;
    EXPECT_EQ(out[0].type, EventType::kAdded);
    ASSERT_EQ(out[1].type, EventType::kError) << input;
    const Status s = *out[1].status();
    EXPECT_EQ(s.code, 500);
    EXPECT_TRUE(is_internal_error(s));
    EXPECT_NE(s.message.find("unable to decode an event from the watch stream: "), std::string::npos);
    EXPECT_NE(s.message.find(fragment), std::string::npos) << s.message;
    ASSERT_TRUE(s.details);
    ASSERT_EQ(s.details->causes.size(), 2u);
    EXPECT_EQ(s.details->causes[1].type, "ClientWatchDecoding");
    EXPECT_TRUE(d.finished());
  }
}

TEST(WatchDecoderTest, OversizeEventIsAnError) {
  WatchDecoder d(100);
  auto out = decode_all({event_json("ADDED", "a", std::string(200, 'x'))}, d);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0].status()->message.find("larger than 100 bytes"), std::string::npos);
}

// Random events whose strings are full of JSON-significant characters.
struct Sample {
  std::vector<std::pair<std::string, std::string>> events;  // type, value
  std::vector<std::string> separators;
};

rc::Gen<std::string> tricky_string() {
  return rc::gen::container<std::string>(
      rc::gen::elementOf(std::vector<char>{'a', '{', '}', '[', ']', '"', '\\', ' ', '\n', ':', ','}));
}

std::string body_of(const Sample& s) {
  std::string body;
  for (std::size_t i = 0; i < s.events.size(); ++i) {
    body += event_json(s.events[i].first, "o" + std::to_string(i), s.events[i].second);
    body += s.separators[i % s.separators.size()];
  }
  return body;
}

Sample gen_sample() {
  Sample s;
  s.events = *rc::gen::container<std::vector<std::pair<std::string, std::string>>>(
      rc::gen::pair(rc::gen::element<std::string>("ADDED", "MODIFIED", "DELETED", "BOOKMARK"),
                    tricky_string()));
  s.separators = *rc::gen::nonEmpty(rc::gen::container<std::vector<std::string>>(
      rc::gen::element<std::string>("\n", "", " ", "\r\n", "\n\n\t")));
  return s;
}

void expect_same(const Sample& s, const std::vector<WatchEvent>& out) {
  RC_ASSERT(out.size() == s.events.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    RC_ASSERT(std::string(to_string(out[i].type)) == s.events[i].first);
    RC_ASSERT(out[i].object->json()["data"]["k"] == s.events[i].second);
    RC_ASSERT(std::string(out[i].object->name()) == "o" + std::to_string(i));
  }
}

RC_GTEST_PROP(WatchDecoderProperty, AnySplitGivesTheSameEvents, ()) {
  const Sample s = gen_sample();
  const std::string body = body_of(s);
  auto cuts = *rc::gen::container<std::vector<std::size_t>>(rc::gen::inRange<std::size_t>(0, body.size() + 1));
  std::sort(cuts.begin(), cuts.end());
  WatchDecoder d;
  std::vector<WatchEvent> out;
  std::size_t at = 0;
  for (std::size_t cut : cuts) {
    d.feed(std::string_view(body).substr(at, cut - at), out);
    at = cut;
  }
  d.feed(std::string_view(body).substr(at), out);
  expect_same(s, out);
  RC_ASSERT(d.pending_bytes() == 0u);
}

// The whole path of a watch body: chunked transfer coding with random chunk sizes (some with
// extensions, a trailer at the end), fed in random pieces through the chunk decoder into the
// event decoder — what the transport does with the bytes it reads.
RC_GTEST_PROP(WatchDecoderProperty, ChunkedBodyInRandomPiecesGivesTheSameEvents, ()) {
  const Sample s = gen_sample();
  const std::string body = body_of(s);
  std::ostringstream raw;
  for (std::size_t at = 0; at < body.size();) {
    const std::size_t n = std::min(body.size() - at, *rc::gen::inRange<std::size_t>(1, 40));
    raw << std::hex << n << (n % 3 == 0 ? ";ext=1" : "") << "\r\n" << body.substr(at, n) << "\r\n";
    at += n;
  }
  raw << "0\r\nX-Trailer: t\r\n\r\n";
  const std::string bytes = raw.str() + "NEXT";  // the next response on the connection

  ChunkedDecoder chunks;
  WatchDecoder d;
  std::vector<WatchEvent> out;
  std::size_t at = 0;
  std::size_t used_total = 0;
  while (at < bytes.size() && !chunks.done()) {
    const std::size_t n = std::min(bytes.size() - at, *rc::gen::inRange<std::size_t>(1, 64));
    std::string decoded;
    const std::size_t used = chunks.feed(std::string_view(bytes).substr(at, n), decoded);
    RC_ASSERT(!chunks.failed());
    used_total += used;
    d.feed(decoded, out);
    at += n;
  }
  RC_ASSERT(chunks.done());
  RC_ASSERT(bytes.substr(used_total) == "NEXT");
  expect_same(s, out);
}

TEST(ChunkedDecoderTest, ByteByByteWithExtensionsTrailersAndBareLf) {
  const std::string raw = "5;name=value\r\nhello\r\n1\nX\n0\r\nTrailer: a\r\n\r\n";
  ChunkedDecoder d;
  std::string out;
  for (char c : raw) ASSERT_EQ(d.feed(std::string_view(&c, 1), out), 1u);
  EXPECT_TRUE(d.done());
  EXPECT_EQ(out, "helloX");
  EXPECT_EQ(d.feed("more", out), 0u);
}

TEST(ChunkedDecoderTest, MalformedInputFails) {
  for (const std::string raw : {"zz\r\n", "\r\n", "2\r\nabc\r\n", "2\rx", "11111111111111111\r\n"}) {
    ChunkedDecoder d;
    std::string out;
    d.feed(raw, out);
    EXPECT_TRUE(d.failed()) << raw;
    EXPECT_EQ(d.error().rfind("malformed chunked encoding: ", 0), 0u) << d.error();
  }
}

}  // namespace
}  // namespace kubesim::api::rest::internal
