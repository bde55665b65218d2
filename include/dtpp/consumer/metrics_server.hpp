// The HTTP side of -x metrics: a server of one page, /metrics, on its own thread, that never
// touches aggregations. A scrape asks for a snapshot; the thread that consumes renders one and
// hands it over, so aggregation state is only ever read by that thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "dtpp/print/openmetrics.hpp"

namespace dtpp::consumer {

/// Serves metrics at http://ADDRESS:PORT/metrics, one scrape at a time: OpenMetrics text to a
/// scraper whose Accept header asks for it (Prometheus does), Prometheus's text format 0.0.4 to
/// others (curl, promtool). Each connection
/// gets `io_timeout` to send its request and `io_timeout` to take the answer, and a request of at
/// most `request_bytes`; a scrape the tracer does not answer within `snapshot_timeout` gets 503.
/// So a slow or hostile scraper costs at most a snapshot, and tracing never waits for it.
///
///     dtpp::consumer::metrics_server server("127.0.0.1:9464");
///     while (h.work(stdout) == dtpp::consumer::work_status::okay) {
///       if (const auto format = server.wanted())            // on the consuming thread
///         server.publish(h.metrics(*format));
///       h.sleep();
///     }
///
/// (The handle does this itself for -x metrics=ADDRESS:PORT.)
class metrics_server {
 public:
  struct limits {
    std::chrono::milliseconds io_timeout{5000};
    std::chrono::milliseconds snapshot_timeout{5000};
    std::size_t request_bytes = 8192;
  };

  /// Listens on "ADDRESS:PORT": an IPv4 address, an IPv6 one in brackets ("[::1]:9464"), or
  /// "localhost"; port 0 takes a free one (see port()). Throws error EINVAL for a malformed
  /// address, the errno of a refused bind ("failed to serve metrics on ADDRESS: ...").
  explicit metrics_server(std::string_view address);
  metrics_server(std::string_view address, limits l);
  /// Stops serving; a scrape waiting for a snapshot gets 503.
  ~metrics_server();
  metrics_server(const metrics_server&) = delete;
  metrics_server& operator=(const metrics_server&) = delete;

  /// The port it listens on.
  std::uint16_t port() const;
  /// The format a waiting scrape wants; nullopt when none waits (cheap: one atomic load).
  std::optional<print::metrics_format> wanted() const;
  /// Hands the waiting scrape its text (nothing when no scrape waits any more).
  void publish(std::string text);

 private:
  struct state;
  std::unique_ptr<state> state_;
};

}  // namespace dtpp::consumer
