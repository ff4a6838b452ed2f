#include "kubesim/api/request.h"

#include <utility>

namespace kubesim::api {
namespace {

constexpr std::pair<Verb, std::string_view> kVerbs[] = {
    {Verb::kGet, "get"},       {Verb::kList, "list"},     {Verb::kWatch, "watch"},
    {Verb::kCreate, "create"}, {Verb::kUpdate, "update"}, {Verb::kPatch, "patch"},
    {Verb::kDelete, "delete"}, {Verb::kDeleteCollection, "deletecollection"},
};

constexpr std::pair<Subresource, std::string_view> kSubresources[] = {
    {Subresource::kNone, ""},
    {Subresource::kStatus, "status"},
    {Subresource::kScale, "scale"},
    {Subresource::kFinalize, "finalize"},
    {Subresource::kBinding, "binding"},
    {Subresource::kEviction, "eviction"},
    {Subresource::kEphemeralContainers, "ephemeralcontainers"},
    {Subresource::kResize, "resize"},
    {Subresource::kToken, "token"},
    {Subresource::kApproval, "approval"},
    {Subresource::kLog, "log"},
    {Subresource::kExec, "exec"},
    {Subresource::kAttach, "attach"},
    {Subresource::kPortForward, "portforward"},
    {Subresource::kProxy, "proxy"}};

// The options of kind T that `options` holds, else T's defaults.
template <class T>
const T& held(const VerbOptions& options) {
  if (const T* o = std::get_if<T>(&options)) return *o;
  static const T kDefaults;
  return kDefaults;
}

}  // namespace

std::string_view to_string(Verb verb) {
  for (const auto& [v, name] : kVerbs) {
    if (v == verb) return name;
  }
  return "";
}

std::optional<Verb> parse_verb(std::string_view text) {
  for (const auto& [v, name] : kVerbs) {
    if (name == text) return v;
  }
  return std::nullopt;
}

bool is_write(Verb verb) {
  return verb != Verb::kGet && verb != Verb::kList && verb != Verb::kWatch;
}

std::string_view to_string(Subresource subresource) {
  for (const auto& [s, name] : kSubresources) {
    if (s == subresource) return name;
  }
  return "";
}

std::optional<Subresource> parse_subresource(std::string_view text) {
  for (const auto& [s, name] : kSubresources) {
    if (name == text) return s;
  }
  return std::nullopt;
}

const GetOptions& Request::get_options() const { return held<GetOptions>(options); }

const ListOptions& Request::list_options() const {
  if (const auto* o = std::get_if<DeleteCollectionOptions>(&options)) return o->list;
  return held<ListOptions>(options);
}

const CreateOptions& Request::create_options() const { return held<CreateOptions>(options); }

const UpdateOptions& Request::update_options() const { return held<UpdateOptions>(options); }

const PatchOptions& Request::patch_options() const { return held<PatchOptions>(options); }

const DeleteOptions& Request::delete_options() const {
  if (const auto* o = std::get_if<DeleteCollectionOptions>(&options)) return o->del;
  return held<DeleteOptions>(options);
}

Response Response::failure(Status status) {
  Response r;
  r.code = status.code;
  r.error = std::make_unique<Status>(std::move(status));
  return r;
}

}  // namespace kubesim::api
