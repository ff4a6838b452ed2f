// http_watch_load: the watch fan-out load of fakeapi/http, measured from the client side.
//
// W watch connections (each a `?watch=true` on one namespace's ConfigMaps over HTTP/1.1) and an
// open-loop writer that updates a ConfigMap R times a second on a fixed schedule (merge patches
// carrying their scheduled send time, over a few keep-alive connections). Every watch receives
// every update; the latency of an event is the time from its patch's scheduled send to the
// moment its line was read. Reports events
// delivered and expected, watches closed, and the latency percentiles.
//
// The server is `kubesim serve --insecure` at --url (with --token), or, by default, one started
// in this process (its loop and I/O threads beside the load generator's two threads).
//
//   http_watch_load [--watches 1000] [--rate 200] [--writers 4] [--seconds 10] [--coalesce-us U] [--url http://H:P --token T]
//
// Exit code 0 when every event arrived, no watch closed and p99 < --p99-ms (default 50).
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include "kubesim/fakeapi/http/http_server.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/loop.h"

namespace {

namespace net = boost::asio;
namespace sim = kubesim::sim;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

struct Options {
  int watches = 1000;
  int rate = 200;
  int writers = 4;
  long coalesce_us = -1;  // the in-process server's watch_coalesce; -1: its default
  double seconds = 10;
  double p99_ms = 50;
  std::string host = "127.0.0.1";
  std::string port;
  std::string token = "bench-token";
};

constexpr char kPath[] = "/api/v1/namespaces/default/configmaps";

std::string request(const Options& o, const std::string& method, const std::string& target,
                    const std::string& body = "", const std::string& content_type = "") {
  std::string r = method + " " + target + " HTTP/1.1\r\nHost: " + o.host + "\r\nAuthorization: Bearer " +
                  o.token + "\r\nAccept: application/json\r\n";
  if (!content_type.empty()) r += "Content-Type: " + content_type + "\r\n";
  if (!body.empty() || method != "GET") r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  return r + "\r\n" + body;
}

// A blocking keep-alive connection for the set-up and the writer: one request, one response.
class Blocking {
 public:
  explicit Blocking(const Options& o) : o_(o), socket_(io_) {
    net::connect(socket_, tcp::resolver(io_).resolve(o.host, o.port));
    socket_.set_option(tcp::no_delay(true));
  }
  // Returns the status code and the body.
  std::pair<int, std::string> call(const std::string& method, const std::string& target,
                                   const std::string& body = "", const std::string& ct = "") {
    net::write(socket_, net::buffer(request(o_, method, target, body, ct)));
    const std::size_t head = net::read_until(socket_, buf_, "\r\n\r\n");
    std::string headers(net::buffers_begin(buf_.data()), net::buffers_begin(buf_.data()) + head);
    buf_.consume(head);
    const int code = std::stoi(headers.substr(9, 3));
    const auto cl = headers.find("Content-Length: ");
    const std::size_t len = cl == std::string::npos ? 0 : std::stoul(headers.substr(cl + 16));
    if (buf_.size() < len) net::read(socket_, buf_, net::transfer_exactly(len - buf_.size()));
    std::string out(net::buffers_begin(buf_.data()), net::buffers_begin(buf_.data()) + len);
    buf_.consume(len);
    return {code, out};
  }

 private:
  const Options& o_;
  net::io_context io_;
  tcp::socket socket_;
  net::streambuf buf_;
};

// One watch connection: reads the stream and records the latency of each event it finds.
struct Watcher : std::enable_shared_from_this<Watcher> {
  Watcher(net::io_context& io, std::vector<std::int64_t>* lat) : socket(io), latencies(lat) {}
  tcp::socket socket;
  std::string req;
  std::array<char, 64 * 1024> buf{};
  std::string carry;  // an incomplete tail ("t":"... cut by a read)
  bool headers_done = false;
  bool closed = false;
  std::int64_t events = 0;
  std::vector<std::int64_t>* latencies;

