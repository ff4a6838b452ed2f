// How the library builds Objects in the form they are kept in, and reads which form one has.
//
// An Object holds one of two layouts. kTree keeps the whole JSON tree (json() is free). kText,
// for objects kept long (the fake API server's store), keeps only the object's compact JSON text
// (which is what serialized() returns), with the metadata read in place; json() parses the text
// on its first call and keeps the tree from then on. The readers that take no tree (member_value,
// member_equals, value_at, metadata_json, metadata_field, metadata_equals, same_as) read the text
// in place. Either way the metadata's strings, the key and the label and annotation entries sit
// in one block, addressed by 32-bit offsets. Both layouts answer every public member alike.
//
// Internal to the library: with internal/json_text.h it is the one seam through which the fake
// API server's storage and its write fast paths reach Objects' representation; outside api/ only
// fakeapi/internal/fastpath/object_text.h includes it (and tests, which compare the
// layouts through it).
#ifndef KUBESIM_API_INTERNAL_OBJECT_ACCESS_H_
#define KUBESIM_API_INTERNAL_OBJECT_ACCESS_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "kubesim/api/object.h"
#include "kubesim/api/result.h"

namespace kubesim::api {

// The tree of an Object (Object::tree_): kTree's from construction; kText's built by the first
// json() call, under json_once_. `text` is kTree's serialization, written once under text_once.
struct Object::Tree {
  nlohmann::json json;
  std::string text;
  std::once_flag text_once;
};

}  // namespace kubesim::api

namespace kubesim::api::internal {

// Where the writer of an object's text put the metadata an Object hands out, so that the Object
// is built without reading the text again. A string is the offset and length of its contents
// (between its quotes; it holds no escape), absent when the object has none.
struct WrittenMetadata {
  using Span = StringMapView::Span;
  Span api_version;
  Span kind;
  Span name;
  Span namespace_;
  Span generate_name;
  Span uid;
  Span resource_version;
  Span creation_timestamp;
  std::size_t metadata_begin = 0;                        // the metadata object's '{'
  std::size_t metadata_end = 0;                          // one past its '}'
  std::size_t labels = std::string_view::npos;          // the labels object's '{', if any
};

class ObjectAccess {
 public:
  enum class Layout : std::uint8_t { kTree, kText };

  // Object::from_json, building the given layout.
  static Result<ObjectPtr> from_json(nlohmann::json j, Layout layout);
  // make_object, building the given layout: aborts with the validation message when `j` is not
  // a valid object.
  static ObjectPtr make(nlohmann::json j, Layout layout);
  // A kText Object from `text`: an object's text as json_text::write writes it (compact, keys in
  // order) whose metadata an Object accepts, typically assembled from other Objects' serialized()
  // texts. The text is not checked but in debug builds, which abort, naming what is wrong, as
  // make_object does.
  static ObjectPtr from_text(std::string_view text);
  // from_text for a text whose metadata lies where `written` says and holds nothing else that
  // an Object reads (no annotations, finalizers, owner references, generation, deletion fields
  // or selfLink). Debug builds also read the text and abort when the two Objects differ.
  static ObjectPtr from_written_text(std::string_view text, const WrittenMetadata& written);
  static Layout layout(const Object& object) {
    return object.text_form_ ? Layout::kText : Layout::kTree;
  }

 private:
  static Object::Form form(Layout layout) {
    return layout == Layout::kText ? Object::Form::kText : Object::Form::kTree;
  }
};

using Layout = ObjectAccess::Layout;

inline Result<ObjectPtr> object_from_json(nlohmann::json j, Layout layout) {
  return ObjectAccess::from_json(std::move(j), layout);
}
inline ObjectPtr make_object(nlohmann::json j, Layout layout) {
  return ObjectAccess::make(std::move(j), layout);
}
inline ObjectPtr make_text_object(std::string_view text) { return ObjectAccess::from_text(text); }
inline ObjectPtr make_written_text_object(std::string_view text, const WrittenMetadata& written) {
  return ObjectAccess::from_written_text(text, written);
}
inline Layout layout_of(const Object& object) { return ObjectAccess::layout(object); }

}  // namespace kubesim::api::internal

#endif  // KUBESIM_API_INTERNAL_OBJECT_ACCESS_H_
