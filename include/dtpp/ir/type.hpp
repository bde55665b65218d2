// D's types as the checker gives them to expressions and every engine reads them.
#pragma once

#include <cstdint>
#include <string>

#include "dtpp/agg/symbol_form.hpp"

namespace dtpp::ir {

/// A D type: integers of 1, 2, 4 or 8 bytes, floats (float, 4 bytes; double, 8), strings of
/// strsize bytes, void, or a stack: a
/// kernel stack's program counters (stack()), or a process id and its user stack's (ustack()),
/// 8 bytes each, ended by a zero when there are fewer than room for.
///
/// Types from a type_table (the kernel's BTF) add pointers, structs, unions and arrays. A pointer
/// is an 8-byte unsigned integer whose `pointee` names what it points to, so that every engine
/// stores, compares, prints and keys it as the integer it is. A struct, union or array is never a
/// value: an expression of that type stands for the object's address (as an array does in C),
/// which member access, `*`, stringof and sizeof take.
///
/// A float is its bits, as dtrace-utils keeps it: D does no arithmetic on floats (no kernel
/// engine could), so every engine loads, stores, records and keys one as the unsigned integer of
/// its size, and only printf's %e %f %g read the bits as a number (print/format.hpp).
struct type {
  enum class category : std::uint8_t { void_type, integer, string, stack, ustack, record, array, floating };
  category kind = category::void_type;
  std::uint32_t size = 0;
  bool is_signed = false;
  std::string name;  ///< as D names it: "int", "uint64_t", "string", "struct task_struct *"
  /// record and array: the type's id in the type_table it came from.
  std::uint32_t id = 0;
  /// A pointer into a type_table's types: the id of the type it points to (0: not such a pointer).
  std::uint32_t pointee = 0;
  /// A stack or ustack of one frame made by sym(), usym(), uaddr(), mod() ...: how it prints.
  agg::symbol_form form = agg::symbol_form::none;

  bool is_integer() const { return kind == category::integer; }
  bool is_string() const { return kind == category::string; }
  bool is_floating() const { return kind == category::floating; }
  bool is_void() const { return kind == category::void_type; }
  bool is_stack() const { return kind == category::stack || kind == category::ustack; }
  bool is_pointer() const { return kind == category::integer && pointee != 0; }
  /// A struct, union or array: an object in memory, not a value.
  bool is_object() const { return kind == category::record || kind == category::array; }
  friend bool operator==(const type&, const type&) = default;
};

/// Type ids from here up name the types a D program declares; those below, a type_table's (the
/// kernel's BTF).
inline constexpr std::uint32_t first_declared_id = 1u << 30;

/// Whether `t` is, or points to, one of a type_table's types: an object in the memory of the
/// engine that gave them (the kernel's), not one a D program declared.
inline bool names_table_type(const type& t) {
  const auto from_table = [](std::uint32_t id) { return id != 0 && id < first_declared_id; };
  return (t.is_object() && from_table(t.id)) || from_table(t.pointee);
}

/// A value wrapped to a type's size and signedness, as D stores it.
inline std::int64_t fit(std::int64_t v, const type& t) {
  const auto u = static_cast<std::uint64_t>(v);
  switch (t.size) {
    case 1: return t.is_signed ? static_cast<std::int8_t>(u) : static_cast<std::int64_t>(static_cast<std::uint8_t>(u));
    case 2: return t.is_signed ? static_cast<std::int16_t>(u) : static_cast<std::int64_t>(static_cast<std::uint16_t>(u));
    case 4: return t.is_signed ? static_cast<std::int32_t>(u) : static_cast<std::int64_t>(static_cast<std::uint32_t>(u));
    default: return v;
  }
}

}  // namespace dtpp::ir
