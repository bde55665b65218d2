// The nine policies: DTrace's words, initial values, updates, merges, typed values and order.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <vector>

#include "dtpp/agg/functions.hpp"

using namespace dtpp;
constexpr auto int64_min = std::numeric_limits<std::int64_t>::min();
constexpr auto int64_max = std::numeric_limits<std::int64_t>::max();

template <class Fn>
std::vector<std::uint64_t> fresh(const Fn& fn) {
  std::vector<std::uint64_t> w(fn.words(), 0xdeadbeef);
  fn.init(w.data());
  return w;
}

TEST_CASE("count, sum, min and max keep one word", "[agg][functions]") {
  CHECK(Count{}.words() == 1);
  CHECK(fresh(Count{}) == std::vector<std::uint64_t>{0});
  CHECK(fresh(Sum{}) == std::vector<std::uint64_t>{0});
  CHECK(fresh(Min{}) == std::vector<std::uint64_t>{static_cast<std::uint64_t>(int64_max)});
  CHECK(fresh(Max{}) == std::vector<std::uint64_t>{static_cast<std::uint64_t>(int64_min)});

  auto c = fresh(Count{});
  Count{}.add(c.data(), 42, 7);  // count() ignores value and increment
  Count{}.add(c.data(), 0, 1);
  CHECK(Count{}.value(c.data()) == 2);

  auto s = fresh(Sum{});
  Sum{}.add(s.data(), -5, 1);
  Sum{}.add(s.data(), 3, 1);
  CHECK(Sum{}.value(s.data()) == -2);
  Sum{}.add(s.data(), int64_max, 1);  // wraps as DTrace's 64-bit add does
  CHECK(Sum{}.value(s.data()) == int64_max - 2);
  Sum{}.add(s.data(), 3, 1);
  CHECK(Sum{}.value(s.data()) == int64_min);

  auto mn = fresh(Min{});
  for (std::int64_t v : {5, -3, 8}) Min{}.add(mn.data(), v, 1);
  CHECK(Min{}.value(mn.data()) == -3);
  Min{}.add(mn.data(), int64_min, 1);
  CHECK(Min{}.value(mn.data()) == int64_min);

  auto mx = fresh(Max{});
  for (std::int64_t v : {-5, -3, -8}) Max{}.add(mx.data(), v, 1);
  CHECK(Max{}.value(mx.data()) == -3);
}

TEST_CASE("merging adds, except min and max which compare", "[agg][functions]") {
  auto a = fresh(Min{}), b = fresh(Min{});
  Min{}.add(a.data(), 10, 1);
  Min{}.merge(a.data(), b.data());  // an untouched shard keeps INT64_MAX and changes nothing
  CHECK(Min{}.value(a.data()) == 10);
  Min{}.add(b.data(), 4, 1);
  Min{}.merge(a.data(), b.data());
  CHECK(Min{}.value(a.data()) == 4);

  auto x = fresh(Max{}), y = fresh(Max{});
  Max{}.add(y.data(), -9, 1);
  Max{}.merge(x.data(), y.data());
  CHECK(Max{}.value(x.data()) == -9);

  auto s1 = fresh(Avg{}), s2 = fresh(Avg{});
  Avg{}.add(s1.data(), 10, 1);
  Avg{}.add(s2.data(), 20, 1);
  Avg{}.add(s2.data(), 30, 1);
  Avg{}.merge(s1.data(), s2.data());
  CHECK(s1 == std::vector<std::uint64_t>{3, 60});
}

TEST_CASE("avg keeps count and sum and truncates toward zero", "[agg][functions][avg]") {
  auto w = fresh(Avg{});
  CHECK(Avg{}.value(w.data()) == dtpp::avg{0, 0});
  CHECK(Avg{}.value(w.data()).value() == 0);
  Avg{}.add(w.data(), 0, 1);
  Avg{}.add(w.data(), -900, 1);
  CHECK(w == std::vector<std::uint64_t>{2, static_cast<std::uint64_t>(-900)});
  CHECK(Avg{}.value(w.data()).value() == -450);
  Avg{}.add(w.data(), -1, 1);
  CHECK(Avg{}.value(w.data()).value() == -300);  // -901 / 3 = -300.33
  CHECK(Avg{}.value(w.data()).mean() == Approx(-300.3333333333));
}

