// Properties of server-side apply: applying the same configuration twice is a no-op, and
// managers that apply disjoint fields never conflict.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "tests/apply/apply_state.h"

namespace kubesim::fakeapi::apply {
namespace {

using nlohmann::json;
using testing::ApplyState;

const json kSchema = json::parse(R"({"type":"object","properties":{
  "a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"string"},"d":{"type":"integer"},
  "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
  "items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
    "items":{"type":"object","properties":{"name":{"type":"string"},"value":{"type":"integer"}}}},
  "labels":{"type":"object","additionalProperties":{"type":"string"}},
  "args":{"type":"array","items":{"type":"string"}}}})");

// A few of the indices 0…4; at least one when `non_empty`.
std::vector<int> gen_indices(bool non_empty) {
  const auto chosen = *rc::gen::container<std::vector<bool>>(5, rc::gen::arbitrary<bool>());
  std::vector<int> out;
  for (int i = 0; i < 5; ++i) {
    if (chosen[i]) out.push_back(i);
  }
  if (out.empty() && non_empty) out.push_back(*rc::gen::inRange(0, 5));
  return out;
}

// A configuration over `fields` of kSchema; list items, tags and labels named with `prefix`.
// With `non_empty`, no empty list or map: an applied empty map claims the whole map.
json gen_config(const std::vector<std::string>& fields, const std::string& prefix,
                bool non_empty = false) {
  json config = json::object();
  for (const std::string& f : fields) {
    if (!*rc::gen::arbitrary<bool>()) continue;
    if (f == "a" || f == "c") {
      config[f] = *rc::gen::element<std::string>("x", "y", "z");
    } else if (f == "b" || f == "d") {
      config[f] = *rc::gen::inRange(0, 4);
    } else if (f == "tags") {
      json tags = json::array();
      for (int i : gen_indices(non_empty)) {
        tags.push_back(prefix + std::to_string(i));
      }
      config[f] = tags;
    } else if (f == "items") {
      json items = json::array();
      for (int i : gen_indices(non_empty)) {
        items.push_back({{"name", prefix + std::to_string(i)}, {"value", *rc::gen::inRange(0, 3)}});
      }
      config[f] = items;
    } else if (f == "labels") {
      json labels = json::object();
      for (int i : gen_indices(non_empty)) {
        labels[prefix + std::to_string(i)] = *rc::gen::element<std::string>("1", "2");
      }
      config[f] = labels;
    } else if (f == "args") {
      config[f] = json::array({*rc::gen::element<std::string>("p", "q")});
    }
  }
  return config;
}

const std::vector<std::string> kAll = {"a", "b", "c", "d", "tags", "items", "labels", "args"};

RC_GTEST_PROP(ApplyProperty, ApplyingTheSameConfigurationTwiceIsANoOp, ()) {
  ApplyState s(TypeRef::custom_resource(&kSchema));
  // Some history first: another manager's update and an earlier apply.
  s.update("controller", gen_config(kAll, "c"));
  RC_ASSERT(s.force_apply("m", gen_config(kAll, "m")));
  // An applied empty list that the previous apply's prune took away comes back as [] the next
  // time (structured-merge-diff does the same), so the configuration has no empty lists.
  const json config = gen_config(kAll, "m", true);
  RC_ASSERT(s.force_apply("m", config));
  const json object = s.object();
  const ManagedFields managed = s.managed();
  RC_ASSERT(s.apply("m", config));
  RC_ASSERT(s.object().dump() == object.dump());
  RC_ASSERT(s.managed().size() == managed.size());
  for (std::size_t i = 0; i < managed.size(); ++i) {
    RC_ASSERT(s.managed()[i].fields == managed[i].fields);
    RC_ASSERT(s.managed()[i].time == managed[i].time);
  }
}

RC_GTEST_PROP(ApplyProperty, DisjointManagersNeverConflict, ()) {
  ApplyState s(TypeRef::custom_resource(&kSchema));
  // "one" owns a, b and the items, tags and labels named "o…"; "two" owns c, d, args and those
  // named "t…". Shared lists and maps are granular, so neither touches the other's fields.
  const std::vector<std::string> one = {"a", "b", "tags", "items", "labels"};
  const std::vector<std::string> two = {"c", "d", "args", "tags", "items", "labels"};
  for (int round = 0; round < 3; ++round) {
    const json c1 = gen_config(one, "o", true);
    RC_ASSERT(s.apply("one", c1));
    const json c2 = gen_config(two, "t", true);
    RC_ASSERT(s.apply("two", c2));
    // What each applied last is in the object.
    for (const auto& [key, value] : c2.items()) {
      if (value.is_array() && key != "args") continue;  // merged with the other's items
      if (value.is_object()) continue;
      RC_ASSERT(s.object().at(key) == value);
    }
  }
}

}  // namespace
}  // namespace kubesim::fakeapi::apply