  void scan(std::string_view data, std::int64_t now) {
    std::string joined;
    if (!carry.empty()) {
      joined = carry;
      joined.append(data);
      data = joined;
      carry.clear();
    }
    if (!headers_done) {
      const auto end = data.find("\r\n\r\n");
      if (end == std::string_view::npos) {
        carry = std::string(data);
        return;
      }
      if (data.substr(0, 12) != "HTTP/1.1 200") closed = true;
      headers_done = true;
      data.remove_prefix(end + 4);
    }
    static constexpr std::string_view kMark = "\"t\":\"";
    std::size_t pos = 0;
    for (;;) {
      const auto at = data.find(kMark, pos);
      if (at == std::string_view::npos) break;
      const auto q = data.find('"', at + kMark.size());
      if (q == std::string_view::npos) {
        carry = std::string(data.substr(at));
        return;
      }
      const std::int64_t sent = std::stoll(std::string(data.substr(at + kMark.size(), q - at - kMark.size())));
      latencies->push_back(now - sent);
      ++events;
      pos = q;
    }
    // Keep a possible partial mark at the end.
    const std::size_t keep = std::min<std::size_t>(data.size() - std::min(pos, data.size()), kMark.size());
    carry = std::string(data.substr(data.size() - keep));
    if (data.size() >= 5 && data.substr(data.size() - 5) == "0\r\n\r\n") closed = true;
  }

  void read() {
    socket.async_read_some(net::buffer(buf), [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
      if (ec) {
        self->closed = true;
        return;
      }
      self->scan(std::string_view(self->buf.data(), n), now_ns());
      if (!self->closed) self->read();
    });
  }
};

// The in-process server: an ApiServer on a real-clock loop (its own thread) and an HttpServer.
struct InProcess {
  sim::Loop loop{[] {
    sim::LoopOptions o;
    o.mode = sim::ClockMode::kReal;
    return o;
  }()};
  std::unique_ptr<kubesim::fakeapi::ApiServer> api;
  std::unique_ptr<kubesim::fakeapi::http::HttpServer> http;
  std::thread thread;
  InProcess(const std::string& token, long coalesce_us) {
    api = std::make_unique<kubesim::fakeapi::ApiServer>(loop);
    kubesim::fakeapi::http::HttpServerOptions o;
    kubesim::fakeapi::http::UserInfo admin;
    admin.name = "bench";
    o.tokens[token] = admin;
    if (coalesce_us >= 0) o.watch_coalesce = std::chrono::microseconds(coalesce_us);
    http = std::make_unique<kubesim::fakeapi::http::HttpServer>(loop, *api, o);
    thread = std::thread([this] { loop.run(); });
  }
  ~InProcess() {
    http->stop(std::chrono::seconds(2));
    loop.stop();
    thread.join();
  }
};

bool parse_args(int argc, char** argv, Options& o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const std::string v = argv[i + 1];
    if (k == "--watches") o.watches = std::stoi(v);
    else if (k == "--rate") o.rate = std::stoi(v);
    else if (k == "--writers") o.writers = std::stoi(v);
    else if (k == "--coalesce-us") o.coalesce_us = std::stol(v);
    else if (k == "--seconds") o.seconds = std::stod(v);
    else if (k == "--p99-ms") o.p99_ms = std::stod(v);
    else if (k == "--token") o.token = v;
    else if (k == "--url") {
      const auto rest = v.substr(v.find("://") + 3);
      o.host = rest.substr(0, rest.rfind(':'));
      o.port = rest.substr(rest.rfind(':') + 1);
    } else return false;
  }
  return argc % 2 == 1;
}

