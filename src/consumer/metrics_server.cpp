// The /metrics server on Boost.Beast: one io_context thread, one connection at a time, every
// read and write under a deadline.
#include "dtpp/consumer/metrics_server.hpp"

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "dtpp/consumer/error.hpp"
#include "dtpp/print/openmetrics.hpp"

namespace dtpp::consumer {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

namespace {

// "ADDRESS:PORT" as an endpoint; EINVAL in words when it is not one.
tcp::endpoint endpoint_of(std::string_view text) {
  const auto bad = [&](const std::string& why) -> tcp::endpoint {
    throw error(EINVAL, "failed to serve metrics on '" + std::string(text) + "': " + why);
  };
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) return bad("not ADDRESS:PORT");
  auto host = text.substr(0, colon);
  const auto port_text = text.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() || port > 65535)
    return bad("the port must be a number from 0 to 65535");
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host == "localhost") host = "127.0.0.1";
  boost::system::error_code parse_error;
  const auto address = net::ip::make_address(std::string(host), parse_error);
  if (parse_error) return bad("the address must be an IP address (IPv6 in brackets) or localhost");
  return {address, static_cast<std::uint16_t>(port)};
}

}  // namespace

struct metrics_server::state {
  net::io_context io;
  tcp::acceptor acceptor{io};
  net::steady_timer pause{io};
  limits limit;
  std::uint16_t port = 0;
  std::thread thread;

  // The one connection being served.
  std::optional<beast::tcp_stream> stream;
  std::optional<beast::flat_buffer> buffer;
  std::optional<http::request_parser<http::empty_body>> parser;
  http::response<http::string_body> response;

  // The exchange with the consuming thread.
  std::atomic<int> wanted{none};  // none, or the print::metrics_format a scrape waits for
  static constexpr int none = -1;
  std::mutex mutex;
  std::condition_variable published;
  std::optional<std::string> snapshot;
  bool stopping = false;

  void accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == net::error::operation_aborted) return;
      if (ec) {  // out of descriptors, say: try again shortly rather than spin
        pause.expires_after(std::chrono::milliseconds(100));
        pause.async_wait([this](beast::error_code e) {
          if (!e) accept();
        });
        return;
      }
      stream.emplace(std::move(socket));
      buffer.emplace(limit.request_bytes);
      parser.emplace();
      parser->header_limit(static_cast<std::uint32_t>(limit.request_bytes));
      parser->body_limit(0);
      stream->expires_after(limit.io_timeout);
      http::async_read(*stream, *buffer, *parser, [this](beast::error_code e, std::size_t) {
        if (e) return close();
        answer();
      });
    });
  }

  void answer() {
    const auto& request = parser->get();
    response = {};
    response.version(request.version());
    response.keep_alive(false);
    response.set(http::field::server, "dtpp");
    const auto target = request.target();
    if (request.method() != http::verb::get) {
      respond(http::status::method_not_allowed, "text/plain", "only GET is served\n");
      response.set(http::field::allow, "GET");
    } else if (target != "/metrics" && !target.starts_with("/metrics?")) {
      respond(http::status::not_found, "text/plain", "dtpp serves /metrics only\n");
    } else {
      const auto format = format_of(request[http::field::accept]);
      if (auto text = take_snapshot(format))
        respond(http::status::ok, print::content_type(format), std::move(*text));
      else
        respond(http::status::service_unavailable, "text/plain", "the tracer did not answer in time\n");
    }
    stream->expires_after(limit.io_timeout);
    http::async_write(*stream, response, [this](beast::error_code, std::size_t) { close(); });
  }

  void respond(http::status status, std::string_view type, std::string body) {
    response.result(status);
    response.set(http::field::content_type, beast::string_view(type.data(), type.size()));
    response.body() = std::move(body);
    response.prepare_payload();
  }

  void close() {
    beast::error_code ignored;
    stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream.reset();
    accept();
  }

  // What Prometheus asks for first, when it does; the older text format for everyone else.
  static print::metrics_format format_of(beast::string_view accept) {
    return accept.find("application/openmetrics-text") != beast::string_view::npos ? print::metrics_format::openmetrics
                                                                                   : print::metrics_format::text;
  }

  // Blocks this (the server's) thread only: one scrape at a time is the point.
  std::optional<std::string> take_snapshot(print::metrics_format format) {
    std::unique_lock lock(mutex);
    snapshot.reset();
    wanted = static_cast<int>(format);
    published.wait_for(lock, limit.snapshot_timeout, [&] { return snapshot || stopping; });
    wanted = none;
    return std::exchange(snapshot, std::nullopt);
  }
};

metrics_server::metrics_server(std::string_view address) : metrics_server(address, limits{}) {}

metrics_server::metrics_server(std::string_view address, limits l) : state_(std::make_unique<state>()) {
  state_->limit = l;
  const auto where = endpoint_of(address);
  beast::error_code ec;
  auto& acceptor = state_->acceptor;
  if (!acceptor.open(where.protocol(), ec) && !acceptor.set_option(net::socket_base::reuse_address(true), ec) &&
      !acceptor.bind(where, ec) && !acceptor.listen(net::socket_base::max_listen_connections, ec)) {
    state_->port = acceptor.local_endpoint().port();
    state_->accept();
    state_->thread = std::thread([s = state_.get()] {
      // A scrape that fails, however it fails, must not end the tracing: serve on.
      for (;;) {
        try {
          s->io.run();
          return;
        } catch (...) {
          if (s->stream) s->close();  // which accepts the next connection
          else s->accept();
        }
      }
    });
    return;
  }
  throw error(ec.value(), "failed to serve metrics on '" + std::string(address) + "': " + ec.message());
}

metrics_server::~metrics_server() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->published.notify_all();
  state_->io.stop();
  state_->thread.join();
}

std::uint16_t metrics_server::port() const { return state_->port; }

std::optional<print::metrics_format> metrics_server::wanted() const {
  const int format = state_->wanted.load(std::memory_order_relaxed);
  if (format == state::none) return std::nullopt;
  return static_cast<print::metrics_format>(format);
}

void metrics_server::publish(std::string text) {
  {
    std::lock_guard lock(state_->mutex);
    if (state_->wanted == state::none) return;
    state_->snapshot = std::move(text);
  }
  state_->published.notify_all();
}

}  // namespace dtpp::consumer
