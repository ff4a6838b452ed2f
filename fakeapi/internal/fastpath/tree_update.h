// An update given as a JSON tree, read against the stored object's compact text. A blind update
// (a tree built from scratch, without resourceVersion or uid) that differs from the stored object
// in one string's contents is what most controllers send; writing such a tree out only to compare
// it byte by byte costs more than the rest of the write. This compares the tree with the text
// directly and names the one string (its path and where it sits in the stored text), from which
// text_update.h lets the kind decide and writes the stored object with that string set.
#ifndef KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TREE_UPDATE_H_
#define KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TREE_UPDATE_H_

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::internal {

struct TreeUpdate {
  enum class Outcome {
    kOther,      // anything else: the tree is to be compared as text
    kSame,       // the tree is the stored object
    kOneString,  // the tree is the stored object with `value` at `keys`
  };
  static constexpr std::size_t kMaxDepth = 8;
  Outcome outcome = Outcome::kOther;
  std::array<std::string_view, kMaxDepth> keys;  // into the stored text
  std::array<std::size_t, kMaxDepth> values{};   // where the keys' values begin in it
  std::size_t depth = 0;
  const std::string* value = nullptr;  // into the tree
};

// How the tree `desired` stands to `stored`, an object's compact text. The metadata must be the
// stored one but for members the server keeps as stored when they are left out
// (kept_when_absent) and a resourceVersion that is "" or the stored one; the string may be
// anywhere outside the metadata, reached through object members only.
TreeUpdate tree_update(std::string_view stored, const nlohmann::json& desired);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_FASTPATH_TREE_UPDATE_H_
