// emit_scenario: a scenario document as the files of scenarios/library/ are written.
//
// The top level, the sections under it and the entries of `processes`, `workload` and
// `timeline` are block style; every other collection is written on one line in flow style
// ({verb: update, resource: configmaps}) when that line fits in kFlowWidth columns, else in block
// style with its own children tried the same way. A list entry that is a mapping of one key is
// written `- key: value` (`- elector: {lock: …}`, `- atMostOneLeader: …`).
//
// Scalars keep their meaning: a scalar the file quoted is a string, so it is quoted again when
// its plain form would read as something else ("1", "yes", "~", "{{n}}"), by the parser's own
// YAML 1.1 rules (api::yaml_to_json); a plain scalar stays plain unless YAML syntax forbids it
// where it now stands. Text with line breaks becomes a literal block, long text a folded one.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include "kubesim/api/yaml.h"
#include "kubesim/scenarios/emit.h"

namespace kubesim::scenarios {
namespace {

// A collection goes on one line in flow style when the line ends by this column (the library's
// fault rules and checks run a little past 100); text is folded at kTextWidth.
constexpr std::size_t kFlowWidth = 120;
constexpr std::size_t kTextWidth = 100;
// Deeper trees are cut (written as null); the parser refuses them anyway.
constexpr int kMaxDepth = 256;

enum class Where { kBlock, kFlow };

bool string_tag(const std::string& tag) { return tag == "!" || tag == "tag:yaml.org,2002:str"; }
bool plain_tag(const std::string& tag) { return tag.empty() || tag == "?"; }

bool blank(char c) { return c == ' ' || c == '\t'; }
bool flow_indicator(char c) { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'; }

// Whether `s` may stand as a plain scalar at `where` (yaml-cpp's PlainScalar and EndScalar
// rules, a little stricter), whatever type it then reads as.
bool plain_syntax(std::string_view s, Where where) {
  if (s.empty() || blank(s.front()) || blank(s.back())) return false;
  if (s.starts_with("---") || s.starts_with("...")) return false;
  const bool flow = where == Where::kFlow;
  const char first = s.front();
  const std::string_view never = flow ? "?,[]{}#&*!|>'\"%@`" : ",[]{}#&*!|>'\"%@`";
  if (never.find(first) != std::string_view::npos) return false;
  if ((first == '-' || first == '?' || first == ':') &&
      (s.size() == 1 || blank(s[1]) || (flow && flow_indicator(s[1])))) {
    return false;
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) return false;  // tabs, line breaks and other controls
    if (flow && (flow_indicator(s[i]) || s[i] == '?')) return false;
    if (s[i] == ':' && (i + 1 == s.size() || blank(s[i + 1]) || (flow && flow_indicator(s[i + 1]))))
      return false;
    if (s[i] == '#' && i > 0 && blank(s[i - 1])) return false;
  }
  return true;
}

// Whether plain `s` reads back as the string `s` (not a number, boolean or null).
bool reads_as_string(std::string_view s) {
  auto j = api::yaml_to_json(s);
  return j.ok() && j->is_string() && j->get<std::string>() == s;
}

std::string double_quoted(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

// A scalar on one line: plain when that keeps its meaning, else double-quoted.
std::string scalar_text(const YAML::Node& node, Where where) {
  const std::string& s = node.Scalar();
  const std::string& tag = node.Tag();
  const bool plain = plain_syntax(s, where);
  if (string_tag(tag)) return plain && reads_as_string(s) ? s : double_quoted(s);
  std::string prefix = plain_tag(tag) ? "" : "!<" + tag + "> ";
  return prefix + (plain ? s : double_quoted(s));
}

bool all_scalars(const YAML::Node& seq) {
  return std::all_of(seq.begin(), seq.end(),
                     [](const YAML::Node& n) { return !n.IsMap() && !n.IsSequence(); });
}

std::string flow_text(const YAML::Node& node, int depth) {
  if (depth > kMaxDepth) return "~";
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      return scalar_text(node, Where::kFlow);
    case YAML::NodeType::Sequence: {
      std::string out = "[";
      for (const auto& item : node) {
        if (out.size() > 1) out += ", ";
        out += flow_text(item, depth + 1);
      }
      return out + "]";
    }
    case YAML::NodeType::Map: {
      std::string out = "{";
      for (const auto& kv : node) {
        if (out.size() > 1) out += ", ";
        out += flow_text(kv.first, depth + 1) + ": " + flow_text(kv.second, depth + 1);
      }
      return out + "}";
    }
    default:
      return "~";
  }
}

// Text worth a block scalar: `|` for line breaks inside, `>` (folded at kTextWidth) for a long
// line. Empty when the text should stay on the key's line (or cannot be a block scalar).
std::string block_scalar(const std::string& s, std::size_t indent, std::size_t used) {
  const std::size_t body_end = s.find_last_not_of('\n');
  // The first line sets the indentation of the block, so it may not start with a space.
  if (body_end == std::string::npos || s[s.find_first_not_of('\n')] == ' ') return "";
  if (std::any_of(s.begin(), s.end(), [](char ch) {
        const auto c = static_cast<unsigned char>(ch);
        return (c < 0x20 && ch != '\n') || c == 0x7f;
      })) {
    return "";
  }
  const std::string body = s.substr(0, body_end + 1);
  const std::size_t trailing = s.size() - body.size();
  const std::string pad(indent, ' ');
  const char* chomp = trailing == 0 ? "-" : trailing == 1 ? "" : "+";
  std::string out;
  if (body.find('\n') != std::string::npos || trailing > 1) {
    out = std::string("|") + chomp + "\n";
    std::size_t start = 0;
    while (start <= body.size()) {
      const std::size_t end = std::min(body.find('\n', start), body.size());
      const std::string line = body.substr(start, end - start);
      out += (line.empty() ? "" : pad + line) + "\n";
      start = end + 1;
    }
    for (std::size_t i = 1; i < trailing; ++i) out += "\n";
    return out;
  }
  if (trailing == 0 && used + s.size() <= kTextWidth) return "";
  // Folded: break only at a single space between two words, so folding restores it exactly.
  out = std::string(">") + chomp + "\n";
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t cut = std::string::npos;
    for (std::size_t i = start + 1; i + 1 < body.size(); ++i) {
      if (body[i] != ' ' || body[i - 1] == ' ' || body[i + 1] == ' ') continue;
      if (cut != std::string::npos && indent + (i - start) > kTextWidth) break;
      cut = i;
    }
    if (cut == std::string::npos || indent + (body.size() - start) <= kTextWidth) cut = body.size();
    out += pad + body.substr(start, cut - start) + "\n";
    start = cut + 1;
  }
  return out;
}

class Writer {
 public:
  std::string text() && { return std::move(out_); }

