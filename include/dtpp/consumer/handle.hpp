// The consumer handle: libdtrace's consumer functions (dtrace_open ... dtrace_close, seed 003's
// Example 35) as one C++ object, running programs in the in-process engine for now; the kernel
// shim will plug in behind the same handle.
#pragma once

#include <strings.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "dtpp/agg/dynamic.hpp"
#include "dtpp/agg/snapshot.hpp"
#include "dtpp/agg/walk.hpp"
#include "dtpp/consumer/printer.hpp"
#include "dtpp/consumer/record_printer.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/d/diagnostic.hpp"
#include "dtpp/d/options.hpp"
#include "dtpp/d/source.hpp"
#include "dtpp/inproc/engine.hpp"
#include "dtpp/ir/program.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::consumer {

/// dtpp's own error numbers for error::code(), above errno's as libdtrace's EDT_* are.
enum class errc : int {
  compile_failed = 1000,  ///< the D program has errors (EDT_COMPILER)
  bad_option_name,        ///< setopt/getopt of a name DTrace does not know (EDT_BADOPTNAME)
  bad_option_value,       ///< a value the option refuses (EDT_BADOPTVAL)
  tracing_active,         ///< a run-time option set once go() has run (EDT_ACTIVE)
  aborted,                ///< a callback returned consume::abort (EDT_DIRABORT)
  callback_error,         ///< a callback returned consume::error or no consume value (EDT_BADRVAL)
  probe_fault,            ///< a clause faulted and no fault handler is installed (EDT_ERRABORT)
};

/// What the handle's operations throw: the modern form of dtrace_errno() (code(): an errno
/// value such as EINVAL or ENOENT, or an errc) and dtrace_errmsg() (what()).
class error : public std::runtime_error {
 public:
  error(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
  error(errc code, const std::string& what) : error(static_cast<int>(code), what) {}
  int code() const { return code_; }

 private:
  int code_;
};

/// A D program that did not compile: what() is the rendered diagnostics, as dtpp prints them.
class compile_error : public error {
 public:
  compile_error(const std::string& what, std::vector<d::diagnostic> diagnostics)
      : error(errc::compile_failed, what), diagnostics_(std::move(diagnostics)) {}
  const std::vector<d::diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<d::diagnostic> diagnostics_;
};

/// A compiled program (dtrace_prog_t): the checked program and the name of its source.
struct program {
  ir::program checked;
  std::string name;  ///< the file's path, or "<string>"
};

/// What a consume callback tells the handle (DTRACE_CONSUME_*).
enum class consume : int {
  error = -1,       ///< stop: work() throws error (errc::callback_error)
  this_record = 0,  ///< print the firing or record as dtrace(1) would
  next = 1,         ///< skip it: the callback dealt with it
  abort = 2,        ///< stop: work() throws error (errc::aborted)
};

/// What work() found (DTRACE_WORKSTATUS_*; its ERROR is an exception here).
enum class work_status { okay, done };

/// One firing of an enabled probe, as the probe callback sees it (dtrace_probedata_t).
struct probe_data {
  const inproc::probe_info& probe;  ///< the probe that fired
  const ir::clause& clause;         ///< the enabled probe: the clause whose records follow
  std::uint32_t epid = 0;
  std::uint32_t cpu = 0;
  std::span<const std::byte> data;  ///< the clause's records, where clause.statements put them
};

/// One record of a firing, as the record callback sees it (dtrace_recdesc_t and its data): the
/// statement that wrote it (trace, printf, printa, exit, stack ...) and its values: printf's
/// arguments, exit()'s status, printa's aggregation ids.
struct record_data {
  const ir::statement& statement;
  std::span<const std::byte> data;  ///< the whole firing's data

  ir::action action() const { return statement.kind; }
  std::size_t values() const { return statement.records.size(); }
  print::traced value(std::size_t i = 0) const { return read_record(statement.records.at(i), data); }
  std::int64_t integer(std::size_t i = 0) const { return value(i).as_signed(); }
  std::string string(std::size_t i = 0) const { return value(i).text; }
};

/// A fault in a clause (division by zero ...), as DTrace's ERROR probe reports it.
struct fault_data {
  const inproc::probe_info& probe;
  std::uint32_t epid = 0;
  std::string what;  ///< "divide-by-zero", "invalid address (0x0)", ...

