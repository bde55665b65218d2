// The consumer handle: libdtrace's consumer functions (dtrace_open ... dtrace_close, Example 35 of
// the Oracle DTrace guide) as one C++ object, over whichever engine runs the program: the
// in-process engine always, the kernel's when the handle is given dtpp::kernel's engines.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtpp/agg/snapshot.hpp"
#include "dtpp/agg/walk.hpp"
#include "dtpp/agg/dynamic.hpp"
#include "dtpp/consumer/callbacks.hpp"
#include "dtpp/consumer/error.hpp"
#include "dtpp/consumer/metrics_server.hpp"
#include "dtpp/consumer/session.hpp"
#include "dtpp/d/source.hpp"
#include "dtpp/engine/factory.hpp"
#include "dtpp/engine/source.hpp"
#include "dtpp/ir/program.hpp"
#include "dtpp/options/set.hpp"
#include "dtpp/print/aggregation.hpp"
#include "dtpp/print/openmetrics.hpp"

namespace dtpp::consumer {

/// A compiled program (dtrace_prog_t): the checked program, with every program compiled on the
/// same handle before it, and the name of its source.
struct program {
  ir::program checked;
  std::string name;             ///< the file's path, or "<string>"
  std::uint32_t first_clause = 0;  ///< its own clauses: checked.clauses from here on
};

/// A DTrace consumer: compiles D, runs it in an engine, consumes its records and aggregations, as
/// libdtrace's consumer functions do. Not thread-safe (one thread drives it, as one thread drives
/// a dtrace_hdl_t); handles on different threads are independent.
///
///     dtpp::consumer::handle h(dtpp::kernel::engines());          // dtrace_open
///     const auto prog = h.compile("syscall::read:entry { @c[execname] = count(); }");
///     h.exec(prog);                                                // dtrace_program_exec
///     h.go();                                                      // dtrace_go: BEGIN
///     while (h.work(stdout) == dtpp::consumer::work_status::okay)  // dtrace_work
///       h.sleep();                                                 // dtrace_sleep
///     h.aggregate_print(stdout);                                   // dtrace_aggregate_print
///     auto c = h.aggregation<dtpp::Count, std::string>("c");       // typed, exact values
class handle {
 public:
  /// The shortest sleep().
  static constexpr auto idle_pace = session::idle_pace;

  /// dtrace_open(): a handle with DTrace's default options, running programs in `engines` (the
  /// first is the default; see engine::select). The in-process engine alone unless told.
  explicit handle(std::vector<engine::factory> engines = default_engines(),
                  std::string program_name = "dtpp");
  handle(handle&&) noexcept;
  handle& operator=(handle&&) noexcept;
  /// dtrace_close(): stops the program's probes and timers; END does not fire (stop() fires it).
  ~handle();

  /// The in-process engine: what a handle runs without dtpp::kernel.
  static std::vector<engine::factory> default_engines();

  /// dtrace_program_strcompile(): checks D text, with $1, $2 ... from `arguments` ($0 is
  /// "dtpp"). The programs compiled on one handle share variables and aggregations, as in one
  /// dtrace(1) run (each is checked after the ones before it). Throws compile_error with every
  /// diagnostic. The program's pragmas set the handle's options, as libdtrace's compiler does.
  program compile(std::string_view text, std::vector<std::string> arguments = {});
  /// dtrace_program_fcompile(): the same for a file ($0 is its path); throws error with the
  /// errno when it cannot be read.
  program compile_file(const std::string& path, std::vector<std::string> arguments = {});

  /// dtrace_program_exec(): enables the program's clauses beside those of the programs executed
  /// before it, chooses the engine (-x engine, or the providers the programs name) and binds
  /// their probes. Throws engine_error (ENOENT) for a probe no engine serves or an engine that
  /// refuses (the kernel without privilege ...), error EBUSY once tracing has started.
  void exec(const program& p);

