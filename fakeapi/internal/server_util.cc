#include "fakeapi/internal/server_util.h"

#include <algorithm>
#include <charconv>
#include <iterator>

#include <nlohmann/json.hpp>

#include "kubesim/api/go_strings.h"

namespace kubesim::fakeapi::internal {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int decode_char(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

}  // namespace

std::optional<Revision> parse_revision(std::string_view rv) {
  if (rv.empty()) return std::nullopt;
  Revision value = 0;
  auto [ptr, ec] = std::from_chars(rv.data(), rv.data() + rv.size(), value);
  if (ec != std::errc() || ptr != rv.data() + rv.size() || value < 0) return std::nullopt;
  return value;
}

api::Status invalid_revision(std::string_view rv) {
  api::Status s;
  s.code = 500;
  s.reason = api::StatusReason::kUnknown;
  s.message = "resourceVersion: Invalid value: " + api::go_quote(rv) +
              ": strconv.ParseUint: parsing " + api::go_quote(rv) + ": invalid syntax";
  return s;
}

api::Status too_large_revision(Revision requested, Revision current) {
  api::Status s = api::new_timeout("Too large resource version: " + std::to_string(requested) +
                                       ", current: " + std::to_string(current),
                                   1);
  if (!s.details) s.details.emplace();
  s.details->causes.push_back({"ResourceVersionTooLarge", "Too large resource version", ""});
  return s;
}

namespace {

// The etcd key kube-apiserver stores an object under; it appears in precondition errors.
std::string registry_key(const ResourceInfo& info, std::string_view ns, std::string_view name) {
  std::string key = "/registry/";
  if (info.custom) key += info.gvr.group + "/";
  key += info.gvr.resource + "/";
  if (info.namespaced) key += std::string(ns) + "/";
  key += name;
  return key;
}

}  // namespace

api::Status precondition_failed(const ResourceInfo& info, std::string_view ns, std::string_view name,
                                const std::string& detail) {
  return api::new_conflict(info.group_resource(), name,
                           "StorageError: invalid object, Code: 4, Key: " +
                               registry_key(info, ns, name) +
                               ", ResourceVersion: 0, AdditionalErrorMsg: " + detail);
}

api::Status unknown_resource() {
  api::Status s;
  s.code = 404;
  s.reason = api::StatusReason::kNotFound;
  s.message = "the server could not find the requested resource";
  return s;
}

std::string base64url_encode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < data.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(data[i]) << 16) |
                       (static_cast<unsigned char>(data[i + 1]) << 8) |
                       static_cast<unsigned char>(data[i + 2]);
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  if (i + 1 == data.size()) {
    const unsigned v = static_cast<unsigned char>(data[i]) << 16;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
  } else if (i + 2 == data.size()) {
    const unsigned v = (static_cast<unsigned char>(data[i]) << 16) |
                       (static_cast<unsigned char>(data[i + 1]) << 8);
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
  }
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    const int v = decode_char(c);
    if (v < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

std::string encode_continue(std::string_view next_key, Revision revision) {
  const nlohmann::json token = {{"v", "meta.k8s.io/v1"}, {"rv", revision}, {"start", next_key}};
  return base64url_encode(token.dump());
}

std::string generated_name(std::string_view prefix, sim::Rng* rng) {
  static constexpr char kNameAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  constexpr std::size_t kRandom = 5;
  constexpr std::size_t kMaxPrefix = 63 - kRandom;
  std::string name(prefix.substr(0, kMaxPrefix));
  for (std::size_t i = 0; i < kRandom; ++i) {
    name.push_back(rng == nullptr ? kNameAlphabet[0]
                                  : kNameAlphabet[rng->uniform(sizeof kNameAlphabet - 1)]);
  }
  return name;
}

void drop_empty_metadata(nlohmann::json& metadata) {
  if (!metadata.is_object()) return;
  static constexpr std::string_view kOptional[] = {"labels",          "annotations",   "finalizers",
                                                   "ownerReferences", "managedFields", "generateName",
                                                   "selfLink"};
  for (auto it = metadata.begin(); it != metadata.end();) {
    const bool optional =
        std::find(std::begin(kOptional), std::end(kOptional), it.key()) != std::end(kOptional);
    const bool empty = it->is_null() || ((it->is_object() || it->is_array()) && it->empty()) ||
                       (it->is_string() && it->get_ref<const std::string&>().empty());
    it = optional && empty ? metadata.erase(it) : std::next(it);
  }
}

bool decode_continue(std::string_view token, std::string& start_key, Revision& revision) {
  auto raw = base64url_decode(token);
  if (!raw) return false;
  auto j = nlohmann::json::parse(*raw, nullptr, false);
  if (!j.is_object() || j.value("v", "") != "meta.k8s.io/v1") return false;
  auto rv = j.find("rv");
  auto start = j.find("start");
  if (rv == j.end() || !rv->is_number_integer() || start == j.end() || !start->is_string()) return false;
  revision = rv->get<Revision>();
  start_key = start->get<std::string>();
  // A negative revision (the token a 410 for a compacted one carries) means "the latest".
  return revision != 0 && !start_key.empty();
}

namespace {

constexpr char kContinueTooOld[] =
    "The provided continue parameter is too old to display a consistent list result. You can "
    "start a new list without the continue parameter, or use the continue token in this response "
    "to retrieve the remainder of the results. Continuing with the provided token results in an "
    "inconsistent list - objects that were created, modified, or deleted between the time the "
    "first chunk was returned and now may show up in the list.";

}  // namespace

api::Status continue_expired(std::string_view start_key) {
  api::Status expired = api::new_resource_expired(kContinueTooOld);
  expired.continue_token = encode_continue(start_key, -1);
  return expired;
}

api::Response object_answer(api::Result<api::ObjectPtr> result, int code) {
  if (!result) return api::Response::failure(std::move(result).status());
  api::Response r;
  r.code = code;
  r.object = std::move(result).value();
  return r;
}

std::optional<api::Status> delete_options_from_json(const nlohmann::json& j, api::DeleteOptions& o) {
  auto bad_body = [](const std::string& what) {
    return api::new_bad_request("the body of the request could not be decoded: " + what);
  };
  if (!j.is_object()) return bad_body("DeleteOptions is not a JSON object");
  auto field = [&](const char* name) -> const nlohmann::json* {
    auto it = j.find(name);
    return it == j.end() || it->is_null() ? nullptr : &*it;
  };
  if (const auto* g = field("gracePeriodSeconds")) {
    if (!g->is_number_integer()) return bad_body("gracePeriodSeconds must be an integer");
    o.grace_period_seconds = g->get<std::int64_t>();
  }
  if (const auto* p = field("propagationPolicy")) {
    auto policy = p->is_string() ? api::parse_propagation_policy(p->get<std::string>()) : std::nullopt;
    if (!policy) return bad_body("unsupported propagationPolicy " + p->dump());
    o.propagation_policy = *policy;
  } else if (const auto* orphan = field("orphanDependents")) {
    if (!orphan->is_boolean()) return bad_body("orphanDependents must be a boolean");
    o.propagation_policy =
        orphan->get<bool>() ? api::PropagationPolicy::kOrphan : api::PropagationPolicy::kBackground;
  }
  if (const auto* pre = field("preconditions")) {
    if (!pre->is_object()) return bad_body("preconditions must be an object");
    for (const char* name : {"uid", "resourceVersion"}) {
      auto it = pre->find(name);
      if (it == pre->end() || it->is_null()) continue;
      if (!it->is_string()) return bad_body(std::string("preconditions.") + name + " must be a string");
      (name[0] == 'u' ? o.preconditions.uid : o.preconditions.resource_version) = it->get<std::string>();
    }
  }
  if (const auto* dry = field("dryRun")) {
    if (!dry->is_array()) return bad_body("dryRun must be a list");
    for (const auto& v : *dry) {
      if (v != "All") {
        return api::new_invalid(api::GroupKind{"meta.k8s.io", "DeleteOptions"}, "",
                                {{"FieldValueNotSupported",
                                  "Unsupported value: " + v.dump() + ": supported values: \"All\"",
                                  "dryRun"}});
      }
      o.dry_run = true;
    }
  }
  return std::nullopt;
}

api::Status method_not_allowed() {
  api::Status s;
  s.code = 405;
  s.reason = api::StatusReason::kMethodNotAllowed;
  s.message = "the server does not allow this method on the requested resource";
  s.details.emplace();
  return s;
}

}  // namespace kubesim::fakeapi::internal
