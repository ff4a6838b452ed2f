#include "kubesim/api/labels.h"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "kubesim/api/go_strings.h"
#include "api/internal/label_errors.h"

namespace kubesim::api {
namespace {

using internal::arity_error;
using internal::join;
using internal::key_error;
using internal::not_integer_error;
using internal::parse_int64;
using internal::value_error;
using Op = SelectionOperator;

}  // namespace

std::string_view to_string(SelectionOperator op) {
  switch (op) {
    case Op::kIn: return "in";
    case Op::kNotIn: return "notin";
    case Op::kEquals: return "=";
    case Op::kDoubleEquals: return "==";
    case Op::kNotEquals: return "!=";
    case Op::kExists: return "exists";
    case Op::kDoesNotExist: return "!";
    case Op::kGreaterThan: return "gt";
    case Op::kLessThan: return "lt";
  }
  return "?";
}

ParseResult<LabelRequirement> LabelRequirement::create(std::string key, SelectionOperator op,
                                                       std::vector<std::string> values) {
  std::vector<std::string> problems;
  if (auto e = key_error(key)) problems.push_back(std::move(*e));
  if (auto e = arity_error(op, values.size())) problems.push_back(std::move(*e));
  std::int64_t bound = 0;
  for (const std::string& v : values) {
    if (op == Op::kGreaterThan || op == Op::kLessThan) {
      if (auto n = parse_int64(v)) {
        bound = *n;
      } else {
        problems.push_back(not_integer_error(v));
      }
    }
    if (auto e = value_error(key, v)) problems.push_back(std::move(*e));
  }
  if (!problems.empty()) return ParseError{join(problems, "; "), 0};
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return LabelRequirement(std::move(key), op, std::move(values), bound);
}

bool LabelRequirement::has_value(std::string_view value) const {
  // Almost always one value: a linear scan beats a binary search here.
  return std::find(values_.begin(), values_.end(), value) != values_.end();
}

bool LabelRequirement::matches(std::optional<std::string_view> value) const {
  switch (op_) {
    case Op::kIn:
    case Op::kEquals:
    case Op::kDoubleEquals: return value && has_value(*value);
    case Op::kNotIn:
    case Op::kNotEquals: return !value || !has_value(*value);
    case Op::kExists: return value.has_value();
    case Op::kDoesNotExist: return !value;
    case Op::kGreaterThan:
    case Op::kLessThan: {
      if (!value) return false;
      std::optional<std::int64_t> n = parse_int64(*value);
      if (!n) return false;
      return op_ == Op::kGreaterThan ? *n > bound_ : *n < bound_;
    }
  }
  return false;
}

std::string LabelRequirement::to_string() const {
  std::string out;
  if (op_ == Op::kDoesNotExist) out += '!';
  out += key_;
  switch (op_) {
    case Op::kExists:
    case Op::kDoesNotExist: return out;
    case Op::kIn: out += " in ("; break;
    case Op::kNotIn: out += " notin ("; break;
    case Op::kGreaterThan: out += '>'; break;
    case Op::kLessThan: out += '<'; break;
    default: out += api::to_string(op_); break;
  }
  out += join(values_, ",");
  if (op_ == Op::kIn || op_ == Op::kNotIn) out += ')';
  return out;
}

LabelSelector LabelSelector::nothing() {
  LabelSelector s;
  s.nothing_ = true;
  return s;
}

LabelSelector LabelSelector::from_requirements(std::vector<LabelRequirement> requirements) {
  std::stable_sort(
      requirements.begin(), requirements.end(),
      [](const LabelRequirement& a, const LabelRequirement& b) { return a.key() < b.key(); });
  LabelSelector s;
  s.requirements_ = std::move(requirements);
  return s;
}

LabelSelector LabelSelector::add(LabelRequirement requirement) const {
  if (nothing_) return *this;
  std::vector<LabelRequirement> all = requirements_;
  all.push_back(std::move(requirement));
  return from_requirements(std::move(all));
}

bool LabelSelector::matches(const std::map<std::string, std::string>& labels) const {
  if (nothing_) return false;
  for (const LabelRequirement& r : requirements_) {
    auto it = labels.find(r.key());
    std::optional<std::string_view> value;
    if (it != labels.end()) value = it->second;
    if (!r.matches(value)) return false;
  }
  return true;
}

bool LabelSelector::matches(const nlohmann::json& labels) const {
  if (nothing_) return false;
  const nlohmann::json::object_t* object = labels.get_ptr<const nlohmann::json::object_t*>();
  for (const LabelRequirement& r : requirements_) {
    std::optional<std::string_view> value;
    if (object != nullptr) {
      auto it = object->find(r.key());
      if (it != object->end() && it->second.is_string()) {
        value = it->second.get_ref<const std::string&>();
      }
    }
    if (!r.matches(value)) return false;
  }
  return true;
}

std::optional<std::string> LabelSelector::requires_exact_match(std::string_view key) const {
  for (const LabelRequirement& r : requirements_) {
    if (r.key() != key) continue;
    bool exact = r.op() == Op::kEquals || r.op() == Op::kDoubleEquals || r.op() == Op::kIn;
    if (exact && r.values().size() == 1) return r.values().front();
    return std::nullopt;
  }
  return std::nullopt;
}

std::string LabelSelector::to_string() const {
  std::string out;
  for (std::size_t i = 0; i < requirements_.size(); ++i) {
    if (i > 0) out += ',';
    out += requirements_[i].to_string();
  }
  return out;
}


LabelSelector selector_from_set(const std::map<std::string, std::string>& set) {
  std::vector<LabelRequirement> requirements;
  requirements.reserve(set.size());
  for (const auto& [key, value] : set) {
    requirements.push_back(LabelRequirement(key, Op::kEquals, {value}, 0));
  }
  return LabelSelector::from_requirements(std::move(requirements));
}

ParseResult<LabelSelector> validated_selector_from_set(
    const std::map<std::string, std::string>& set) {
  std::vector<LabelRequirement> requirements;
  requirements.reserve(set.size());
  for (const auto& [key, value] : set) {
    ParseResult<LabelRequirement> r = LabelRequirement::create(key, Op::kEquals, {value});
    if (!r) return r.error();
    requirements.push_back(std::move(r).value());
  }
  return LabelSelector::from_requirements(std::move(requirements));
}

namespace {

ParseError json_error(std::string message) { return ParseError{std::move(message), 0}; }

ParseResult<LabelRequirement> expression_requirement(const nlohmann::json& expr,
                                                     const std::string& path) {
  if (!expr.is_object()) return json_error(path + ": Invalid value: must be an object");
  auto key = expr.find("key");
  if (key == expr.end() || !key->is_string()) {
    return json_error(path + ".key: Required value: must be a string");
  }
  auto op_name = expr.find("operator");
  if (op_name == expr.end() || !op_name->is_string()) {
    return json_error(path + ".operator: Required value: must be a string");
  }
  static const std::map<std::string, Op, std::less<>> kOperators = {
      {"In", Op::kIn},
      {"NotIn", Op::kNotIn},
      {"Exists", Op::kExists},
      {"DoesNotExist", Op::kDoesNotExist}};
  const std::string& name = op_name->get_ref<const std::string&>();
  auto op = kOperators.find(name);
  if (op == kOperators.end()) {
    return json_error(path + ".operator: " + go_quote(name) +
                      " is not a valid label selector operator");
  }
  std::vector<std::string> values;
  if (auto v = expr.find("values"); v != expr.end() && !v->is_null()) {
    if (!v->is_array()) return json_error(path + ".values: Invalid value: must be an array");
    for (const nlohmann::json& item : *v) {
      if (!item.is_string()) return json_error(path + ".values: Invalid value: must be strings");
      values.push_back(item.get<std::string>());
    }
  }
  bool set_based = op->second == Op::kIn || op->second == Op::kNotIn;
  if (set_based && values.empty()) {
    return json_error(path +
                      ".values: Required value: must be specified when `operator` is 'In' or "
                      "'NotIn'");
  }
  if (!set_based && !values.empty()) {
    return json_error(path +
                      ".values: Forbidden: may not be specified when `operator` is 'Exists' or "
                      "'DoesNotExist'");
  }
  ParseResult<LabelRequirement> r =
      LabelRequirement::create(key->get<std::string>(), op->second, std::move(values));
  if (!r) return json_error(path + ": " + r.error().message);
  return r;
}

}  // namespace

ParseResult<LabelSelector> label_selector_from_json(const nlohmann::json& selector) {
  if (selector.is_null()) return LabelSelector::nothing();
  if (!selector.is_object()) return json_error("label selector must be a JSON object");
  std::vector<LabelRequirement> requirements;
  if (auto labels = selector.find("matchLabels"); labels != selector.end() && !labels->is_null()) {
    if (!labels->is_object()) return json_error("matchLabels: Invalid value: must be an object");
    for (const auto& [key, value] : labels->items()) {
      if (!value.is_string()) {
        return json_error("matchLabels[" + key + "]: Invalid value: must be a string");
      }
      ParseResult<LabelRequirement> r =
          LabelRequirement::create(key, Op::kEquals, {value.get<std::string>()});
      if (!r) return json_error("matchLabels: " + r.error().message);
      requirements.push_back(std::move(r).value());
    }
  }
  if (auto exprs = selector.find("matchExpressions");
      exprs != selector.end() && !exprs->is_null()) {
    if (!exprs->is_array()) return json_error("matchExpressions: Invalid value: must be an array");
    for (std::size_t i = 0; i < exprs->size(); ++i) {
      std::string path = "matchExpressions[" + std::to_string(i) + "]";
      ParseResult<LabelRequirement> r = expression_requirement((*exprs)[i], path);
      if (!r) return r.error();
      requirements.push_back(std::move(r).value());
    }
  }
  return LabelSelector::from_requirements(std::move(requirements));
}

}  // namespace kubesim::api