  /// dtrace(1)'s line for it, without the "dtrace: " prefix.
  std::string message() const {
    return "error on enabled probe ID " + std::to_string(epid) + " (ID " +
           std::to_string(probe.id) + ": " + probe.provider + ":" + probe.module + ":" +
           probe.function + ":" + probe.name + "): " + what;
  }
};

using probe_callback = std::function<consume(const probe_data&)>;
/// Called for each record of a firing, then once with nullptr when the firing ends.
using record_callback = std::function<consume(const probe_data&, const record_data*)>;
using fault_callback = std::function<void(const fault_data&)>;

/// What status() reports (dtrace_status and its dtrace_status_t).
struct run_status {
  bool exited = false;       ///< exit() has run (DTRACE_STATUS_EXITED)
  bool stopped = false;      ///< END has fired, after exit() or stop() (DTRACE_STATUS_STOPPED)
  std::uint64_t drops = 0;   ///< firings the principal buffer had no room for
  std::uint64_t faults = 0;  ///< faults reported so far
};

namespace detail {

/// libdtrace's DTRACEOPT_UNSET: the value of an option nobody set.
inline constexpr std::int64_t option_unset = -2;

/// A run-time option, one getopt() reads: DTrace 2.0's (dt_options.c) and the illumos display
/// options dtpp prints. `dynamic` ones may change while tracing; `initial` is DTrace's default
/// (Linux DTrace's where the two DTraces differ: docs/design.md, decision 10).
struct runtime_option {
  std::string_view name;
  bool dynamic = false;
  std::int64_t initial = option_unset;
};

inline constexpr runtime_option runtime_options[] = {
    {"aggsize", false, std::int64_t{4} << 20},
    {"bpflog", false},
    {"bpflogsize", false},
    {"bufpolicy", false, 2},  // DTRACEOPT_BUFPOLICY_SWITCH
    {"bufresize", false, 0},  // DTRACEOPT_BUFRESIZE_AUTO
    {"bufsize", false, std::int64_t{4} << 20},
    {"cleanrate", false},
    {"cpu", false},
    {"destructive", false},
    {"dynvarsize", false, std::int64_t{1} << 20},
    {"grabanon", false},
    {"jstackframes", false},
    {"jstackstrsize", false},
    {"lockmem", false},
    {"maxframes", false},
    {"noresolve", false},
    {"nspec", false, 1},
    {"pcapsize", false},
    {"scratchsize", false},
    {"specsize", false, std::int64_t{4} << 20},
    {"stackframes", false},
    {"statusrate", false, 1'000'000'000},
    {"strsize", false, 256},
    {"ustackframes", false},
    {"aggrate", true, 0},
    {"agghist", true},
    {"aggpack", true},
    {"aggsortkey", true},
    {"aggsortkeypos", true},
    {"aggsortpos", true},
    {"aggsortrev", true},
    {"aggzoom", true},
    {"flowindent", true},
    {"printsize", true},
    {"quiet", true},
    {"quietresize", true},
    {"rawbytes", true},
    {"stackindent", true, 14},
    {"switchrate", true, 0},
    {"temporal", true},
};

inline const runtime_option* find_runtime_option(std::string_view name) {
  for (const auto& o : runtime_options)
    if (o.name == name) return &o;
  return nullptr;
}

/// The suffixes of a rate (dt_opt_rate's, as the profile provider's) and their nanoseconds; 0
/// for hz, a count per second.
struct rate_unit {
  const char* name;
  std::int64_t ns;
};
inline constexpr std::int64_t one_second = 1'000'000'000;
inline constexpr rate_unit rate_units[] = {{"", 1},
                                           {"ns", 1},
                                           {"nsec", 1},
                                           {"us", 1000},
                                           {"usec", 1000},
                                           {"ms", one_second / 1000},
                                           {"msec", one_second / 1000},
                                           {"s", one_second},
                                           {"sec", one_second},
                                           {"m", 60 * one_second},
                                           {"min", 60 * one_second},
                                           {"h", 3600 * one_second},
                                           {"hour", 3600 * one_second},
                                           {"d", 86400 * one_second},
                                           {"day", 86400 * one_second},
                                           {"hz", 0}};

/// A rate in nanoseconds: a count with a time suffix (none: nanoseconds), or per second (hz).
inline std::int64_t rate_value(const std::string& text) {
  char* end = nullptr;
  const auto n = static_cast<std::int64_t>(std::strtoull(text.c_str(), &end, 0));
  for (const auto& [name, ns] : rate_units)
    if (::strcasecmp(end, name) == 0) return ns == 0 ? (n == 0 ? 0 : one_second / n) : n * ns;
  return option_unset;
}

/// A toggle: set without a value is 0, yes/on/... 1, no/off/... or an empty value unset, a
/// number itself (dt_opt_runtime).
inline std::int64_t toggle_value(const std::string& text) {
  static constexpr const char* negative[] = {"no", "disable", "disabled", "false", "off", "unset"};
  if (text.empty()) return option_unset;
  for (const char* word : negative)
    if (::strcasecmp(text.c_str(), word) == 0) return option_unset;
  if (const auto n = d::parse_unsigned(text)) return static_cast<std::int64_t>(*n);
  return 1;  // yes, enable, enabled, true, on, set
}

/// The value libdtrace keeps for a run-time option's (valid) setting; option_unset clears it.
inline std::int64_t runtime_value(const d::option_spec& spec, const char* value) {
  if (spec.name == "printsize") {  // dt_opt_printsize: 8 KiB unless 1 .. 64 KiB, 8-byte aligned
    auto size = value ? static_cast<std::int64_t>(d::parse_size(value).value_or(0)) : 0;
    if (size <= 0 || size > 65536) size = 8192;
    return (size + 7) / 8 * 8;
  }
  if (!value) return 0;
  const std::string text(value);
  switch (spec.kind) {
    case d::value_kind::toggle:
      return toggle_value(text);
    case d::value_kind::rate:
      return rate_value(text);
    case d::value_kind::choice: {  // the choice's index: DTRACEOPT_BUFPOLICY_RING is 0 ...
      std::int64_t index = 0;
      for (std::size_t at = 0, bar; (bar = spec.choices.find('|', at)) != std::string_view::npos;
           at = bar + 1, ++index)
        if (spec.choices.substr(at, bar - at) == text) return index;
      return option_unset;
    }
    default:  // sizes, and lockmem's size or "unlimited" (RLIM_INFINITY)
      if (text == "unlimited") return -1;
      return static_cast<std::int64_t>(d::parse_size(text).value_or(0));
  }
}

inline std::string read_text_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    const int e = errno != 0 ? errno : ENOENT;
    throw error(e, "failed to open " + path + ": " + std::strerror(e));
  }
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace detail

/// A DTrace consumer: compiles D, runs it, consumes its records and aggregations, as libdtrace's
/// consumer functions do (seed 003, Example 35). One program per handle; not thread-safe (one
/// thread drives it, as one thread drives a dtrace_hdl_t).
///
///     dtpp::consumer::handle h;                                    // dtrace_open
///     const auto prog = h.compile("BEGIN { @c[\"foo\"] = stddev(1); exit(0); }");
///     h.exec(prog);                                                // dtrace_program_exec
///     h.go();                                                      // dtrace_go: BEGIN
///     while (h.work(stdout) == dtpp::consumer::work_status::okay)  // dtrace_work
///       h.sleep();                                                 // dtrace_sleep
///     h.aggregate_print(stdout);                                   // dtrace_aggregate_print
///     auto c = h.aggregation<dtpp::StdDev, std::string>("c");      // typed, exact values
class handle {
 public:
  /// The pace of sleep() for a rate of 0 (switchrate's and aggrate's default on Linux), which
  /// would otherwise make a consumer loop spin: Linux DTrace waits for buffer events there.
  static constexpr std::chrono::milliseconds idle_pace{10};

