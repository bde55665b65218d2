// expect: the value of an aggregating function must be an integer
// sum() of a string is D's D_AGG_SCALAR error; dtpp rejects it at compile time with that message.
#include <string>

#include "dtpp/agg/aggregation.hpp"

int main() {
  dtpp::aggregation<dtpp::Sum, std::string> a;
#ifdef DTPP_COMPILE_FAIL
  a.at("k").add("text");
#else
  a.at("k").add(1);
#endif
}
