// The engine contract: what every engine offers its consumer (a running D program's probes,
// records, faults, drops and live aggregations). The in-process engine and the kernel driver both
// implement it; the consumer's session, the handle and the command only see this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dtpp/agg/live.hpp"
#include "dtpp/d/span.hpp"
#include "dtpp/engine/fault.hpp"
#include "dtpp/ir/program.hpp"

namespace dtpp::engine {

/// A program an engine refuses to run. `where` places the cause in the D source when one
/// construct or probe description is it; `tag` is the D compiler's tag when DTrace reports the
/// same refusal as a compile error (D_PDESC_ZERO: a description that matches no probe).
class error : public std::runtime_error {
 public:
  explicit error(const std::string& what, d::span where = d::nowhere,
                        std::string tag = {})
      : std::runtime_error(what), where(where), tag(std::move(tag)) {}
  d::span where;
  std::string tag;
};

/// One probe the program enabled, as dtrace -l would list it.
struct probe_info {
  std::uint32_t id = 0;  ///< as dtrace -l lists it and `id` reads it (probe_ids.hpp)
  std::string provider, module, function, name;
  std::vector<std::uint32_t> clauses;  ///< the clauses it runs: indexes into program.clauses, in order
  /// Beside each of `clauses`: the statement it runs as here (fault::statement, dt_clause_N), that
  /// of the first of its probe descriptions that names this probe.
  std::vector<std::uint32_t> statements;
};

/// A record in the principal buffer: the enabled probe (clause) that fired, where, and the
/// clause's data laid out as its ir::record descriptions say.
struct firing {
  std::uint32_t epid = 0;      ///< the clause id
  std::uint32_t probe = 0;     ///< the probe_info id
  std::uint32_t cpu = 0;
  std::vector<std::byte> data;
  std::uint32_t speculation = 0;  ///< the speculative buffer the data goes to (speculate()); 0: none
};

/// Data lost since the last look, per CPU, as dtrace(1) reports it.
struct drop_count {
  enum class kind : std::uint8_t {
    principal,    ///< "N drops on CPU c": the principal buffer was full
    aggregation,  ///< "N aggregation drops on CPU c": the aggregation had no room for a key
    dynamic,      ///< "N dynamic variable drops": no room for a thread-local or array element
    speculative,  ///< "N speculative drops": a speculative buffer was full (specsize)
    speculation_busy,         ///< speculation() found every buffer still being committed
    speculation_unavailable,  ///< speculation() found every buffer in use (nspec)
  } what = kind::principal;
  std::uint32_t cpu = 0;
  std::uint64_t count = 0;
};

/// dtrace(1)'s message for a drop count (without the command's name).
inline std::string describe(const drop_count& d) {
  const auto n = std::to_string(d.count);
  switch (d.what) {
    case drop_count::kind::principal:
      return n + (d.count == 1 ? " drop" : " drops") + " on CPU " + std::to_string(d.cpu);
    case drop_count::kind::aggregation:
      return n + " aggregation" + (d.count == 1 ? " drop" : " drops") + " on CPU " + std::to_string(d.cpu);
    case drop_count::kind::dynamic:
      return n + " dynamic variable" + (d.count == 1 ? " drop" : " drops");
    case drop_count::kind::speculative:
      return n + " speculative" + (d.count == 1 ? " drop" : " drops");
    case drop_count::kind::speculation_busy:
      return n + " failed speculation" + (d.count == 1 ? "" : "s") + " (available buffer(s) still busy)";
    case drop_count::kind::speculation_unavailable:
      return n + " failed speculation" + (d.count == 1 ? "" : "s") + " (no speculative buffer available)";
  }
  return n;
}

/// libdtrace's name for a drop's kind, which `-x droptags` puts before its message.
inline std::string_view tag(drop_count::kind what) {
  switch (what) {
    case drop_count::kind::principal: return "DTRACEDROP_PRINCIPAL";
    case drop_count::kind::aggregation: return "DTRACEDROP_AGGREGATION";
    case drop_count::kind::dynamic: return "DTRACEDROP_DYNAMIC";
    case drop_count::kind::speculative: return "DTRACEDROP_SPEC";
    case drop_count::kind::speculation_busy: return "DTRACEDROP_SPECBUSY";
    case drop_count::kind::speculation_unavailable: return "DTRACEDROP_SPECUNAVAIL";
  }
  return "DTRACEDROP_UNKNOWN";
}

/// A running program as its consumer drives it: go, take what it produced, stop.
class source {
 public:
  virtual ~source() = default;

  virtual const ir::program& program() const = 0;
  /// The probes the program enabled, in id order (probe_ids.hpp says how ids are given).
  virtual const std::vector<probe_info>& probes() const = 0;

  /// Fires BEGIN, then enables the program's probes.
  virtual void go() = 0;
  /// Disables the probes, then fires END (once).
  virtual void stop() = 0;

  /// exit() has run: the consumer should stop, and stop() will fire END.
  virtual bool exited() const = 0;
  virtual int exit_status() const = 0;

  /// What arrived since the last call, in order.
  virtual std::vector<firing> take_records() = 0;
  virtual std::vector<fault> take_faults() = 0;
  virtual std::vector<drop_count> take_drops() = 0;

  /// The aggregation with a variable id (1-based).
  virtual agg::live_aggregation& aggregation(std::uint32_t varid) = 0;
};

}  // namespace dtpp::engine
