// DTrace's default text for one traced record: integer keys by size, strings, raw bytes.
#pragma once

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "dtpp/print/append.hpp"

namespace dtpp::print {

/// The key width DTrace gives strings ("  %-50s").
inline constexpr int string_key_width = 50;

/// An integer record as dtrace(1) prints keys: by size, 1 and 2 bytes unsigned (" %3d", " %5d"),
/// 4 bytes " %8d", 8 bytes " %16lld".
inline void print_integer_record(std::string& out, std::size_t size, std::uint64_t bits) {
  switch (size) {
    case 1: detail::append(out, " %3d", static_cast<int>(static_cast<std::uint8_t>(bits))); break;
    case 2: detail::append(out, " %5d", static_cast<int>(static_cast<std::uint16_t>(bits))); break;
    case 4: detail::append(out, " %8d", static_cast<std::int32_t>(static_cast<std::uint32_t>(bits))); break;
    default: detail::append(out, " %16lld", static_cast<long long>(bits)); break;
  }
}

template <class T>
  requires std::is_integral_v<T>
void print_integer_record(std::string& out, T value) {
  print_integer_record(out, sizeof(T), static_cast<std::uint64_t>(value));
}

/// Bytes as DTrace dumps a record it cannot print as text: a header of column numbers, then
/// offset, 16 hex bytes and their printable characters per row.
inline void print_raw_bytes(std::string& out, std::string_view bytes) {
  if (bytes.empty()) return;
  out += "\n           ";
  for (const char digit : std::string_view("0123456789abcdef")) detail::append(out, "  %c", digit);
  out += "  0123456789abcdef\n";
  for (std::size_t row = 0; row < bytes.size(); row += 16) {
    detail::append(out, "     %5zx:", row);
    std::size_t j = row;
    for (; j < row + 16 && j < bytes.size(); ++j)
      detail::append(out, " %02x", static_cast<unsigned char>(bytes[j]));
    for (; j % 16 != 0; ++j) out += "   ";
    out += "  ";
    for (j = row; j < row + 16 && j < bytes.size(); ++j) {
      const char c = bytes[j];
      out += c < ' ' || c > '~' ? '.' : c;
    }
    out += '\n';
  }
}

/// A string record's bytes: the text, then NULs to `record_size`.
inline std::string string_record_bytes(std::string_view text, std::size_t record_size) {
  std::string record(text);
  if (record.size() < record_size) record.resize(record_size, '\0');
  return record;
}

/// A string record of `record_size` bytes (the string, then NUL padding): printed as
/// "  %-50s" when it is printable text, else dumped as raw bytes (an empty string is dumped, as
/// in DTrace, since its first byte is NUL); always dumped under the rawbytes option (`raw`).
inline void print_string_record(std::string& out, std::string_view text, std::size_t record_size,
                                int width = string_key_width, bool raw = false) {
  if (raw) return print_raw_bytes(out, string_record_bytes(text, record_size));
  const auto printable = [](unsigned char c) {
    return std::isprint(c) || std::isspace(c) || c == '\b' || c == '\a';
  };
  const auto nul = text.find('\0');
  const std::string_view shown = text.substr(0, nul);
  bool is_text = !shown.empty();
  for (const char c : shown) is_text = is_text && printable(static_cast<unsigned char>(c));
  if (nul != std::string_view::npos)
    for (const char c : text.substr(nul)) is_text = is_text && c == '\0';
  if (is_text) {
    detail::append(out, "  %-*.*s", width, static_cast<int>(shown.size()), shown.data());
    return;
  }
  print_raw_bytes(out, string_record_bytes(text, record_size));
}

}  // namespace dtpp::print
