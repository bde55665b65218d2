// The kernel driver: runs a checked D program in the Linux kernel. Clauses become eBPF programs
// attached to syscall and other tracepoints, CPU-clock perf events (profile-N, tick-N), and
// BEGIN/END run in the kernel too; aggregations live in per-CPU maps in DTrace's words; records
// come back through a ring buffer to the same consumer as the in-process engine's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dtpp/engine/factory.hpp"
#include "dtpp/engine/source.hpp"
#include "dtpp/ir/program.hpp"

namespace dtpp::kernel {

using engine::drop_count;
using engine::fault;
using engine::firing;
using engine::probe_info;

/// The kernel refused, or the program asks for what the kernel engine cannot do.
class error : public engine::error {
 public:
  using engine::error::error;
};

struct driver_options {
  std::size_t bufsize = 4u << 20;     ///< ring buffer bytes (rounded up to a power of two)
  std::size_t aggsize = 4u << 20;     ///< bytes of each aggregation's map
  std::size_t dynvarsize = 1u << 20;  ///< bytes of each thread-local / array map
  std::size_t nspec = 1;              ///< speculative buffers
  std::size_t specsize = 4u << 20;    ///< bytes of a speculative buffer: a firing's record that passes them is dropped
  /// -Z: a description may match no probe, as a pid or USDT one naming a library the process
  /// has not loaded yet (its probes are placed when it is).
  bool zdefs = false;
  /// bpflog: given each program's verifier log once it loads; empty: loads ask for no log.
  std::function<void(std::string_view log)> verifier_log{};
  /// bpflogsize: the bytes of the verifier's log (that of a refused program too).
  std::size_t verifier_log_size = (16u << 20) - 1;
  std::optional<std::uint32_t> cpu = {};  ///< -x cpu: only probes firing on this CPU run their clauses
};

/// Why this process cannot trace the kernel (no privilege, no BPF, no tracefs), or nothing.
std::optional<std::string> unavailable();

/// Whether a probe description can only be served by the kernel: syscall, tracepoint, and
/// profile-N, which samples the whole system; also DTrace's kernel providers that this kernel
/// cannot serve (fbt, lockstat, ip, sysinfo, ...), so that the kernel engine refuses them with
/// the reason.
bool names_kernel_provider(const ir::probe& description);

/// The kernel probes a description matches, or every kernel probe when none is given (but
/// dtrace's and profile's, which the in-process engine lists), as dtrace -l lists them: in id
/// order, with the ids a run gives them (dtpp/engine/probe_ids.hpp).
std::vector<probe_info> list_probes(const ir::probe* description = nullptr);

/// The kernel engine as a consumer chooses engines (engine::select): it claims programs naming
/// syscall, tracepoint or profile-N probes, and runs any program -x engine=kernel sends it.
engine::factory engine_factory();

/// The engines a consumer linking dtpp::kernel can run programs in: the in-process engine (the
/// default) and the kernel's.
///
///     dtpp::consumer::handle h(dtpp::kernel::engines());
std::vector<engine::factory> engines();

class driver final : public engine::source {
 public:
  /// Matches the probes, generates, loads and verifies every program and creates the maps;
  /// throws error (with the verifier's log when it refused) and releases what it made.
  driver(const ir::program& program, driver_options options = {});
  ~driver() override;
  driver(const driver&) = delete;
  driver& operator=(const driver&) = delete;

  const ir::program& program() const override;
  const std::vector<probe_info>& probes() const override;

  /// Runs BEGIN in the kernel, then attaches every probe (unless BEGIN called exit()).
  void go() override;
  /// Detaches every probe, then runs END in the kernel (once).
  void stop() override;
  bool exited() const override;
  int exit_status() const override;

  std::vector<firing> take_records() override;
  std::vector<fault> take_faults() override;
  std::vector<drop_count> take_drops() override;
  agg::live_aggregation& aggregation(std::uint32_t varid) override;

  /// BPF instructions loaded, over all programs (for tests and -S style reports).
  std::size_t instructions() const;

  struct state;

 private:
  std::unique_ptr<state> state_;
};

}  // namespace dtpp::kernel
