// Sets of field paths, as structured-merge-diff's fieldpath.Set, and their FieldsV1 form: the
// JSON that metadata.managedFields[].fieldsV1 holds.
//
// A path is a sequence of path elements, each held in its FieldsV1 key form:
//   "f:<name>"     a field of a struct or a key of a map;
//   "k:<json>"     the item of a map list with these key fields ({"name":"x"}, keys sorted);
//   "v:<json>"     the item of a set list with this value;
//   "i:<n>"        the item of an atomic list at this index (never produced by apply itself).
// JSON inside an element is written as Go's encoding/json writes it (compact, <>& escaped), so
// two elements are equal iff their texts are equal.
//
// A set is a tree: each node says whether the path to it is itself in the set ("." in FieldsV1)
// and holds the children under it. Nodes with neither are never kept.
//
// Ordering: children are kept in the byte order of their element texts. structured-merge-diff
// orders elements by kind (f < k < v < i) and then by value; the two agree except for the key
// and set items whose values are numbers of different lengths (k:{"port":80} sorts before
// k:{"port":9} here). FieldsV1 objects are written in that order, as the object store keeps
// every JSON object's members sorted.
#ifndef KUBESIM_FAKEAPI_INTERNAL_APPLY_FIELD_SET_H_
#define KUBESIM_FAKEAPI_INTERNAL_APPLY_FIELD_SET_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::apply {

// The element texts of one step.
std::string field_element(std::string_view name);
// `key_fields` is an object of the key fields and their values.
std::string key_element(const nlohmann::json& key_fields);
std::string value_element(const nlohmann::json& value);

// How structured-merge-diff prints one element in a path (PathElement.String): ".name",
// `[name="x",protocol="TCP"]`, "[=value]", "[3]".
std::string element_to_string(std::string_view element);

// A path as the conflict messages print it: the elements' strings joined (".spec.replicas").
std::string path_to_string(const std::vector<std::string>& path);

class FieldSet {
 public:
  FieldSet() = default;

  // Parses a FieldsV1 value (a JSON object). Keys that are not path elements of a known kind
  // are skipped, as fieldpath.Set.FromJSON skips them; a key that does not parse (an "f"
  // without a colon, a "k:" that is not a JSON object) is an error, with its text.
  static std::optional<FieldSet> from_fields_v1(const nlohmann::json& fields,
                                                std::string* error = nullptr);
  // The FieldsV1 form: {} for the empty set.
  nlohmann::json to_fields_v1() const;

  // Adds `path` (non-empty) as a member.
  void insert(const std::vector<std::string>& path);
  // Whether `path` is a member.
  bool has(const std::vector<std::string>& path) const;
  // Whether no path is a member.
  bool empty() const { return children_.empty(); }

  FieldSet union_with(const FieldSet& other) const;
  // The members of this set that are not members of `other` (fieldpath.Set.Difference: a
  // member of `other` does not take the paths under it away).
  FieldSet difference(const FieldSet& other) const;
  // The members of this set under which no member of `other` lies, nor is one: what
  // fieldpath.Set.RecursiveDifference keeps.
  FieldSet recursive_difference(const FieldSet& other) const;
  FieldSet intersection(const FieldSet& other) const;

  // The set of the paths under `element` (without it); empty when there are none.
  const FieldSet& under(std::string_view element) const;
  // Whether `element` itself is a member.
  bool has_member(std::string_view element) const;

  // Every member, in fieldpath.Set.Iterate's order: the members of a node first, then each
  // child's paths in turn.
  void for_each(const std::function<void(const std::vector<std::string>&)>& visit) const;

  // The direct children: element text → (member?, the set under it).
  struct Node;
  const std::map<std::string, Node, std::less<>>& children() const { return children_; }
  // Sets the child `element` (a node that is a member or has paths under it).
  void put(std::string element, Node node);

  bool operator==(const FieldSet& other) const;

 private:
  void for_each_under(std::vector<std::string>& prefix,
                      const std::function<void(const std::vector<std::string>&)>& visit) const;

  std::map<std::string, Node, std::less<>> children_;
};

struct FieldSet::Node {
  bool member = false;
  FieldSet under;
  bool operator==(const Node&) const = default;
};

}  // namespace kubesim::fakeapi::apply

#endif  // KUBESIM_FAKEAPI_INTERNAL_APPLY_FIELD_SET_H_
