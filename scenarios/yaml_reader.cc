#include "kubesim/scenarios/yaml_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "kubesim/api/go_duration.h"
#include "kubesim/api/go_strings.h"

namespace kubesim::scenarios::yaml {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Optimal string alignment distance: edits, with a swap of two neighbours counting as one.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

// `s` with each byte that does not begin a valid UTF-8 sequence replaced by U+FFFD, so that
// messages quoting the file's text can be written anywhere (JSON reports among them).
std::string valid_utf8_text(std::string_view s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t len = c < 0x80         ? 1
                            : (c >> 5) == 6  ? 2
                            : (c >> 4) == 14 ? 3
                            : (c >> 3) == 30 ? 4
                                             : 0;
    if (len != 0 && i + len <= s.size() && api::valid_utf8(s.substr(i, len))) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

}  // namespace

Mark mark_of(const YAML::Mark& mark) {
  if (mark.line < 0 || mark.column < 0) return Mark{};
  return Mark{mark.line + 1, mark.column + 1};
}

Mark mark_of(const YAML::Node& node) {
  if (!node.IsDefined()) return Mark{};
  return mark_of(node.Mark());
}

std::string mark_text(Mark mark) {
  return std::to_string(mark.line) + ":" + std::to_string(mark.column);
}

void Errors::add(Mark mark, std::string message) {
  if (!api::valid_utf8(message)) message = valid_utf8_text(message);
  errors_.emplace_back(mark, std::move(message));
}

std::vector<ParseError> Errors::sorted(const std::string& file) const {
  std::vector<ParseError> out;
  out.reserve(errors_.size());
  for (const auto& [mark, message] : errors_) out.push_back(ParseError{file, mark, message});
  std::stable_sort(out.begin(), out.end(), [](const ParseError& a, const ParseError& b) {
    return std::pair(a.mark.line, a.mark.column) < std::pair(b.mark.line, b.mark.column);
  });
  return out;
}

Mark Field::mark() const {
  if (value.IsDefined() && !value.IsNull()) {
    const Mark m = mark_of(value);
    if (m.line > 0) return m;
  }
  return key_mark;
}

std::vector<Field> items(const Field& list) {
  std::vector<Field> out;
  if (!list.is_list()) return out;
  for (const auto& item : list.value) {
    Mark m = mark_of(item);
    if (item.IsNull() || m.line == 0) m = list.mark();
    out.push_back(Field{list.label, item, m});
  }
  return out;
}

std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string>& candidates) {
  const std::string w = lower(word);
  const std::size_t limit = std::clamp<std::size_t>(w.size() / 4, 1, 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(w, lower(c));
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string join(const std::vector<std::string>& words, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += separator;
    out += words[i];
  }
  return out;
}

void Reader::error(const Field& field, const std::string& message) {
  errors_->add(field.mark(), field.label + ": " + message);
}

std::optional<std::string> Reader::string(const Field& field) {
  if (!field) return std::nullopt;
  if (field.is_scalar()) {
    auto j = resolve_scalar(field.value);
    if (!j) return std::nullopt;
    if (j->is_string()) return j->get<std::string>();
    error(field, "expected a string, got " + describe(field.value) + "; quote it to make it one");
    return std::nullopt;
  }
  error(field, "expected a string, got " + describe(field.value));
  return std::nullopt;
}

std::optional<std::string> Reader::scalar_text(const Field& field) {
  if (!field) return std::nullopt;
  if (field.is_scalar()) {
    if (api::valid_utf8(field.value.Scalar())) return field.value.Scalar();
    error(field.mark(), kNotUtf8);
    return std::nullopt;
  }
  error(field, "expected a string, got " + describe(field.value));
  return std::nullopt;
}

std::optional<std::int64_t> Reader::integer(const Field& field) {
  if (!field) return std::nullopt;
  if (field.is_scalar()) {
    auto j = resolve_scalar(field.value);
    if (!j) return std::nullopt;
    if (j->is_number_integer() && !j->is_number_unsigned()) return j->get<std::int64_t>();
    if (j->is_number_unsigned()) {
      error(field, "integer out of range: " + field.value.Scalar());
      return std::nullopt;
    }
  }
  error(field, "expected an integer, got " + describe(field.value));
  return std::nullopt;
}

std::optional<std::int64_t> Reader::integer_at_least(const Field& field, std::int64_t min) {
  auto v = integer(field);
  if (v && *v < min) {
    error(field, "must be at least " + std::to_string(min) + ", got " + std::to_string(*v));
    return std::nullopt;
  }
  return v;
}

std::optional<double> Reader::number(const Field& field) {
  if (!field) return std::nullopt;
  if (field.is_scalar()) {
    auto j = resolve_scalar(field.value);
    if (!j) return std::nullopt;
    if (j->is_number()) {
      const double d = j->get<double>();
      if (std::isfinite(d)) return d;
      error(field, "expected a finite number, got " + field.value.Scalar());
      return std::nullopt;
    }
  }
  error(field, "expected a number, got " + describe(field.value));
  return std::nullopt;
}

std::optional<bool> Reader::boolean(const Field& field) {
  if (!field) return std::nullopt;
  if (field.is_scalar()) {
    auto j = resolve_scalar(field.value);
    if (!j) return std::nullopt;
    if (j->is_boolean()) return j->get<bool>();
  }
  error(field, "expected true or false, got " + describe(field.value));
  return std::nullopt;
}

std::optional<sim::Duration> Reader::duration(const Field& field) {
  if (!field) return std::nullopt;
  if (!field.is_scalar()) {
    error(field, "expected a duration such as 10s, got " + describe(field.value));
    return std::nullopt;
  }
  auto d = api::parse_go_duration(field.value.Scalar());
  if (!d) {
    error(field, d.status().message);
    return std::nullopt;
  }
  return *d;
}

std::optional<sim::Duration> Reader::positive_duration(const Field& field) {
  auto d = duration(field);
  if (d && *d <= sim::Duration::zero()) {
    error(field, "must be positive, got " + api::format_go_duration(*d));
    return std::nullopt;
  }
  return d;
}

std::optional<sim::Duration> Reader::non_negative_duration(const Field& field) {
  auto d = duration(field);
  if (d && *d < sim::Duration::zero()) {
    error(field, "must not be negative, got " + api::format_go_duration(*d));
    return std::nullopt;
  }
  return d;
}

std::optional<std::vector<std::string>> Reader::strings(const Field& field, bool allow_single) {
  if (!field) return std::nullopt;
  if (allow_single && field.is_scalar()) {
    auto s = string(field);
    if (!s) return std::nullopt;
    return std::vector<std::string>{*s};
  }
  if (!field.is_list()) {
    error(field, std::string("expected a list of strings") + (allow_single ? " or a string" : "") +
                     ", got " + describe(field.value));
    return std::nullopt;
  }
  std::vector<std::string> out;
  bool ok = true;
  for (const Field& item : items(field)) {
    auto s = string(item);
    if (s) {
      out.push_back(*s);
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

bool Reader::expect_map(const Field& field) {
  if (field.is_map()) return true;
  if (field) error(field, "expected a mapping, got " + describe(field.value));
  return false;
}

bool Reader::expect_list(const Field& field) {
  if (field.is_list()) return true;
  if (field) error(field, "expected a list, got " + describe(field.value));
  return false;
}

MapFields::MapFields(Reader& reader, const Field& field, std::string what,
                     std::vector<std::string> keys)
    : reader_(&reader), what_(std::move(what)), mark_(field.mark()) {
  if (!field) return;
  if (!reader.expect_map(field)) return;
  ok_ = true;
  for (const auto& kv : field.value) {
    const Mark key_mark = mark_of(kv.first);
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string message =
          "unknown key " + (kv.first.IsScalar() ? quote(key) : describe(kv.first)) + " in " + what_;
      if (keys.empty()) {
        reader.error(key_mark, message + ": it takes no keys");
        continue;
      }
      if (auto near = closest(key, keys)) message += "; did you mean \"" + *near + "\"?";
      reader.error(key_mark, message + " (valid keys: " + join(keys) + ")");
      continue;
    }
    if (Field first = get(key)) {
      reader.error(key_mark, "key \"" + key + "\" given twice in " + what_ + " (first at " +
                                 mark_text(first.key_mark) + ")");
      continue;
    }
    fields_.push_back(Field{key, kv.second, key_mark});
  }
}

Field MapFields::get(std::string_view key) const {
  for (const Field& f : fields_) {
    if (f.label == key) return f;
  }
  return Field{std::string(key), YAML::Node(YAML::NodeType::Undefined), Mark{}};
}

Field MapFields::require(std::string_view key, std::string_view hint) const {
  Field f = get(key);
  if (!f && ok_) {
    std::string message = "missing required key \"" + std::string(key) + "\" in " + what_;
    if (!hint.empty()) message += " (" + std::string(hint) + ")";
    reader_->error(mark_, message);
  }
  return f;
}

std::vector<Field> MapFields::present(const std::vector<std::string>& keys) const {
  std::vector<Field> out;
  for (const Field& f : fields_) {
    if (std::find(keys.begin(), keys.end(), f.label) != keys.end()) out.push_back(f);
  }
  return out;
}

std::vector<std::pair<std::string, Field>> entries(Reader& reader, const Field& map) {
  std::vector<std::pair<std::string, Field>> out;
  if (!map || !reader.expect_map(map)) return out;
  for (const auto& kv : map.value) {
    const Mark key_mark = mark_of(kv.first);
    if (!kv.first.IsScalar()) {
      reader.error(key_mark, map.label + ": keys must be strings, got " + describe(kv.first));
      continue;
    }
    const std::string key = kv.first.Scalar();
    auto same = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == key; });
    if (same != out.end()) {
      reader.error(key_mark, map.label + ": key " + quote(key) + " given twice (first at " +
                                 mark_text(same->second.key_mark) + ")");
      continue;
    }
    out.emplace_back(key, Field{key, kv.second, key_mark});
  }
  return out;
}

}  // namespace kubesim::scenarios::yaml
