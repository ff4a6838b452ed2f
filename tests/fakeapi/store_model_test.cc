// Model-based test of the fake API server: random sequences of creates, updates (fresh, stale,
// empty and future resourceVersions), merge patches, deletes with and without finalizers and
// preconditions, the updates that release the last finalizer, gets, paginated lists kept open
// across later writes, exact lists at older revisions and compactions, run against ApiServer and
// against a plain reference model of etcd + kube-apiserver. Both must give the same results and
// the same errors (code and reason).
#include "kubesim/fakeapi/server.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "tests/fakeapi/store_model_more.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace testutil;
using api::StatusReason;

// The ConfigMap model, request bodies and checks are store_model_more.h's.
using model_more::check_cm;
using model_more::check_error;
using model_more::cm_body;
using model_more::ConfigMapModel;
using model_more::kColors;
using model_more::kFields;
using model_more::kFinalizer;
using model_more::kNamespaceNames;
using model_more::selected;
using model_more::selector_text;
using model_more::Model;
using model_more::State;

// A paginated list in progress.
struct Session {
  std::string ns;
  int selector = 0;
  std::int64_t limit = 0;
  Revision at = 0;
  std::string token;
  std::string last_key;
};

struct ExpectedPage {
  std::vector<std::string> keys;
  std::vector<const ConfigMapModel*> objects;
  bool more = false;
  std::optional<std::int64_t> remaining;
};

// One page as etcd3's GetList makes it: up to `limit` selected objects after `after`; a token
// whenever any key follows the last one returned; a count of what follows only without a selector.
ExpectedPage expected_page(const State& s, const std::string& ns, int selector, std::int64_t limit,
                           const std::string& after) {
  ExpectedPage page;
  const std::string prefix = ns.empty() ? "" : ns + "/";
  std::int64_t remaining = 0;
  for (auto it = s.lower_bound(prefix); it != s.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    if (!after.empty() && it->first <= after) continue;
    if (limit > 0 && static_cast<std::int64_t>(page.keys.size()) >= limit) {
      page.more = true;
      ++remaining;
      continue;
    }
    if (selected(it->second, selector)) {
      page.keys.push_back(it->first);
      page.objects.push_back(&it->second);
    }
  }
  if (page.more && selector == 0) page.remaining = remaining;
  return page;
}

void check_page(const api::Result<api::ObjectList>& got, const ExpectedPage& want, Revision at, const State& s) {
  RC_ASSERT(got.ok());
  const api::ObjectList& list = got.value();
  RC_ASSERT(list.resource_version == std::to_string(at));
  std::vector<std::string> keys;
  for (const auto& item : list.items) keys.push_back(item->key().str());
  RC_LOG() << "  -> " << keys.size() << " items, more=" << !list.continue_token.empty() << "\n";
  RC_ASSERT(keys == want.keys);
  for (std::size_t i = 0; i < keys.size(); ++i) check_cm(list.items[i], keys[i], s.at(keys[i]));
  RC_ASSERT(list.continue_token.empty() == !want.more);
  RC_ASSERT(list.remaining_item_count == want.remaining);
}

class Harness {
 public:
  Harness() {
    auto ns = server_.create(kNamespaces, "", namespace_object("other"), api::CreateOptions());
    RC_ASSERT(ns.ok());
    model_.rev = server_.revision();
    model_.history.emplace_back(model_.rev, State());
  }

  void step() {
    const int op = *rc::gen::inRange(0, 16);
    const std::string ns = kNamespaceNames[*rc::gen::inRange<std::size_t>(0, kNamespaceNames.size())];
    const std::string name = "cm-" + std::to_string(*rc::gen::inRange(0, 5));
    const std::string key = ns + "/" + name;
    switch (op) {
      case 0:
      case 1:
        create(ns, name, key);
        break;
      case 2:
      case 3:
        update(ns, name, key);
        break;
      case 4:
        merge_patch(ns, name, key);
        break;
      case 5:
      case 6:
        delete_(ns, name, key);
        break;
      case 7:
        release(ns, name, key);
        break;
      case 8:
        get(ns, name, key);
        break;
      case 9:
        start_list();
        break;
      case 10:
      case 11:
      case 12:
        continue_list();
        break;
      case 13:
        exact_list();
        break;
      case 14:
        if (*rc::gen::inRange(0, 3) == 0) compact();
        break;
      default:
        get_at(ns, name, key);
        break;
    }
    RC_ASSERT(server_.revision() == model_.rev);
  }

