// The pieces of OpenMetrics text: label values (escapes, bytes that are not UTF-8) and the
// canonical numbers of `le` labels.
#include "dtpp/print/openmetrics.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

using namespace dtpp;

namespace {

std::string label(std::string_view bytes) {
  std::string out;
  print::append_label_value(out, bytes);
  return out;
}

std::string canonical(double value) {
  std::string out;
  print::detail::append_canonical(out, value);
  return out;
}

}  // namespace

TEST_CASE("label values escape backslash, double quote and newline only", "[print][openmetrics]") {
  CHECK(label("") == "");
  CHECK(label("plain text, tabs\tand {braces}") == "plain text, tabs\tand {braces}");
  CHECK(label("a\\b\"c\nd") == "a\\\\b\\\"c\\nd");
  CHECK(label(std::string_view("nul\0byte", 8)) == std::string("nul\0byte", 8));
}

TEST_CASE("label values keep valid UTF-8 and replace every other byte with U+FFFD", "[print][openmetrics]") {
  CHECK(label("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  const std::string bad = "\xef\xbf\xbd";
  CHECK(label("\xff") == bad);
  CHECK(label("a\x80z") == "a" + bad + "z");                // a lone continuation byte
  CHECK(label("\xc3") == bad);                              // cut short
  CHECK(label("\xc0\xaf") == bad + bad);                    // overlong '/'
  CHECK(label("\xe0\x80\xaf") == bad + bad + bad);          // overlong, three bytes
  CHECK(label("\xed\xa0\x80") == bad + bad + bad);          // a surrogate
  CHECK(label("\xf4\x90\x80\x80") == bad + bad + bad + bad);  // past U+10FFFF
  CHECK(label("\xe2\x82") == bad + bad);
}

TEST_CASE("le values are Go's %g with .0 on integers, as OpenMetrics asks", "[print][openmetrics]") {
  CHECK(canonical(0) == "0.0");
  CHECK(canonical(1) == "1.0");
  CHECK(canonical(-1) == "-1.0");
  CHECK(canonical(0.5) == "0.5");
  CHECK(canonical(0.001) == "0.001");
  CHECK(canonical(0.0001) == "0.0001");
  CHECK(canonical(0.00001) == "1e-05");
  CHECK(canonical(1023) == "1023.0");
  CHECK(canonical(100000) == "100000.0");
  CHECK(canonical(999999) == "999999.0");
  CHECK(canonical(1000000) == "1e+06");
  CHECK(canonical(1048575) == "1.048575e+06");
  CHECK(canonical(1e10) == "1e+10");
  CHECK(canonical(-4611686018427387904.0) == "-4.611686018427388e+18");
  CHECK(canonical(static_cast<double>(std::numeric_limits<std::int64_t>::min())) == "-9.223372036854776e+18");
}
