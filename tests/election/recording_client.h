// RecordingClient: an api::Client that forwards to another and records every call the locks
// make (get, create, update) with the true instants it was sent and answered.
#ifndef KUBESIM_TESTS_ELECTION_RECORDING_CLIENT_H_
#define KUBESIM_TESTS_ELECTION_RECORDING_CLIENT_H_

#include <string>
#include <vector>

#include "kubesim/api/client.h"
#include "kubesim/sim/loop.h"

namespace kubesim::election::testing {

struct Call {
  std::string who;
  std::string verb;
  sim::Time sent{};
  sim::Time answered{};
  bool ok = false;
};

class RecordingClient final : public api::Client {
 public:
  RecordingClient(api::Client& inner, sim::Loop& loop, std::string who, std::vector<Call>* calls)
      : inner_(&inner), loop_(&loop), who_(std::move(who)), calls_(calls) {}

  sim::Task<api::Result<api::ObjectPtr>> get(sim::Context ctx, api::GroupVersionResource r,
                                             std::string ns, std::string name,
                                             api::GetOptions o) override {
    const std::size_t i = begin("get");
    auto result = co_await inner_->get(std::move(ctx), std::move(r), std::move(ns), std::move(name), std::move(o));
    end(i, result.ok());
    co_return result;
  }
  sim::Task<api::Result<api::ObjectPtr>> create(sim::Context ctx, api::GroupVersionResource r,
                                                std::string ns, api::ObjectPtr obj,
                                                api::CreateOptions o) override {
    const std::size_t i = begin("create");
    auto result = co_await inner_->create(std::move(ctx), std::move(r), std::move(ns), std::move(obj), std::move(o));
    end(i, result.ok());
    co_return result;
  }
  sim::Task<api::Result<api::ObjectPtr>> update(sim::Context ctx, api::GroupVersionResource r,
                                                std::string ns, api::ObjectPtr obj,
                                                api::UpdateOptions o) override {
    const std::size_t i = begin("update");
    auto result = co_await inner_->update(std::move(ctx), std::move(r), std::move(ns), std::move(obj), std::move(o));
    end(i, result.ok());
    co_return result;
  }
  sim::Task<api::Result<api::ObjectList>> list(sim::Context ctx, api::GroupVersionResource r,
                                               std::string ns, api::ListOptions o) override {
    return inner_->list(std::move(ctx), std::move(r), std::move(ns), std::move(o));
  }
  sim::Task<api::Result<api::WatchPtr>> watch(sim::Context ctx, api::GroupVersionResource r,
                                              std::string ns, api::ListOptions o) override {
    return inner_->watch(std::move(ctx), std::move(r), std::move(ns), std::move(o));
  }
  sim::Task<api::Result<api::ObjectPtr>> patch(sim::Context ctx, api::GroupVersionResource r,
                                               std::string ns, std::string name, api::PatchType t,
                                               std::string p, api::PatchOptions o) override {
    return inner_->patch(std::move(ctx), std::move(r), std::move(ns), std::move(name), t, std::move(p), std::move(o));
  }
  sim::Task<api::Result<api::ObjectPtr>> delete_(sim::Context ctx, api::GroupVersionResource r,
                                                 std::string ns, std::string name,
                                                 api::DeleteOptions o) override {
    return inner_->delete_(std::move(ctx), std::move(r), std::move(ns), std::move(name), std::move(o));
  }
  sim::Task<api::Result<void>> delete_collection(sim::Context ctx, api::GroupVersionResource r,
                                                 std::string ns, api::DeleteOptions o,
                                                 api::ListOptions l) override {
    return inner_->delete_collection(std::move(ctx), std::move(r), std::move(ns), std::move(o), std::move(l));
  }

 private:
  std::size_t begin(const char* verb) {
    Call c;
    c.who = who_;
    c.verb = verb;
    c.sent = loop_->now();
    calls_->push_back(std::move(c));
    return calls_->size() - 1;
  }
  void end(std::size_t i, bool ok) {
    (*calls_)[i].answered = loop_->now();
    (*calls_)[i].ok = ok;
  }

  api::Client* inner_;
  sim::Loop* loop_;
  std::string who_;
  std::vector<Call>* calls_;
};

}  // namespace kubesim::election::testing

#endif  // KUBESIM_TESTS_ELECTION_RECORDING_CLIENT_H_