  /// dtrace_open(): a handle with DTrace's default options.
  handle() {
    for (const auto& o : detail::runtime_options)
      if (o.initial != detail::option_unset) values_.emplace(o.name, o.initial);
  }
  handle(handle&&) = default;
  handle& operator=(handle&&) = default;
  /// dtrace_close(): stops the program's probes and timers; END does not fire (stop() fires it).
  ~handle() = default;

  /// dtrace_program_strcompile(): checks D text, with $1, $2 ... from `arguments` ($0 is
  /// "dtpp"). Throws compile_error with every diagnostic. The program's pragmas set the handle's
  /// options, as libdtrace's compiler sets them.
  program compile(std::string_view text, std::vector<std::string> arguments = {}) {
    return compile(d::source_file("<string>", std::string(text)), "dtpp", std::move(arguments));
  }

  /// dtrace_program_fcompile(): the same for a file ($0 is its path); throws error with the
  /// errno when it cannot be read.
  program compile_file(const std::string& path, std::vector<std::string> arguments = {}) {
    return compile(d::source_file(path, detail::read_text_file(path)), path, std::move(arguments));
  }

  /// dtrace_program_exec(): binds the program's probes. Throws error: ENOENT for a probe this
  /// process cannot serve (kernel probes wait for the kernel shim), EBUSY once a program runs.
  void exec(const program& p) {
    if (engine_) throw error(EBUSY, "failed to enable probes: the handle already runs a program");
    inproc::engine_options options;
    options.bufsize = static_cast<std::size_t>(number("bufsize").value_or(0));
    try {
      engine_ = std::make_unique<inproc::engine>(p.checked, options);
    } catch (const inproc::engine_error& e) {
      throw error(ENOENT, std::string("failed to enable probes: ") + e.what());
    }
    printer_ = std::make_unique<record_printer>(*engine_, printing());
  }

