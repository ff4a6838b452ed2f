// The scenario parser's YAML walker: typed reads of yaml-cpp nodes that keep each node's place
// and collect every problem instead of stopping at the first. Public for the stages that read
// parts of a scenario file the parser leaves to them (an experiment's `sweep:` and `measure:`).
//
// A Field is one value the file wrote (a mapping's value, or a list's item) with its label for
// messages and the marks of its key and value. The Reader reads a Field as a string, integer,
// number, boolean, duration or JSON tree; each read either returns the value or records an error
// at the value's place ("replicas: expected an integer, got \"three\"") and returns nullopt, so
// the caller keeps going. MapFields checks a mapping's keys against the ones the format allows,
// reporting unknown keys (with the closest valid one when it is near) and keys given twice.
// Nothing here throws; errors come out of Errors in file order.
#ifndef KUBESIM_SCENARIOS_YAML_READER_H_
#define KUBESIM_SCENARIOS_YAML_READER_H_

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/scenarios/parse.h"
#include "kubesim/scenarios/scenario.h"
#include "kubesim/sim/time.h"

namespace kubesim::scenarios::yaml {

// A file's YAML: its first document (null when it has none), the place of a second document if
// there is one, or the syntax error (at 0:0 when yaml-cpp gives no place) that stops the parser.
struct LoadedYaml {
  YAML::Node document;
  std::optional<Mark> second_document;
  std::optional<std::pair<Mark, std::string>> error;
};
// Never throws, and stops on inputs where yaml-cpp 0.7's LoadAll would not.
LoadedYaml load_yaml(std::string_view text);

// The 1-based place of `node`; 0:0 for an invalid node or one without a place.
Mark mark_of(const YAML::Node& node);
// The 1-based place of a yaml-cpp mark (0-based, or -1 when it has none).
Mark mark_of(const YAML::Mark& mark);
// "12:5", for messages that point at another place.
std::string mark_text(Mark mark);

// Every error of one file, kept in the order found and handed out in file order.
class Errors {
 public:
  void add(Mark mark, std::string message);
  bool empty() const { return errors_.empty(); }
  std::size_t size() const { return errors_.size(); }
  // Sorted by place (stable, so errors at one place keep the order found).
  std::vector<ParseError> sorted(const std::string& file) const;

 private:
  std::vector<std::pair<Mark, std::string>> errors_;
};

// One value of the file: a mapping's value (label = its key) or a list's item (label = the list's
// key). An absent Field (a key the file left out) is false.
struct Field {
  std::string label;
  YAML::Node value;
  Mark key_mark;  // the key's place; the item's own place for a list item

  explicit operator bool() const { return value.IsDefined(); }
  bool is_null() const { return value.IsDefined() && value.IsNull(); }
  bool is_scalar() const { return value.IsDefined() && value.IsScalar(); }
  bool is_map() const { return value.IsDefined() && value.IsMap(); }
  bool is_list() const { return value.IsDefined() && value.IsSequence(); }
  // Where a message about the value points: the value, or its key when the value was left
  // empty (yaml-cpp places an empty value at the next token).
  Mark mark() const;
};

// The list items of `list` (which must be a sequence), each labelled `label`.
std::vector<Field> items(const Field& list);

// The closest of `candidates` to `word` when it is near enough to be a likely typo
// (case-insensitive edit distance), else nullopt.
std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string>& candidates);
// "a, b, c".
std::string join(const std::vector<std::string>& words, std::string_view separator = ", ");

// The message for a string that is not UTF-8 (the file is, but an escape may not be).
extern const char* const kNotUtf8;
// `s` in double quotes, as messages show text the file wrote.
std::string quote(std::string_view s);
// How a value reads in a message: "a list", "a mapping", "nothing", "an integer (3)",
// "\"three\"".
std::string describe(const YAML::Node& node);

class Reader {
 public:
  explicit Reader(Errors& errors) : errors_(&errors) {}