TEST_CASE("stddev keeps a 128-bit sum of squares, low word first", "[agg][functions][stddev]") {
  auto w = fresh(StdDev{});
  REQUIRE(w.size() == 4);
  StdDev{}.add(w.data(), int64_min, 1);
  // |INT64_MIN|^2 = 2^126: high word 2^62, low word 0.
  CHECK(w == std::vector<std::uint64_t>{1, static_cast<std::uint64_t>(int64_min), 0,
                                        std::uint64_t{1} << 62});
  StdDev{}.add(w.data(), int64_min, 1);
  CHECK(w[2] == 0);
  CHECK(w[3] == std::uint64_t{1} << 63);

  auto v = fresh(StdDev{});
  StdDev{}.add(v.data(), 3, 1);
  StdDev{}.add(v.data(), -4, 1);
  CHECK(v == std::vector<std::uint64_t>{2, static_cast<std::uint64_t>(-1), 25, 0});
}

TEST_CASE("stddev's integer value follows DTrace, its double is exact", "[agg][functions][stddev]") {
  const auto of = [](std::initializer_list<std::int64_t> xs) {
    auto w = fresh(StdDev{});
    for (auto x : xs) StdDev{}.add(w.data(), x, 1);
    return StdDev{}.value(w.data());
  };
  CHECK(of({}).value() == 0);
  CHECK(of({}).stddev_value() == 0.0);
  CHECK(of({10, 20, 30, 40, 50}).value() == 14);
  CHECK(of({10, 20}).value() == 5);
  CHECK(of({1, 2, 3, 4, 5}).value() == 1);
  CHECK(of({6, 8, 10, 12, 14}).value() == 2);
  CHECK(of({17, 20, 23, 26, 29}).value() == 4);
  CHECK(of({1, 2, 3, 4, 5}).stddev_value() == Approx(1.41421356237));
  CHECK(of({6, 8, 10, 12, 14}).stddev_value() == Approx(2.82842712475));
  CHECK(of({17, 20, 23, 26, 29}).stddev_value() == Approx(4.24264068712));
  CHECK(of({-5, 5}).value() == 5);
  CHECK(of({-5, 5}).stddev_value() == 5.0);
  // Huge values with a small spread: still exact, where (x^2 - mean^2) in doubles would not be.
  const std::int64_t big = std::int64_t{1} << 40;
  CHECK(of({big, big + 2}).stddev_value() == 1.0);
  CHECK(of({big, big + 2}).value() == 1);
  // The 64-bit sum wraps as in DTrace (to -2), so the integer formula sees a mean of -1.
  CHECK(of({int64_max, int64_max}).value() == 9223372036854775806u);
  // normalize(2): isqrt(500 / 4 / 2 - (30 / 2 / 2)^2) = isqrt(62 - 49)
  CHECK(of({10, 20}).value(2) == 3);
}

TEST_CASE("quantize adds increments, negative ones too", "[agg][functions][quantize]") {
  auto w = fresh(Quantize{});
  REQUIRE(w.size() == 127);
  Quantize{}.add(w.data(), 5, 1);
  Quantize{}.add(w.data(), 6, 3);
  Quantize{}.add(w.data(), -1, -2);
  const auto h = Quantize{}.value(w.data());
  CHECK(h.count(66) == 4);
  CHECK(h.count(62) == -2);
  CHECK(h[66] == dtpp::bucket{4, 7, 4});
  CHECK(h[62] == dtpp::bucket{-1, -1, -2});
  CHECK(h[63] == dtpp::bucket{0, 0, 0});
  CHECK(h[61] == dtpp::bucket{-3, -2, 0});
  CHECK(h[0] == dtpp::bucket{int64_min, -(std::int64_t{1} << 62), 0});
  CHECK(h[126] == dtpp::bucket{std::int64_t{1} << 62, int64_max, 0});
  std::int64_t total = 0;
  for (const auto& b : h) total += b.count;
  CHECK(total == 2);
}

