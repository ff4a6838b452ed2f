#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <string>

#include "fakeapi/internal/encoding/go_compat.h"
#include "kubesim/fakeapi/patch.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;

// Keys include the characters JSON pointers escape.
const std::vector<std::string> kKeys = {"a", "b/c", "~d", "e~1"};

json random_object(int depth, bool nulls);

// A random JSON value; nulls (when allowed) only as object members, never inside arrays.
json random_value(int depth, bool nulls) {
  switch (*rc::gen::inRange(0, depth > 0 ? 7 : 5)) {
    case 0:
      return *rc::gen::inRange(-2, 3);
    case 1:
      return *rc::gen::element<std::string>("x", "y", "z");
    case 2:
      return *rc::gen::arbitrary<bool>();
    case 3:
      return 1.5;
    case 4:
      return nulls ? json() : json("n");
    case 5: {
      json arr = json::array();
      const int n = *rc::gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) arr.push_back(random_value(depth - 1, false));
      return arr;
    }
    default:
      return random_object(depth - 1, nulls);
  }
}

json random_object(int depth, bool nulls) {
  json obj = json::object();
  const int n = *rc::gen::inRange(0, 4);
  for (int i = 0; i < n; ++i) obj[*rc::gen::elementOf(kKeys)] = random_value(depth, nulls);
  return obj;
}

// The merge patch that turns `from` into `to` (RFC 7386's diff).
json merge_diff(const json& from, const json& to) {
  json patch = json::object();
  for (const auto& [k, v] : from.items()) {
    if (!to.contains(k)) patch[k] = nullptr;
  }
  for (const auto& [k, v] : to.items()) {
    if (!from.contains(k)) {
      patch[k] = v;
    } else if (from[k] != v) {
      patch[k] = from[k].is_object() && v.is_object() ? merge_diff(from[k], v) : v;
    }
  }
  return patch;
}

std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

RC_GTEST_PROP(PatchProperty, MergePatchOfTheDiffReproducesTheTarget, ()) {
  const json from = random_object(3, false);
  const json to = random_object(3, false);
  auto r = apply_merge_patch(from, merge_diff(from, to).dump());
  RC_ASSERT(r.ok());
  RC_ASSERT(r.value() == to);
}

RC_GTEST_PROP(PatchProperty, JsonPatchOfTheDiffReproducesTheTarget, ()) {
  const json from = random_object(2, false);
  const json to = random_object(2, false);
  json ops = json::array();
  for (const auto& [k, v] : from.items()) {
    const std::string path = "/" + pointer_token(k);
    ops.push_back({{"op", "test"}, {"path", path}, {"value", v}});
    if (!to.contains(k)) ops.push_back({{"op", "remove"}, {"path", path}});
  }
  for (const auto& [k, v] : to.items()) {
    ops.push_back({{"op", from.contains(k) ? "replace" : "add"},
                   {"path", "/" + pointer_token(k)},
                   {"value", v}});
  }
  auto r = apply_json_patch(from, ops.dump());
  RC_ASSERT(r.ok());
  RC_ASSERT(r.value() == to);
}

RC_GTEST_PROP(PatchProperty, JsonPatchInsertThenRemoveRoundTrips, ()) {
  json doc = {{"l", json::array()}};
  const int n = *rc::gen::inRange(0, 6);
  for (int i = 0; i < n; ++i) doc["l"].push_back(random_value(1, false));
  const int at = *rc::gen::inRange(0, n + 1);
  const std::string index =
      *rc::gen::arbitrary<bool>() ? std::to_string(at) : std::to_string(at - n - 1);
  const json ops = {{{"op", "add"}, {"path", "/l/" + index}, {"value", random_value(1, false)}},
                    {{"op", "remove"}, {"path", "/l/" + std::to_string(at)}}};
  auto r = apply_json_patch(doc, ops.dump());
  RC_ASSERT(r.ok());
  RC_ASSERT(r.value() == doc);
}

// With no field metadata and no directives, a strategic merge patch is a merge patch.
RC_GTEST_PROP(PatchProperty, StrategicMergeWithoutMetadataIsAMergePatch, ()) {
  const json doc = random_object(3, false);
  const std::string patch = random_object(3, true).dump();
  auto smp = apply_strategic_merge_patch(doc, patch, PatchSchema{});
  auto merge = apply_merge_patch(doc, patch);
  RC_ASSERT(smp.ok());
  RC_ASSERT(merge.ok());
  RC_ASSERT(smp.value() == merge.value());
}

// Patching a merge list with some of its own elements, in order, changes nothing.
RC_GTEST_PROP(PatchProperty, MergeListPatchWithOwnElementsIsIdempotent, ()) {
  const auto names = *rc::gen::unique<std::vector<std::string>>(
      rc::gen::container<std::string>(rc::gen::inRange('a', 'f')));
  json list = json::array();
  for (const std::string& name : names)
    list.push_back({{"name", name}, {"v", random_value(1, false)}});
  json subset = json::array();
  for (const json& e : list) {
    if (*rc::gen::arbitrary<bool>()) subset.push_back(e);
  }
  const json doc = {{"items", list}};
  const PatchSchema schema = PatchSchema().merge_list("items", "name");
  auto r = apply_strategic_merge_patch(doc, json{{"items", subset}}.dump(), schema);
  RC_ASSERT(r.ok());
  RC_ASSERT(r.value() == doc);
}

RC_GTEST_PROP(PatchProperty, PrimitiveMergeListIsASetUnion, ()) {
  // Distinct values in a random order: a shuffled subset of 0..7.
  const auto subset = [] {
    std::vector<int> all;
    for (int i = 0; i < 8; ++i) {
      if (*rc::gen::arbitrary<bool>()) all.push_back(i);
    }
    for (std::size_t i = all.size(); i > 1; --i) {
      std::swap(all[i - 1], all[*rc::gen::inRange<std::size_t>(0, i)]);
    }
    return all;
  };
  const std::vector<int> live = subset();
  const std::vector<int> added = subset();
  const PatchSchema schema = PatchSchema().merge_list("metadata.finalizers");
  auto r = apply_strategic_merge_patch({{"metadata", {{"finalizers", live}}}},
                                       json{{"metadata", {{"finalizers", added}}}}.dump(), schema);
  RC_ASSERT(r.ok());
  const auto got = r.value()["metadata"]["finalizers"].get<std::vector<int>>();
  std::set<int> want(live.begin(), live.end());
  want.insert(added.begin(), added.end());
  RC_ASSERT(got.size() == want.size());
  RC_ASSERT(std::set<int>(got.begin(), got.end()) == want);
}

// The scanner port accepts exactly the texts an RFC 8259 parser accepts (ASCII texts).
RC_GTEST_PROP(PatchProperty, GoParseAcceptsWhatJsonAccepts, ()) {
  const auto text = *rc::gen::container<std::string>(
      rc::gen::elementOf(std::string("{}[],:\" 0123.eE+-tfnrulas\\/u")));
  std::string error;
  const bool go = internal::go_parse(text, error).has_value();
  RC_ASSERT(go == json::accept(text));
  RC_ASSERT(go == error.empty());
}

RC_GTEST_PROP(PatchProperty, GoParseRoundTripsDumpedValues, ()) {
  const json v = random_value(4, true);
  std::string error;
  RC_ASSERT(internal::go_parse(v.dump(), error) == v);
  RC_ASSERT(internal::go_parse(v.dump(2), error) == v);
}

}  // namespace
}  // namespace kubesim::fakeapi
