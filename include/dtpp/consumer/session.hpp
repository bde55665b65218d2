// The consume loop, once for every consumer: what libdtrace's dtrace_work(), dtrace_status() and
// dtrace_sleep() do over a running engine. Records go to the callbacks and the printer, the library
// actions (clear, trunc, normalize, denormalize, setopt) are carried out here, faults and drops are
// reported through their handlers, exit() ends the run, and the rates pace it. The handle and,
// through it, the dtpp command consume through one session each.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "dtpp/agg/walk.hpp"
#include "dtpp/consumer/callbacks.hpp"
#include "dtpp/consumer/error.hpp"
#include "dtpp/consumer/principal_buffer.hpp"
#include "dtpp/consumer/record_printer.hpp"
#include "dtpp/engine/source.hpp"
#include "dtpp/options/set.hpp"

namespace dtpp::consumer {

/// What work() found (DTRACE_WORKSTATUS_*; its ERROR is an exception here).
enum class work_status { okay, done };

/// What status() reports (dtrace_status and its dtrace_status_t).
struct run_status {
  bool exited = false;       ///< exit() has run (DTRACE_STATUS_EXITED)
  bool stopped = false;      ///< END has fired, after exit() or stop() (DTRACE_STATUS_STOPPED)
  std::uint64_t drops = 0;   ///< records and keys lost so far, of every kind
  std::uint64_t faults = 0;  ///< faults reported so far
};

class session {
 public:
  /// The shortest sleep(): for a rate of 0 (switchrate's and aggrate's default on Linux), which
  /// would otherwise make a consumer loop spin (Linux DTrace waits for buffer events there), or
  /// one already due.
  static constexpr std::chrono::milliseconds idle_pace{10};

  /// Consumes `engine`'s program; `options` (the consumer's, which outlive the session) say how
  /// to print and pace, and setopt() actions change them.
  session(std::unique_ptr<engine::source> engine, options::option_set& options, bool testing);
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  engine::source& engine() { return *engine_; }
  /// How records and aggregations print (as the options say now).
  const record_printer& printer() const { return printer_; }

  /// BEGIN, then the probes. Throws error EBUSY when the engine cannot start.
  void go();
  /// The probes off, then END (once). Nothing before go().
  void stop();
  bool active() const { return active_; }

  /// dtrace_status(): once exit() has run it stops tracing (END fires), as libdtrace's does.
  run_status status();
  /// dtrace_work(): once switchrate has passed since the last time (at once after stop()),
  /// status(), then the firings since the last call, in order (see handle::work); then faults
  /// and drops to their handlers. Returns done once tracing has stopped and END's records are
  /// consumed.
  work_status work(std::FILE* out, const probe_callback& on_probe, const record_callback& on_record);
  /// Whether work() reads the buffers now: switchrate has passed, or tracing has stopped.
  bool work_due() const;
  /// dtrace_sleep(): until the next of switchrate, aggrate and statusrate is due, and at least
  /// idle_pace.
  void sleep() const;

  void on_fault(fault_callback f) { on_fault_ = std::move(f); }
  void on_drop(drop_callback f) { on_drop_ = std::move(f); }

  /// Options changed (setopt()): print by them from now on.
  void options_changed();

  void aggregate_snap() { last_agg_ = clock::now(); }
  void aggregate_clear();
  /// Every aggregation printa() has not printed, in the walk's order.
  void aggregate_print(std::FILE* out, order o);

  bool exited() const { return engine_->exited(); }
  int exit_status() const { return engine_->exit_status(); }

 private:
  using clock = std::chrono::steady_clock;

  /// When `rate` (an option in nanoseconds) has passed since `last`.
  clock::time_point due(clock::time_point last, std::string_view rate) const;
  void drain(std::FILE* out, const probe_callback& on_probe, const record_callback& on_record);
  void carry_out(const ir::statement& s, const engine::firing& f);
  void keep_speculative(engine::firing f);
  void run_system(std::FILE* out, const ir::statement& s, const engine::firing& f);
  void reopen(std::FILE* out, const ir::statement& s, const engine::firing& f);
  void report_fault(const engine::fault& f);
  void report_library_fault(const engine::firing& f, std::string message);
  void settle_speculation(std::uint32_t id, bool commit);
  void report_faults();
  void report_drops();

  std::unique_ptr<engine::source> engine_;
  options::option_set& options_;
  bool testing_;
  record_printer printer_;                // refers to *engine_
  std::optional<principal_buffer> buffer_;  // bufpolicy's view of the engine's firings, from go()
  std::deque<engine::firing> pending_;    // taken from the engine, not consumed yet
  struct speculative_buffer {
    std::deque<engine::firing> firings;
    std::size_t bytes = 0;
  };
  std::map<std::uint32_t, speculative_buffer> speculative_;  // by speculation id
  std::uint64_t speculative_drops_ = 0;                      // not reported yet
  fault_callback on_fault_;
  drop_callback on_drop_;
  bool active_ = false;
  bool stopped_ = false;
  std::uint64_t faults_ = 0, drops_ = 0;
  int first_out_ = -1;  // freopen(): where the output went before the first, as a descriptor
  clock::time_point last_switch_{}, last_agg_{}, last_status_{};
};

/// Writes all of `text` to `out`, or flushes `out`; throws error with errno when the stream
/// refuses (a full disk, a closed pipe).
void write(std::FILE* out, const std::string& text);
void flush(std::FILE* out);

}  // namespace dtpp::consumer
