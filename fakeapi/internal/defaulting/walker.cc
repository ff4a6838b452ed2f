#include "fakeapi/internal/defaulting/walker.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fakeapi/internal/defaulting/hooks.h"
#include "fakeapi/internal/defaulting/rule_tables.h"

namespace kubesim::fakeapi::defaulting {
namespace {

using Json = nlohmann::json;
using types::FieldSpec;
using types::MessageSpec;

struct Segment {
  std::string name;
  bool each = false;  // "name[]": every element of the list
};

struct CompiledCondition {
  Test test;
  std::vector<Segment> path;
  Json value;
};

struct CompiledStep {
  const Step* step;
  std::vector<Segment> path;
  Json value;
  std::vector<CompiledCondition> when;
  bool under_list = false;  // the path goes through a list: nothing is created on the way
};

struct Node {
  std::vector<CompiledStep> steps;
  bool subtree = false;  // some step applies here or below
};

std::vector<Segment> parse_path(std::string_view path) {
  std::vector<Segment> out;
  while (!path.empty()) {
    const std::size_t dot = path.find('.');
    std::string_view part = path.substr(0, dot);
    Segment s;
    if (part.ends_with("[]")) {
      s.each = true;
      part.remove_suffix(2);
    }
    s.name = std::string(part);
    out.push_back(std::move(s));
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return out;
}

// Built once, from every type reachable from a kind with a table; immutable afterwards.
class Index {
 public:
  Index() {
    std::unordered_map<std::string_view, std::vector<CompiledStep>> by_name;
    for (const TypeRules& rules : type_rules()) {
      auto& steps = by_name[rules.type];
      for (const Step& step : rules.steps) {
        CompiledStep c{&step, parse_path(step.path), Json(), {}};
        for (const Segment& s : c.path) c.under_list = c.under_list || s.each;
        if (step.op == Op::kSet) c.value = Json::parse(step.value);
        for (const Condition& cond : step.when) {
          c.when.push_back({cond.test, parse_path(cond.path),
                            cond.value.empty() ? Json() : Json::parse(cond.value)});
        }
        steps.push_back(std::move(c));
      }
    }
    std::vector<const MessageSpec*> order;
    for (const types::KindSpec& kind : types::decodable_kinds()) collect(kind.message, order);
    for (const MessageSpec* spec : order) {
      Node& node = nodes_[spec];
      if (auto it = by_name.find(spec->name); it != by_name.end()) node.steps = it->second;
      node.subtree = !node.steps.empty();
    }
    // A type has defaults below it when one of its message fields does: iterate to the fixed
    // point, as types may be recursive.
    for (bool changed = true; changed;) {
      changed = false;
      for (const MessageSpec* spec : order) {
        Node& node = nodes_[spec];
        if (node.subtree) continue;
        for (const FieldSpec& f : spec->fields) {
          if (f.message != nullptr && nodes_[f.message].subtree) {
            node.subtree = changed = true;
            break;
          }
        }
      }
    }
  }

  const Node* find(const MessageSpec* spec) const {
    auto it = nodes_.find(spec);
    return it == nodes_.end() || !it->second.subtree ? nullptr : &it->second;
  }

 private:
  void collect(const MessageSpec* spec, std::vector<const MessageSpec*>& order) {
    if (spec == nullptr || nodes_.contains(spec)) return;
    nodes_[spec];
    order.push_back(spec);
    for (const FieldSpec& f : spec->fields) collect(f.message, order);
  }

  std::unordered_map<const MessageSpec*, Node> nodes_;
};

const Index& index() {
  static const Index kIndex;
  return kIndex;
}

const Json kNull;

// The member at `path` (no "[]" segments), or null.
const Json& at(const Json& object, const std::vector<Segment>& path) {
  const Json* j = &object;
  for (const Segment& s : path) {
    if (!j->is_object()) return kNull;
    auto it = j->find(s.name);
    if (it == j->end()) return kNull;
    j = &*it;
  }
  return *j;
}

bool unset(const Json& j, Unless unless) {
  return unless == Unless::kNil ? j.is_null() : hooks::go_zero(j);
}

bool holds(const CompiledCondition& c, const Json& object) {
  const Json& v = at(object, c.path);
  switch (c.test) {
    case Test::kNil: return v.is_null();
    case Test::kNotNil: return !v.is_null();
    case Test::kZero: return hooks::go_zero(v);
    case Test::kNotZero: return !hooks::go_zero(v);
    case Test::kEquals: return v == c.value;
    case Test::kIn:
      for (const Json& option : c.value) {
        if (v == option) return true;
      }
      return false;
  }
  return false;
}

// Sets path[i..] under `j`. Objects missing on the way are created, except on a path through a
// list: only the elements that exist, under objects that exist, are defaulted.
void set(Json& j, const CompiledStep& step, std::size_t i, bool create) {
  if (!j.is_object()) return;
  const Segment& s = step.path[i];
  if (i + 1 == step.path.size()) {
    auto it = j.find(s.name);
    if (it == j.end()) {
      j.emplace(s.name, step.value);
    } else if (unset(*it, step.step->unless)) {
      *it = step.value;
    }
    return;
  }
  auto it = j.find(s.name);
  if (s.each) {
    if (it == j.end() || !it->is_array()) return;
    for (Json& e : *it) set(e, step, i + 1, false);
    return;
  }
  if (it == j.end() || it->is_null()) {
    if (!create) return;
    if (it == j.end()) it = j.emplace(s.name, Json::object()).first;
    *it = Json::object();
  }
  set(*it, step, i + 1, create);
}

void run(const CompiledStep& step, Json& object) {
  for (const CompiledCondition& c : step.when) {
    if (!holds(c, object)) return;
  }
  if (step.step->op == Op::kHook) {
    step.step->hook(object);
  } else {
    set(object, step, 0, !step.under_list);
  }
}

void visit(const Index& idx, const MessageSpec& spec, const Node& node, Json& object) {
  for (const CompiledStep& step : node.steps) run(step, object);
  for (const FieldSpec& f : spec.fields) {
    if (f.message == nullptr) continue;
    const Node* child = idx.find(f.message);
    if (child == nullptr) continue;
    if (f.has(types::kInline)) {
      visit(idx, *f.message, *child, object);
      continue;
    }
    auto it = object.find(f.name);
    if (f.cardinality == types::Cardinality::kSingular) {
      if (it != object.end() && it->is_object()) {
        visit(idx, *f.message, *child, *it);
      } else if ((it == object.end() || it->is_null()) && !f.has(types::kPointer)) {
        // Go's value struct is there even when the JSON leaves it out.
        Json value = Json::object();
        visit(idx, *f.message, *child, value);
        if (!value.empty()) object[std::string(f.name)] = std::move(value);
      }
    } else if (it != object.end() &&
               (f.cardinality == types::Cardinality::kRepeated ? it->is_array() : it->is_object())) {
      for (Json& e : *it) {  // each element of a list, each value of a map
        if (e.is_object()) visit(idx, *f.message, *child, e);
      }
    }
  }
}

}  // namespace

bool has_defaults(const types::MessageSpec& spec) { return index().find(&spec) != nullptr; }

void apply_defaults(const types::MessageSpec& spec, nlohmann::json& object) {
  const Index& idx = index();
  const Node* node = idx.find(&spec);
  if (node == nullptr || !object.is_object()) return;
  visit(idx, spec, *node, object);
}

}  // namespace kubesim::fakeapi::defaulting
