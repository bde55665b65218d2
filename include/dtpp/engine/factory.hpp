// How engines are made and chosen: a consumer holds a list of factories (the in-process engine's
// always; the kernel's when it links dtpp::kernel), and select() picks the one that runs a program,
// the single place where that choice is made.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
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
  std::size_t specsize = 4u << 20;    ///< bytes of each speculative buffer (a firing's own, here)
  bool zdefs = false;                 ///< -Z: a description may match no probe (yet)
  /// bpflog: given each BPF program's verifier log once it loads (kernel); empty: no log asked.
  std::function<void(std::string_view log)> verifier_log{};
  std::size_t verifier_log_size = (16u << 20) - 1;  ///< bpflogsize: the log's bytes, as dtrace-utils
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

/// Whether an expression reads the memory of a type_table's types (curthread, a kernel struct's
/// member, stringof a char array in one) or the task's registers (uregs[]): only the engine that
/// gave those types can. Memory of the types a program declares, and scratch memory, every
/// engine has.
inline bool reads_table_memory(const ir::expr& e) {
  using kind = ir::expr::kind_t;
  using ir::builtin;
  if (e.kind == kind::builtin)
    return e.index == static_cast<std::uint32_t>(builtin::curthread) ||
           e.index == static_cast<std::uint32_t>(builtin::probe_record) ||
           e.index == static_cast<std::uint32_t>(builtin::uregs);
  return (e.kind == kind::memory || e.kind == kind::memory_string) &&
         (ir::names_table_type(e.t) || ir::names_table_type(e.kids[0].t));
}

/// Whether a program needs what the kernel engine alone has: memory of a type_table's types.
inline bool kernel_engine_only(const ir::program& program) {
  bool reads = false;
  for (const auto& c : program.clauses)
    ir::for_each_expression(c, [&](const ir::expr& e) { reads |= reads_table_memory(e); });
  return reads;
}

/// The engine that runs `program`: the one `choice` names (-x engine=kernel|inproc); for "auto"
/// (or empty), the engine with a type table (the kernel's) for a program kernel_engine_only()
/// names, else the first engine claiming one of the program's probes, else the first engine.
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
  if (kernel_engine_only(program))
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
