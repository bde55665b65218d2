// expect: an aggregation key must be an integer type, std::string, a std::tuple of them
// D keys are integers and strings; a double key has no DTrace layout.
#include "dtpp/agg/aggregation.hpp"

int main() {
#ifdef DTPP_COMPILE_FAIL
  dtpp::aggregation<dtpp::Count, double> a;
#else
  dtpp::aggregation<dtpp::Count, long> a;
#endif
  a.at(1).add();
}
