// Generators of names, labels and label selectors (kubesim/testing/generators.h).
#include "kubesim/testing/generators.h"

#include <stdexcept>
#include <utility>

#include <rapidcheck.h>

#include "kubesim/api/validation.h"
#include "testing/internal/generators.h"

namespace kubesim::testing::gen {
namespace {

using api::LabelRequirement;
using api::LabelSelector;
using api::SelectionOperator;

constexpr const char* kLower = "abcdefghijklmnopqrstuvwxyz0123456789";
constexpr const char* kAlnum = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

rc::Gen<std::string> qualified_name_part() {
  return internal::bounded_name(kAlnum, std::string(kAlnum) + "-_.", api::kQualifiedNameMaxLength);
}

// Never fails (at rapidcheck's small sizes most draws are the same): a key drawn that `labels` has
// grows an "x" (or starts over as "x") until it does not.
rc::Gen<std::string> absent_key(const Labels& labels) {
  return rc::gen::map(label_key(), [labels](std::string k) {
    while (labels.contains(k)) {
      const std::size_t name = k.find('/') == std::string::npos ? k.size() : k.size() - k.find('/') - 1;
      k = name < api::kQualifiedNameMaxLength ? k + "x" : "x";
    }
    return k;
  });
}

rc::Gen<std::string> value_other_than(std::string value) {
  return rc::gen::map(label_value(), [value](const std::string& v) {
    return v != value ? v : std::string(value == "x" ? "y" : "x");
  });
}

rc::Gen<std::vector<std::string>> values_of(rc::Gen<std::string> value) {
  return rc::gen::mapcat(rc::gen::inRange(1, 4), [value](int n) {
    return rc::gen::container<std::vector<std::string>>(static_cast<std::size_t>(n), value);
  });
}

LabelRequirement make(std::string key, SelectionOperator op, std::vector<std::string> values = {}) {
  auto r = LabelRequirement::create(std::move(key), op, std::move(values));
  if (!r.ok()) throw std::logic_error("gen: built an invalid label requirement: " + r.error().message);
  return std::move(r).value();
}

// A requirement on a key `labels` has, which holds (or not) for its value `v`.
LabelRequirement on_present_key(const std::string& k, const std::string& v, bool holds) {
  using Op = SelectionOperator;
  const std::vector<Op> ops = holds ? std::vector<Op>{Op::kEquals, Op::kDoubleEquals, Op::kIn, Op::kExists,
                                                      Op::kNotEquals, Op::kNotIn}
                                    : std::vector<Op>{Op::kNotEquals, Op::kNotIn, Op::kDoesNotExist,
                                                      Op::kEquals, Op::kDoubleEquals, Op::kIn};
  const Op op = *internal::pick(ops);
  const bool has_v = (op == Op::kEquals || op == Op::kDoubleEquals || op == Op::kIn) == holds;
  switch (op) {
    case Op::kExists:
    case Op::kDoesNotExist:
      return make(k, op);
    case Op::kEquals:
    case Op::kDoubleEquals:
    case Op::kNotEquals:
      return make(k, op, {has_v ? v : *value_other_than(v)});
    default: {
      auto values = *values_of(value_other_than(v));
      if (has_v) values.push_back(v);
      return make(k, op, std::move(values));
    }
  }
}

// A requirement on a key `labels` does not have, which holds (or not).
LabelRequirement on_absent_key(const std::string& k, bool holds) {
  using Op = SelectionOperator;
  const std::vector<Op> ops = holds ? std::vector<Op>{Op::kDoesNotExist, Op::kNotIn, Op::kNotEquals}
                                    : std::vector<Op>{Op::kExists, Op::kEquals, Op::kIn};
  const Op op = *internal::pick(ops);
  switch (op) {
    case Op::kExists:
    case Op::kDoesNotExist:
      return make(k, op);
    case Op::kEquals:
    case Op::kNotEquals:
      return make(k, op, {*label_value()});
    default:
      return make(k, op, *values_of(label_value()));
  }
}

// Only inside rc::gen::exec.
LabelRequirement requirement(const Labels& labels, bool holds) {
  if (!labels.empty() && *rc::gen::arbitrary<bool>()) {
    const auto [k, v] = *internal::pick(std::vector<std::pair<std::string, std::string>>(labels.begin(), labels.end()));
    return on_present_key(k, v, holds);
  }
  return on_absent_key(*absent_key(labels), holds);
}

rc::Gen<LabelSelector> selector(Labels labels, bool matching) {
  return rc::gen::exec([labels = std::move(labels), matching] {
    std::vector<LabelRequirement> requirements;
    const int n = *rc::gen::inRange(0, 4);
    for (int i = 0; i < n; ++i) requirements.push_back(requirement(labels, true));
    if (!matching) {
      const auto at = *rc::gen::inRange<std::size_t>(0, requirements.size() + 1);
      requirements.insert(requirements.begin() + static_cast<std::ptrdiff_t>(at), requirement(labels, false));
    }
    return LabelSelector::from_requirements(std::move(requirements));
  });
}

}  // namespace

namespace internal {

rc::Gen<std::string> bounded_name(std::string ends, std::string inner, std::size_t max_length) {
  // Mostly short names (readable counterexamples), sometimes up to the limit.
  const auto length = one_of<std::size_t>(
      {{3, rc::gen::inRange<std::size_t>(1, 9)}, {1, rc::gen::inRange<std::size_t>(1, max_length + 1)}});
  return rc::gen::mapcat(length, [ends = std::move(ends), inner = std::move(inner)](std::size_t n) {
    if (n == 1) return rc::gen::map(pick(ends), [](char c) { return std::string(1, c); });
    return rc::gen::apply([](char first, const std::string& middle, char last) { return first + middle + last; },
                          pick(ends), rc::gen::container<std::string>(n - 2, pick(inner)), pick(ends));
  });
}

rc::Gen<std::vector<std::string>> up_to(std::size_t max_size, rc::Gen<std::string> element) {
  return rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, max_size + 1), [element](std::size_t n) {
    return rc::gen::container<std::vector<std::string>>(n, element);
  });
}

}  // namespace internal