 private:
  const ConfigMapModel* find(const std::string& key) const {
    auto it = model_.state.find(key);
    return it == model_.state.end() ? nullptr : &it->second;
  }

  void create(const std::string& ns, const std::string& name, const std::string& key) {
    const std::string value = std::to_string(*rc::gen::inRange(0, 3));
    const std::string color = *rc::gen::elementOf(kColors);
    const bool finalizer = *rc::gen::inRange(0, 3) == 0;
    RC_LOG() << "create " << key << " k=" << value << " color=" << color << " finalizer=" << finalizer << "\n";
    auto got = server_.create(kConfigMaps, ns, cm_body(ns, name, {{"k", value}}, color, finalizer, ""),
                              api::CreateOptions());
    if (find(key) != nullptr) return check_error(got, 409, StatusReason::kAlreadyExists);
    RC_ASSERT(got.ok());
    ConfigMapModel o;
    o.uid = std::string(got.value()->uid());
    o.data = {{"k", value}};
    o.color = color;
    o.finalizer = finalizer;
    o.rv = model_.rev + 1;
    model_.state[key] = o;
    model_.write(loop_.now());
    check_cm(got.value(), key, o);
  }

  void update(const std::string& ns, const std::string& name, const std::string& key) {
    const std::string value = std::to_string(*rc::gen::inRange(0, 3));
    const std::string color = *rc::gen::elementOf(kColors);
    const int mode = *rc::gen::inRange(0, 4);  // fresh, stale, empty, future
    const ConfigMapModel* current = find(key);
    const Revision current_rv = current != nullptr ? current->rv : 1;
    std::string rv;
    switch (mode) {
      case 0:
        rv = std::to_string(current_rv);
        break;
      case 1:
        rv = std::to_string(current_rv - 1);
        break;
      case 2:
        break;
      default:
        rv = std::to_string(model_.rev + 100);
        break;
    }
    RC_LOG() << "update " << key << " k=" << value << " color=" << color << " rv=" << rv << "\n";
    const bool finalizer = current != nullptr && current->finalizer;
    auto got = server_.update(kConfigMaps, ns, cm_body(ns, name, {{"k", value}}, color, finalizer, rv),
                              api::UpdateOptions());
    if (current == nullptr) return check_error(got, 404, StatusReason::kNotFound);
    if (mode == 1 || mode == 3) return check_error(got, 409, StatusReason::kConflict);
    RC_ASSERT(got.ok());
    ConfigMapModel next = *current;
    next.data = {{"k", value}};
    next.color = color;
    if (next.data != current->data || next.color != current->color) {
      next.rv = model_.rev + 1;
      model_.state[key] = next;
      model_.write(loop_.now());
    }
    check_cm(got.value(), key, next);
  }

  void merge_patch(const std::string& ns, const std::string& name, const std::string& key) {
    const std::string field = *rc::gen::elementOf(kFields);
    const int value = *rc::gen::inRange(-1, 3);  // -1: remove
    const std::string patch = value < 0 ? R"({"data":{")" + field + R"(":null}})"
                                        : R"({"data":{")" + field + R"(":")" + std::to_string(value) + R"("}})";
    RC_LOG() << "patch " << key << " " << patch << "\n";
    auto got = server_.patch(kConfigMaps, ns, name, api::PatchType::kMergePatch, patch, api::PatchOptions());
    const ConfigMapModel* current = find(key);
    if (current == nullptr) return check_error(got, 404, StatusReason::kNotFound);
    RC_ASSERT(got.ok());
    ConfigMapModel next = *current;
    if (value < 0) {
      next.data.erase(field);
    } else {
      next.data[field] = std::to_string(value);
    }
    if (next.data != current->data) {
      next.rv = model_.rev + 1;
      model_.state[key] = next;
      model_.write(loop_.now());
    }
    check_cm(got.value(), key, next);
  }

