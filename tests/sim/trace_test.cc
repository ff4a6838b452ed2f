#include "kubesim/sim/trace.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#define XXH_INLINE_ALL  // header only, as sim/trace.cc uses it
#include <xxhash.h>

#include "kubesim/sim/loop.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// XXH3 64 of the whole text at once, as `xxhsum -H3` computes it.
std::uint64_t xxh3(std::string_view bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

void record_sample(Trace& trace) {
  trace.record(Time{}, "server", "start");
  trace.record(Time{} + 1500ms, "ctrl-1", "lease.acquire", {{"holder", "ctrl-1"}, {"rv", 7}});
  trace.record(Time{} + 2s, "ctrl-2", "watch.event", {{"type", "ADDED"}, {"key", "default/a"}});
}

TEST(TraceTest, IsOffUntilEnabled) {
  Trace trace;
  EXPECT_FALSE(trace.enabled());
  trace.record(Time{}, "p", "k");
  EXPECT_EQ(trace.count(), 0u);
  EXPECT_EQ(trace.hash(), xxh3(""));
  EXPECT_EQ(trace.hash_hex(), "2d06800538d394c2");
}

TEST(TraceTest, LineFormatHasSortedKeysAndNanosecondTimes) {
  struct Case {
    Time t;
    std::string process;
    std::string kind;
    json fields;
    std::string line;
  };
  const Case cases[] = {
      {Time{}, "server", "start", json::object(), R"({"f":{},"k":"start","p":"server","t":0})"},
      {Time{} + 1500ms, "ctrl-1", "lease.acquire", json{{"rv", 7}, {"holder", "ctrl-1"}},
       R"({"f":{"holder":"ctrl-1","rv":7},"k":"lease.acquire","p":"ctrl-1","t":1500000000})"},
      {Time{} + 1ns, "a\"b", "k", json{{"nested", {{"z", 1}, {"a", {1, 2}}}}},
       R"({"f":{"nested":{"a":[1,2],"z":1}},"k":"k","p":"a\"b","t":1})"},
      {Time{} - 1s, "p", "k", json{{"ok", true}, {"none", nullptr}},
       R"({"f":{"none":null,"ok":true},"k":"k","p":"p","t":-1000000000})"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.line);
    std::ostringstream sink;
    Trace trace;
    trace.enable(&sink);
    trace.record(c.t, c.process, c.kind, c.fields);
    EXPECT_EQ(sink.str(), c.line + "\n");
    EXPECT_EQ(trace.count(), 1u);
    EXPECT_EQ(trace.hash(), xxh3(c.line + "\n"));
  }
}

// Empty texts, including views with no data at all, are written as "".
TEST(TraceTest, EmptyTextsAreWritten) {
  std::ostringstream sink;
  Trace trace;
  trace.enable(&sink);
  trace.record_fields(Time{}, std::string_view(), "k", {{"a", std::string_view()}, {"b", ""}});
  trace.record(Time{}, std::string_view(), std::string_view());
  EXPECT_EQ(sink.str(), "{\"f\":{\"a\":\"\",\"b\":\"\"},\"k\":\"k\",\"p\":\"\",\"t\":0}\n"
                        "{\"f\":{},\"k\":\"\",\"p\":\"\",\"t\":0}\n");
}

// A line is the dump() of {"f": fields, "k": kind, "p": process, "t": ns}, whatever the
// strings hold: quotes, backslashes, control characters, UTF-8.
// A string made of pieces that JSON escapes (quotes, control bytes, UTF-8) and plain ones, one
// piece per byte of `s`.
std::string pick(const std::string& s) {
  static const char* const kPieces[] = {"a", "\"", "\\", "\n", "\t", "\x01", "\x1f", "\x7f", "/",
                                        "\xc3\xa9", "\xe2\x82\xac", " ", "ctl-0", "api.create"};
  std::string out;
  for (char c : s) out += kPieces[static_cast<unsigned char>(c) % std::size(kPieces)];
  return out;
}

RC_GTEST_PROP(TraceTest, LineIsTheDumpOfTheWholeObject, ()) {
  const std::string process = pick(*rc::gen::arbitrary<std::string>());
  const std::string kind = pick(*rc::gen::arbitrary<std::string>());
  const std::string value = pick(*rc::gen::arbitrary<std::string>());
  const std::int64_t ns = *rc::gen::inRange<std::int64_t>(-1'000'000, 1'000'000'000'000);
  Trace trace;
  std::ostringstream sink;
  trace.enable(&sink);
  trace.record(Time{} + Duration(ns), process, kind, {{"v", value}, {"n", ns}});
  const json whole = {{"t", ns}, {"p", process}, {"k", kind}, {"f", {{"v", value}, {"n", ns}}}};
  RC_ASSERT(sink.str() == whole.dump() + "\n");
}

// record_fields writes the same bytes, and so the same hash, as record() with the JSON object.
RC_GTEST_PROP(TraceTest, RecordFieldsWritesWhatRecordWrites, ()) {
  const std::string process = pick(*rc::gen::arbitrary<std::string>());
  const std::string name = pick(*rc::gen::arbitrary<std::string>());
  const std::string ns = pick(*rc::gen::arbitrary<std::string>());
  const std::int64_t revision = *rc::gen::inRange<std::int64_t>(-5, 1'000'000'000'000);
  const std::int64_t t = *rc::gen::inRange<std::int64_t>(0, 1'000'000'000'000);
  Trace with_json;
  Trace with_fields;
  std::ostringstream json_sink;
  std::ostringstream fields_sink;
  with_json.enable(&json_sink);
  with_fields.enable(&fields_sink);
  for (int i = 0; i < 2; ++i) {  // the second line reuses the first one's buffer
    with_json.record(Time{} + Duration(t), process, "api.create",
                     {{"name", name}, {"namespace", ns}, {"resource", "configmaps"}, {"revision", revision}});
    with_fields.record_fields(Time{} + Duration(t), process, "api.create",
                              {{"name", name}, {"namespace", ns}, {"resource", "configmaps"}, {"revision", revision}});
  }
  RC_ASSERT(fields_sink.str() == json_sink.str());
  RC_ASSERT(with_fields.hash() == with_json.hash());
  RC_ASSERT(with_fields.count() == 2u);
}

