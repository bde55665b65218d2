// USDT operands, parsed.

#include "usdt_arguments.hpp"

#include <algorithm>
#include <charconv>
#include <string>

namespace dtpp::kernel {
namespace {

// A register by any of its names (rax, eax, ax, al; r8, r8d, r8w, r8b ...): its pt_regs slot.
std::optional<std::int16_t> register_offset(std::string_view name) {
  struct slot {
    const char* names[4];
    std::int16_t offset;
  };
  static constexpr slot slots[] = {
      {{"rax", "eax", "ax", "al"}, 80},    {{"rbx", "ebx", "bx", "bl"}, 40},     {{"rcx", "ecx", "cx", "cl"}, 88},
      {{"rdx", "edx", "dx", "dl"}, 96},    {{"rsi", "esi", "si", "sil"}, 104},   {{"rdi", "edi", "di", "dil"}, 112},
      {{"rbp", "ebp", "bp", "bpl"}, 32},   {{"rsp", "esp", "sp", "spl"}, 152},   {{"r8", "r8d", "r8w", "r8b"}, 72},
      {{"r9", "r9d", "r9w", "r9b"}, 64},   {{"r10", "r10d", "r10w", "r10b"}, 56}, {{"r11", "r11d", "r11w", "r11b"}, 48},
      {{"r12", "r12d", "r12w", "r12b"}, 24}, {{"r13", "r13d", "r13w", "r13b"}, 16}, {{"r14", "r14d", "r14w", "r14b"}, 8},
      {{"r15", "r15d", "r15w", "r15b"}, 0},
  };
  for (const auto& s : slots)
    for (const char* n : s.names)
      if (name == n) return s.offset;
  return std::nullopt;
}

// A decimal or hex integer, negative or not, kept as its 64 bits (8@$18446744073709551615 is -1).
std::optional<std::int64_t> integer(std::string_view text) {
  const bool negative = text.starts_with('-');
  auto digits = text.substr(negative ? 1 : 0);
  const bool hex = digits.starts_with("0x");
  if (hex) digits.remove_prefix(2);
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return static_cast<std::int64_t>(negative ? 0 - v : v);
}

std::optional<usdt_argument> operand(std::string_view text) {
  usdt_argument a;
  const auto at = text.find('@');
  if (at == std::string_view::npos) return std::nullopt;
  const auto size = integer(text.substr(0, at));
  if (!size || (*size != 1 && *size != 2 && *size != 4 && *size != 8 && *size != -1 && *size != -2 && *size != -4 &&
                *size != -8))
    return std::nullopt;
  a.is_signed = *size < 0;
  a.size = static_cast<std::uint8_t>(*size < 0 ? -*size : *size);
  const auto op = text.substr(at + 1);
  if (op.starts_with('$')) {
    const auto v = integer(op.substr(1));
    if (!v) return std::nullopt;
    a.value = *v;
    return a;
  }
  if (op.starts_with('%')) {
    const auto r = register_offset(op.substr(1));
    if (!r) return std::nullopt;
    a.type = usdt_argument::kind::reg;
    a.reg = *r;
    return a;
  }
  // disp(%reg): no index register, no symbol.
  const auto open = op.find('(');
  if (open == std::string_view::npos || !op.ends_with(')') || op.substr(open + 1, 1) != "%") return std::nullopt;
  const auto r = register_offset(op.substr(open + 2, op.size() - open - 3));
  const auto disp = open == 0 ? std::optional<std::int64_t>(0) : integer(op.substr(0, open));
  if (!r || !disp) return std::nullopt;
  a.type = usdt_argument::kind::memory;
  a.reg = *r;
  a.value = *disp;
  return a;
}

}  // namespace

std::optional<std::vector<usdt_argument>> parse_usdt_arguments(std::string_view text) {
  std::vector<usdt_argument> out;
  while (true) {
    const auto start = text.find_first_not_of(' ');
    if (start == std::string_view::npos) return out;
    text.remove_prefix(start);
    const auto end = std::min(text.find(' '), text.size());
    const auto a = operand(text.substr(0, end));
    if (!a) return std::nullopt;
    out.push_back(*a);
    text.remove_prefix(end);
  }
}

}  // namespace dtpp::kernel
