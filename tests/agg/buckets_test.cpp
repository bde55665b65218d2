// Bucket placement and labels of quantize, lquantize and llquantize.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>

#include "dtpp/agg/llquantize.hpp"
#include "dtpp/agg/lquantize.hpp"
#include "dtpp/agg/quantize.hpp"

using namespace dtpp::agg;
constexpr auto int64_min = std::numeric_limits<std::int64_t>::min();
constexpr auto int64_max = std::numeric_limits<std::int64_t>::max();

TEST_CASE("quantize places values in power-of-two buckets", "[agg][quantize]") {
  CHECK(quantize::bucket(0) == 63);
  CHECK(quantize::bucket(1) == 64);
  CHECK(quantize::bucket(2) == 65);
  CHECK(quantize::bucket(3) == 65);
  CHECK(quantize::bucket(4) == 66);
  CHECK(quantize::bucket(7) == 66);
  CHECK(quantize::bucket(-1) == 62);
  CHECK(quantize::bucket(-2) == 61);
  CHECK(quantize::bucket(-3) == 61);
  CHECK(quantize::bucket(-4) == 60);
  CHECK(quantize::bucket(-7) == 60);
  CHECK(quantize::bucket(-8) == 59);
}

TEST_CASE("quantize's end buckets take everything beyond 2^62", "[agg][quantize]") {
  const std::int64_t two62 = std::int64_t{1} << 62;
  CHECK(quantize::bucket(two62 - 1) == 125);
  CHECK(quantize::bucket(two62) == 126);
  CHECK(quantize::bucket(int64_max) == 126);
  CHECK(quantize::bucket(-two62 + 1) == 1);
  CHECK(quantize::bucket(-two62) == 0);
  CHECK(quantize::bucket(int64_min) == 0);
}

TEST_CASE("quantize labels run from -2^62 to 2^62", "[agg][quantize]") {
  CHECK(quantize::label(0) == -(std::int64_t{1} << 62));
  CHECK(quantize::label(61) == -2);
  CHECK(quantize::label(62) == -1);
  CHECK(quantize::label(63) == 0);
  CHECK(quantize::label(64) == 1);
  CHECK(quantize::label(65) == 2);
  CHECK(quantize::label(126) == std::int64_t{1} << 62);
  for (std::size_t i = 0; i < quantize::buckets; ++i) CHECK(quantize::bucket(quantize::label(i)) == i);
}

TEST_CASE("lquantize encodes its parameters in DTrace's word", "[agg][lquantize]") {
  const auto p = lquantize_params::make(-10, 10, 2);
  CHECK(p.base == -10);
  CHECK(p.levels == 10);
  CHECK(p.step == 2);
  CHECK(p.encode() == (std::uint64_t{2} << 48 | std::uint64_t{10} << 32 | 0xfffffff6u));
  CHECK(lquantize_params::decode(p.encode()) == p);
  CHECK(p.buckets() == 12);
}

TEST_CASE("lquantize's overflow starts at base + levels * step", "[agg][lquantize]") {
  const auto p = lquantize_params::make(0, 10, 3);  // levels 0, 3, 6; overflow >= 9
  CHECK(p.levels == 3);
  CHECK(p.overflow_start() == 9);
  CHECK(p.bucket(-1) == 0);
  CHECK(p.bucket(0) == 1);
  CHECK(p.bucket(2) == 1);
  CHECK(p.bucket(3) == 2);
  CHECK(p.bucket(8) == 3);
  CHECK(p.bucket(9) == 4);
  CHECK(p.bucket(10) == 4);
}

TEST_CASE("lquantize compares the full 64-bit value", "[agg][lquantize]") {
  const auto p = lquantize_params::make(0, 10);
  // 2^32 + 5 would land in level 5 if truncated to 32 bits, as illumos does.
  CHECK(p.bucket((std::int64_t{1} << 32) + 5) == 11);
  CHECK(p.bucket(int64_min) == 0);
  CHECK(p.bucket(int64_max) == 11);
}

