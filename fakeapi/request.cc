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

Revision Request::read_revision() const {
  if (verb == Verb::kGet) return internal::parse_revision(get.resource_version).value_or(0);
  if (verb == Verb::kList && list.continue_token.empty()) {
    return internal::parse_revision(list.resource_version).value_or(0);
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
