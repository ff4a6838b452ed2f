// Small helpers shared by the server's read and write paths.
#ifndef KUBESIM_FAKEAPI_INTERNAL_SERVER_UTIL_H_
#define KUBESIM_FAKEAPI_INTERNAL_SERVER_UTIL_H_

#include <optional>
#include <string>
#include <string_view>

#include "kubesim/api/request.h"
#include "kubesim/api/result.h"
#include "kubesim/api/status.h"
#include "kubesim/api/validation.h"
#include "kubesim/fakeapi/registry.h"
#include "kubesim/fakeapi/store.h"
#include "kubesim/sim/rng.h"

namespace kubesim::fakeapi::internal {

// The store key of an object: "ns/name", or "name" for cluster-scoped resources.
inline std::string object_key(const ResourceInfo& info, std::string_view ns, std::string_view name) {
  if (!info.namespaced) return std::string(name);
  std::string key;
  key.reserve(ns.size() + 1 + name.size());
  key.append(ns).push_back('/');
  key.append(name);
  return key;
}

// object_key into `out`, reusing its buffer (keys of 16 characters and more would allocate).
inline const std::string& object_key_into(std::string& out, const ResourceInfo& info,
                                          std::string_view ns, std::string_view name) {
  out.clear();
  if (info.namespaced) out.append(ns).push_back('/');
  out.append(name);
  return out;
}

// apiserver's SimpleNameGenerator: the generateName prefix cut to 58 characters, then 5 random
// characters from `rng`, of an alphabet of lower-case consonants and digits without look-alikes.
// With no generator, the alphabet's first character stands for each random one: as every
// character of the alphabet is a lower-case letter or a digit, every name drawn for a prefix
// passes the same name checks as that one.
std::string generated_name(std::string_view prefix, sim::Rng* rng);

// Drops the ObjectMeta fields an object stores only when set: labels and annotations that are
// empty objects, finalizers, ownerReferences and managedFields that are empty arrays,
// generateName and selfLink that are empty strings, and any of them null. kube-apiserver
// round-trips metadata through typed ObjectMeta (custom resources too, by coercion), whose
// omitempty drops them; so "finalizers": [] is never stored, and an update that only adds or
// removes such an empty field changes nothing.
void drop_empty_metadata(nlohmann::json& metadata);

// The answer of a call whose result is an object: `code` with the object, or the failure.
api::Response object_answer(api::Result<api::ObjectPtr> result, int code);

// The 501 of a subresource that needs a kubelet on a real node (exec, log, proxy, ...).
api::Status node_only(const ResourceInfo& info, std::string_view subresource, std::string_view name);

// Reads a metav1.DeleteOptions JSON object (a DELETE's body, an Eviction's deleteOptions) into
// `o`; a 400 or 422 for what does not decode.
std::optional<api::Status> delete_options_from_json(const nlohmann::json& j, api::DeleteOptions& o);

// 405 MethodNotAllowed: a verb the resource does not have (a get of a review kind).
api::Status method_not_allowed();

// A resourceVersion as a revision; nullopt for text that is not a decimal number.
std::optional<Revision> parse_revision(std::string_view rv);

// What kube-apiserver answers for a resourceVersion that does not parse (a 500 with the
// field error text, as the storage layer's InvalidError reaches the client unconverted).
api::Status invalid_revision(std::string_view rv);

// 504 Timeout with the ResourceVersionTooLarge cause.
api::Status too_large_revision(Revision requested, Revision current);

// 409 for a precondition (uid, resourceVersion) the stored object does not meet, with the etcd
// storage error text kube-apiserver wraps into the Conflict.
api::Status precondition_failed(const ResourceInfo& info, std::string_view ns, std::string_view name,
                                const std::string& detail);

// 404 for a resource the server does not serve.
api::Status unknown_resource();

// Continue tokens, as kube-apiserver encodes them: base64url(JSON {"v","rv","start"}). A token
// with a negative rv (what a 410 for a compacted token offers) continues at the latest revision;
// rv 0 is invalid.
std::string encode_continue(std::string_view next_key, Revision revision);
bool decode_continue(std::string_view token, std::string& start_key, Revision& revision);
// As etcd3's store: the 410 of a continue whose revision is gone (or a forced one) carries a
// token for the rest of the list, after `start_key`, at the latest revision.
api::Status continue_expired(std::string_view start_key);

// Base64url without padding, for continue tokens.
std::string base64url_encode(std::string_view data);
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_SERVER_UTIL_H_