double percentile(std::vector<std::int64_t>& v, double p) {
  if (v.empty()) return 0;
  const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), v.end());
  return static_cast<double>(v[i]) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse_args(argc, argv, o)) {
    std::fprintf(stderr, "usage: http_watch_load [--watches N] [--rate R] [--writers W] [--seconds S] [--coalesce-us U] [--p99-ms MS] [--url http://H:P --token T]\n");
    return 2;
  }
  std::optional<InProcess> server;
  if (o.port.empty()) {
    server.emplace(o.token, o.coalesce_us);
    o.port = std::to_string(server->http->port());
  }
  Blocking setup(o);
  const std::string cm = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"watched"},"data":{"t":"0","pad":")" +
                         std::string(200, 'x') + R"("}})";
  auto created = setup.call("POST", kPath, cm, "application/json");
  if (created.first != 201 && created.first != 409) {
    std::fprintf(stderr, "create failed: %d %s\n", created.first, created.second.c_str());
    return 1;
  }
  const auto listed = setup.call("GET", kPath);
  const auto rvat = listed.second.find("\"resourceVersion\":\"");
  const std::string rv = listed.second.substr(rvat + 19, listed.second.find('"', rvat + 19) - rvat - 19);

  // Open every watch on one I/O thread and wait for their headers.
  net::io_context io(1);
  const auto endpoints = tcp::resolver(io).resolve(o.host, o.port);
  std::vector<std::vector<std::int64_t>> latencies(1);
  latencies[0].reserve(static_cast<std::size_t>(o.watches * o.rate * (o.seconds + 1)));
  std::vector<std::shared_ptr<Watcher>> watchers;
  for (int i = 0; i < o.watches; ++i) {
    auto w = std::make_shared<Watcher>(io, &latencies[0]);
    net::connect(w->socket, endpoints);
    w->socket.set_option(tcp::no_delay(true));
    w->req = request(o, "GET", std::string(kPath) + "?watch=true&resourceVersion=" + rv);
    net::write(w->socket, net::buffer(w->req));
    w->read();
    watchers.push_back(w);
  }
  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (!done) io.run_for(std::chrono::milliseconds(50));
  });
  for (int i = 0; i < 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    bool all = true;
    for (auto& w : watchers) all = all && w->headers_done;  // racy read, only a readiness hint
    if (all) break;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));

  // The writers: R merge patches a second on a fixed schedule (open loop: a slow answer does not
  // delay the next update), spread over --writers keep-alive connections, update i on writer
  // i mod W. Each patch carries its scheduled send time, so a writer that falls behind counts
  // against the latency instead of hiding it.
  const int updates = static_cast<int>(o.rate * o.seconds);
  const std::int64_t period_ns = 1'000'000'000 / o.rate;
  const auto start = Clock::now();
  const std::int64_t start_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(start.time_since_epoch()).count();
  std::atomic<int> failed{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < o.writers; ++w) {
    writers.emplace_back([&, w] {
      Blocking conn(o);
      for (int i = w; i < updates; i += o.writers) {
        std::this_thread::sleep_until(start + std::chrono::nanoseconds(period_ns * i));
        const std::string patch = R"({"data":{"t":")" + std::to_string(start_ns + period_ns * i) + "\"}}";
        if (conn.call("PATCH", std::string(kPath) + "/watched", patch, "application/merge-patch+json").first != 200) ++failed;
      }
    });
  }
  for (auto& w : writers) w.join();
  const double sent_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::this_thread::sleep_for(std::chrono::seconds(2));  // the tail
  done = true;
  reader.join();

  std::int64_t events = 0;
  int closed = 0;
  for (auto& w : watchers) {
    events += w->events;
    if (w->closed) ++closed;
  }
  const std::int64_t expected = static_cast<std::int64_t>(updates) * o.watches;
  auto& lat = latencies[0];
  const double p50 = percentile(lat, 0.50);
  const double p90 = percentile(lat, 0.90);
  const double p99 = percentile(lat, 0.99);
  const double p999 = percentile(lat, 0.999);
  const double max = lat.empty() ? 0 : static_cast<double>(*std::max_element(lat.begin(), lat.end())) / 1e6;
  std::printf("watches %d, updates %d at %d/s over %.2f s (%d failed), %.0f deliveries/s\n", o.watches, updates,
              o.rate, sent_seconds, failed.load(), static_cast<double>(events) / sent_seconds);
  std::printf("events %lld of %lld, watches closed %d\n", static_cast<long long>(events),
              static_cast<long long>(expected), closed);
  std::printf("latency ms: p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f\n", p50, p90, p99, p999, max);
  for (auto& w : watchers) {
    boost::system::error_code ec;
    w->socket.close(ec);
  }
  const bool ok = events == expected && closed == 0 && failed.load() == 0 && p99 < o.p99_ms;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
