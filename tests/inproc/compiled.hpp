// The in-process tests' D programs, checked: a test fails with the first diagnostic otherwise.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "dtpp/d/check.hpp"

inline dtpp::ir::program compiled(const std::string& text) {
  const dtpp::d::source_file source("test.d", text);
  auto result = dtpp::d::compile(source);
  if (!result.errors.empty()) FAIL(dtpp::d::render(result.errors[0], source));
  return std::move(result.program);
}
