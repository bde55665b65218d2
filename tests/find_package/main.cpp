// Uses the installed headers the way a user would; exits 0 only if the aggregation works.
#include <string>

#include "dtpp/agg/aggregation.hpp"

int main() {
  dtpp::aggregation<dtpp::Count, std::string> calls;
  calls.at("a").add();
  calls.at("a").add();
  const auto snap = calls.snapshot();
  return snap.size() == 1 && snap.value(0) == 2 ? 0 : 1;
}