  void delete_(const std::string& ns, const std::string& name, const std::string& key) {
    const int mode = *rc::gen::inRange(0, 4);  // none, right rv, wrong rv, wrong uid
    const ConfigMapModel* current = find(key);
    api::DeleteOptions options;
    if (mode == 1 && current != nullptr) options.preconditions.resource_version = std::to_string(current->rv);
    if (mode == 2) options.preconditions.resource_version = "1";
    if (mode == 3) options.preconditions.uid = "not-a-uid";
    RC_LOG() << "delete " << key << " precondition=" << mode << "\n";
    auto got = server_.delete_(kConfigMaps, ns, name, options);
    if (current == nullptr) return check_error(got, 404, StatusReason::kNotFound);
    if (mode >= 2) return check_error(got, 409, StatusReason::kConflict);
    RC_ASSERT(got.ok());
    ConfigMapModel last = *current;
    if (!current->finalizer) {
      last.rv = model_.rev + 1;
      model_.state.erase(key);
      model_.write(loop_.now());
    } else if (!current->terminating) {
      last.rv = model_.rev + 1;
      last.terminating = true;
      model_.state[key] = last;
      model_.write(loop_.now());
    }
    check_cm(got.value(), key, last);
  }

  // The update that removes the finalizer (the last one: objects hold at most one).
  void release(const std::string& ns, const std::string& name, const std::string& key) {
    const ConfigMapModel* current = find(key);
    RC_LOG() << "release " << key << "\n";
    if (current == nullptr) {
      auto got = server_.update(kConfigMaps, ns, cm_body(ns, name, {}, "", false, "1"), api::UpdateOptions());
      return check_error(got, 404, StatusReason::kNotFound);
    }
    auto got = server_.update(kConfigMaps, ns,
                              cm_body(ns, name, current->data, current->color, false, std::to_string(current->rv)),
                              api::UpdateOptions());
    RC_ASSERT(got.ok());
    ConfigMapModel next = *current;
    if (current->finalizer && current->terminating) {
      // Not written: the object is deleted, and the answer is the object as asked for.
      next.finalizer = false;
      model_.state.erase(key);
      model_.write(loop_.now());
    } else if (current->finalizer) {
      next.finalizer = false;
      next.rv = model_.rev + 1;
      model_.state[key] = next;
      model_.write(loop_.now());
    }
    check_cm(got.value(), key, next);
  }

  void get(const std::string& ns, const std::string& name, const std::string& key) {
    RC_LOG() << "get " << key << "\n";
    auto got = server_.get(kConfigMaps, ns, name, api::GetOptions());
    const ConfigMapModel* current = find(key);
    if (current == nullptr) return check_error(got, 404, StatusReason::kNotFound);
    RC_ASSERT(got.ok());
    check_cm(got.value(), key, *current);
  }

  // A get with an explicit resourceVersion: the latest state, unless the version is in the future.
  void get_at(const std::string& ns, const std::string& name, const std::string& key) {
    const Revision rv = std::max<Revision>(1, model_.rev + *rc::gen::inRange(-3, 3));
    RC_LOG() << "get " << key << " rv=" << rv << "\n";
    api::GetOptions options;
    options.resource_version = std::to_string(rv);
    auto got = server_.get(kConfigMaps, ns, name, options);
    if (rv > model_.rev) return check_error(got, 504, StatusReason::kTimeout);
    const ConfigMapModel* current = find(key);
    if (current == nullptr) return check_error(got, 404, StatusReason::kNotFound);
    RC_ASSERT(got.ok());
    check_cm(got.value(), key, *current);
  }

