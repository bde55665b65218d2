// expect: at\(\) takes exactly one argument per key of the aggregation
// D's D_PROTO_LEN for @a[1, 2] on a one-key aggregation.
#include <string>

#include "dtpp/agg/aggregation.hpp"

int main() {
  dtpp::aggregation<dtpp::Count, std::string> a;
#ifdef DTPP_COMPILE_FAIL
  a.at("x", 2).add();
#else
  a.at("x").add();
#endif
}
