#include "kubesim/fakeapi/request.h"

#include <utility>

#include "kubesim/fakeapi/internal/server_util.h"

namespace kubesim::fakeapi {
namespace {

constexpr std::pair<Verb, std::string_view> kVerbs[] = {
    {Verb::kGet, "get"},       {Verb::kList, "list"},     {Verb::kWatch, "watch"},
    {Verb::kCreate, "create"}, {Verb::kUpdate, "update"}, {Verb::kPatch, "patch"},
    {Verb::kDelete, "delete"}, {Verb::kDeleteCollection, "deletecollection"},
};

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

namespace {

// The options of kind T that `options` holds, else T's defaults.
template <class T>
const T& held(const VerbOptions& options) {
  if (const T* o = std::get_if<T>(&options)) return *o;
  static const T kDefaults;
  return kDefaults;
}

}  // namespace

const api::GetOptions& Request::get_options() const { return held<api::GetOptions>(options); }

const api::ListOptions& Request::list_options() const {
  if (const auto* o = std::get_if<DeleteCollectionOptions>(&options)) return o->list;
  return held<api::ListOptions>(options);
}

const api::CreateOptions& Request::create_options() const {
  return held<api::CreateOptions>(options);
}

const api::UpdateOptions& Request::update_options() const {
  return held<api::UpdateOptions>(options);
}

const api::PatchOptions& Request::patch_options() const { return held<api::PatchOptions>(options); }

const api::DeleteOptions& Request::delete_options() const {
  if (const auto* o = std::get_if<DeleteCollectionOptions>(&options)) return o->del;
  return held<api::DeleteOptions>(options);
}

Revision Request::read_revision() const {
  if (verb == Verb::kGet) {
    return internal::parse_revision(get_options().resource_version).value_or(0);
  }
  if (verb == Verb::kList && list_options().continue_token.empty()) {
    return internal::parse_revision(list_options().resource_version).value_or(0);
  }
  return 0;
}

Response Response::failure(api::Status status) {
  Response r;
  r.code = status.code;
  r.error = std::make_unique<api::Status>(std::move(status));
  return r;
}

}  // namespace kubesim::fakeapi
