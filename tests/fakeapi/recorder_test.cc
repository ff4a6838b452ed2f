// The recorder's log against a reference model: a plain double-ended queue of RecordedCalls that
// drops its oldest record past the capacity. For any sequence of recorded calls (callers,
// resources, subresources and fault rules repeating or new, names short and long), clears, stops
// and starts, and any capacity (around the recorder's block size too), the records kept, their
// order and numbers, dropped(), count() and the JSON lines are the model's.
#include "kubesim/fakeapi/recorder.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;

// Past the 15 bytes a std::string holds without a buffer of its own.
const std::string kLong = "a-name-longer-than-the-small-string-buffer";

const std::vector<std::string> kProcesses = {"", "replica-0", "replica-1", "system:admin", kLong};
const std::vector<api::GroupVersionResource> kResources = {kConfigMaps, kDeployments, kLeases, kCrds,
                                                           kWidgets};
const std::vector<std::string> kNames = {"", "a", "cm-000001", kLong};
const std::vector<api::Subresource> kSubresources = {api::Subresource::kNone, api::Subresource::kStatus,
                                                    api::Subresource::kScale};
const std::vector<std::string> kFaults = {"", "rule-1", "cm-500", kLong};
const std::vector<Verb> kVerbs = {Verb::kGet,    Verb::kList,  Verb::kWatch,  Verb::kCreate,
                                  Verb::kUpdate, Verb::kPatch, Verb::kDelete, Verb::kDeleteCollection};

// The recorder as it was first written: every record in a deque.
class Model {
 public:
  explicit Model(std::size_t capacity) : capacity_(capacity) {}

  void record(const Request& request, const Response& response, sim::Time now) {
    if (!enabled_ || capacity_ == 0) return;
    RecordedCall call;
    call.seq = next_seq_++;
    call.received = request.received;
    call.answered = now;
    call.process = request.process;
    call.verb = request.verb;
    call.resource = request.resource;
    call.ns = request.ns;
    call.name = request.name;
    if (call.name.empty() && request.verb == Verb::kCreate && response.object) {
      call.name = std::string(response.object->name());
    }
    call.subresource = std::string(api::to_string(request.subresource));
    call.code = response.code;
    if (response.error) call.reason = response.error->reason;
    call.revision = response.revision;
    call.fault = response.fault_rule;
    if (const auto* options = std::get_if<api::ListOptions>(&request.options)) {
      call.initial_events = request.verb == Verb::kWatch && options->send_initial_events == true;
    }
    if (calls_.size() == capacity_) {
      calls_.pop_front();
      ++dropped_;
    }
    calls_.push_back(std::move(call));
  }
  void clear() {
    calls_.clear();
    dropped_ = 0;
  }

  std::size_t capacity_;
  bool enabled_ = true;
  std::uint64_t next_seq_ = 1;
  std::uint64_t dropped_ = 0;
  std::deque<RecordedCall> calls_;
};

