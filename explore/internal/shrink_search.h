// The shrinker's search state: the smallest failing document so far, the predicate behind a
// cache of emitted texts, the steps taken, and the searches over one value (a duration, a count)
// that the passes of shrink.cc share.
//
// Every candidate is judged as its emitted text reads back (YAML::Load(emit_scenario(c))), so
// the document the caller writes out is exactly the one that was seen to fail. A text already
// tried, or the document's own, is never run again. Once max_runs predicate calls are made every
// further attempt is refused, so passes simply run on and change nothing.
#ifndef KUBESIM_EXPLORE_INTERNAL_SHRINK_SEARCH_H_
#define KUBESIM_EXPLORE_INTERNAL_SHRINK_SEARCH_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "explore/internal/shrink.h"

namespace kubesim::explore::shrink {

// A place in a document: keys and list indices from the top ("timeline[2].faults").
struct PathStep {
  std::string key;  // empty: `index` of a list
  std::size_t index = 0;
};
using Path = std::vector<PathStep>;
Path operator/(Path path, const std::string& key);
Path operator/(Path path, std::size_t index);
std::string path_text(const Path& path);

// The node at `path`, or an undefined node when the document has nothing there. yaml-cpp nodes
// are references: assigning to (or removing from) what it returns edits `doc` itself.
YAML::Node find(const YAML::Node& doc, const Path& path);
// The value of `key` in `map`, or an undefined node (yaml-cpp's own operator[] gives a node that
// throws on every question but IsDefined when the key is missing).
YAML::Node child(const YAML::Node& map, const std::string& key);
// `map` with `key` set to `value`: in place when present, else right after the last of `after`
// present in the map (at the end when none is), so new keys land where a person writes them.
YAML::Node with_key(const YAML::Node& map, const std::string& key, const YAML::Node& value,
                    const std::vector<std::string>& after);

// Go duration text, shortest form: "2m30s", "10m", "1h", "150ms".
std::string duration_text(std::int64_t nanoseconds);
// A duration of the document, in nanoseconds; nullopt when absent or not a duration.
std::optional<std::int64_t> duration_at(const YAML::Node& doc, const Path& path);
// An integer of the document; nullopt when absent or not an integer.
std::optional<std::int64_t> integer_at(const YAML::Node& doc, const Path& path);

class Search {
 public:
  Search(const YAML::Node& doc, const StillFails& fails, std::size_t max_runs);

  const YAML::Node& doc() const { return doc_; }
  // A deep copy of the document, to edit into a candidate.
  YAML::Node copy() const { return YAML::Clone(doc_); }
  bool exhausted() const { return runs_ >= max_runs_; }

  // Keeps `candidate` (and records `step`) when it still fails. A structural step (something
  // removed) forgets what value searches learned, since the document they judged is gone.
  bool attempt(const YAML::Node& candidate, const std::string& step, bool structural = false);

  ShrinkResult finish() &&;

  // A value search: the document holds `hi` at `key` (a path text) and fails. Tries `lo`, then
  // halves [lo, hi] on multiples of `quantum` (lo is taken as failing-not once tried). For a
  // predicate that fails exactly from some threshold T up, the result is lo when T ≤ lo, else T
  // rounded up to a multiple of the quantum. `make(v)` is the candidate holding v.
  using Make = std::function<YAML::Node(std::int64_t value)>;
  using Describe = std::function<std::string(std::int64_t value)>;
  bool search_down(const std::string& key, std::int64_t lo, std::int64_t hi, std::int64_t quantum,
                   const Make& make, const Describe& step);
  // The other way: doubles `value` while the result stays at most `limit` and still fails.
  bool search_up(std::int64_t value, std::int64_t limit, const Make& make, const Describe& step);

 private:
  YAML::Node doc_;
  std::string text_;
  StillFails fails_;
  std::size_t max_runs_;
  std::size_t runs_ = 0;
  std::set<std::string> tried_;
  std::vector<std::string> steps_;
  // Per value: the largest value known not to fail below the one the document holds.
  std::map<std::string, std::int64_t> floors_;
};

// The passes, each trying one kind of change over the whole document; true when one was kept.
// Removals (shrink_remove.cc), coarse to fine:
bool remove_timeline_events(Search& search);
bool remove_fault_rules(Search& search);
bool remove_workload_entries(Search& search);
bool remove_processes_and_actors(Search& search);
bool remove_cluster_objects(Search& search);
// Values (shrink_values.cc):
bool reduce_scenario_duration(Search& search);
bool reduce_replicas(Search& search);
bool pin_random_choices(Search& search);
bool reduce_times_and_counts(Search& search);

}  // namespace kubesim::explore::shrink

#endif  // KUBESIM_EXPLORE_INTERNAL_SHRINK_SEARCH_H_
