#include "fakeapi/http/internal/offline.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>

#include "fakeapi/http/internal/dispatch.h"
#include "fakeapi/http/internal/frontend.h"
#include "fakeapi/http/internal/loop_side.h"
#include "fakeapi/http/internal/wire.h"

namespace kubesim::fakeapi::http::internal {
namespace {

namespace bhttp = boost::beast::http;

// Collects what the loop side hands a session.
class Collector final : public SessionBase {
 public:
  void on_reply(Reply reply) override { replies.push_back(std::move(reply)); }
  void on_watch_data() override { ++wakeups; }
  void shutdown() override {}
  std::vector<Reply> replies;
  int wakeups = 0;
};

void drain(WatchChannel& channel, OfflineAnswer& answer, bool& ended) {
  WatchChannel::Batch batch = channel.take();
  for (const auto& event : batch.events) {
    std::string chunk;
    append_watch_event(chunk, event);
    answer.body += chunk;
    const std::size_t start = chunk.find("\r\n") + 2;
    answer.events.push_back(chunk.substr(start, chunk.size() - start - 3));
  }
  if (batch.ended && !ended) {
    ended = true;
    if (!batch.abrupt) answer.body += kLastChunk;
  }
}

}  // namespace

struct OfflineServer::Io {
  boost::asio::io_context context{1};
};

OfflineServer::OfflineServer(sim::Loop& loop, ApiServer& server, HttpServerOptions options)
    : loop_(&loop), server_(&server), io_(std::make_unique<Io>()) {
  fe_ = std::make_shared<Frontend>(io_->context, std::move(options));
  fe_->version_json = version_json(fe_->options.git_version).value_or("{}");
  fe_->loop = &loop;
  fe_->gate = std::make_shared<Gate>(io_->context);
  LoopSideOptions side;
  side.git_version = fe_->options.git_version;
  side.server_address = "127.0.0.1:6443";
  fe_->loop_side = std::make_shared<LoopSide>(loop, server, fe_->gate, std::move(side));
}

OfflineServer::~OfflineServer() {
  fe_->loop_side->end_all_watches();
  settle();
  fe_->loop_side->close();
  fe_->gate->close();
  fe_->gate->io_stopped();
}

void OfflineServer::settle() {
  for (int round = 0; round < 100; ++round) {
    loop_->run_for(std::chrono::seconds(1));
    io_->context.restart();
    if (io_->context.poll() == 0 && loop_->live_tasks() == 0) return;
  }
}

std::vector<OfflineAnswer> OfflineServer::serve(std::string_view bytes) {
  std::vector<OfflineAnswer> answers;
  while (!bytes.empty()) {
    bhttp::request_parser<bhttp::string_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(fe_->options.max_header_bytes));
    parser.body_limit(fe_->options.max_body_bytes);
    parser.eager(true);
    boost::beast::error_code ec;
    while (!parser.is_done() && !bytes.empty()) {
      const std::size_t used = parser.put(boost::asio::buffer(bytes.data(), bytes.size()), ec);
      bytes.remove_prefix(used);
      if (ec == bhttp::error::need_more) {
        ec = {};
        if (used == 0) break;  // needs more than there is (a partial request: the client waits)
        continue;
      }
      if (ec) break;
    }
    if (ec) {
      OfflineAnswer refused;
      const Reply r = Reply::of_status(parse_error_status(ec, fe_->options.max_body_bytes));
      refused.code = r.code;
      refused.content_type = r.content_type;
      refused.body = r.body;
      refused.revision = server_->revision();
      answers.push_back(std::move(refused));
      return answers;  // a session closes the connection here
    }
    if (!parser.is_done()) return answers;
    auto& req = parser.get();
    const bool keep_alive = req.keep_alive();
    answers.push_back(serve_one(req));
    answers.back().revision = server_->revision();
    if (!keep_alive) break;
  }
  return answers;
}

OfflineAnswer OfflineServer::serve_one(bhttp::request<bhttp::string_body>& req) {
  OfflineAnswer answer;
  Prepared p = prepare_request(*fe_, req, nullptr);
  if (p.reply) {
    answer.code = p.reply->code;
    answer.content_type = p.reply->content_type;
    answer.body = std::move(p.reply->body);
    return answer;
  }
  const bool watch = p.call->verb == "watch";
  auto collector = std::make_shared<Collector>();
  fe_->loop_side->handle(std::move(*p.call), collector);
  settle();
  if (watch) --fe_->watch_starts;
  if (collector->replies.empty()) return answer;  // no answer: code 0
  Reply& reply = collector->replies.front();
  if (!reply.watch) {
    answer.code = reply.code;
    answer.content_type = reply.content_type;
    answer.body = std::move(reply.body);
    return answer;
  }
  answer.code = 200;
  answer.watch = true;
  answer.content_type = "application/json";
  bool ended = false;
  drain(*reply.watch, answer, ended);
  if (!ended) {
    reply.watch->detach();
    fe_->loop_side->cancel_watch(reply.watch->id());
    settle();
  }
  return answer;
}

}  // namespace kubesim::fakeapi::http::internal
