// The defaulting rules of the built-in kinds as data: for each Go type (by its proto message
// name, as types::MessageSpec names it), the steps of its hand-written SetDefaults_* function
// and of its fields' `+default=` markers. default_tables.cc is generated from rules.yaml by
// gen_defaults.py; walker.h applies the tables.
//
// Guarantees of the tables: constant-initialised; a kSet step has a path and a JSON value; a
// kHook step has a hook; a value or condition value is valid compact JSON.
#ifndef KUBESIM_FAKEAPI_INTERNAL_DEFAULTING_RULE_TABLES_H_
#define KUBESIM_FAKEAPI_INTERNAL_DEFAULTING_RULE_TABLES_H_

#include <cstdint>
#include <span>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::defaulting {

// A step that is not "absent → constant": it edits the object of its type in place.
using Hook = void (*)(nlohmann::json& object);

enum class Op : std::uint8_t {
  kSet,   // path := value, unless the member is already set (Unless)
  kHook,  // hook(object)
};

// When a member counts as set, as the Go function tests it.
enum class Unless : std::uint8_t {
  kNil,   // `== nil`: only an absent or null member is unset.
  kZero,  // the zero value or len() == 0: "", 0, false, [] and {} are unset too.
};

enum class Test : std::uint8_t { kNil, kNotNil, kZero, kNotZero, kEquals, kIn };

struct Condition {
  Test test;
  std::string_view path;   // dotted, from the object of the rule's type
  std::string_view value;  // JSON: the value (kEquals) or the array of values (kIn)
};

struct Step {
  Op op;
  // Dotted JSON path from the object of the rule's type; "[]" after a member means each element
  // of that list ("spec.ports[].protocol").
  std::string_view path;
  std::string_view value;  // JSON text (kSet)
  Unless unless;
  Hook hook;                            // kHook
  std::span<const Condition> when;      // all must hold, checked when the step runs
};

struct TypeRules {
  std::string_view type;    // proto message name: "k8s.io.api.core.v1.PodSpec"
  std::string_view source;  // the Go function or markers transcribed
  std::span<const Step> steps;
};

// Every block, the SetDefaults_* functions first, then the markers (generated).
std::span<const TypeRules> type_rules();

}  // namespace kubesim::fakeapi::defaulting

#endif  // KUBESIM_FAKEAPI_INTERNAL_DEFAULTING_RULE_TABLES_H_
