// The walks of structured-merge-diff's typed package over JSON values, by a TypeRef: the field
// set a value sets (ToFieldSet), the comparison of two values (Compare), the removal of a set of
// fields (RemoveItems), a set with its named struct fields made members
// (EnsureNamedFieldsAreMembers), and the merge of an applied configuration into a live object
// (Merge).
//
// Paths are vectors of element texts (field_set.h). None of these functions modify their
// arguments; a value that does not fit its type is handled whole, as a scalar.
#ifndef KUBESIM_FAKEAPI_INTERNAL_APPLY_FIELD_WALK_H_
#define KUBESIM_FAKEAPI_INTERNAL_APPLY_FIELD_WALK_H_

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fakeapi/internal/apply/field_set.h"
#include "fakeapi/internal/apply/type_view.h"

namespace kubesim::fakeapi::apply {

// The element text of `item`, an item of the non-atomic list `list`: the key fields of a map
// list's item (defaults filled in for missing keys that have one) or the value of a set's item.
// nullopt, with SMD's error text in `error`, for an item that has none (a null, a map in a set,
// a map list item without any key).
std::optional<std::string> item_element(const nlohmann::json& item, const TypeRef& list,
                                        std::string* error);

// The fields `value` sets (typed.TypedValue.ToFieldSet). With `errors`, what makes `value` an
// invalid applied configuration is appended to it, as SMD's validation words it
// (".spec.ports: element 0: associative list with keys has an element that omits all key
// fields [\"port\"] (and doesn't have default values for any key fields)", ".spec.containers:
// duplicate entries for key [name=\"a\"]", ".spec.foo: field not declared in schema" for a
// Go type); without, items that repeat a key are tracked as the list item itself, as SMD does
// for live objects.
FieldSet fields_of(const nlohmann::json& value, const TypeRef& type,
                   std::vector<std::string>* errors = nullptr);

struct Comparison {
  FieldSet added;
  FieldSet modified;
  FieldSet removed;
};
// What changed from `before` to `after` (typed.TypedValue.Compare).
Comparison compare(const nlohmann::json& before, const nlohmann::json& after, const TypeRef& type);

// `value` without the fields of `remove` (typed.TypedValue.RemoveItems). A list or map left
// without items stays, empty (SMD leaves a null there; both read as absent once stored for
// built-in kinds, and an empty value applies again as it is).
nlohmann::json remove_items(const nlohmann::json& value, const FieldSet& remove, const TypeRef& type);

// `set` with every named field of a struct that has paths under it made a member too.
FieldSet ensure_named_fields_are_members(const FieldSet& set, const TypeRef& type);

// `config` merged into `live` (typed.TypedValue.Merge): structs and granular maps member by
// member, map lists by key and sets by value (the order: live items the configuration does not
// name keep their place, the configuration's items come in its order), atomic values and
// scalars from the configuration. `live` may be null (nothing yet).
nlohmann::json merge(const nlohmann::json& live, const nlohmann::json& config, const TypeRef& type);

}  // namespace kubesim::fakeapi::apply

#endif  // KUBESIM_FAKEAPI_INTERNAL_APPLY_FIELD_WALK_H_