TEST_CASE("lquantize keeps its parameter word first and never merges it", "[agg][functions][lquantize]") {
  const LQuantize fn(0, 10, 3);
  auto a = fresh(fn), b = fresh(fn);
  REQUIRE(a.size() == 1 + 5);
  CHECK(a[0] == fn.param());
  fn.add(a.data(), -1, 1);
  fn.add(b.data(), 9, 2);
  fn.add(b.data(), 4, 1);
  fn.merge(a.data(), b.data());
  CHECK(a == std::vector<std::uint64_t>{fn.param(), 1, 0, 1, 0, 2});
  const auto h = fn.value(a.data());
  REQUIRE(h.size() == 5);
  CHECK(h[0] == dtpp::bucket{int64_min, -1, 1});
  CHECK(h[2] == dtpp::bucket{3, 5, 1});
  CHECK(h[4] == dtpp::bucket{9, int64_max, 2});
}

TEST_CASE("llquantize keeps its parameter word first", "[agg][functions][llquantize]") {
  const LLQuantize fn(10, 0, 6, 20);
  auto w = fresh(fn);
  REQUIRE(w.size() == 1 + 119);
  CHECK(w[0] == fn.param());
  fn.add(w.data(), 17, 1);
  fn.add(w.data(), 12345678, 1);
  const auto h = fn.value(w.data());
  CHECK(h[11] == dtpp::bucket{15, 19, 1});
  CHECK(h[118] == dtpp::bucket{10000000, int64_max, 1});
  CHECK(h[0] == dtpp::bucket{int64_min, 0, 0});
}

TEST_CASE("value order follows DTrace's compared quantities", "[agg][functions][order]") {
  const auto order_of = [](const auto& fn, auto fill) {
    auto w = fresh(fn);
    fill(w.data());
    return fn.order(w.data());
  };
  // avg compares the integer average, not the sum.
  const auto avg_small = order_of(Avg{}, [](auto* w) { Avg{}.add(w, 100, 1); Avg{}.add(w, 0, 1); });
  const auto avg_big = order_of(Avg{}, [](auto* w) { Avg{}.add(w, 60, 1); });
  CHECK(avg_small < avg_big);
  // quantize: weighted sum of labels, then the zero bucket's count.
  const Quantize q;
  const auto q1 = order_of(q, [&](auto* w) { q.add(w, 4, 1); });
  const auto q2 = order_of(q, [&](auto* w) { q.add(w, 2, 2); });
  const auto q3 = order_of(q, [&](auto* w) { q.add(w, 2, 2); q.add(w, 0, 1); });
  CHECK(q1 == q2);
  CHECK(q2 < q3);
  // lquantize: underflow weighs base - 1, overflow base + levels * step + 1.
  const LQuantize l(0, 10);
  const auto under = order_of(l, [&](auto* w) { l.add(w, -100, 1); });
  const auto zero = order_of(l, [&](auto* w) { l.add(w, 0, 1); });
  const auto over = order_of(l, [&](auto* w) { l.add(w, 1000, 1); });
  CHECK(under < zero);
  CHECK(zero < over);
  CHECK(under.primary == -1);
  CHECK(zero.tie == 1);
  CHECK(over.primary == 11);
}

TEST_CASE("run-time functions dispatch to the policies", "[agg][functions]") {
  CHECK(agg::function::of(Count{}).words() == 1);
  CHECK(agg::function::of(StdDev{}).words() == 4);
  CHECK(agg::function::of(Quantize{}).words() == 127);
  CHECK(agg::function::of(LQuantize(0, 10, 3)).words() == 6);
  CHECK(agg::function::of(LLQuantize(10, 0, 6, 20)).words() == 120);
  CHECK(agg::function::of(LQuantize(0, 10, 3)).param == LQuantize(0, 10, 3).param());
  CHECK(agg::name(agg::kind::llquantize) == "llquantize");
}