  void document(const YAML::Node& doc) {
    if (doc.IsMap()) {
      top_level(doc);
    } else if (doc.IsSequence() && doc.size() > 0) {
      seq_block(doc, 0, false, 0);
    } else {
      out_ += (doc.IsScalar() ? scalar_text(doc, Where::kBlock) : flow_text(doc, 0)) + "\n";
    }
  }

 private:
  static bool block_collection(const YAML::Node& n) {
    return (n.IsMap() || n.IsSequence()) && n.size() > 0;
  }

  void top_level(const YAML::Node& doc) {
    bool previous_block = false;
    bool first = true;
    for (const auto& kv : doc) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
      const bool block =
          block_collection(kv.second) && (kv.second.IsMap() || !all_scalars(kv.second));
      if (!first && (block || previous_block)) out_ += "\n";
      const bool records = key == "processes" || key == "workload" || key == "timeline";
      entry(kv.first, kv.second, 0, block, records, 1);
      previous_block = block;
      first = false;
    }
  }

  // `key: value` at `indent` (the caller wrote the indentation, or "- " before it). `block`
  // forces a non-empty collection value into block style; `records` makes the entries of a list
  // value block mappings.
  void entry(const YAML::Node& key, const YAML::Node& value, std::size_t indent, bool block,
             bool records, int depth) {
    const std::string k = key.IsScalar() ? scalar_text(key, Where::kBlock) : flow_text(key, depth);
    out_ += k + ":";
    const std::size_t used = indent + k.size() + 2;
    if (depth > kMaxDepth || (!value.IsScalar() && !block_collection(value))) {
      out_ += " " + flow_text(value, depth) + "\n";
      return;
    }
    if (value.IsScalar()) return scalar_after(value, indent + 2, used);
    if (!block && (value.IsMap() || all_scalars(value)) && flow_fits(value, used, depth)) return;
    out_ += "\n";
    if (value.IsMap()) {
      out_ += std::string(indent + 2, ' ');
      map_block(value, indent + 2, depth + 1);
    } else {
      seq_block(value, indent + 2, records, depth + 1);
    }
  }

  // A scalar after "key:" or "-": a block scalar when it is text worth one, else on this line.
  void scalar_after(const YAML::Node& value, std::size_t content_indent, std::size_t used) {
    std::string text;
    if (string_tag(value.Tag()) || plain_tag(value.Tag()))
      text = block_scalar(value.Scalar(), content_indent, used);
    out_ += " " + (text.empty() ? scalar_text(value, Where::kBlock) + "\n" : text);
  }

  // Writes the collection on this line in flow style when it ends by column kFlowWidth.
  bool flow_fits(const YAML::Node& value, std::size_t used, int depth) {
    const std::string flow = flow_text(value, depth);
    if (used + flow.size() > kFlowWidth) return false;
    out_ += " " + flow + "\n";
    return true;
  }

  // A block mapping whose first key goes where the output stands now.
  void map_block(const YAML::Node& map, std::size_t indent, int depth) {
    bool first = true;
    for (const auto& kv : map) {
      if (!first) out_ += std::string(indent, ' ');
      entry(kv.first, kv.second, indent, false, false, depth);
      first = false;
    }
  }

  // A block sequence, each entry on its own line at `indent`.
  void seq_block(const YAML::Node& seq, std::size_t indent, bool records, int depth) {
    for (const auto& item : seq) {
      out_ += std::string(indent, ' ') + "-";
      item_text(item, indent + 2, records, depth);
    }
  }

  void item_text(const YAML::Node& item, std::size_t indent, bool record, int depth) {
    if (depth > kMaxDepth || (!item.IsScalar() && !block_collection(item))) {
      out_ += " " + flow_text(item, depth) + "\n";
      return;
    }
    if (item.IsScalar()) return scalar_after(item, indent, indent);
    const bool one_key = item.IsMap() && item.size() == 1;
    if (!record && !one_key && (item.IsMap() || all_scalars(item)) &&
        flow_fits(item, indent, depth)) {
      return;
    }
    out_ += " ";
    if (item.IsMap()) {
      map_block(item, indent, depth + 1);
    } else {
      // A list in a list: its first entry on this line.
      bool first = true;
      for (const auto& inner : item) {
        out_ += first ? "-" : std::string(indent, ' ') + "-";
        item_text(inner, indent + 2, false, depth + 1);
        first = false;
      }
    }
  }

  std::string out_;
};

}  // namespace

std::string emit_scenario(const YAML::Node& doc) {
  Writer writer;
  writer.document(doc);
  return std::move(writer).text();
}

}  // namespace kubesim::scenarios
