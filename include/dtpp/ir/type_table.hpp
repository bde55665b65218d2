// Where the checker finds types D does not define itself: the kernel's structs, unions, typedefs
// and the members of each, as the kernel engine reads them from BTF (kernel/btf_types.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dtpp/ir/program.hpp"
#include "dtpp/ir/type.hpp"

namespace dtpp::ir {

/// A member of a struct or union: its type and where it lies in the object.
struct member_info {
  type t;
  std::uint32_t bit_offset = 0;  ///< from the object's start
  std::uint32_t bit_size = 0;    ///< a bit-field's width; 0 for an ordinary member
};

/// The bytes a bit-field `bits` wide is read and written in when it starts at a byte: the fewest
/// of 1, 2, 4 or 8 that hold it.
inline std::uint32_t bit_field_bytes(std::uint32_t bits) {
  const auto bytes = (bits + 7) / 8;
  return bytes <= 1 ? 1 : bytes <= 2 ? 2 : bytes <= 4 ? 4 : 8;
}

/// A probe's argument as its provider declares it (for the kernel's, the tracepoint's format
/// file): args[N]'s C type, and where it lies in the probe's record. A stable provider's argument
/// is translated (DTrace's native and translated types): args[0] of sched:::wakeup is a
/// `struct task_struct *` that D sees as the `lwpsinfo_t *` D's library translates it to.
struct probe_argument {
  std::string name;       ///< "filename"
  std::string type_name;  ///< C's, without the name: "const char *", "char[16]", "__data_loc char[]", "pid_t"
  std::uint32_t offset = 0;
  std::uint32_t size = 8;
  bool is_signed = false;
  std::string translated;  ///< the type D sees ("lwpsinfo_t *"); empty: type_name itself
  /// A stable provider's argument that D's library computes: the inline whose value args[N] is
  /// (its argN are then the probe's raw arguments); empty: the argument's own value.
  std::string computed{};
  friend bool operator==(const probe_argument&, const probe_argument&) = default;
};

/// Whether two probes' Nth arguments are one to a clause that names both: the same in every way,
/// or, for a scalar (read from each probe's own place: argN), the same but for where it lies
/// (sched:::wakeup's psinfo_t * is the tracepoint's first argument, signal-send's its third).
inline bool same_argument(const probe_argument& a, const probe_argument& b) {
  auto moved = b;
  const bool in_record = a.type_name.find('[') != std::string::npos;  // char[16], __data_loc char[]
  if (!in_record) moved.offset = a.offset;
  return a == moved;
}

/// A source of named types with ids, which ir::type's `id` and `pointee` refer to. Lookups may
/// load what they need on first use (vmlinux BTF takes milliseconds to parse), so that a program
/// naming no such type costs nothing.
///
///     if (auto t = table.find("struct task_struct"))
///       if (auto m = table.member(t->id, "pid")) ...  // m->t is pid_t, m->bit_offset its place
class type_table {
 public:
  virtual ~type_table() = default;
  /// The type D names `name`: "struct task_struct", "union thread_union", "pid_t" (a typedef).
  virtual std::optional<type> find(std::string_view name) = 0;
  /// The type with id `id` (a pointer's pointee), typedefs and qualifiers seen through but
  /// named as written (pid_t stays "pid_t").
  virtual std::optional<type> resolve(std::uint32_t id) = 0;
  /// The member `name` of the struct or union `record` (an id), looked for in anonymous
  /// structs and unions within too, as C does.
  virtual std::optional<member_info> member(std::uint32_t record, std::string_view name) = 0;
  /// The element type of the array `array` (an id).
  virtual std::optional<type> element(std::uint32_t array) = 0;
  /// Every member of the struct or union `record` (an id), in order, an anonymous struct or
  /// union as one member with an empty name (what print() shows).
  virtual std::vector<std::pair<std::string, member_info>> members(std::uint32_t record) {
    (void)record;
    return {};
  }
  /// The arguments the probes `description` matches declare alike, in order (up to the first
  /// that differs between two of them); empty when they declare none or match nothing.
  virtual std::vector<probe_argument> probe_arguments(const probe& description) {
    (void)description;
    return {};
  }
  /// A compile begins: what the table learnt of the system's probes for the last one (tracefs's
  /// event list), which may have changed since, is read again when first needed, then kept for
  /// the whole compile (not re-read for each probe description and question).
  virtual void compile_begins() {}
  /// Why `description` matches no probe that this source's engine could serve, when a provider
  /// or probe DTrace documents is not served here (fbt, sched:::on-cpu ...); nothing otherwise.
  virtual std::optional<std::string> unavailable(const probe& description) {
    (void)description;
    return std::nullopt;
  }
};

}  // namespace dtpp::ir