TEST(TraceTest, HashCoversEveryLineOfTheSinkOutput) {
  std::ostringstream sink;
  Trace trace;
  trace.enable(&sink);
  record_sample(trace);
  EXPECT_EQ(trace.count(), 3u);
  EXPECT_EQ(
      sink.str(),
      "{\"f\":{},\"k\":\"start\",\"p\":\"server\",\"t\":0}\n"
      "{\"f\":{\"holder\":\"ctrl-1\",\"rv\":7},\"k\":\"lease.acquire\",\"p\":\"ctrl-1\","
      "\"t\":1500000000}\n"
      "{\"f\":{\"key\":\"default/a\",\"type\":\"ADDED\"},\"k\":\"watch.event\",\"p\":\"ctrl-2\","
      "\"t\":2000000000}\n");
  EXPECT_EQ(trace.hash(), xxh3(sink.str()));
}

TEST(TraceTest, HashIsStable) {
  // A golden value (`xxhsum -H3` of the three lines): a change of the line format or of the
  // hash shows up here.
  Trace trace;
  trace.enable();
  record_sample(trace);
  EXPECT_EQ(trace.hash_hex(), "940577156bc06e67");
  EXPECT_EQ(trace.hash_hex().size(), 16u);
}

TEST(TraceTest, SameEventsSameHashWithOrWithoutASink) {
  std::ostringstream sink;
  Trace with_sink;
  with_sink.enable(&sink);
  Trace without_sink;
  without_sink.enable();
  record_sample(with_sink);
  record_sample(without_sink);
  EXPECT_EQ(with_sink.hash(), without_sink.hash());
  EXPECT_EQ(with_sink.hash_hex(), without_sink.hash_hex());
}

TEST(TraceTest, FieldInsertionOrderDoesNotMatter) {
  Trace a;
  Trace b;
  a.enable();
  b.enable();
  json fa;
  fa["x"] = 1;
  fa["a"] = "s";
  json fb;
  fb["a"] = "s";
  fb["x"] = 1;
  a.record(Time{} + 3s, "p", "k", fa);
  b.record(Time{} + 3s, "p", "k", fb);
  EXPECT_EQ(a.hash(), b.hash());
}

TEST(TraceTest, AnyDifferenceChangesTheHash) {
  Trace base;
  base.enable();
  base.record(Time{} + 1s, "p", "k", {{"n", 1}});
  base.record(Time{} + 2s, "q", "k", {{"n", 2}});

  auto differs = [&](Time t1, const char* p1, const char* k1, int n1, Time t2) {
    Trace other;
    other.enable();
    other.record(t1, p1, k1, {{"n", n1}});
    other.record(t2, "q", "k", {{"n", 2}});
    return other.hash() != base.hash();
  };
  EXPECT_FALSE(differs(Time{} + 1s, "p", "k", 1, Time{} + 2s));
  EXPECT_TRUE(differs(Time{} + 1s + 1ns, "p", "k", 1, Time{} + 2s));
  EXPECT_TRUE(differs(Time{} + 1s, "P", "k", 1, Time{} + 2s));
  EXPECT_TRUE(differs(Time{} + 1s, "p", "kk", 1, Time{} + 2s));
  EXPECT_TRUE(differs(Time{} + 1s, "p", "k", 3, Time{} + 2s));
  EXPECT_TRUE(differs(Time{} + 1s, "p", "k", 1, Time{} + 3s));

  // Order matters too.
  Trace swapped;
  swapped.enable();
  swapped.record(Time{} + 2s, "q", "k", {{"n", 2}});
  swapped.record(Time{} + 1s, "p", "k", {{"n", 1}});
  EXPECT_NE(swapped.hash(), base.hash());
}

TEST(TraceTest, DisableStopsRecordingAndKeepsTheHash) {
  std::ostringstream sink;
  Trace trace;
  trace.enable(&sink);
  trace.record(Time{}, "p", "k");
  const std::uint64_t h = trace.hash();
  const std::string out = sink.str();
  trace.disable();
  EXPECT_FALSE(trace.enabled());
  trace.record(Time{} + 1s, "p", "k");
  EXPECT_EQ(trace.hash(), h);
  EXPECT_EQ(trace.count(), 1u);
  EXPECT_EQ(sink.str(), out);
  // Enabling again continues the same running hash.
  trace.enable();
  trace.record(Time{} + 2s, "p", "k");
  EXPECT_EQ(trace.count(), 2u);
  EXPECT_EQ(trace.hash(), xxh3(out + R"({"f":{},"k":"k","p":"p","t":2000000000})"
                                      "\n"));
}

TEST(TraceTest, TheLoopsTraceRecordsAtVirtualTime) {
  Loop loop;
  std::ostringstream sink;
  loop.trace().enable(&sink);
  loop.add_timer(Time{} + 250ms, [&loop] { loop.trace().record(loop.now(), "timer", "fired"); });
  loop.run_until_idle();
  EXPECT_EQ(sink.str(), "{\"f\":{},\"k\":\"fired\",\"p\":\"timer\",\"t\":250000000}\n");
}

}  // namespace
}  // namespace kubesim::sim
