#include "kubesim/election/record.h"

#include <limits>

#include "kubesim/api/status.h"

namespace kubesim::election {
namespace {

nlohmann::ordered_json time_json(const std::optional<sim::Time>& t, std::int64_t epoch, bool micro) {
  if (!t) return nullptr;
  return micro ? sim::format_rfc3339_micro(*t, epoch) : sim::format_rfc3339(*t, epoch);
}

api::Status field_error(std::string_view field, std::string_view what) {
  return api::new_bad_request("invalid leader election record: " + std::string(field) + ": " +
                              std::string(what));
}

// Reads an optional string field; false when present with another type.
bool read_string(const nlohmann::json& j, const char* field, std::string& out) {
  auto it = j.find(field);
  if (it == j.end() || it->is_null()) return true;
  if (!it->is_string()) return false;
  out = it->get<std::string>();
  return true;
}

bool read_int(const nlohmann::json& j, const char* field, int& out) {
  auto it = j.find(field);
  if (it == j.end() || it->is_null()) return true;
  if (!it->is_number_integer()) return false;
  const auto v = it->get<std::int64_t>();
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) return false;
  out = static_cast<int>(v);
  return true;
}

bool read_time(const nlohmann::json& j, const char* field, std::int64_t epoch,
               std::optional<sim::Time>& out) {
  auto it = j.find(field);
  if (it == j.end() || it->is_null()) return true;
  if (!it->is_string()) return false;
  sim::Time t{};
  if (!sim::parse_rfc3339(it->get<std::string>(), t, epoch)) return false;
  out = t;
  return true;
}

}  // namespace

std::string to_raw(const LeaderElectionRecord& record, std::int64_t epoch_unix_seconds) {
  nlohmann::ordered_json j;
  j["holderIdentity"] = record.holder_identity;
  j["leaseDurationSeconds"] = record.lease_duration_seconds;
  j["acquireTime"] = time_json(record.acquire_time, epoch_unix_seconds, false);
  j["renewTime"] = time_json(record.renew_time, epoch_unix_seconds, false);
  j["leaderTransitions"] = record.leader_transitions;
  j["strategy"] = record.strategy;
  j["preferredHolder"] = record.preferred_holder;
  return j.dump();
}

api::Result<LeaderElectionRecord> parse_raw(std::string_view raw, std::int64_t epoch_unix_seconds) {
  nlohmann::json j = nlohmann::json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return field_error("(document)", "not valid JSON");
  if (!j.is_object()) return field_error("(document)", "not a JSON object");
  LeaderElectionRecord r;
  if (!read_string(j, "holderIdentity", r.holder_identity)) return field_error("holderIdentity", "must be a string");
  if (!read_int(j, "leaseDurationSeconds", r.lease_duration_seconds)) {
    return field_error("leaseDurationSeconds", "must be an integer");
  }
  if (!read_time(j, "acquireTime", epoch_unix_seconds, r.acquire_time)) {
    return field_error("acquireTime", "must be an RFC 3339 time or null");
  }
  if (!read_time(j, "renewTime", epoch_unix_seconds, r.renew_time)) {
    return field_error("renewTime", "must be an RFC 3339 time or null");
  }
  if (!read_int(j, "leaderTransitions", r.leader_transitions)) {
    return field_error("leaderTransitions", "must be an integer");
  }
  if (!read_string(j, "strategy", r.strategy)) return field_error("strategy", "must be a string");
  if (!read_string(j, "preferredHolder", r.preferred_holder)) {
    return field_error("preferredHolder", "must be a string");
  }
  return r;
}

nlohmann::json to_lease_spec(const LeaderElectionRecord& record, std::int64_t epoch_unix_seconds) {
  nlohmann::json spec = nlohmann::json::object();
  spec["holderIdentity"] = record.holder_identity;
  spec["leaseDurationSeconds"] = record.lease_duration_seconds;
  if (record.acquire_time) spec["acquireTime"] = sim::format_rfc3339_micro(*record.acquire_time, epoch_unix_seconds);
  if (record.renew_time) spec["renewTime"] = sim::format_rfc3339_micro(*record.renew_time, epoch_unix_seconds);
  spec["leaseTransitions"] = record.leader_transitions;
  if (!record.strategy.empty()) spec["strategy"] = record.strategy;
  if (!record.preferred_holder.empty()) spec["preferredHolder"] = record.preferred_holder;
  return spec;
}

LeaderElectionRecord from_lease_spec(const nlohmann::json& spec, std::int64_t epoch_unix_seconds) {
  LeaderElectionRecord r;
  if (!spec.is_object()) return r;
  // A field of the wrong type reads as absent: the server validated the Lease.
  if (!read_string(spec, "holderIdentity", r.holder_identity)) r.holder_identity.clear();
  if (!read_int(spec, "leaseDurationSeconds", r.lease_duration_seconds)) r.lease_duration_seconds = 0;
  if (!read_int(spec, "leaseTransitions", r.leader_transitions)) r.leader_transitions = 0;
  if (!read_time(spec, "acquireTime", epoch_unix_seconds, r.acquire_time)) r.acquire_time.reset();
  if (!read_time(spec, "renewTime", epoch_unix_seconds, r.renew_time)) r.renew_time.reset();
  if (!read_string(spec, "strategy", r.strategy)) r.strategy.clear();
  if (!read_string(spec, "preferredHolder", r.preferred_holder)) r.preferred_holder.clear();
  return r;
}

}  // namespace kubesim::election
