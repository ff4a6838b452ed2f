#include "kubesim/api/validation.h"

#include <initializer_list>

#include <nlohmann/json.hpp>

#include "kubesim/api/go_strings.h"

namespace kubesim::api {
namespace {

// The regular expressions apimachinery quotes in its messages. The checks
// below are hand-written equivalents of these patterns.
constexpr std::string_view kDns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1035LabelMsg =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character";
constexpr std::string_view kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

constexpr std::string_view kDns1123LabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character";
constexpr std::string_view kDns1123SubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::string_view kQualifiedNameMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kLabelValueMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";

// util/validation's MaxLenError (DNS names) counts characters; the content package's (label
// keys, label values, and the DNS subdomain a label key's prefix is checked as) counts bytes.
std::string max_len_error(std::size_t length) {
  return "must be no more than " + std::to_string(length) + " characters";
}

std::string max_bytes_error(std::size_t length) {
  return "must be no more than " + std::to_string(length) + " bytes";
}

// Same shape as apimachinery's RegexError, including its spacing.
std::string regex_error(std::string_view msg, std::string_view fmt,
                        std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  out += " (e.g. ";
  bool first = true;
  for (std::string_view example : examples) {
    if (!first) out += " or ";
    first = false;
    out += "'";
    out += example;
    out += "', ";
  }
  out += "regex used for validation is '";
  out += fmt;
  out += "')";
  return out;
}

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool is_alnum(char c) { return is_lower_alnum(c) || (c >= 'A' && c <= 'Z'); }

// Matches kDns1123LabelFmt.
bool dns1123_label_syntax(std::string_view s) {
  if (s.empty() || !is_lower_alnum(s.front()) || !is_lower_alnum(s.back())) return false;
  for (char c : s) {
    if (!is_lower_alnum(c) && c != '-') return false;
  }
  return true;
}

// Matches kDns1123SubdomainFmt: labels separated by single dots.
bool dns1123_subdomain_syntax(std::string_view s) {
  while (true) {
    std::size_t dot = s.find('.');
    if (!dns1123_label_syntax(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// Matches kQualifiedNameFmt.
bool qualified_name_syntax(std::string_view s) {
  if (s.empty() || !is_alnum(s.front()) || !is_alnum(s.back())) return false;
  for (char c : s) {
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

std::string qualified_name_regex_error() {
  return regex_error(kQualifiedNameMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"});
}

void append_all(std::vector<std::string>& to, std::vector<std::string> from) {
  for (std::string& s : from) to.push_back(std::move(s));
}

std::vector<std::string> check_name_rule(std::string_view name, NameRule rule) {
  switch (rule) {
    case NameRule::kDns1123Subdomain: return is_dns1123_subdomain(name);
    case NameRule::kDns1123Label: return is_dns1123_label(name);
    case NameRule::kDns1035Label: return is_dns1035_label(name);
    case NameRule::kPathSegment: return {};
  }
  return {};
}

std::string invalid_value(std::string_view path, std::string_view value, std::string_view msg) {
  std::string out(path);
  out += ": Invalid value: ";
  out += go_quote(value);
  out += ": ";
  out += msg;
  return out;
}

}  // namespace

std::vector<std::string> is_dns1123_label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123LabelMaxLength) errs.push_back(max_len_error(kDns1123LabelMaxLength));
  if (!dns1123_label_syntax(value)) {
    if (dns1123_subdomain_syntax(value)) {
      // A valid subdomain that is not a valid label can only differ by its dots.
      errs.emplace_back("must not contain dots");
    } else {
      errs.push_back(regex_error(kDns1123LabelMsg, kDns1123LabelFmt, {"my-name", "123-abc"}));
    }
  }
  return errs;
}

std::vector<std::string> is_dns1035_label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123LabelMaxLength) errs.push_back(max_len_error(kDns1123LabelMaxLength));
  if (!dns1123_label_syntax(value) || !(value.front() >= 'a' && value.front() <= 'z')) {
    errs.push_back(regex_error(kDns1035LabelMsg, kDns1035LabelFmt, {"my-name", "abc-123"}));
  }
  return errs;
}

namespace {

std::vector<std::string> dns1123_subdomain_errors(std::string_view value, bool in_bytes) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123SubdomainMaxLength) {
    errs.push_back(in_bytes ? max_bytes_error(kDns1123SubdomainMaxLength)
                            : max_len_error(kDns1123SubdomainMaxLength));
  }
  if (!dns1123_subdomain_syntax(value)) {
    errs.push_back(regex_error(kDns1123SubdomainMsg, kDns1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

}  // namespace

std::vector<std::string> is_dns1123_subdomain(std::string_view value) {
  return dns1123_subdomain_errors(value, /*in_bytes=*/false);
}

std::vector<std::string> is_qualified_name(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  std::size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back("a valid label key " + qualified_name_regex_error() +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.emplace_back("prefix part must be non-empty");
    } else {
      for (std::string& msg : dns1123_subdomain_errors(prefix, /*in_bytes=*/true)) {
        errs.push_back("prefix part " + msg);
      }
    }
  }
  if (name.empty()) {
    errs.emplace_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errs.push_back("name part " + max_bytes_error(kQualifiedNameMaxLength));
  }
  if (!qualified_name_syntax(name)) errs.push_back("name part " + qualified_name_regex_error());
  return errs;
}

std::vector<std::string> is_valid_label_value(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(max_bytes_error(kLabelValueMaxLength));
  if (!value.empty() && !qualified_name_syntax(value)) {
    errs.push_back(regex_error(kLabelValueMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

std::vector<std::string> is_valid_path_segment_name(std::string_view name) {
  for (std::string_view illegal : {std::string_view("."), std::string_view("..")}) {
    if (name == illegal) return {"may not be '" + std::string(illegal) + "'"};
  }
  std::vector<std::string> errs;
  for (std::string_view illegal : {std::string_view("/"), std::string_view("%")}) {
    if (name.find(illegal) != std::string_view::npos) {
      errs.push_back("may not contain '" + std::string(illegal) + "'");
    }
  }
  return errs;
}

std::vector<std::string> validate_object_name(std::string_view name, NameRule rule) {
  if (name.empty()) return {"name or generateName is required"};
  std::vector<std::string> errs = is_valid_path_segment_name(name);
  append_all(errs, check_name_rule(name, rule));
  return errs;
}

std::vector<std::string> validate_object_name(std::string_view name, bool dns1123_label) {
  return validate_object_name(
      name, dns1123_label ? NameRule::kDns1123Label : NameRule::kDns1123Subdomain);
}

std::vector<std::string> validate_generate_name(std::string_view prefix, NameRule rule) {
  if (prefix.empty()) return {};
  std::vector<std::string> errs;
  for (std::string_view illegal : {std::string_view("/"), std::string_view("%")}) {
    if (prefix.find(illegal) != std::string_view::npos) {
      errs.push_back("may not contain '" + std::string(illegal) + "'");
    }
  }
  // Characters will be appended, so a trailing dash is fine: check the prefix
  // as if that dash were an alphanumeric character.
  std::string masked(prefix);
  if (masked.size() > 1 && masked.back() == '-') masked.back() = 'a';
  append_all(errs, check_name_rule(masked, rule));
  return errs;
}

std::vector<std::string> validate_labels(const nlohmann::json& labels) {
  constexpr std::string_view kPath = "metadata.labels";
  std::vector<std::string> errs;
  if (labels.is_null()) return errs;
  if (!labels.is_object()) {
    errs.push_back(std::string(kPath) + ": Invalid value: " + labels.dump() +
                   ": must be an object of string keys and values");
    return errs;
  }
  for (const auto& [key, value] : labels.items()) {
    for (const std::string& msg : is_qualified_name(key)) {
      errs.push_back(invalid_value(kPath, key, msg));
    }
    if (!value.is_string()) {
      errs.push_back(std::string(kPath) + "[" + key + "]: Invalid value: " + value.dump() +
                     ": must be a string");
      continue;
    }
    const std::string& text = value.get_ref<const std::string&>();
    for (const std::string& msg : is_valid_label_value(text)) {
      errs.push_back(invalid_value(kPath, text, msg));
    }
  }
  return errs;
}

}  // namespace kubesim::api
