// expect: a joined walk needs aggregations with the same key types
// printa(@a, @b) with different key prototypes is D's D_PRINTA_AGGPROTO.
#include <cstdint>
#include <string>

#include "dtpp/agg/aggregation.hpp"
#include "dtpp/agg/joined.hpp"

int main() {
  dtpp::aggregation<dtpp::Min, std::string> by_name;
#ifdef DTPP_COMPILE_FAIL
  dtpp::aggregation<dtpp::Max, int> other;
  dtpp::walk_joined([](auto&&...) {}, {}, by_name.snapshot(), other.snapshot());
#else
  dtpp::aggregation<dtpp::Max, std::string> other;
  dtpp::walk_joined([](std::string_view, std::int64_t, std::int64_t) {}, {}, by_name.snapshot(),
                    other.snapshot());
#endif
}
