// Calls: the API server's recorder log of a simulated cluster (Cluster::calls), and patterns
// that pick calls out of it — the same patterns name what a fault rule matches. The fixture
// library (kubesim/testing/calls.h) adds GoogleTest matchers over them.
//
//   cluster::CallLog log = c.calls();
//   log.count(cluster::Update(api::kConfigMaps).status().by("widgets-0"));
//
// A pattern matches a recorded call when every field it gives matches: the verbs (empty: any),
// the resource (group and plural; version ignored), the subresource (none given matches the
// resource and its subresources, as client-go's reactors match; .status() only /status), the
// namespace, the name and the calling process (one replica, or any replica of a group: a
// process "<group>-<index>"). Only requests that went through the front door
// are recorded: the operator's own reads and writes on the server are not calls.
#ifndef KUBESIM_CLUSTER_CALLS_H_
#define KUBESIM_CLUSTER_CALLS_H_

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/fakeapi/recorded_call.h"
#include "kubesim/fakeapi/request.h"

namespace kubesim::fakeapi {
class Recorder;  // kubesim/fakeapi/recorder.h
}  // namespace kubesim::fakeapi

namespace kubesim::cluster {

class CallPattern {
 public:
  CallPattern() = default;
  CallPattern(std::vector<fakeapi::Verb> verbs, api::GroupVersionResource resource)
      : verbs_(std::move(verbs)), resource_(std::move(resource)), any_resource_(false) {}
  // `verbs` (empty: any) on any resource.
  explicit CallPattern(std::vector<fakeapi::Verb> verbs) : verbs_(std::move(verbs)) {}

  // Narrowing; each returns *this.
  CallPattern& status() { return subresource("status"); }
  CallPattern& scale() { return subresource("scale"); }
  CallPattern& subresource(std::string name);
  CallPattern& in(std::string ns);          // namespace
  CallPattern& named(std::string name);     // object name
  CallPattern& by(std::string process);     // calling process ("widgets-0")
  // Called by any replica of the group `group` ("widgets": widgets-0, widgets-1, …); replaces
  // by(), as by() replaces it.
  CallPattern& by_group(std::string group);
  // Only calls answered with a 2xx (ok) or with a failure (failed).
  CallPattern& ok();
  CallPattern& failed();

  bool matches(const fakeapi::RecordedCall& call) const;
  // "update widgets.example.com/status in default by widgets-0"
  std::string describe() const;

  const std::vector<fakeapi::Verb>& verbs() const { return verbs_; }
  const api::GroupVersionResource& resource() const { return resource_; }
  bool any_resource() const { return any_resource_; }
  const std::string& subresource_name() const { return subresource_; }
  const std::string& ns() const { return ns_; }
  const std::string& name() const { return name_; }
  const std::string& process() const { return process_; }
  const std::string& group() const { return group_; }

 private:
  std::vector<fakeapi::Verb> verbs_;
  api::GroupVersionResource resource_;
  bool any_resource_ = true;
  std::string subresource_;
  std::string ns_;
  std::string name_;
  std::string process_;
  std::string group_;  // at most one of process_ and group_ is set
  enum class Outcome { kAny, kOk, kFailed } outcome_ = Outcome::kAny;
};

CallPattern Get(const api::GroupVersionResource& resource);
CallPattern List(const api::GroupVersionResource& resource);
CallPattern Watch(const api::GroupVersionResource& resource);
CallPattern Create(const api::GroupVersionResource& resource);
CallPattern Update(const api::GroupVersionResource& resource);
CallPattern Patch(const api::GroupVersionResource& resource);
CallPattern Delete(const api::GroupVersionResource& resource);
CallPattern DeleteCollection(const api::GroupVersionResource& resource);
// Every write verb (create, update, patch, delete, deletecollection).
CallPattern Writes(const api::GroupVersionResource& resource);
// Any verb on `resource`; AnyCall() any verb on any resource.
CallPattern AnyCall(const api::GroupVersionResource& resource);
CallPattern AnyCall();

// A log of calls, oldest first: a live view of a recorder's log (the recorder must outlive it;
// later calls show), or a fixed list of calls (built by hand, or a log's matching()).
class CallLog {
 public:
  using Iterator = fakeapi::CallIterator<CallLog>;

  explicit CallLog(const fakeapi::Recorder& recorder) : recorder_(&recorder) {}
  explicit CallLog(std::vector<fakeapi::RecordedCall> calls);

  std::size_t size() const;
  bool empty() const { return size() == 0; }
  // The i-th call (0: the oldest); i < size().
  fakeapi::RecordedCall operator[](std::size_t i) const;
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, size()); }
  std::size_t count(const CallPattern& pattern) const;
  std::vector<fakeapi::RecordedCall> matching(const CallPattern& pattern) const;
  // One line per call ("12.300s widgets-0 update widgets.example.com/status default/w1 → 409
  // Conflict"), the last `limit` calls, after a line saying how many earlier ones are left out,
  // each line after `indent`; no newline after the last. For failure messages.
  std::string format(std::size_t limit = 20, std::string_view indent = {}) const;

 private:
  const fakeapi::Recorder* recorder_ = nullptr;                         // a live view, or
  std::shared_ptr<const std::vector<fakeapi::RecordedCall>> fixed_;  // a fixed list
};

void PrintTo(const CallLog& log, std::ostream* os);
void PrintTo(const CallPattern& pattern, std::ostream* os);

}  // namespace kubesim::cluster

namespace kubesim::fakeapi {
// The call's line of CallLog::format.
void PrintTo(const RecordedCall& call, std::ostream* os);
}  // namespace kubesim::fakeapi

#endif  // KUBESIM_CLUSTER_CALLS_H_
