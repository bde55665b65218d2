// How engines are made and chosen: a consumer holds a list of factories (the in-process engine's
// always; the kernel's when it links dtpp::kernel), and select() picks the one that runs a program,
// the single place where that choice is made.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dtpp/engine/source.hpp"
#include "dtpp/ir/program.hpp"
#include "dtpp/ir/type_table.hpp"

namespace dtpp::engine {

/// What a run asks of its engine, from DTrace's options (bufsize, aggsize, dynvarsize) and the
/// consumer (the module that names DTPP_PROBE probes).
struct run_options {
  std::string program_name = "dtpp";
  std::size_t bufsize = 4u << 20;     ///< principal buffer bytes
  std::size_t aggsize = 4u << 20;     ///< bytes of each aggregation (per CPU or thread)
  std::size_t dynvarsize = 1u << 20;  ///< bytes of each thread-local / array map (kernel)
  std::size_t nspec = 1;              ///< speculative buffers
  bool zdefs = false;                 ///< -Z: a description may match no probe (yet)
  std::optional<std::uint32_t> cpu = {};  ///< -x cpu: only probes firing on this CPU are traced
};

/// One engine a consumer can run programs in.
struct factory {
  std::string_view name;  ///< what -x engine= calls it: "inproc", "kernel"
  /// Whether a probe description names probes only this engine serves (syscall, tracepoint,
  /// profile-N in the kernel; DTPP_PROBE sites in the process): a program naming one runs here.
  bool (*claims)(const ir::probe& description) = nullptr;
  /// Binds the program's probes and prepares it to run; throws engine::error (or a subclass)
  /// saying why it cannot, the kernel's refusal included.
  std::unique_ptr<source> (*make)(const ir::program& program, const run_options& options) = nullptr;
  /// The probes a program's descriptions match, or (null) every probe the engine can offer, as
  /// dtrace -l lists them, numbered from 1. Throws engine::error as make() does.
  std::vector<probe_info> (*probes)(const ir::program* program, const run_options& options) = nullptr;
  /// The types its programs may name beyond D's own (the kernel's structs, curthread), for the
  /// checker; null: none.
  ir::type_table& (*types)() = nullptr;
};

/// The types the first of `engines` to offer any gives programs, or null.
inline ir::type_table* types_of(std::span<const factory> engines) {
  for (const auto& e : engines)
    if (e.types) return &e.types();
  return nullptr;
}

/// Whether a program reads the memory of a type_table's types (curthread, p->member, stringof a
/// char array) or uses scratch memory (alloca(), copyin(), bcopy(), copyinto()): only the engine
/// that gave those types can.
inline bool reads_typed_memory(const ir::program& program) {
  bool reads = false;
  for (const auto& c : program.clauses)
    ir::for_each_expression(c, [&](const ir::expr& e) {
      using kind = ir::expr::kind_t;
      using ir::subroutine;
      reads |= e.kind == kind::memory || e.kind == kind::memory_string ||
               (e.kind == kind::builtin && e.index == static_cast<std::uint32_t>(ir::builtin::curthread)) ||
               (e.kind == kind::call && (e.function == subroutine::alloca || e.function == subroutine::copyin ||
                                         e.function == subroutine::bcopy || e.function == subroutine::copyinto));
    });
  return reads;
}

/// The engine that runs `program`: the one `choice` names (-x engine=kernel|inproc); for "auto"
/// (or empty), the engine that gave the types of the memory it reads, else the first engine
/// claiming one of the program's probes, else the first engine.
/// Throws engine::error for a choice none of `engines` is.
inline const factory& select(std::span<const factory> engines, const ir::program& program,
                             std::string_view choice = "auto") {
  if (engines.empty()) throw error("no engine to run the program");
  if (!choice.empty() && choice != "auto") {
    for (const auto& e : engines)
      if (e.name == choice) return e;
    throw error("the " + std::string(choice) + " engine is not available to this consumer" +
                (choice == "kernel" ? " (it comes with dtpp::kernel)" : ""));
  }
  if (reads_typed_memory(program))
    for (const auto& e : engines)
      if (e.types) return e;
  for (const auto& e : engines)
    if (e.claims)
      for (const auto& c : program.clauses)
        for (const auto& p : c.probes)
          if (e.claims(p)) return e;
  return engines.front();
}

}  // namespace dtpp::engine