  /// dtrace_setopt(): DTrace's syntax (sizes with k/m/g/t, rates with ns ... day or hz, toggles
  /// yes/no/on/off/... ; no value sets a toggle). Throws error "failed to set option 'x': ...":
  /// errc::bad_option_name, errc::bad_option_value, or errc::tracing_active for a run-time option
  /// that only dynamic ones (quiet, switchrate, aggsort* ...) may change once go() has run.
  void setopt(std::string_view name, std::optional<std::string_view> value = {});
  /// dtrace_getopt(): a run-time option's value as libdtrace keeps it, in decimal: sizes in
  /// bytes, rates in nanoseconds, toggles 0 when set without a value and 1 for yes/on/...;
  /// nullopt when unset. Compile-time options cannot be read (errc::bad_option_name).
  std::optional<std::string> getopt(std::string_view name) const;
  const options::option_set& options() const { return options_; }

  /// dtrace_go(): fires BEGIN, then enables the probes. Throws error EINVAL before exec() or a
  /// second time, engine_error (EBUSY) when the engine cannot start.
  void go();
  /// dtrace_sleep(): until the next of switchrate, aggrate and statusrate is due after the last
  /// consume, snapshot and status, and at least idle_pace.
  void sleep() const;
  /// dtrace_status(): whether exit() ran, drops and faults. Once exit() has run it stops
  /// tracing (END fires), as libdtrace's does.
  run_status status();

  /// dtrace_work(): once switchrate has passed since its last work (at once after stop(), and
  /// always for a switchrate of 0), status(), a snapshot, then the records written since the
  /// last call, in firing order. For each firing: on_probe, then (if it returns this_record) the probe line
  /// unless quiet, each record offered to on_record and printed to `out` when it returns
  /// this_record, and on_record(nullptr) closing the firing (this_record: its newline unless
  /// quiet). clear(), trunc(), normalize(), denormalize() and setopt() are carried out without
  /// asking, as libdtrace does. Then faults and drops go to their handlers.
  ///
  /// Returns done once exit() or stop() has ended tracing (END's records consumed). Throws
  /// error: errc::aborted or errc::callback_error for a callback's abort or error (the firing is
  /// dropped; later ones wait for the next call), errc::probe_fault for a fault when no
  /// handle_faults() callback is installed, errc::drop_abort for drops when no handle_drops()
  /// callback is, write_error (its errno) when `out` refuses what is written.
  work_status work(std::FILE* out, const probe_callback& on_probe = {},
                   const record_callback& on_record = {});
  /// Whether the next work() reads the buffers (switchrate has passed, or tracing has stopped).
  /// A consumer that ends the run when a process dies looks for its death just before such a
  /// work(): what the process traced before it died (an exit() in its last system call) is read
  /// before its death is acted on.
  bool work_due() const;

  /// dtrace_handle_err(): who hears of faults. Without one, work() throws errc::probe_fault.
  void handle_faults(fault_callback on_fault);
  /// dtrace_handle_drop(): who hears of drops. Without one, work() throws errc::drop_abort.
  void handle_drops(drop_callback on_drop);

  /// dtrace_aggregate_snap(): marks the time for sleep()'s aggrate; aggregation() and
  /// aggregate_print() read the engine's aggregations as they are when called.
  void aggregate_snap();
  /// dtrace_aggregate_clear(): zeroes every aggregation's values; its keys stay.
  void aggregate_clear();
  /// dtrace_aggregate_print(): every aggregation printa() has not printed, in the walk's order
  /// (sorted: the aggsortkey/aggsortrev/aggsortkeypos options decide), as dtrace(1) prints them
  /// at the end of a run (it prints one newline before them).
  void aggregate_print(std::FILE* out, order o = order::sorted);

  /// A typed snapshot of `@name` ("" for the anonymous aggregation): agg::typed_view over the
  /// engine's aggregation. Throws error ENOENT for a name the program does not have,
  /// agg::type_error when Fn or Keys are not what it holds.
  ///
  ///     h.aggregation<dtpp::StdDev, std::string>("c").walk(dtpp::order::keysorted,
  ///         [](std::string_view key, const dtpp::stddev& s) { ... s.stddev_value() ... });
  template <agg::function_policy Fn, class... Keys>
  agg::snapshot<Fn, agg::key_of_t<Keys...>> aggregation(std::string_view name) {
    return agg::typed_view<Fn, Keys...>(live_aggregation(name).snapshot());
  }