std::vector<std::string> lines_of(const Recorder& recorder) {
  std::ostringstream out;
  recorder.write_jsonl(out);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void expect_same(const Recorder& recorder, const Model& model) {
  RC_ASSERT(recorder.calls().size() == model.calls_.size());
  RC_ASSERT(recorder.calls().empty() == model.calls_.empty());
  RC_ASSERT(recorder.dropped() == model.dropped_);
  std::size_t i = 0;
  for (const RecordedCall& c : recorder.calls()) {
    RC_ASSERT(i < model.calls_.size());
    RC_ASSERT(c.seq == model.calls_[i].seq);
    RC_ASSERT(c.to_json() == model.calls_[i].to_json());
    RC_ASSERT(recorder.calls()[i].to_json() == c.to_json());
    ++i;
  }
  RC_ASSERT(i == model.calls_.size());
  if (!model.calls_.empty()) {
    RC_ASSERT(recorder.calls().front().seq == model.calls_.front().seq);
    RC_ASSERT(recorder.calls().back().to_json() == model.calls_.back().to_json());
  }
  std::vector<std::string> expected;
  for (const RecordedCall& c : model.calls_) expected.push_back(c.to_json().dump());
  RC_ASSERT(lines_of(recorder) == expected);
}

// The element of `values` that `bits` pick (shifting them along).
template <class T>
const T& pick(const std::vector<T>& values, std::uint64_t& bits) {
  const T& value = values[bits % values.size()];
  bits /= values.size();
  return value;
}

// A request and its answer, all drawn from one random number (fewer draws shrink faster).
void random_call(std::uint64_t bits, sim::Time now, const api::ObjectPtr& created, Request& req,
                 Response& resp) {
  req.verb = pick(kVerbs, bits);
  req.resource = pick(kResources, bits);
  req.ns = pick(kProcesses, bits);
  req.name = pick(kNames, bits);
  req.subresource = pick(kSubresources, bits);
  req.process = pick(kProcesses, bits);
  req.received = now - std::chrono::milliseconds(pick(std::vector<int>{0, 1, 49}, bits));
  if (req.verb == Verb::kWatch || req.verb == Verb::kList) {
    api::ListOptions options;
    options.send_initial_events =
        pick(std::vector<std::optional<bool>>{std::nullopt, false, true}, bits);
    req.options = options;
  }
  if (pick(std::vector<bool>{false, false, false, true}, bits)) {
    resp = Response::failure(pick(
        std::vector<api::Status>{
            api::new_internal_error("down"),
            api::new_conflict(api::GroupResource{"", "configmaps"}, "a", "stale"),
            api::new_context_error(sim::ContextError::kCanceled)},
        bits));
    resp.fault_rule = pick(kFaults, bits);
  } else {
    resp.code = pick(std::vector<int>{200, 201}, bits);
    if (pick(std::vector<bool>{false, true}, bits)) resp.object = created;
    resp.revision = static_cast<Revision>(bits % 1000);
  }
}

RC_GTEST_PROP(RecorderTest, KeepsWhatTheDequeItReplacedKept, ()) {
  const std::size_t capacity =
      *rc::gen::elementOf(std::vector<std::size_t>{0, 1, 2, 3, 17, 63, 64, 65, 130});
  sim::Loop loop;
  Recorder recorder(loop, capacity);
  Model model(capacity);
  const api::ObjectPtr created = config_map("default", "made-by-generate-name");
  const int steps = *rc::gen::inRange(0, 800);
  // Clears and stops are rare, so that the log wraps around the larger capacities too.
  const bool clears = *rc::gen::arbitrary<bool>();
  for (int step = 0; step < steps; ++step) {
    const int what = *rc::gen::inRange(0, 1000);
    if (what == 0 && clears) {
      recorder.clear();
      model.clear();
    } else if (what == 1) {
      recorder.stop();
      model.enabled_ = false;
    } else if (what <= 20) {
      recorder.start();
      model.enabled_ = true;
    } else if (what <= 70) {
      loop.run_for(std::chrono::milliseconds(what));
    } else {
      Request req;
      Response resp;
      random_call(*rc::gen::arbitrary<std::uint64_t>(), loop.now(), created, req, resp);
      recorder.complete(req, resp);
      model.record(req, resp, loop.now());
    }
  }
  expect_same(recorder, model);
  const auto failed = [](const RecordedCall& c) { return !c.ok(); };
  std::size_t model_failed = 0;
  for (const RecordedCall& c : model.calls_) model_failed += failed(c) ? 1 : 0;
  RC_ASSERT(recorder.count(failed) == model_failed);
}

TEST(RecorderTest, MarksWatchesThatAskForInitialEvents) {
  sim::Loop loop;
  Recorder recorder(loop);
  for (const auto& [verb, send] : std::vector<std::pair<Verb, std::optional<bool>>>{
           {Verb::kWatch, true}, {Verb::kWatch, false}, {Verb::kWatch, std::nullopt},
           {Verb::kList, true}}) {
    Request req;
    req.verb = verb;
    api::ListOptions options;
    options.send_initial_events = send;
    req.options = options;
    Response ok;
    recorder.complete(req, ok);
  }
  const auto calls = recorder.calls();
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_TRUE(calls[0].initial_events);
  EXPECT_EQ(calls[0].to_json().value("sendInitialEvents", false), true);
  for (std::size_t i = 1; i < 4; ++i) {
    EXPECT_FALSE(calls[i].initial_events) << i;
    EXPECT_FALSE(calls[i].to_json().contains("sendInitialEvents")) << i;
  }
}

TEST(RecorderTest, AViewOfTheLogSeesLaterRecords) {
  sim::Loop loop;
  Recorder recorder(loop, 3);
  const auto calls = recorder.calls();
  EXPECT_TRUE(calls.empty());
  Request req;
  req.name = "a";
  Response ok;
  recorder.complete(req, ok);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].name, "a");
  for (const char* name : {"b", "c", "d"}) {
    req.name = name;
    recorder.complete(req, ok);
  }
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls.front().name, "b");
  EXPECT_EQ(calls.front().seq, 2u);
  EXPECT_EQ(calls.back().name, "d");
  EXPECT_EQ(recorder.dropped(), 1u);
}

}  // namespace
}  // namespace kubesim::fakeapi
