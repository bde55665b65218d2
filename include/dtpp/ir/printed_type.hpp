// What print() shows of an object: its type's shape (members, elements, enumerators), resolved
// once by the checker so that the consumer prints the bytes an engine recorded without a type
// table of its own.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dtpp::ir {

struct printed_member;

/// A type as print() walks it, down to the depth dtrace-utils shows (10 levels).
struct printed_type {
  enum class shape : std::uint8_t { integer, pointer, enumeration, record, array, other };
  shape kind = shape::other;
  std::string name;  ///< as C names it: "int", "char [5]", "struct page *", "union" (anonymous)
  std::uint32_t size = 0;
  bool is_signed = false;
  std::uint32_t bit_size = 0;            ///< a bit-field's width; 0 for an ordinary integer
  std::uint32_t count = 0;               ///< an array's elements
  std::vector<printed_member> members;   ///< a record's, in order; an array's element (one)
  std::vector<std::pair<std::int64_t, std::string>> enumerators;  ///< an enum's
};

/// A member of a record (its name empty for an anonymous struct or union), or an array's element.
struct printed_member {
  std::string name;
  std::uint32_t bit_offset = 0;  ///< from the start of the enclosing object
  printed_type t;
};

/// Levels print() descends before it shows "...", as dtrace-utils does.
inline constexpr int printed_depth = 10;

}  // namespace dtpp::ir
