// expect: only quantize\(\), lquantize\(\) and llquantize\(\) take an increment
// An increment belongs to the quantize family only (D's D_PROTO_LEN for sum(x, n)).
#include "dtpp/agg/aggregation.hpp"

int main() {
  dtpp::aggregation<dtpp::Sum> a;
#ifdef DTPP_COMPILE_FAIL
  a.at().add(5, 2);
#else
  a.at().add(5);
#endif
}
