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

  sim::Task<api::Response> send(sim::Context ctx, api::Request request) override {
    const api::Verb verb = request.verb;
    if (verb != api::Verb::kGet && verb != api::Verb::kCreate && verb != api::Verb::kUpdate) {
      return inner_->send(std::move(ctx), std::move(request));
    }
    return recorded(this, std::move(ctx), std::move(request));
  }

 private:
  static sim::Task<api::Response> recorded(RecordingClient* self, sim::Context ctx,
                                           api::Request request) {
    const std::size_t i = self->begin(std::string(api::to_string(request.verb)));
    auto response = co_await self->inner_->send(std::move(ctx), std::move(request));
    self->end(i, response.ok());
    co_return response;
  }

  std::size_t begin(std::string verb) {
    Call c;
    c.who = who_;
    c.verb = std::move(verb);
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