  /// dtrace_setopt(): DTrace's syntax (sizes with k/m/g/t, rates with ns ... day or hz, toggles
  /// yes/no/on/off/... ; no value sets a toggle). Throws error "failed to set option 'x': ...":
  /// errc::bad_option_name, errc::bad_option_value, or errc::tracing_active for a run-time option
  /// that only dynamic ones (quiet, switchrate, aggsort* ...) may change once go() has run.
  void setopt(std::string_view name, std::optional<std::string_view> value = {}) {
    const std::string text(value.value_or(""));
    const char* given = value ? text.c_str() : nullptr;
    const auto refuse = [&](errc code, std::string_view why) {
      return error(code, "failed to set option '" + std::string(name) + "': " + std::string(why));
    };
    const auto* spec = d::find_option(name);
    if (!spec) throw refuse(errc::bad_option_name, "Invalid option name");
    if (const auto why = d::option_error(name, given)) throw refuse(errc::bad_option_value, *why);
    const auto* runtime = detail::find_runtime_option(name);
    if (!runtime) {
      settings_[std::string(name)] = value ? std::optional<std::string>(text) : std::nullopt;
    } else {
      if (active_ && !runtime->dynamic)
        throw refuse(errc::tracing_active, "Operation illegal when tracing is active");
      const auto parsed = detail::runtime_value(*spec, given);
      if (parsed == detail::option_unset)
        values_.erase(std::string(name));
      else
        values_[std::string(name)] = parsed;
    }
    if (printer_) printer_->set_options(printing());
  }

  /// dtrace_getopt(): a run-time option's value as libdtrace keeps it, in decimal: sizes in
  /// bytes, rates in nanoseconds, toggles 0 when set without a value and 1 for yes/on/...;
  /// nullopt when unset. Compile-time options cannot be read (errc::bad_option_name, as in
  /// libdtrace).
  std::optional<std::string> getopt(std::string_view name) const {
    if (!detail::find_runtime_option(name))
      throw error(errc::bad_option_name,
                  "failed to get option '" + std::string(name) + "': Invalid option name");
    const auto v = number(name);
    return v ? std::optional<std::string>(std::to_string(*v)) : std::nullopt;
  }

  /// dtrace_go(): fires BEGIN, then enables the probes. Throws error EINVAL before exec() or a
  /// second time, EBUSY when another program has this process's DTPP_PROBE sites.
  void go() {
    require_program("go");
    if (active_) throw error(EINVAL, "failed to go: tracing is already active");
    try {
      engine_->go();
    } catch (const inproc::engine_error& e) {
      throw error(EBUSY, std::string("failed to go: ") + e.what());
    }
    active_ = true;
    last_switch_ = last_agg_ = last_status_ = clock::now();
  }

  /// dtrace_sleep(): until the next of switchrate, aggrate and statusrate is due after the last
  /// consume, snapshot and status; a rate of 0 counts as idle_pace.
  void sleep() const {
    const auto due = [&](clock::time_point last, std::string_view rate) {
      const auto ns = number(rate).value_or(0);
      return last + (ns > 0 ? std::chrono::nanoseconds(ns) : clock::duration(idle_pace));
    };
    std::this_thread::sleep_until(
        std::min({due(last_switch_, "switchrate"), due(last_agg_, "aggrate"),
                  due(last_status_, "statusrate")}));
  }