rc::Gen<std::string> dns1123_label() {
  return internal::bounded_name(kLower, std::string(kLower) + "-", api::kDns1123LabelMaxLength);
}

rc::Gen<std::string> dns1123_subdomain() {
  // At most 3 labels of at most 63: within the 253 a subdomain may have.
  return rc::gen::map(rc::gen::mapcat(rc::gen::inRange(1, 4), [](int n) {
                        return rc::gen::container<std::vector<std::string>>(static_cast<std::size_t>(n),
                                                                             dns1123_label());
                      }),
                      [](const std::vector<std::string>& labels) {
                        std::string out;
                        for (const auto& l : labels) out += (out.empty() ? "" : ".") + l;
                        return out;
                      });
}

rc::Gen<std::string> label_key() {
  const auto prefixed = rc::gen::apply(
      [](const std::string& prefix, const std::string& name) { return prefix + "/" + name; },
      dns1123_subdomain(), qualified_name_part());
  return internal::one_of<std::string>({{2, qualified_name_part()}, {1, prefixed}});
}

rc::Gen<std::string> label_value() {
  return internal::one_of<std::string>({{1, rc::gen::just(std::string())}, {4, qualified_name_part()}});
}

rc::Gen<Labels> labels(std::size_t max_size) {
  const auto pairs = rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, max_size + 1), [](std::size_t n) {
    return rc::gen::container<std::vector<std::pair<std::string, std::string>>>(
        n, rc::gen::pair(label_key(), label_value()));
  });
  return rc::gen::map(pairs, [](const std::vector<std::pair<std::string, std::string>>& kvs) {
    return Labels(kvs.begin(), kvs.end());
  });
}

rc::Gen<api::LabelSelector> selector_matching(Labels labels) { return selector(std::move(labels), true); }
rc::Gen<api::LabelSelector> selector_not_matching(Labels labels) { return selector(std::move(labels), false); }

rc::Gen<std::string> selector_text_matching(Labels labels) {
  return rc::gen::map(selector_matching(std::move(labels)), [](const LabelSelector& s) { return s.to_string(); });
}

rc::Gen<std::string> selector_text_not_matching(Labels labels) {
  return rc::gen::map(selector_not_matching(std::move(labels)), [](const LabelSelector& s) { return s.to_string(); });
}

}  // namespace kubesim::testing::gen
