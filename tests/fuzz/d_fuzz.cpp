// libFuzzer target: any bytes through parse + check + rendering must neither crash nor hang nor
// grow memory without bound (built with clang, AddressSanitizer and UBSan; see docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "dtpp/d/check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const dtpp::d::source_file source("fuzz.d", std::string(reinterpret_cast<const char*>(data), size));
  const auto result = dtpp::d::compile(source);
  for (const auto& e : result.errors) (void)dtpp::d::render(e, source);
  if (result.errors.empty()) (void)dtpp::d::dump(result.program);
  return 0;
}
