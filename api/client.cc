#include "kubesim/api/client.h"

#include <type_traits>

namespace kubesim::api {
namespace {

Request request_of(Verb verb, GroupVersionResource resource, std::string ns, std::string name) {
  Request r;
  r.verb = verb;
  r.resource = std::move(resource);
  r.ns = std::move(ns);
  r.name = std::move(name);
  return r;
}

// What a call's answer is to its caller: the object, the list, the watch or nothing.
template <class T>
Result<T> answer_of(Response& r) {
  if (r.error) return std::move(*r.error);
  if constexpr (std::is_same_v<T, ObjectPtr>) {
    return std::move(r.object);
  } else if constexpr (std::is_same_v<T, ObjectList>) {
    return std::move(r.list);
  } else if constexpr (std::is_same_v<T, WatchPtr>) {
    return std::move(r.watch);
  } else {
    static_assert(std::is_void_v<T>);
    return Result<void>();
  }
}

// The Result of a sent request (the request itself lives in the send's frame, not this one).
template <class T>
sim::Task<Result<T>> result_of(sim::Task<Response> sending) {
  Response response = co_await std::move(sending);
  co_return answer_of<T>(response);
}

}  // namespace

sim::Task<Result<ObjectPtr>> Client::get(sim::Context ctx, GroupVersionResource resource,
                                         std::string ns, std::string name, GetOptions options) {
  Request r = request_of(Verb::kGet, std::move(resource), std::move(ns), std::move(name));
  r.options = std::move(options);
  return result_of<ObjectPtr>(send(std::move(ctx), std::move(r)));
}

sim::Task<Result<ObjectList>> Client::list(sim::Context ctx, GroupVersionResource resource,
                                           std::string ns, ListOptions options) {
  Request r = request_of(Verb::kList, std::move(resource), std::move(ns), {});
  r.options = std::move(options);
  return result_of<ObjectList>(send(std::move(ctx), std::move(r)));
}

sim::Task<Result<WatchPtr>> Client::watch(sim::Context ctx, GroupVersionResource resource,
                                          std::string ns, ListOptions options) {
  Request r = request_of(Verb::kWatch, std::move(resource), std::move(ns), {});
  r.options = std::move(options);
  return result_of<WatchPtr>(send(std::move(ctx), std::move(r)));
}

sim::Task<Result<ObjectPtr>> Client::create(sim::Context ctx, GroupVersionResource resource,
                                            std::string ns, ObjectPtr object,
                                            CreateOptions options) {
  Request r = request_of(Verb::kCreate, std::move(resource), std::move(ns),
                         object ? std::string(object->name()) : std::string());
  r.options = std::move(options);
  r.object = std::move(object);
  return result_of<ObjectPtr>(send(std::move(ctx), std::move(r)));
}

sim::Task<Result<ObjectPtr>> Client::update(sim::Context ctx, GroupVersionResource resource,
                                            std::string ns, ObjectPtr object,
                                            UpdateOptions options, Subresource subresource) {
  Request r = request_of(Verb::kUpdate, std::move(resource), std::move(ns),
                         object ? std::string(object->name()) : std::string());
  r.subresource = subresource;
  r.options = std::move(options);
  r.object = std::move(object);
  return result_of<ObjectPtr>(send(std::move(ctx), std::move(r)));
}

sim::Task<Result<ObjectPtr>> Client::patch(sim::Context ctx, GroupVersionResource resource,
                                           std::string ns, std::string name, PatchType type,
                                           std::string patch, PatchOptions options,
                                           Subresource subresource) {
  Request r = request_of(Verb::kPatch, std::move(resource), std::move(ns), std::move(name));
  r.subresource = subresource;
  r.options = std::move(options);
  r.patch_type = type;
  r.patch_body = std::move(patch);
  return result_of<ObjectPtr>(send(std::move(ctx), std::move(r)));
}

sim::Task<Result<ObjectPtr>> Client::apply(sim::Context ctx, GroupVersionResource resource,
                                           std::string ns, ObjectPtr configuration,
                                           PatchOptions options, Subresource subresource) {
  std::string name = configuration ? std::string(configuration->name()) : std::string();
  std::string body = configuration ? std::string(configuration->serialized()) : std::string();
  return patch(std::move(ctx), std::move(resource), std::move(ns), std::move(name),
               PatchType::kApply, std::move(body), std::move(options), subresource);
}

sim::Task<Result<ObjectPtr>> Client::delete_(sim::Context ctx, GroupVersionResource resource,
                                             std::string ns, std::string name,
                                             DeleteOptions options) {
  Request r = request_of(Verb::kDelete, std::move(resource), std::move(ns), std::move(name));
  r.options = std::move(options);
  return result_of<ObjectPtr>(send(std::move(ctx), std::move(r)));
}

sim::Task<Result<void>> Client::delete_collection(sim::Context ctx, GroupVersionResource resource,
                                                  std::string ns, DeleteOptions options,
                                                  ListOptions list_options) {
  Request r = request_of(Verb::kDeleteCollection, std::move(resource), std::move(ns), {});
  r.options = DeleteCollectionOptions{std::move(options), std::move(list_options)};
  return result_of<void>(send(std::move(ctx), std::move(r)));
}

}  // namespace kubesim::api
