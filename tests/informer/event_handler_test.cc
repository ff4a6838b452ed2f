#include "kubesim/informer/event_handler.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "handlers.h"
#include "test_util.h"

namespace kubesim::informer {
namespace {

using testing::config_map;
using testing::RecordingHandler;

bool labelled(const api::Object& o) { return o.label("app") == "web"; }

// A filter written as most are: it looks for an object and rejects anything else.
struct ObjectsOnly {
  std::vector<std::string>* given;
  bool operator()(const DeletedObject& obj) const {
    given->push_back(is_final_state_unknown(obj) ? "tombstone" : "object");
    const auto* object = std::get_if<api::ObjectPtr>(&obj);
    return object != nullptr && labelled(**object);
  }
};

const api::ObjectPtr kWeb = config_map("default", "a", "1", {{"app", "web"}});
const api::ObjectPtr kDb = config_map("default", "a", "2", {{"app", "db"}});

TEST(FilteringResourceEventHandlerTest, AddsAndUpdatesFollowTheFilter) {
  auto inner = std::make_shared<RecordingHandler>();
  std::vector<std::string> given;
  FilteringResourceEventHandler filtering(ObjectsOnly{&given}, inner);
  filtering.on_add(kDb, true);
  filtering.on_add(kWeb, true);
  filtering.on_update(kWeb, kDb);  // leaves the filter: a delete of the old state
  filtering.on_update(kDb, kWeb);  // enters it: an add
  filtering.on_update(kWeb, kWeb);
  filtering.on_delete(kWeb);
  EXPECT_EQ(inner->events, (std::vector<std::string>{"add*:default/a", "delete:default/a", "add:default/a",
                                                      "update:default/a", "delete:default/a"}));
}

// client-go's FilteringResourceEventHandler.OnDelete calls FilterFunc with what it was given: a
// DeletedFinalStateUnknown tombstone itself, not the object inside. A filter that only knows
// objects rejects it, and the handler never hears of a deletion it missed.
TEST(FilteringResourceEventHandlerTest, TheFilterIsGivenATombstoneItself) {
  auto inner = std::make_shared<RecordingHandler>();
  std::vector<std::string> given;
  FilteringResourceEventHandler filtering(ObjectsOnly{&given}, inner);
  filtering.on_delete(DeletedFinalStateUnknown(kWeb->key(), kWeb));
  EXPECT_EQ(given, (std::vector<std::string>{"tombstone"}));
  EXPECT_TRUE(inner->events.empty()) << "the filter rejected the tombstone";
}

TEST(FilteringResourceEventHandlerTest, UnwrapTombstonesFiltersTheLastKnownState) {
  auto inner = std::make_shared<RecordingHandler>();
  FilteringResourceEventHandler filtering(unwrap_tombstones(labelled), inner);
  filtering.on_delete(DeletedFinalStateUnknown(kWeb->key(), kWeb));
  filtering.on_delete(DeletedFinalStateUnknown(kDb->key(), kDb));
  filtering.on_delete(DeletedFinalStateUnknown(kDb->key(), nullptr));
  filtering.on_add(kDb, false);
  EXPECT_EQ(inner->events, (std::vector<std::string>{"delete?:default/a", "delete?:default/a"}))
      << "a tombstone with a state passes when its state does, one without a state always";
}

}  // namespace
}  // namespace kubesim::informer
