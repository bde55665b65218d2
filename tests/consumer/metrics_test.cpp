// OpenMetrics output of a running program's aggregations (handle::metrics), the metric families
// behind it, and the /metrics server: exact text, every refusal, hostile clients.
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <thread>

#include "dtpp/consumer/handle.hpp"
#include "dtpp/consumer/metric_families.hpp"
#include "dtpp/consumer/metrics_server.hpp"

#include "../memory_file.hpp"

using namespace dtpp;
using consumer::handle;
using consumer::metrics_server;

namespace {

std::string data_file(const std::string& name) {
  std::ifstream file(std::string(DTPP_TEST_DATA) + "/metrics/" + name, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

handle running(std::string_view text) {
  handle h;
  h.exec(h.compile(text));
  h.go();
  return h;
}

// The message metric_families() refuses a program's aggregations with ("" when it accepts).
std::string refusal(std::string_view program, std::string_view labels) {
  handle h;
  const auto p = h.compile(program);
  try {
    (void)consumer::metric_families(p.checked, labels);
    return "";
  } catch (const consumer::error& e) {
    CHECK(e.code() == EINVAL);
    return e.what();
  }
}

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

struct reply {
  unsigned status = 0;
  std::string content_type;
  std::string body;
};

// One HTTP request to 127.0.0.1:port, as a scraper makes it.
// Prometheus's Accept header.
constexpr const char* prometheus_accept =
    "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
    "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

reply fetch(std::uint16_t port, http::verb verb = http::verb::get, std::string target = "/metrics",
            std::string accept = prometheus_accept) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> request(verb, target, 11);
  request.set(http::field::host, "localhost");
  if (!accept.empty()) request.set(http::field::accept, accept);
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  return {response.result_int(), std::string(response[http::field::content_type]), response.body()};
}

// A scrape of a handle's -x metrics server, answered by the handle's work() loop as dtpp's is.
reply scrape(handle& h, http::verb verb = http::verb::get, std::string target = "/metrics",
             std::string accept = prometheus_accept) {
  auto answer = std::async(std::launch::async, [&] { return fetch(h.metrics_port(), verb, target, accept); });
  memory_file out;
  while (answer.wait_for(std::chrono::milliseconds(1)) != std::future_status::ready) (void)h.work(out.get());
  return answer.get();
}

}  // namespace

TEST_CASE("metrics() renders every aggregation kind as OpenMetrics text", "[consumer][metrics]") {
  auto h = running(data_file("every_kind.d"));
  CHECK(h.metrics() == data_file("every_kind.om"));
  CHECK(h.metrics(print::metrics_format::text) == data_file("every_kind.prom"));
}

TEST_CASE("metrics_labels set while running names the keys from the next scrape on", "[consumer][metrics]") {
  auto h = running("BEGIN { @c[1] = count(); }");
  CHECK(h.metrics() == "# TYPE dtpp_c counter\n# HELP dtpp_c @c, count()\ndtpp_c_total{key0=\"1\"} 1\n# EOF\n");
  h.setopt("metrics_labels", "@c:cpu");
  CHECK(h.metrics() == "# TYPE dtpp_c counter\n# HELP dtpp_c @c, count()\ndtpp_c_total{cpu=\"1\"} 1\n# EOF\n");
}

TEST_CASE("a program without aggregations has only the end line", "[consumer][metrics]") {
  auto h = running("BEGIN { x = 1; }");
  CHECK(h.metrics() == "# EOF\n");
}

TEST_CASE("metrics() needs an executed program", "[consumer][metrics]") {
  handle h;
  CHECK_THROWS_WITH(h.metrics(), "failed to render metrics: no program has been executed");
}

TEST_CASE("counters become gauges where the program can make them fall", "[consumer][metrics]") {
  const auto types = [](std::string_view text) {
    handle h;
    std::string shown;
    for (const auto& f : consumer::metric_families(h.compile(text).checked))
      shown += f.name + " " + std::string(print::name(f.type)) + "\n";
    return shown;
  };
  CHECK(types("BEGIN { @c = count(); @s = sum(1); @u = sum((uint64_t)arg0); @q = quantize(1); }") ==
        "dtpp_c counter\ndtpp_s counter\ndtpp_u counter\ndtpp_q histogram\n");
  CHECK(types("BEGIN { @s = sum(arg0); @n = sum(-1); @q = quantize(1, -1); }") ==
        "dtpp_s gauge\ndtpp_n gauge\ndtpp_q histogram\n");
  CHECK(types("BEGIN { @a = count(); @b = count(); @c = count(); @d = quantize(1); @e = count(); }"
              "END { clear(@a); trunc(@b); normalize(@c, 2); trunc(@d); denormalize(@c); }") ==
        "dtpp_a gauge\ndtpp_b gauge\ndtpp_c gauge\ndtpp_d histogram\ndtpp_e counter\n");
  CHECK(types("BEGIN { @lo = min(1); @hi = max(1); @m = avg(1); @sd = stddev(1); }") ==
        "dtpp_lo gauge\ndtpp_hi gauge\ndtpp_m gauge\ndtpp_sd gauge\n");
}

TEST_CASE("metrics_labels names keys, and is refused in words when it cannot", "[consumer][metrics]") {
  constexpr std::string_view program = "BEGIN { @a[1, 2] = count(); @[\"x\"] = sum(1); @h[1] = quantize(1); }";
  handle h;
  const auto families = consumer::metric_families(h.compile(program).checked, "@a:cpu,fd;@:who");
  REQUIRE(families.size() == 3);
  CHECK(families[0].labels == std::vector<std::string>{"cpu", "fd"});
  CHECK(families[1].name == "dtpp_anonymous");
  CHECK(families[1].labels == std::vector<std::string>{"who"});
  CHECK(families[2].labels == std::vector<std::string>{"key0"});
  CHECK(refusal(program, "") == "");
  CHECK(refusal(program, "a:cpu,fd") == "invalid metrics: metrics_labels entry 'a:cpu,fd' is not @aggregation:label,...");
  CHECK(refusal(program, "@a") == "invalid metrics: metrics_labels entry '@a' is not @aggregation:label,...");
  CHECK(refusal(program, "@a:cpu") == "invalid metrics: metrics_labels gives 1 label to @a, which has 2 keys");
  CHECK(refusal(program, "@:x,y") == "invalid metrics: metrics_labels gives 2 labels to @, which has 1 key");
  CHECK(refusal(program, "@nope:x") == "invalid metrics: metrics_labels names @nope, which the program does not have");
  CHECK(refusal(program, "@a:cpu,cpu") == "invalid metrics: metrics_labels gives @a the label 'cpu' twice");
  CHECK(refusal(program, "@a:x;@a:y") == "invalid metrics: metrics_labels names @a twice");
  CHECK(refusal(program, "@h:le") ==
        "invalid metrics: metrics_labels: @h is a histogram, whose buckets are labelled le already");
  for (const auto* bad : {"@:", "@:1x", "@:__x", "@:a-b", "@:\xc3\xa9"})
    CHECK(refusal(program, bad).starts_with("invalid metrics: metrics_labels: '"));
}

TEST_CASE("aggregations whose metric names would clash are refused", "[consumer][metrics]") {
  CHECK(refusal("BEGIN { @a = count(); @a_total = min(1); }", "") ==
        "invalid metrics: aggregations @a and @a_total would both give the metric name dtpp_a_total; rename one of them");
  CHECK(refusal("BEGIN { @h = quantize(1); @h_bucket = count(); }", "") ==
        "invalid metrics: aggregations @h and @h_bucket would both give the metric name dtpp_h_bucket; rename one of them");
  CHECK(refusal("BEGIN { @ = count(); @anonymous = sum(1); }", "") ==
        "invalid metrics: aggregations @ and @anonymous would both give the metric name dtpp_anonymous; rename one of them");
  CHECK(refusal("BEGIN { @a = max(1); @a_total = min(1); }", "") == "");
}

TEST_CASE("the metrics option serves /metrics from the handle's own thread", "[consumer][metrics][server]") {
  handle h;
  h.setopt("metrics", "127.0.0.1:0");
  h.exec(h.compile("BEGIN { @n[\"a\"] = count(); @n[\"a\"] = count(); }"));
  CHECK(h.metrics_port() == 0);
  h.go();
  REQUIRE(h.metrics_port() != 0);
  const auto expected = "# TYPE dtpp_n counter\n# HELP dtpp_n @n, count()\ndtpp_n_total{key0=\"a\"} 2\n# EOF\n";
  const auto ok = scrape(h);
  CHECK(ok.status == 200);
  CHECK(ok.content_type == "application/openmetrics-text; version=1.0.0; charset=utf-8");
  CHECK(ok.body == expected);
  CHECK(scrape(h, http::verb::get, "/metrics?name[]=x").body == expected);
  // Without an Accept that asks for OpenMetrics (curl, promtool): Prometheus's text format 0.0.4.
  const auto text = scrape(h, http::verb::get, "/metrics", "");
  CHECK(text.content_type == "text/plain; version=0.0.4; charset=utf-8");
  CHECK(text.body == "# TYPE dtpp_n_total counter\n# HELP dtpp_n_total @n, count()\ndtpp_n_total{key0=\"a\"} 2\n");
  CHECK(text.body == h.metrics(print::metrics_format::text));
  const auto other = scrape(h, http::verb::get, "/");
  CHECK(other.status == 404);
  CHECK(other.body == "dtpp serves /metrics only\n");
  CHECK(scrape(h, http::verb::post).status == 405);
  CHECK(scrape(h).status == 200);  // the refusals left it serving
}

TEST_CASE("a bad metrics address or labels end go() before tracing", "[consumer][metrics][server]") {
  const auto go_error = [](std::string_view address, std::string_view labels = "") {
    handle h;
    h.setopt("metrics", address);
    if (!labels.empty()) h.setopt("metrics_labels", labels);
    h.exec(h.compile("BEGIN { @a[1] = count(); }"));
    try {
      h.go();
    } catch (const consumer::error& e) {
      return std::to_string(e.code()) + " " + e.what();
    }
    return std::string("went");
  };
  const auto einval = std::to_string(EINVAL) + " ";
  CHECK(go_error("9100") == einval + "failed to serve metrics on '9100': not ADDRESS:PORT");
  CHECK(go_error("127.0.0.1:") ==
        einval + "failed to serve metrics on '127.0.0.1:': the port must be a number from 0 to 65535");
  CHECK(go_error("127.0.0.1:65536") ==
        einval + "failed to serve metrics on '127.0.0.1:65536': the port must be a number from 0 to 65535");
  CHECK(go_error("example.com:80") ==
        einval + "failed to serve metrics on 'example.com:80': the address must be an IP address (IPv6 in brackets) or localhost");
  CHECK(go_error("127.0.0.1:0", "@b:x") ==
        einval + "invalid metrics: metrics_labels names @b, which the program does not have");
  metrics_server taken("127.0.0.1:0");
  const auto address = "127.0.0.1:" + std::to_string(taken.port());
  CHECK(go_error(address) ==
        std::to_string(EADDRINUSE) + " failed to serve metrics on '" + address + "': Address already in use");
}

TEST_CASE("the server answers IPv6 and localhost addresses", "[consumer][metrics][server]") {
  metrics_server local("localhost:0");
  CHECK(local.port() != 0);
  metrics_server six("[::1]:0");
  CHECK(six.port() != 0);
}

TEST_CASE("a scrape nobody answers gets 503, and the next one is served", "[consumer][metrics][server]") {
  metrics_server server("127.0.0.1:0", {std::chrono::milliseconds(2000), std::chrono::milliseconds(50), 8192});
  const auto unanswered = fetch(server.port());
  CHECK(unanswered.status == 503);
  CHECK(unanswered.body == "the tracer did not answer in time\n");
  CHECK_FALSE(server.wanted().has_value());
  server.publish("late\n");  // nobody waits: dropped
  auto answer = std::async(std::launch::async, [&] { return fetch(server.port()); });
  while (!server.wanted()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  server.publish("# EOF\n");
  CHECK(answer.get().body == "# EOF\n");
}

TEST_CASE("silent, oversized and malformed requests cost their connection only", "[consumer][metrics][server]") {
  metrics_server server("127.0.0.1:0", {std::chrono::milliseconds(100), std::chrono::milliseconds(2000), 1024});
  net::io_context io;
  const net::ip::tcp::endpoint at(net::ip::make_address("127.0.0.1"), server.port());
  const auto closed_after = [&](const std::string& sent) {
    net::ip::tcp::socket s(io);
    s.connect(at);
    if (!sent.empty()) net::write(s, net::buffer(sent));
    char byte;
    beast::error_code ec;
    std::string got;
    while (!ec) {
      const auto n = s.read_some(net::buffer(&byte, 1), ec);
      got.append(&byte, n);
    }
    return got;  // whatever came before the server closed the connection
  };
  CHECK(closed_after("").empty());                                  // silent: timed out
  CHECK(closed_after("GET /metrics HTTP/1.1\r\nX: " + std::string(4096, 'a')).empty());  // too long
  CHECK(closed_after("NONSENSE\r\n\r\n").empty());                  // not HTTP
  CHECK(closed_after("GET /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello").empty());  // a body
  auto answer = std::async(std::launch::async, [&] { return fetch(server.port()); });
  while (!server.wanted()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  server.publish("# EOF\n");
  CHECK(answer.get().status == 200);
}

TEST_CASE("a scraper that connects and says nothing does not hold tracing up", "[consumer][metrics][server]") {
  handle h;
  h.setopt("metrics", "127.0.0.1:0");
  h.exec(h.compile("tick-1ms /n < 50/ { n++; @c = count(); } tick-1ms /n == 50/ { exit(0); }"));
  h.go();
  net::io_context io;
  net::ip::tcp::socket silent(io);
  silent.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), h.metrics_port()));
  memory_file out;
  while (h.work(out.get()) == consumer::work_status::okay) h.sleep();
  CHECK(h.metrics() == "# TYPE dtpp_c counter\n# HELP dtpp_c @c, count()\ndtpp_c_total 50\n# EOF\n");
}