  /// A record a record callback was offered, as a JSON document: what -x oformat=json prints for
  /// it in the firing's "output" list (docs/command.md), null for a record that prints nothing.
  ///
  ///     h.work(stdout, {}, [&](const auto& probe, const auto* record) {
  ///       if (record) ship(h.record_json(*record).dump());
  ///       return dtpp::consumer::consume::next;
  ///     });
  print::json record_json(const record_data& record) const;
  /// `@name` ("" for the anonymous aggregation) as -x oformat=json prints it: {"aggregation",
  /// "function", "data": [{"keys", "value"}]}. Throws error ENOENT for a name the program lacks.
  print::json aggregation_json(std::string_view name, order o = order::sorted);
  /// Every aggregation keyed by a stack() or ustack(), as folded stacks (print/folded.hpp), for
  /// print::print_folded or print::flamegraph_svg.
  print::folded_stacks folded_stacks() const;
  /// Every aggregation as it is now, as metrics: OpenMetrics text ending in "# EOF", or
  /// Prometheus's text format 0.0.4 (print::content_type() gives the HTTP type), for a C++
  /// tracer to serve or push. One family per aggregation, named, typed and labelled as
  /// metric_families() says (with the metrics_labels option). Throws error EINVAL for a bad
  /// metrics_labels or clashing names, and before exec().
  ///
  ///     h.setopt("metrics_labels", "@bytes:process");
  ///     const std::string page = h.metrics();   // "# TYPE dtpp_bytes counter\n..."
  ///
  /// With the metrics option (-x metrics=ADDRESS:PORT), go() starts a metrics_server there and
  /// work() answers its scrapes with this text, so aggregations are read on the handle's thread.
  std::string metrics(print::metrics_format format = print::metrics_format::openmetrics);
  /// The port -x metrics serves on (0 when it does not), for `-x metrics=127.0.0.1:0`.
  std::uint16_t metrics_port() const;

  /// dtrace_stop(): disables the probes and fires END (once). Nothing before go().
  void stop();
  /// exit()'s status (0 before exit() has run).
  int exit_status() const;

  /// The running program and its engine (after exec()), for consumers built on the handle.
  const ir::program& running_program() const;
  engine::source& engine();
  /// The name of the engine exec() chose ("inproc", "kernel").
  std::string_view engine_name() const;
  /// The probes the executed programs enabled; their ids are probe_data's probe.id.
  const std::vector<engine::probe_info>& probes();
  /// A snapshot of the aggregation with variable id `varid` (1-based) in run-time form, with each
  /// thread's (in the kernel: each CPU's) part when more than one contributed.
  agg::dynamic_table aggregation_table(std::uint32_t varid);
  /// What the options say about printing and walking aggregations now: aggsort*, aggpercpu ...
  print::print_options print_options() const;

 private:
  program compile(const d::source_file& source, bool script_file, std::string zero, std::vector<std::string> arguments);
  agg::live_aggregation& live_aggregation(std::string_view name);
  session& running(const char* operation) const;

  std::vector<engine::factory> engines_;
  std::string program_name_;
  options::option_set options_;
  std::vector<d::source_file> compiled_;  // the sources compiled so far, in order
  ir::program latest_;                    // the executed program holding the most clauses
  std::vector<bool> enabled_;             // by clause index: executed
  std::unique_ptr<session> session_;
  std::string_view engine_name_;
  fault_callback on_fault_;
  drop_callback on_drop_;
  std::vector<print::metric_family> metric_families_;  // computed at the first metrics()
  std::unique_ptr<metrics_server> metrics_server_;     // with -x metrics, from go() on
};

}  // namespace dtpp::consumer
