// Trace: structured events of a run (virtual time, process, kind, fields), as JSON lines, with
// a running hash that proves two runs identical.
//
// Each event is one line {"f":{...},"k":"<kind>","p":"<process>","t":<ns>}: keys are sorted at
// every level, so the same events give the same bytes. The hash is XXH3's 64-bit hash (seed 0)
// of the whole text, every line with its newline — `xxhsum -H3` of a trace file without its
// closing hash line. Recording is off until enable(); when off, record() costs one branch.
#ifndef KUBESIM_SIM_TRACE_H_
#define KUBESIM_SIM_TRACE_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "kubesim/sim/time.h"

namespace kubesim::sim {

// One field of an event for the allocation-free Trace::record_fields: a string or an integer.
struct TraceField {
  TraceField(std::string_view key_, std::string_view text_) : key(key_), text(text_) {}
  TraceField(std::string_view key_, std::int64_t number_) : key(key_), number(number_), is_number(true) {}
  std::string_view key;  // plain ASCII that JSON needs not escape
  std::string_view text;
  std::int64_t number = 0;
  bool is_number = false;
};

class Trace {
 public:
  Trace();
  ~Trace();
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  // Starts recording; lines also go to `sink` when given (it must outlive the Trace's use).
  void enable(std::ostream* sink = nullptr) {
    enabled_ = true;
    sink_ = sink;
  }
  void disable() { enabled_ = false; }
  bool enabled() const { return enabled_; }

  void record(Time t, std::string_view process, std::string_view kind,
              const nlohmann::json& fields);
  // The same with no fields ({}).
  void record(Time t, std::string_view process, std::string_view kind);
  // The same line as record() with a JSON object of these fields, built without one: for events
  // recorded on every write. `fields` must be sorted by key (asserted in debug builds).
  void record_fields(Time t, std::string_view process, std::string_view kind,
                     std::initializer_list<TraceField> fields);

  std::uint64_t hash() const;
  // The hash as 16 lowercase hex digits.
  std::string hash_hex() const;
  std::uint64_t count() const { return count_; }

 private:
  void finish_line(Time t, std::string_view process, std::string_view kind);

  struct HashState;

  bool enabled_ = false;
  std::string line_;  // the line being written, kept to reuse its buffer
  std::ostream* sink_ = nullptr;
  std::unique_ptr<HashState> hash_;  // the running XXH3 state
  std::uint64_t count_ = 0;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_TRACE_H_
