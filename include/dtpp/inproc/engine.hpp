// The in-process engine: runs a checked D program inside the application. BEGIN, END and ERROR,
// tick-N and profile-N from timer threads, and DTPP_PROBE sites; aggregations in lock-free
// per-thread shards; output actions as records in a principal buffer, as the kernel's would be.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtpp/agg/dynamic_aggregation.hpp"
#include "dtpp/engine/factory.hpp"
#include "dtpp/engine/source.hpp"
#include "dtpp/ir/program.hpp"

namespace dtpp::inproc {

/// A program the engine cannot run: a probe it cannot serve, for instance.
class engine_error : public dtpp::engine::error {
 public:
  using dtpp::engine::error::error;
};

using dtpp::engine::drop_count;
using dtpp::engine::fault;
using dtpp::engine::firing;
using dtpp::engine::probe_info;

struct engine_options {
  std::string program_name = "dtpp";  ///< the module of DTPP_PROBE probes
  std::size_t bufsize = 4u << 20;     ///< principal buffer bytes before records are dropped
  std::size_t aggsize = 4u << 20;     ///< bytes of each aggregation, per thread, before drops
  std::size_t dynvarsize = 1u << 20;  ///< bytes thread-locals and array elements share
  std::size_t nspec = 1;              ///< speculative buffers speculation() hands out
  std::size_t specsize = 4u << 20;    ///< bytes of a speculative buffer: a firing's record that passes them is dropped
  unsigned cpus = 0;                  ///< CPUs profile-N fires on; 0: the machine's
  /// -x cpu: the one CPU whose firings run clauses (a site's, where its thread runs), and where
  /// profile-N and tick-N fire; BEGIN, END and ERROR run anyway.
  std::optional<std::uint32_t> cpu = {};
  bool zdefs = false;  ///< -Z: a description matching nothing is no error (its clauses never fire)
};

/// The probes an in-process program can enable without naming them: dtrace:::BEGIN, END and
/// ERROR, profile's pre-listed rates (any other rate may be named), and the executable's
/// DTPP_PROBE sites, as dtrace -l lists them.
std::vector<probe_info> available_probes(const engine_options& options = {});

/// The in-process engine as a consumer chooses engines (engine::select): it claims programs naming
/// the process's DTPP_PROBE sites, and serves every program no other engine claims.
dtpp::engine::factory engine_factory();

class engine final : public dtpp::engine::source {
 public:
  /// Binds every probe description to what this process can fire; throws engine_error for a
  /// description nothing matches (a provider only the kernel shim serves, say).
  engine(const ir::program& program, engine_options options = {});
  ~engine() override;
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  const ir::program& program() const override;
  const std::vector<probe_info>& probes() const override;

  /// Fires BEGIN, then enables DTPP_PROBE sites and starts the tick/profile timers.
  void go() override;
  /// Stops timers and sites, then fires END (once).
  void stop() override;
  /// Fires a clause set by probe id (for tests and embedders driving probes by hand).
  void fire(std::uint32_t probe, std::span<const std::int64_t> args = {});

  /// exit() has run: the consumer should stop, and stop() will fire END.
  bool exited() const override;
  int exit_status() const override;

  /// Takes the records written since the last call, in firing order.
  std::vector<firing> take_records() override;
  std::vector<fault> take_faults() override;
  /// The principal buffer's drops since the last call (counted as on CPU 0).
  std::vector<drop_count> take_drops() override;
  std::uint64_t drops() const;

  /// The aggregation with a variable id (1-based), live.
  agg::dynamic_aggregation& aggregation(std::uint32_t varid) override;

  struct state;  ///< everything behind the interface (defined in src/inproc/state.hpp)

 private:
  std::unique_ptr<state> state_;
};

}  // namespace dtpp::inproc
