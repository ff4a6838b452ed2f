#include "kubesim/election/record.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string_view>

#include "kubesim/api/status.h"

namespace kubesim::election {
namespace {

// Appends `s` as a JSON string as nlohmann's dump() writes it: printable ASCII without quotes
// and backslashes as it is, anything else (escapes, UTF-8, and the exception for bytes that are
// not UTF-8) by dump() itself.
void append_json_string(std::string& out, std::string_view s) {
  const bool plain = std::all_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
  });
  if (!plain) {
    out += nlohmann::json(std::string(s)).dump();
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

// A time at second precision, or null.
void append_time(std::string& out, const std::optional<sim::Time>& t, std::int64_t epoch) {
  if (!t) {
    out += "null";
    return;
  }
  append_json_string(out, sim::format_rfc3339(*t, epoch));
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
  // Written member by member (a JSON tree and its serializer cost twenty times as much), the
  // bytes nlohmann's dump() writes for the same members in this order.
  std::string out;
  out.reserve(256 + record.holder_identity.size() + record.strategy.size() +
              record.preferred_holder.size());
  out += "{\"holderIdentity\":";
  append_json_string(out, record.holder_identity);
  out += ",\"leaseDurationSeconds\":";
  out += std::to_string(record.lease_duration_seconds);
  out += ",\"acquireTime\":";
  append_time(out, record.acquire_time, epoch_unix_seconds);
  out += ",\"renewTime\":";
  append_time(out, record.renew_time, epoch_unix_seconds);
  out += ",\"leaderTransitions\":";
  out += std::to_string(record.leader_transitions);
  out += ",\"strategy\":";
  append_json_string(out, record.strategy);
  out += ",\"preferredHolder\":";
  append_json_string(out, record.preferred_holder);
  out += '}';
  return out;
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

std::optional<RecordHolder> holder_of(const nlohmann::json& record) {
  if (!record.is_object()) return std::nullopt;
  const auto holder = record.find("holderIdentity");
  if (holder == record.end() || !holder->is_string()) return std::nullopt;
  RecordHolder out;
  out.holder = holder->get<std::string>();
  if (const auto lease = record.find("leaseDurationSeconds"); lease != record.end()) {
    if (lease->is_number_integer()) {
      out.lease = std::chrono::seconds(lease->get<std::int64_t>());
    } else if (lease->is_string()) {  // Python's client writes str(lease_duration)
      const std::string& text = lease->get_ref<const std::string&>();
      std::int64_t seconds = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
      if (ec == std::errc() && end == text.data() + text.size()) out.lease = std::chrono::seconds(seconds);
    }
  }
  return out;
}

std::optional<RecordHolder> holder_of_raw(std::string_view raw) {
  const nlohmann::json record = nlohmann::json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (record.is_discarded()) return std::nullopt;
  return holder_of(record);
}

}  // namespace kubesim::election