  void start_list() {
    Session s;
    const int scope = *rc::gen::inRange(0, 3);
    s.ns = scope < 2 ? kNamespaceNames[scope] : "";
    s.limit = *rc::gen::inRange(1, 5);
    s.selector = *rc::gen::inRange(0, 3);
    s.at = model_.rev;
    api::ListOptions options;
    options.limit = s.limit;
    options.label_selector = selector_text(s.selector);
    RC_LOG() << "list ns=" << s.ns << " limit=" << s.limit << " selector=" << options.label_selector << "\n";
    auto got = server_.list(kConfigMaps, s.ns, options);
    const ExpectedPage want = expected_page(model_.state, s.ns, s.selector, s.limit, "");
    check_page(got, want, s.at, model_.state);
    if (want.more) {
      s.token = got.value().continue_token;
      s.last_key = want.keys.back();
      sessions_.push_back(std::move(s));
    }
  }

  void continue_list() {
    if (sessions_.empty()) return;
    const std::size_t i = *rc::gen::inRange<std::size_t>(0, sessions_.size());
    Session& s = sessions_[i];
    api::ListOptions options;
    options.limit = s.limit;
    options.label_selector = selector_text(s.selector);
    options.continue_token = s.token;
    RC_LOG() << "continue list ns=" << s.ns << " at=" << s.at << " after=" << s.last_key << "\n";
    auto got = server_.list(kConfigMaps, s.ns, options);
    if (s.at < model_.compacted) {
      check_error(got, 410, StatusReason::kExpired);
      sessions_.erase(sessions_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
    const State& snapshot = model_.at(s.at);
    const ExpectedPage want = expected_page(snapshot, s.ns, s.selector, s.limit, s.last_key);
    check_page(got, want, s.at, snapshot);
    if (want.more) {
      s.token = got.value().continue_token;
      s.last_key = want.keys.empty() ? s.last_key : want.keys.back();
    } else {
      sessions_.erase(sessions_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

  void exact_list() {
    const Revision r = std::max<Revision>(0, model_.rev - *rc::gen::inRange(0, 12));
    const int scope = *rc::gen::inRange(0, 3);
    const std::string ns = scope < 2 ? kNamespaceNames[scope] : "";
    const std::int64_t limit = *rc::gen::inRange(0, 4);
    api::ListOptions options;
    options.resource_version = std::to_string(r);
    options.resource_version_match = api::ResourceVersionMatch::kExact;
    options.limit = limit;
    RC_LOG() << "exact list ns=" << ns << " rv=" << r << " limit=" << limit << "\n";
    auto got = server_.list(kConfigMaps, ns, options);
    if (r == 0) return check_error(got, 422, StatusReason::kInvalid);
    if (r < model_.compacted) return check_error(got, 410, StatusReason::kExpired);
    const State& snapshot = model_.at(r);
    const ExpectedPage want = expected_page(snapshot, ns, 0, limit, "");
    check_page(got, want, r, snapshot);
    if (want.more) {
      Session s;
      s.ns = ns;
      s.limit = limit;
      s.at = r;
      s.token = got.value().continue_token;
      s.last_key = want.keys.back();
      sessions_.push_back(std::move(s));
    }
  }

  void compact() {
    RC_LOG() << "compact at " << model_.rev << "\n";
    server_.compact_now();
    model_.compacted = model_.rev;
    RC_ASSERT(server_.store().compacted() == model_.compacted);
  }

  sim::Loop loop_;
  ApiServer server_{loop_};
  Model model_;
  std::vector<Session> sessions_;
};

RC_GTEST_PROP(ServerModelTest, AgreesWithTheReferenceModel, ()) {
  Harness h;
  const int steps = *rc::gen::inRange(1, 200);
  for (int i = 0; i < steps; ++i) h.step();
}

}  // namespace
}  // namespace kubesim::fakeapi