  void error(Mark mark, std::string message) { errors_->add(mark, std::move(message)); }
  // "LABEL: message" at the field's value.
  void error(const Field& field, const std::string& message);
  Errors& errors() { return *errors_; }

  // Each read reports a wrong type at the field and returns nullopt; an absent field gives
  // nullopt without a report.
  std::optional<std::string> string(const Field& field);
  // A scalar of any type, as written (env values, names that may look like numbers).
  std::optional<std::string> scalar_text(const Field& field);
  std::optional<std::int64_t> integer(const Field& field);
  // An integer ≥ `min` ("LABEL: must be at least MIN, got N").
  std::optional<std::int64_t> integer_at_least(const Field& field, std::int64_t min);
  std::optional<double> number(const Field& field);
  std::optional<bool> boolean(const Field& field);
  // A Go duration ("10s", "1h30m"); Go's message when it does not parse.
  std::optional<sim::Duration> duration(const Field& field);
  // A duration > 0 ("LABEL: must be positive, got 0s").
  std::optional<sim::Duration> positive_duration(const Field& field);
  // A duration ≥ 0.
  std::optional<sim::Duration> non_negative_duration(const Field& field);
  // A list of strings, or one string for a list of one.
  std::optional<std::vector<std::string>> strings(const Field& field, bool allow_single);
  // The value as JSON, scalars resolved as Kubernetes tools resolve YAML (quoted scalars stay
  // strings). Reports trees nested too deep or expanding (through aliases) too far.
  std::optional<nlohmann::json> json(const Field& field);
  // The value on one line in YAML flow style, quoted scalars kept quoted.
  std::string flow_text(const YAML::Node& node);

  // Reports "LABEL: expected KIND, got …" when the field is not a mapping / a list.
  bool expect_map(const Field& field);
  bool expect_list(const Field& field);

 private:
  std::optional<nlohmann::json> resolve_scalar(const YAML::Node& node);
  bool to_json(const YAML::Node& node, int depth, nlohmann::json& out);
  void emit(YAML::Emitter& out, const YAML::Node& node, int depth);

  Errors* errors_;
  std::size_t json_nodes_ = 0;  // nodes converted so far in this file, to bound alias expansion
  bool json_budget_reported_ = false;
  std::size_t text_nodes_ = 0;  // nodes of the one-line text being written
};

// The keys of one mapping, checked against the keys the format allows there.
class MapFields {
 public:
  // Reports a `field` that is not a mapping, then each unknown key ("unknown key \"x\" in WHAT;
  // did you mean \"y\"? (valid keys: …)") and each key given twice. `what` names the mapping
  // ("a process", "the scenario").
  MapFields(Reader& reader, const Field& field, std::string what, std::vector<std::string> keys);

  // False when the field was absent or not a mapping.
  bool ok() const { return ok_; }
  Mark mark() const { return mark_; }
  const std::string& what() const { return what_; }
  // The value of `key`; an absent Field when the file left it out.
  Field get(std::string_view key) const;
  bool has(std::string_view key) const { return static_cast<bool>(get(key)); }
  // The same, reporting "missing required key \"KEY\" in WHAT" at the mapping when absent.
  Field require(std::string_view key, std::string_view hint = "") const;
  // Which of `keys` the mapping has, in file order.
  std::vector<Field> present(const std::vector<std::string>& keys) const;
  // Every key of the mapping, in file order.
  const std::vector<Field>& fields() const { return fields_; }

 private:
  Reader* reader_;
  std::string what_;
  bool ok_ = false;
  Mark mark_;
  std::vector<Field> fields_;
};

// The entries of a free-form mapping (env, set): each key, a scalar, with its value labelled by
// the key. Reports a field that is not a mapping, keys that are not scalars and keys given twice.
std::vector<std::pair<std::string, Field>> entries(Reader& reader, const Field& map);

}  // namespace kubesim::scenarios::yaml

#endif  // KUBESIM_SCENARIOS_YAML_READER_H_