  /// dtrace_status(): whether exit() ran, drops and faults. Once exit() has run it stops
  /// tracing (END fires), as libdtrace's does.
  run_status status() {
    last_status_ = clock::now();
    if (!engine_) return {};
    if (engine_->exited()) stop();
    return {engine_->exited(), stopped_, engine_->drops(), faults_};
  }

  /// dtrace_work(): status(), a snapshot, then the records written since the last call, in
  /// firing order. For each firing: on_probe, then (if it returns this_record) the probe line
  /// unless quiet, each record offered to on_record and printed to `out` when it returns
  /// this_record, and on_record(nullptr) closing the firing (this_record: its newline unless
  /// quiet). clear(), trunc(), normalize() and denormalize() are carried out without asking, as
  /// libdtrace does. Empty callbacks accept everything, printing what dtrace(1) prints.
  ///
  /// Returns done once exit() or stop() has ended tracing (END's records consumed). Throws
  /// error: errc::aborted or errc::callback_error for a callback's abort or error (the firing is
  /// dropped; later ones wait for the next call), errc::probe_fault for a fault when no
  /// handle_faults() callback is installed.
  work_status work(std::FILE* out, const probe_callback& on_probe = {},
                   const record_callback& on_record = {}) {
    require_program("work");
    const auto st = status();
    aggregate_snap();
    drain(out, on_probe, on_record);
    report_faults();
    return st.exited || st.stopped ? work_status::done : work_status::okay;
  }

  /// dtrace_handle_err(): who hears of faults. Without one, work() throws errc::probe_fault.
  void handle_faults(fault_callback on_fault) { on_fault_ = std::move(on_fault); }

  /// dtrace_aggregate_snap(). The in-process engine's aggregations are live, so aggregation()
  /// and aggregate_print() always read them as they are; a snapshot only marks the time for
  /// sleep()'s aggrate.
  void aggregate_snap() { last_agg_ = clock::now(); }

  /// dtrace_aggregate_clear(): zeroes every aggregation's values; its keys stay.
  void aggregate_clear() {
    require_program("aggregate_clear");
    for (std::uint32_t id = 1; id <= engine_->program().aggregations.size(); ++id)
      engine_->aggregation(id).clear();
  }

  /// dtrace_aggregate_print(): every aggregation printa() has not printed, in the walk's order
  /// (sorted: the aggsortkey/aggsortrev/aggsortkeypos options decide), as dtrace(1) prints them
  /// at the end of a run (it prints one newline before them).
  void aggregate_print(std::FILE* out, order o = order::sorted) {
    require_program("aggregate_print");
    std::string text;
    printer_->unprinted_aggregations(text, o);
    write(out, text);
  }

  /// A typed snapshot of `@name` ("" for the anonymous aggregation): agg::typed_view over the
  /// engine's aggregation. Throws error ENOENT for a name the program does not have,
  /// agg::type_error when Fn or Keys are not what it holds.
  ///
  ///     h.aggregation<dtpp::StdDev, std::string>("c").walk(dtpp::order::keysorted,
  ///         [](std::string_view key, const dtpp::stddev& s) { ... s.stddev_value() ... });
  template <agg::function_policy Fn, class... Keys>
  agg::snapshot<Fn, agg::key_of_t<Keys...>> aggregation(std::string_view name) {
    require_program("aggregation");
    for (const auto& d : engine_->program().aggregations)
      if (d.name == name)
        return agg::typed_view<Fn, Keys...>(engine_->aggregation(d.varid).snapshot());
    throw error(ENOENT, "no aggregation named @" + std::string(name));
  }

  /// dtrace_stop(): disables the probes and fires END (once). Nothing before go().
  void stop() {
    if (!engine_ || !active_ || stopped_) return;
    engine_->stop();
    stopped_ = true;
  }

  /// exit()'s status (0 before exit() has run).
  int exit_status() const { return engine_ ? engine_->exit_status() : 0; }

 private:
  using clock = std::chrono::steady_clock;

  program compile(const d::source_file& source, std::string zero,
                  std::vector<std::string> arguments) {
    d::compile_options options;
    options.arguments = {std::move(zero)};
    options.arguments.insert(options.arguments.end(), arguments.begin(), arguments.end());
    options.strsize = static_cast<std::uint32_t>(number("strsize").value_or(256));
    options.defaultargs = settings_.contains("defaultargs");
    options.argref = settings_.contains("argref");
    options.empty_ok = settings_.contains("empty");
    auto result = d::compile(source, options);
    if (!result.errors.empty()) {
      const d::render_options how{"dtpp", settings_.contains("errtags"), true};
      std::string text;
      for (const auto& e : result.errors) text += d::render(e, source, how);
      throw compile_error(text, std::move(result.errors));
    }
    for (const auto& o : result.program.options)
      setopt(o.name, o.value.empty() ? std::nullopt : std::optional<std::string_view>(o.value));
    return {std::move(result.program), source.name()};
  }

