// The argument operands of a USDT note ("-4@%edi 8@-16(%rbp) 4@$3"), as x86-64 pt_regs reads:
// what a USDT probe's argN is.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace dtpp::kernel {

struct usdt_argument {
  enum class kind : std::uint8_t { constant, reg, memory };
  kind type = kind::constant;
  std::int64_t value = 0;      ///< the constant, or the memory operand's displacement
  std::int16_t reg = 0;        ///< the register's offset in pt_regs (reg, memory)
  std::uint8_t size = 8;       ///< bytes: 1, 2, 4 or 8
  bool is_signed = false;
};

/// The operands of `text`; nothing when one is not understood (an index register, a symbol
/// relative to %rip, an unknown register), which the caller reports.
std::optional<std::vector<usdt_argument>> parse_usdt_arguments(std::string_view text);

}  // namespace dtpp::kernel
