// LeaderElectionRecord: what a resource lock stores about the current leader, and its raw form.
//
// The record is client-go's resourcelock.LeaderElectionRecord. Its times are wall readings of
// the writer's own clock (Clock::wall_now()), and electors never compare them with their own
// clocks: a candidate only notices that the record *changed* (the raw form differs)
// and times the lease on its own clock from that moment.
//
// The raw form is the record as client-go marshals it: JSON with the fields in declaration order
// and metav1.Time's second precision ("2025-01-01T00:00:07Z", null for an absent time). Two
// records whose times differ by less than a second can therefore have the same raw form; the
// elector's retry period must be at least a second for renewals to be distinguishable (the
// raw form of successive renewals then always differs).
#ifndef KUBESIM_ELECTION_RECORD_H_
#define KUBESIM_ELECTION_RECORD_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "kubesim/api/result.h"
#include "kubesim/sim/time.h"

namespace kubesim::election {

// The annotation of ConfigMap and Endpoints locks that holds the record's raw form.
inline constexpr std::string_view kLeaderElectionRecordAnnotationKey =
    "control-plane.alpha.kubernetes.io/leader";

struct LeaderElectionRecord {
  LeaderElectionRecord() {}

  // Empty: nobody holds the lock (it was released); anyone may take it at once.
  std::string holder_identity;
  // The lease duration of the holder's configuration, whole seconds (truncated).
  int lease_duration_seconds = 0;
  std::optional<sim::Time> acquire_time;
  std::optional<sim::Time> renew_time;
  int leader_transitions = 0;
  // Coordinated leader election fields; carried through, never set by the LeaderElector.
  std::string strategy;
  std::string preferred_holder;

  bool operator==(const LeaderElectionRecord&) const = default;
};

// The raw form (see above). `epoch_unix_seconds` is the Unix second that sim::Time{} stands for.
std::string to_raw(const LeaderElectionRecord& record, std::int64_t epoch_unix_seconds);

// Parses a raw form (as found in the leader annotation). Missing fields keep their defaults, as
// encoding/json leaves them; a malformed document, a field of the wrong type or an unreadable
// time is a 400 BadRequest Status naming the field.
api::Result<LeaderElectionRecord> parse_raw(std::string_view raw, std::int64_t epoch_unix_seconds);

// Who holds a lock and for how long, as any client writes its record, read leniently (for
// checks on locks that real programs take): client-go's raw form (numbers, RFC 3339 times), the
// one Python's kubernetes.leaderelection writes (every value a JSON string —
// "leaseDurationSeconds": "15" — and times in Python's own local format, which are not read),
// and a Lease's spec. Nullopt unless `record` is a JSON object with a string holderIdentity; a
// lease duration that is neither an integer nor a string of one reads as 0.
struct RecordHolder {
  std::string holder;
  std::chrono::seconds lease{};
};
std::optional<RecordHolder> holder_of(const nlohmann::json& record);
// The same for an annotation's text; nullopt when it is not JSON.
std::optional<RecordHolder> holder_of_raw(std::string_view raw);

// The record as a coordination.k8s.io/v1 LeaseSpec and back (microsecond times).
nlohmann::json to_lease_spec(const LeaderElectionRecord& record, std::int64_t epoch_unix_seconds);
// Fields absent from the spec (or of the wrong type) keep the record's defaults.
LeaderElectionRecord from_lease_spec(const nlohmann::json& spec, std::int64_t epoch_unix_seconds);

}  // namespace kubesim::election

#endif  // KUBESIM_ELECTION_RECORD_H_