  std::optional<std::int64_t> number(std::string_view name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
  }

  // What the options say about printing; read again whenever one changes.
  printer_options printing() const {
    printer_options p;
    p.quiet = number("quiet").has_value();
    p.print.sort.sortkey = number("aggsortkey").has_value();
    p.print.sort.sortrev = number("aggsortrev").has_value();
    p.print.sort.keypos =
        static_cast<std::size_t>(std::max<std::int64_t>(0, number("aggsortkeypos").value_or(0)));
    p.print.sort.pos =
        static_cast<std::size_t>(std::max<std::int64_t>(0, number("aggsortpos").value_or(0)));
    p.print.percpu = settings_.contains("aggpercpu");
    p.print.strsize = static_cast<std::size_t>(number("strsize").value_or(256));
    return p;
  }

  void require_program(const char* operation) const {
    if (!engine_)
      throw error(EINVAL, std::string("failed to ") + operation + ": no program has been executed");
  }

  static void write(std::FILE* out, const std::string& text) {
    if (!text.empty()) std::fwrite(text.data(), 1, text.size(), out);
  }

  // What a callback answered; abort and error end the consumption.
  static consume check(consume answer) {
    switch (answer) {
      case consume::this_record:
      case consume::next:
        return answer;
      case consume::abort:
        throw error(errc::aborted, "failed to consume records: Abort explicitly directed");
      case consume::error:
        throw error(errc::callback_error,
                    "failed to consume records: a callback returned an error");
    }
    throw error(errc::callback_error,
                "failed to consume records: Invalid return value from callback");
  }

  void drain(std::FILE* out, const probe_callback& on_probe, const record_callback& on_record) {
    for (auto& f : engine_->take_records()) pending_.push_back(std::move(f));
    last_switch_ = clock::now();
    std::string text;
    // Printed text goes out before each callback, so that what a callback writes to `out`
    // itself lands after the records before it.
    const auto flush = [&] {
      write(out, text);
      text.clear();
    };
    while (!pending_.empty()) {
      const inproc::firing f = std::move(pending_.front());
      pending_.pop_front();
      const auto& clause = engine_->program().clauses[f.epid - 1];
      const probe_data probe{engine_->probes()[f.probe - 1], clause, f.epid, f.cpu, f.data};
      if (on_probe && check(on_probe(probe)) == consume::next) continue;
      printer_->open(f, text);
      for (const auto& s : clause.statements) {
        // Assignments and aggregating write no record; every action does, printf() of a bare
        // format included.
        if (s.kind == ir::action::expression || s.kind == ir::action::aggregate) continue;
        if (!is_library_action(s.kind) && on_record) {
          flush();
          const record_data record{s, f.data};
          if (check(on_record(probe, &record)) == consume::next) continue;
        }
        printer_->print(s, f, text);
      }
      flush();
      if (!on_record || check(on_record(probe, nullptr)) == consume::this_record)
        printer_->close(text);
    }
    flush();
  }

  void report_faults() {
    for (const auto& f : engine_->take_faults()) {
      ++faults_;
      const fault_data fault{engine_->probes()[f.probe - 1], f.epid, f.what};
      if (!on_fault_)
        throw error(errc::probe_fault,
                    "failed to consume records: Abort due to error: " + fault.message());
      on_fault_(fault);
    }
  }

  std::map<std::string, std::int64_t, std::less<>> values_;  // run-time options that are set
  std::map<std::string, std::optional<std::string>, std::less<>> settings_;  // compile-time ones
  std::unique_ptr<inproc::engine> engine_;
  std::unique_ptr<record_printer> printer_;  // after engine_, which it refers to
  std::deque<inproc::firing> pending_;       // taken from the engine, not consumed yet
  fault_callback on_fault_;
  bool active_ = false;
  bool stopped_ = false;
  std::uint64_t faults_ = 0;
  clock::time_point last_switch_{}, last_agg_{}, last_status_{};
};

}  // namespace dtpp::consumer