TEST_CASE("lquantize rejects parameters as the D compiler does", "[agg][lquantize]") {
  const auto tag_of = [](auto make) {
    try {
      make();
    } catch (const param_error& e) {
      return e.tag() + ": " + e.what();
    }
    return std::string("no error");
  };
  CHECK(tag_of([] { lquantize_params::make(std::int64_t{1} << 31, 10); }) ==
        "D_LQUANT_BASEVAL: lquantize( ) argument #1 must be a 32-bit quantity");
  CHECK(tag_of([] { lquantize_params::make(0, std::int64_t{1} << 31); }) ==
        "D_LQUANT_LIMVAL: lquantize( ) argument #2 must be a 32-bit quantity");
  CHECK(tag_of([] { lquantize_params::make(10, 0); }) ==
        "D_LQUANT_MISMATCH: lquantize( ) base (argument #1) must be less than limit (argument #2)");
  CHECK(tag_of([] { lquantize_params::make(0, 10, 0); }) ==
        "D_LQUANT_STEPTYPE: lquantize( ) argument #3 must be a non-zero positive integer constant");
  CHECK(tag_of([] { lquantize_params::make(0, 10, 65536); }) ==
        "D_LQUANT_STEPVAL: lquantize( ) argument #3 must be a 16-bit quantity");
  CHECK(tag_of([] { lquantize_params::make(0, 10, 11); }) ==
        "D_LQUANT_STEPLARGE: lquantize( ) step (argument #3) too large: must have at least one "
        "quantization level");
  CHECK(tag_of([] { lquantize_params::make(0, 70000); }) ==
        "D_LQUANT_STEPSMALL: lquantize( ) step (argument #3) too small: number of quantization "
        "levels must be a 16-bit quantity");
  CHECK(tag_of([] { lquantize_params::make(0, 10).expect_same(lquantize_params::make(1, 11)); }) ==
        "D_LQUANT_MATCHBASE: lquantize( ) base (argument #1) doesn't match previous declaration: "
        "expected 0, found 1");
  CHECK(tag_of([] { lquantize_params::make(0, 10).expect_same(lquantize_params::make(0, 20, 2)); }) ==
        "D_LQUANT_MATCHLIM: lquantize( ) limit (argument #2) doesn't match previous declaration: "
        "expected 10, found 20");
  CHECK(tag_of([] { lquantize_params::make(0, 10).expect_same(lquantize_params::make(0, 10, 2)); }) ==
        "D_LQUANT_MATCHSTEP: lquantize( ) step (argument #3) doesn't match previous declaration: "
        "expected 1, found 2");
  CHECK(tag_of([] { lquantize_params::make(0, 10).expect_same(lquantize_params::make(0, 10)); }) ==
        "no error");
}

TEST_CASE("llquantize(x, 10, 0, 6, 20) has the worked example's 119 buckets", "[agg][llquantize]") {
  const auto p = llquantize_params::make(10, 0, 6, 20);
  REQUIRE(p.buckets() == 119);
  const auto labels = p.labels();
  REQUIRE(labels.size() == 119);
  CHECK(labels[0] == 1);  // "< 1"
  CHECK(labels[1] == 1);
  CHECK(labels[9] == 9);
  CHECK(labels[10] == 10);
  CHECK(labels[11] == 15);
  CHECK(labels[27] == 95);
  CHECK(labels[28] == 100);
  CHECK(labels[29] == 150);
  CHECK(labels[45] == 950);
  CHECK(labels[100] == 1000000);
  CHECK(labels[101] == 1500000);
  CHECK(labels[117] == 9500000);
  CHECK(labels[118] == 10000000);  // ">= 10000000"
  CHECK(p.bucket(0) == 0);
  CHECK(p.bucket(-5) == 0);
  CHECK(p.bucket(int64_min) == 0);
  CHECK(p.bucket(1) == 1);
  CHECK(p.bucket(9) == 9);
  CHECK(p.bucket(10) == 10);
  CHECK(p.bucket(14) == 10);
  CHECK(p.bucket(15) == 11);
  CHECK(p.bucket(99) == 27);
  CHECK(p.bucket(100) == 28);
  CHECK(p.bucket(9999999) == 117);
  CHECK(p.bucket(10000000) == 118);
  CHECK(p.bucket(int64_max) == 118);
  for (std::size_t i = 1; i + 1 < labels.size(); ++i)
    CHECK(p.bucket(static_cast<std::int64_t>(labels[i])) == i);
}

TEST_CASE("llquantize(x, 2, 0, 4, 4) labels", "[agg][llquantize]") {
  const auto p = llquantize_params::make(2, 0, 4, 4);
  CHECK(p.labels() == std::vector<std::uint64_t>{1, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32});
  CHECK(p.encode() == (std::uint64_t{2} << 48 | std::uint64_t{0} << 32 | std::uint64_t{4} << 16 | 4));
  CHECK(llquantize_params::decode(p.encode()) == p);
}

TEST_CASE("llquantize rejects parameters with dtrace-utils' tags", "[agg][llquantize]") {
  const auto tag_of = [](auto make) {
    try {
      make();
    } catch (const param_error& e) {
      return e.tag();
    }
    return std::string("no error");
  };
  CHECK(tag_of([] { llquantize_params::make(1, 0, 1, 1); }) == "D_LLQUANT_FACTORVAL");
  CHECK(tag_of([] { llquantize_params::make(65536, 0, 1, 65536); }) == "D_LLQUANT_FACTORVAL");
  CHECK(tag_of([] { llquantize_params::make(10, 70000, 1, 10); }) == "D_LLQUANT_LMAGVAL");
  CHECK(tag_of([] { llquantize_params::make(10, 3, 3, 10); }) == "D_LLQUANT_HMAGVAL");
  CHECK(tag_of([] { llquantize_params::make(10, 0, 1, 5); }) == "D_LLQUANT_STEPVAL");
  CHECK(tag_of([] { llquantize_params::make(10, 0, 1, 15); }) == "D_LLQUANT_STEPVAL");
  CHECK(tag_of([] { llquantize_params::make(10, 0, 19, 10); }) == "D_LLQUANT_HMAGVAL");
  CHECK(tag_of([] { llquantize_params::make(10, 0, 18, 10); }) == "no error");
  CHECK(tag_of([] { llquantize_params::make(10, 0, 6, 20).expect_same(llquantize_params::make(10, 0, 7, 20)); }) ==
        "D_LLQUANT_MATCHHMAG");
}
