// Property test of Store against a plain model: random creates, updates, deletes and compactions
// of a few keys, interleaved with gets and scans at every retained revision and replays of the
// change log. The keys share prefixes ("a/…", "ab/…", and "a" itself) so that scans cross
// namespace boundaries, and deleted keys come back after compaction erased them, so the key
// order has erased and re-created entries side by side.
#include "kubesim/fakeapi/store.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/api/object.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

const std::vector<std::string> kStoreKeys = {"a",   "a/x", "a/y",  "a/y0", "ab/x", "ab/z",
                                        "b/x", "b/y", "b/z", "c",    "c/a"};
const std::vector<std::string> kPrefixes = {"", "a", "a/", "ab/", "b/", "c/", "d/"};
const std::vector<std::string> kStarts = {"",   "a/x",  std::string("a/y\0", 4), "a/y",
                                          "ab", "b/y/", "z"};

// The state of every present key at one revision, by key: the revision of the write that left it.
using Snapshot = std::map<std::string, Revision>;

// The revision an object was written at; 0 for none.
Revision revision_of(const api::ObjectPtr& obj) {
  return obj ? std::stoll(std::string(obj->resource_version())) : 0;
}

class PropertyHarness {
 public:
  PropertyHarness() : table_(store_.table({"", "configmaps"})) { store_.table({"", "secrets"}); }

  void step() {
    switch (*rc::gen::inRange(0, 10)) {
      case 0:
      case 1:
      case 2:
        put(*rc::gen::elementOf(kStoreKeys));
        break;
      case 3:
      case 4:
        remove(*rc::gen::elementOf(kStoreKeys));
        break;
      case 5:
        compact();
        break;
      case 6:
      case 7:
        scan();
        break;
      case 8:
        get_at(*rc::gen::elementOf(kStoreKeys));
        break;
      default:
        replay();
        break;
    }
    check_now();
  }

 private:
  const Snapshot& now() const { return history_.back(); }
  Revision revision() const { return static_cast<Revision>(history_.size()) - 1; }
  Revision retained_revision() const { return *rc::gen::inRange(compacted_, revision() + 1); }

  // The prev_revision a write of `key` must record: its last write, unless that was a deletion
  // compaction has passed (then the key was erased and starts over).
  Revision expected_prev(const std::string& key) const {
    auto it = held_.find(key);
    return it == held_.end() ? 0 : it->second.last;
  }

  void put(const std::string& key) {
    const Revision rev = revision() + 1;
    RC_LOG() << "put " << key << " @" << rev << "\n";
    const auto was = now().find(key);
    const Revision previous = was == now().end() ? 0 : was->second;
    const Change& c = store_.put(table_, key, testutil::stored_config_map(key, rev));
    RC_ASSERT(c.revision == rev);
    RC_ASSERT(c.type == (previous != 0 ? ChangeType::kModified : ChangeType::kAdded));
    RC_ASSERT(revision_of(c.object) == rev);
    RC_ASSERT(revision_of(c.previous) == previous);
    RC_ASSERT(c.prev_revision == expected_prev(key));
    Snapshot next = now();
    next[key] = rev;
    history_.push_back(std::move(next));
    held_[key] = {rev, false};
  }

  void remove(const std::string& key) {
    const auto was = now().find(key);
    if (was == now().end()) return;  // the server never removes a missing key
    const Revision rev = revision() + 1;
    RC_LOG() << "remove " << key << " @" << rev << "\n";
    const Change& c = store_.remove(table_, key, testutil::stored_config_map(key, rev));
    RC_ASSERT(c.type == ChangeType::kDeleted);
    RC_ASSERT(revision_of(c.object) == rev);
    RC_ASSERT(revision_of(c.previous) == was->second);
    RC_ASSERT(c.prev_revision == expected_prev(key));
    Snapshot next = now();
    next.erase(key);
    history_.push_back(std::move(next));
    held_[key] = {rev, true};
  }

  void compact() {
    const Revision upto = *rc::gen::inRange(compacted_ - 2, revision() + 3);
    RC_LOG() << "compact " << upto << "\n";
    store_.compact(upto);
    compacted_ = std::max(compacted_, std::min(upto, revision()));
    RC_ASSERT(store_.compacted() == compacted_);
    std::erase_if(held_, [&](const auto& kv) {
      return kv.second.deleted && kv.second.last <= compacted_;
    });
  }

  void scan() {
    const Revision at = retained_revision();
    const std::string prefix = *rc::gen::elementOf(kPrefixes);
    const std::string start = *rc::gen::elementOf(kStarts);
    const std::size_t limit = *rc::gen::inRange<std::size_t>(1, kStoreKeys.size() + 2);
    RC_LOG() << "scan @" << at << " prefix=" << prefix << " start=" << start
             << " limit=" << limit << "\n";
    std::vector<std::pair<std::string, Revision>> got;
    store_.scan(table_, at, prefix, start, [&](std::string_view key, const api::ObjectPtr& obj) {
      got.emplace_back(std::string(key), revision_of(obj));
      RC_ASSERT(obj->key().view() == key);
      return got.size() < limit;
    });
    std::vector<std::pair<std::string, Revision>> want;
    for (const auto& [key, rev] : history_[static_cast<std::size_t>(at)]) {
      if (want.size() == limit) break;
      if (key.starts_with(prefix) && key >= start) want.emplace_back(key, rev);
    }
    RC_ASSERT(got == want);
  }

  void get_at(const std::string& key) {
    const Revision at = retained_revision();
    RC_LOG() << "get " << key << " @" << at << "\n";
    const Snapshot& then = history_[static_cast<std::size_t>(at)];
    const auto it = then.find(key);
    RC_ASSERT(revision_of(store_.get_at(table_, key, at)) == (it == then.end() ? 0 : it->second));
    if (compacted_ > 0) RC_ASSERT(store_.get_at(table_, key, compacted_ - 1) == nullptr);
  }

  void replay() {
    const Revision after = *rc::gen::inRange<Revision>(0, revision() + 2);
    RC_LOG() << "changes after " << after << "\n";
    Revision expected = std::max(after, compacted_) + 1;
    for (auto it = store_.changes_after(after); it != store_.changes_end(); ++it, ++expected) {
      RC_ASSERT(it->revision == expected);
      RC_ASSERT(revision_of(it->object) == expected);
    }
    RC_ASSERT(expected == std::max(revision(), after) + 1);
  }

  void check_now() {
    RC_ASSERT(store_.revision() == revision());
    RC_ASSERT(store_.size(table_) == now().size());
    for (const std::string& key : kStoreKeys) {
      const auto it = now().find(key);
      RC_ASSERT(revision_of(store_.get(table_, key)) == (it == now().end() ? 0 : it->second));
    }
  }

  Store store_;
  TableId table_;
  std::vector<Snapshot> history_{Snapshot()};  // by revision
  Revision compacted_ = 0;
  struct Held {
    Revision last = 0;  // the key's last write
    bool deleted = false;  // whether that write deleted it
  };
  std::map<std::string, Held> held_;  // the keys the store holds, erased ones excluded
};

RC_GTEST_PROP(StorePropertyTest, AgreesWithTheModelAcrossCompactions, ()) {
  PropertyHarness h;
  const int steps = *rc::gen::inRange(1, 300);
  for (int i = 0; i < steps; ++i) h.step();
}

}  // namespace
}  // namespace kubesim::fakeapi
