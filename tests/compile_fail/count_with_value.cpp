// expect: count\(\) takes no value
// count() counts calls; passing it a value is a mistake dtpp reports in words.
#include "dtpp/agg/aggregation.hpp"

int main() {
  dtpp::aggregation<dtpp::Count, int> a;
#ifdef DTPP_COMPILE_FAIL
  a.at(1).add(5);
#else
  a.at(1).add();
#endif
}
