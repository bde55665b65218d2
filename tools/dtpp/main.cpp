// dtpp, the dtrace(1)-style command: compiles D programs (-e), prints them checked (-S), and runs
// them in the kernel (syscall and tracepoint probes, profile-N, tick-N, BEGIN/END) or in the
// in-process engine (BEGIN, END, ERROR, tick-N, profile-N, DTPP_PROBE sites).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <memory>
#include <thread>
#include <variant>
#include <vector>

#include "command_line.hpp"
#include "dtpp/consumer/handle.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/d/joined.hpp"
#include "dtpp/d/library.hpp"
#include "dtpp/d/parser.hpp"
#include "dtpp/kernel/driver.hpp"
#include "dtpp/print/flamegraph.hpp"
#include "dtpp/symbols/cache.hpp"
#include "output_file.hpp"
#include "preprocess.hpp"
#include "probe_info.hpp"

namespace dtpp::command {
namespace {

/// The most a -s script may hold: D programs are small, and -s /dev/zero would read without end.
constexpr std::size_t max_script_size = std::size_t{64} << 20;

/// A file's text; or nullopt, with the errno of a failed open (0 when it opened but could not
/// be read: a directory, an I/O error; EFBIG past max_script_size).
std::optional<std::string> read_file(const std::string& path, int& error) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = errno;
    return std::nullopt;
  }
  std::string text;
  char buffer[65536];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    if (text.size() + n > max_script_size) {
      std::fclose(file);
      error = EFBIG;
      return std::nullopt;
    }
    text.append(buffer, n);
  }
  const bool failed = std::ferror(file);
  std::fclose(file);
  if (failed) {
    error = 0;
    return std::nullopt;
  }
  return text;
}

/// What a program's diagnostics are rendered against: its compiled text, and where each of its
/// lines came from when cpp made it.
struct loaded_program {
  d::source_file source;
  std::optional<std::vector<line_origin>> origins;
};

/// Reads a -s script (through cpp with -C) or takes a -n description; says why it cannot.
std::optional<loaded_program> load(const settings& s, const program_spec& program) {
  if (!program.script) return loaded_program{d::source_file(program.shown(), program.text), {}};
  int error = 0;
  auto text = read_file(program.text, error);
  if (!text && error == 0) {
    // dtrace(1) opens a directory too; its lexer's read fails (libdtrace's EDT_FIO).
    detail::complain(s, "failed to compile script " + program.text +
                            ": Error occurred while reading from input stream");
    return std::nullopt;
  }
  if (!text && error == EFBIG) {
    detail::complain(s, "failed to compile script " + program.text + ": larger than " +
                            std::to_string(max_script_size >> 20) + " MiB, the most a script may be");
    return std::nullopt;
  }
  if (!text) {
    detail::complain(s, "failed to open " + program.text + ": " + std::strerror(error));
    return std::nullopt;
  }
  // A `#!` first line is for exec(2), not for D (dtrace(1) passes over it too): blanked, so that
  // the lines after keep their numbers, and so that D's library joined before the script does not
  // hide it.
  if (text->compare(0, 2, "#!") == 0) std::fill(text->begin(), std::find(text->begin(), text->end(), '\n'), ' ');
  if (!s.preprocess) return loaded_program{d::source_file(program.text, std::move(*text)), {}};
  auto result =
      preprocess(cpp_arguments(s.cpp, s.cpp_arguments, s.stdc), std::move(*text));
  if (!result.output) {
    detail::complain(s, "failed to compile script " + program.text + ": " + result.error);
    return std::nullopt;
  }
  return loaded_program{d::source_file(program.text, std::move(result.output->text)),
                        std::move(result.output->origins)};
}

/// The -s and -n programs of a run, checked as one text (d::joined_text).
struct loaded_programs {
  std::vector<d::source_file> library;  ///< D's library files, joined before the programs
  std::vector<loaded_program> programs;
  d::joined_text joined;    ///< their texts, as checked
  bool errtags = false;     ///< -xerrtags, or a program's pragma
  bool errsource = true;    ///< -xerrsource (or the default), then the programs' pragmas

  /// The program a place in the joined text is in (an index into programs), and the place
  /// within it. D's library has no clauses, and errors there are report()'s.
  std::pair<std::size_t, d::span> locate(d::span where) const {
    const auto [i, within] = joined.locate(where);
    return {i < library.size() ? 0 : i - library.size(), within};
  }
};

/// How a program's diagnostics look, as the options and the pragmas read so far leave them.
d::render_options render_options(const settings& s, const loaded_programs& loaded, const program_spec& spec) {
  return {s.name, loaded.errtags, spec.script, loaded.errsource};
}

/// Prints a diagnostic as dtrace(1) does, against the lines cpp's input had.
void report(const d::diagnostic& error, const loaded_program& loaded, const d::render_options& options) {
  const auto text = loaded.origins ? render(error, loaded.source, *loaded.origins, options)
                                   : d::render(error, loaded.source, options);
  std::fputs(text.c_str(), stderr);
}

/// The same for a place in the joined text of a run's programs.
void report(const settings& s, d::diagnostic error, const loaded_programs& loaded) {
  // An error of no place (an operand no program uses): dtrace(1) compiles the programs one by
  // one and meets it in the first.
  if (error.where == d::diagnostic::nowhere)
    return report(error, loaded.programs.front(), render_options(s, loaded, s.programs.front()));
  const auto [i, where] = loaded.joined.locate(error.where);
  error.where = where;
  if (i < loaded.library.size()) {
    // In a file of D's library: dtrace(1) blames the first program, at the library file's line.
    const auto& library_file = loaded.library[i];
    auto options = render_options(s, loaded, s.programs.front());
    options.file = library_file.name();
    const d::source_file shown(loaded.programs.front().source.name(), library_file.text());
    std::fputs(d::render(error, shown, options).c_str(), stderr);
    return;
  }
  const auto p = i - loaded.library.size();
  report(error, loaded.programs[p], render_options(s, loaded, s.programs[p]));
}

/// The program's last `#pragma D option NAME`; null when it has none.
const d::ast::pragma* find_pragma(const d::ast::program& program, std::string_view name) {
  const d::ast::pragma* found = nullptr;
  for (const auto& item : program.items)
    if (const auto* p = std::get_if<d::ast::pragma>(&item); p && p->name == name) found = p;
  return found;
}

/// Says that an output refused what was written, in dtrace(1)'s words; quietly for a reader that
/// went away (`dtpp ... | head`), whose end is no one's error.
void report(const settings& s, const std::string& output, const consumer::write_error& e) {
  if (e.code() != EPIPE) detail::complain(s, "failed to write to " + output + ": " + std::strerror(e.code()));
}

/// Writes and flushes text on standard output; says why not and returns false when it is refused.
bool print(const settings& s, const std::string& text) {
  try {
    consumer::write(stdout, text);
    consumer::flush(stdout);
    return true;
  } catch (const consumer::write_error& e) {
    report(s, "<stdout>", e);
    return false;
  }
}

/// Loads and parses every program, then checks them together; prints their diagnostics (or,
/// with -S, the checked program). The checked program when all compiled.
std::optional<ir::program> compile(const settings& s, loaded_programs& loaded) {
  bool parsed_all = true;
  std::optional<d::parse_result> parsed;
  loaded.errsource = s.errsource;
  // D's library: syslibdir (dtpp's own unless set), then each -L and -xlibdir.
  std::vector<std::string> library_dirs{d::default_library_dir()};
  for (const auto& o : s.options) {
    if (o.name == "syslibdir") library_dirs.front() = o.value;
    if (o.name == "libdir") library_dirs.push_back(o.value);
  }
  auto library = d::library_files(library_dirs);
  if (!library.error.empty()) {
    // dtrace(1) reads D's library as it compiles the first program, and blames that one.
    const auto& first = s.programs.front();
    std::fputs(d::render({"", library.error, d::diagnostic::nowhere}, d::source_file(first.text, ""),
                         render_options(s, loaded, first))
                   .c_str(),
               stderr);
    return std::nullopt;
  }
  loaded.library = std::move(library.files);
  for (const auto& l : loaded.library) loaded.joined.add(l.text());
  for (const auto& spec : s.programs) {
    auto program = load(s, spec);
    if (!program) {
      parsed_all = false;
      continue;
    }
    parsed = d::parse(program->source, spec.script, s.compile.pspec);
    // parse() and check() apart, rather than compile(), so that the pragmas errtags and
    // errsource apply to syntax errors too; a bad errsource value is the checker's to report.
    loaded.errtags |= s.errtags || find_pragma(parsed->program, "errtags");
    if (const auto* p = find_pragma(parsed->program, "errsource"); p && !options::option_error(p->name, p->value.c_str()))
      loaded.errsource = p->value == "on";
    for (const auto& error : parsed->errors) report(error, *program, render_options(s, loaded, spec));
    parsed_all &= parsed->errors.empty();
    loaded.joined.add(program->source.text());
    loaded.programs.push_back(std::move(*program));
  }
  if (!parsed_all) return std::nullopt;

  auto options = s.compile;
  options.types = engine::types_of(kernel::engines());
  // $0: the script's path for -s, the command as invoked for -n (dtrace(1)'s g_argv[0]); the
  // first program's when there are several.
  const auto& first = s.programs.front();
  options.arguments = {first.script ? first.text : s.argv0};
  options.arguments.insert(options.arguments.end(), s.operands.begin(), s.operands.end());
  // One program was parsed already; several, or one after D's library, are parsed again as one
  // text.
  options.library_end = loaded.library.empty() ? 0 : loaded.joined.start(loaded.library.size());
  const d::source_file all("", loaded.joined.text());
  if (loaded.joined.programs() > 1) parsed = d::parse(all);
  auto result = parsed->errors.empty() ? d::check(parsed->program, all, options)
                                       : d::compile_result{{}, std::move(parsed->errors)};
  for (const auto& error : result.errors) report(s, error, loaded);
  if (!result.errors.empty()) return std::nullopt;
  // Flushed at once, which keeps stdout and stderr in program order when both go to one place.
  if (s.show_programs && !print(s, d::dump(result.program))) return std::nullopt;
  return std::move(result.program);
}

std::atomic<int> interrupts{0};               ///< SIGINTs and SIGTERMs received, as separate events
std::atomic<int> first_signal{0};             ///< the first one's number
std::atomic<std::int64_t> first_interrupt{0};  ///< when it arrived (CLOCK_MONOTONIC, ns)
std::atomic<pid_t> command_child{0};          ///< the -c command, killed by a second interrupt

void on_interrupt(int signal) {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  const std::int64_t at = now.tv_sec * 1'000'000'000LL + now.tv_nsec;
  if (interrupts.load() == 0) {
    first_signal = signal;
    first_interrupt = at;
    interrupts = 1;
    return;
  }
  // One signal may arrive twice: timeout(1) sends it to the command and to the command's process
  // group. The same signal again within a quarter of a second is that same one.
  if (signal == first_signal.load() && at - first_interrupt.load() < 250'000'000) return;
  // A second one makes dtpp impatient, as it makes dtrace(1): the run ends through END without
  // printing the aggregations, and a -c command is killed.
  interrupts = 2;
  if (const pid_t child = command_child.load()) ::kill(child, SIGKILL);
}

/// Catches SIGINT and SIGTERM before anything slow, so that one arriving while the programs
/// compile and load still ends the run through END. One that was ignored when dtpp started
/// (nohup, `trap '' INT`) stays ignored, as in dtrace(1); one blocked by the parent is unblocked,
/// or nothing would end the run.
void catch_interrupts() {
  struct sigaction act {};
  act.sa_handler = on_interrupt;
  act.sa_flags = SA_RESTART;
  sigemptyset(&act.sa_mask);
  sigset_t caught;
  sigemptyset(&caught);
  for (const int signal : {SIGINT, SIGTERM}) {
    struct sigaction before {};
    if (::sigaction(signal, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
    ::sigaction(signal, &act, nullptr);
    sigaddset(&caught, signal);
  }
  ::sigprocmask(SIG_UNBLOCK, &caught, nullptr);
}

/// Whether the kernel engine stopped the -c command at a loader event (a SIGSTOP that BPF's
/// bpf_send_signal sent, SI_KERNEL, not one a user sent with kill).
bool stopped_by_loader_event(pid_t child, int status) {
  siginfo_t info{};
  return (status >> 16) == 0 && WSTOPSIG(status) == SIGSTOP &&
         ::ptrace(PTRACE_GETSIGINFO, child, nullptr, &info) == 0 && info.si_code == SI_KERNEL;
}

/// The -c command's wait status once it has ended (reaped; then s.command is 0), waiting for it
/// or not. Its
/// stops as its tracer are handled here: at its exit its maps are kept, so that its frames are
/// named after it is gone; a signal it was sent is handed on. A stop at a loader event is kept
/// until the next call, after the engine has attached the probes of what was loaded (the engine
/// does so as the run's records are taken), and then let go without the signal.
std::optional<int> command_ended(const settings& s, bool wait) {
  auto& held = const_cast<settings&>(s).command_loading;
  if (held && !wait) {
    held = false;
    ::ptrace(PTRACE_CONT, s.command, nullptr, nullptr);
  }
  int status = 0;
  while (true) {
    const pid_t reported = ::waitpid(s.command, &status, wait ? 0 : WNOHANG);
    if (reported < 0 && errno == EINTR) continue;
    if (reported == 0) return std::nullopt;
    if (reported != s.command || !WIFSTOPPED(status)) break;
    const int event = status >> 16;
    if (event == PTRACE_EVENT_EXIT) symbols::shared_cache().remember(s.command);
    if (!wait && stopped_by_loader_event(s.command, status)) {
      held = true;
      return std::nullopt;
    }
    const long signal = event != 0 || stopped_by_loader_event(s.command, status) ? 0 : WSTOPSIG(status);
    ::ptrace(PTRACE_CONT, s.command, nullptr, reinterpret_cast<void*>(signal));
  }
  const_cast<settings&>(s).command = 0;
  command_child = 0;  // reaped: its pid may be reused, and must not be killed
  return status;
}

/// What dtrace(1) says when a traced process ends: how, where its wait status is known (a -c
/// command's).
std::string process_end(pid_t pid, std::optional<int> status) {
  const auto who = "pid " + std::to_string(pid);
  if (status && WIFSIGNALED(*status)) {
    const char* name = ::sigabbrev_np(WTERMSIG(*status));
    return who + " terminated by " + (name ? "SIG" + std::string(name) : std::to_string(WTERMSIG(*status)));
  }
  if (status && WEXITSTATUS(*status) != 0) return who + " exited with status " + std::to_string(WEXITSTATUS(*status));
  return who + " has exited";
}

/// A -c command still running when dtpp ends is killed, as dtrace(1) kills it.
void end_command(const settings& s) {
  if (s.command == 0) return;
  ::kill(s.command, SIGKILL);
  command_ended(s, true);
}

/// Lets the -c command run from its first instruction (run) or kills it (!run), once.
void release_command(const settings& s, bool run) {
  if (!s.command_held) return;
  const_cast<settings&>(s).command_held = false;
  if (run && ::ptrace(PTRACE_CONT, s.command, nullptr, nullptr) == 0) return;
  end_command(s);
}

/// A handle for the run, its options set by the programs' pragmas and then the command line
/// (which wins), as libdtrace sets them while compiling after dtrace(1) has read its options.
consumer::handle open_handle(const settings& s, const ir::program& program) {
  consumer::handle h(kernel::engines(), s.name);
  for (const auto* options : {&program.options, &s.options})
    for (const auto& o : *options)
      h.setopt(o.name, o.value.empty() ? std::nullopt : std::optional<std::string_view>(o.value));
  return h;
}

/// Says why an engine would not run the programs: as a compile error at its place in one of them
/// when there is one.
void report(const settings& s, const loaded_programs& loaded, const consumer::engine_error& e, const std::string& what) {
  if (!e.tag.empty() || e.where != d::diagnostic::nowhere) return report(s, {e.tag, e.cause, e.where}, loaded);
  const auto& spec = s.programs.front();
  detail::complain(s, (spec.script ? what + " " + spec.text : "invalid probe specifier " + spec.shown()) + ": " + e.cause);
}

/// How dtrace(1)'s notices name a program: "script 'PATH'" or "description 'TEXT'" (its
/// descriptions, without the predicate or body).
std::string program_title(const program_spec& spec, const char* quote = "'") {
  const auto shown = spec.script ? spec.text : spec.shown().substr(0, spec.shown().find_first_of("{/;"));
  return std::string(spec.script ? "script " : "description ") + quote + shown + quote;
}

/// dtrace(1)'s "matched N probes" line for each program: as libdtrace counts, the probes each of
/// its clauses enables, added up (`BEGIN {} BEGIN {}` matches 2).
void say_matched(const settings& s, const loaded_programs& loaded, const ir::program& program,
                 const std::vector<engine::probe_info>& probes) {
  for (std::size_t i = 0; i < s.programs.size(); ++i) {
    std::size_t count = 0;
    for (const auto& p : probes)
      count += static_cast<std::size_t>(std::count_if(p.clauses.begin(), p.clauses.end(), [&](std::uint32_t c) {
        return loaded.locate(program.clauses[c].where).first == i;
      }));
    detail::complain(s, program_title(s.programs[i]) + " matched " + std::to_string(count) +
                            (count == 1 ? " probe" : " probes"));
  }
}

/// dtrace -v: each program's stability report, the least attributes of its clauses' probe
/// descriptions and of what their statements use (Stable/Stable/Common for a program without
/// clauses). With -e, each description's block as dtrace -l -v prints it follows, from the
/// first probe it matches (`describe`).
std::string stability_report(const settings& s, const loaded_programs& loaded, const ir::program& program,
                             const std::function<std::string(const ir::clause&, const ir::probe&)>& describe = {}) {
  std::string text;
  for (std::size_t i = 0; i < s.programs.size(); ++i) {
    std::vector<const ir::clause*> clauses;
    for (const auto& c : program.clauses)
      if (loaded.locate(c.where).first == i) clauses.push_back(&c);
    const d::attributes greatest{d::standard_, d::standard_, d::common_};
    auto described = clauses.empty() ? d::attributes{} : greatest;
    auto stated = described;
    for (const auto* c : clauses) {
      described = min(described, c->description_attributes);
      stated = min(stated, c->statement_attributes);
    }
    text += "\nStability attributes for " + program_title(s.programs[i], "") + ":\n";
    command::append_attributes(text, "Minimum Probe Description Attributes", described);
    command::append_attributes(text, "Minimum Statement Attributes", stated);
    if (!describe) {
      text += "\n";
      continue;
    }
    for (const auto* c : clauses)
      for (const auto& p : c->probes) text += "\n" + p.text() + "\n" + describe(*c, p);
  }
  return text;
}

/// Runs the checked programs until exit(), an interrupt or the end of their probes, printing as
/// dtrace(1) does; the exit status is exit()'s. An output that refuses what is written ends the
/// run (END still runs; what it prints is lost).
int execute(const settings& s, const loaded_programs& loaded, const ir::program& program) {
  // A reader that goes away is a write error, not death: the run ends through END. (After cpp
  // and the -c command have started, which keep SIGPIPE's default.)
  std::signal(SIGPIPE, SIG_IGN);
  auto h = open_handle(s, program);
  try {
    h.exec({program, s.programs.front().shown()});
  } catch (const consumer::engine_error& e) {
    report(s, loaded, e, "failed to enable script");
    return exit_failure;
  }
  if (!h.options().number("quiet")) say_matched(s, loaded, program, h.engine().probes());
  // A program that enables nothing (-x empty) does not run, unless -Z allows it, as in dtrace(1).
  const auto& enabled = h.engine().probes();
  if (!h.options().on("zdefs") &&
      std::none_of(enabled.begin(), enabled.end(), [](const engine::probe_info& p) { return !p.clauses.empty(); })) {
    detail::complain(s, s.programs.empty() ? "no probes specified" : "no probes matched");
    return exit_failure;
  }
  std::FILE* output = stdout;
  const std::string output_name = s.output.empty() ? "<stdout>" : s.output;
  if (!s.output.empty()) {
    const auto opened = open_output(s.output);
    if (!(output = opened.file)) {
      detail::complain(s, "failed to open output file '" + s.output + "': " + opened.error);
      return exit_failure;
    }
  }
  // -x flamegraph=FILE is opened now, so that a run whose graph cannot be written does not start.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> flamegraph(nullptr, &std::fclose);
  const auto flamegraph_name = h.options().text("flamegraph").value_or("");
  if (!flamegraph_name.empty()) {
    auto opened = open_output(flamegraph_name);
    flamegraph.reset(opened.file);
    if (!flamegraph || ::ftruncate(::fileno(flamegraph.get()), 0) != 0) {
      detail::complain(s, "failed to open flame graph file '" + flamegraph_name + "': " +
                              (flamegraph ? std::strerror(errno) : opened.error));
      if (output != stdout) std::fclose(output);
      return exit_failure;
    }
  }
  if (s.verbose) {
    try {
      consumer::write(output, stability_report(s, loaded, program));
    } catch (const consumer::write_error& e) {
      report(s, output_name, e);
      if (output != stdout) std::fclose(output);
      return exit_failure;
    }
  }
  h.handle_faults([&](const consumer::fault_data& f) { detail::complain(s, f.message()); });
  h.handle_drops([&](const consumer::drop_data& d) { detail::complain(s, d.message()); });
  try {
    h.go();
  } catch (const consumer::engine_error& e) {
    release_command(s, false);
    detail::complain(s, "could not enable tracing: " + e.cause);
    return exit_failure;
  } catch (const consumer::error& e) {  // -x metrics: an address it cannot serve on, bad labels
    release_command(s, false);
    detail::complain(s, e.what());
    return exit_failure;
  }
  release_command(s, true);
  // Where -x metrics serves, port 0 resolved: the one line that tells a user (or a test) the port.
  if (const auto port = h.metrics_port()) {
    const auto address = *h.options().text("metrics");
    detail::complain(s, "serving metrics on " + address.substr(0, address.rfind(':') + 1) + std::to_string(port));
  }
  // -c and -p end the run when their process exits, as dtrace(1) does: what dtrace(1) says of
  // its end, once it has ended.
  const auto process_gone = [&]() -> std::optional<std::string> {
    if (s.command != 0) {
      const auto pid = s.command;
      const auto status = command_ended(s, false);
      if (!status) return std::nullopt;
      return process_end(pid, status);
    }
    if (s.grabbed != 0 && ::kill(s.grabbed, 0) != 0 && errno == ESRCH) return process_end(s.grabbed, std::nullopt);
    return std::nullopt;
  };
  try {
    while (true) {
      // A process's end is looked for just before a work() that reads the buffers, so that what
      // it traced before it died is read first: an exit() in its last system call ends the run
      // as exit() does, whatever the switchrate.
      const auto gone = h.work_due() ? process_gone() : std::nullopt;
      if (h.work(output) != consumer::work_status::okay) break;
      if (gone && !h.options().number("quiet")) detail::complain(s, *gone);  // a notice, as dtrace(1)'s
      if (interrupts > 0 || gone) {
        h.stop();
      } else {
        h.sleep();
      }
    }
    // The end of a run: one newline, then every aggregation printa() never printed (unless a
    // second interrupt made dtpp impatient).
    if (interrupts < 2) {
      if (consumer::printing(h.options()).format == consumer::output_format::text) consumer::write(output, "\n");
      h.aggregate_print(output);
    }
    if (flamegraph) {
      const auto svg = print::flamegraph_svg(h.folded_stacks(), {.title = "dtpp " + s.programs.front().shown()});
      std::FILE* file = flamegraph.release();
      const bool written = std::fwrite(svg.data(), 1, svg.size(), file) == svg.size();
      if (std::fclose(file) != 0 || !written) {
        report(s, flamegraph_name, consumer::write_error(errno, ""));
        return exit_failure;
      }
    }
  } catch (const consumer::write_error& e) {
    h.stop();
    report(s, output_name, e);
    return exit_failure;
  } catch (const consumer::error& e) {
    detail::complain(s, e.what());
    return exit_failure;
  }
  if (output != stdout && std::fclose(output) != 0) {
    report(s, output_name, consumer::write_error(errno, ""));
    return exit_failure;
  }
  return h.status().exited ? h.exit_status() : exit_success;
}

/// `program` with only clause c and its one description p: what p alone matches.
ir::program one_description(const ir::program& program, const ir::clause& c, const ir::probe& p) {
  ir::program one = program;
  one.clauses = {c};
  one.clauses[0].probes = {p};
  return one;
}

/// dtrace -l: the probes the programs' descriptions match, or every probe there is. As dtrace(1)
/// lists them: description after description in the order given, each one's probes in id order
/// (a probe two descriptions match is listed twice), a description matching nothing said on
/// standard error and passed over.
int list(const settings& s, const loaded_programs& loaded, const std::optional<ir::program>& program) {
  std::string text;
  print::detail::append(text, "%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
  const engine::run_options run{.program_name = s.name};
  const auto engines = kernel::engines();
  const auto add = [&](const std::vector<engine::probe_info>& probes) {
    for (const auto& p : probes) {
      print::detail::append(text, "%5u %10s %17s %33s %s\n", p.id, p.provider.c_str(), p.module.c_str(),
                            p.function.c_str(), p.name.c_str());
      if (!s.verbose) continue;
      auto* types = engine::types_of(engines);
      const auto arguments = types ? types->probe_arguments({p.provider, p.module, p.function, p.name, {}})
                                   : std::vector<ir::probe_argument>{};
      text += command::verbose_probe_info(p, arguments);
    }
  };
  try {
    if (!program) {
      for (const auto& e : engines) add(e.probes(nullptr, run));
    } else {
      const auto choice = open_handle(s, *program).options().engine();
      const auto& engine = engine::select(engines, *program, choice);
      for (const auto& c : program->clauses)
        for (const auto& p : c.probes) {
          const auto one = one_description(*program, c, p);
          std::vector<engine::probe_info> probes;
          try {
            probes = engine.probes(&one, run);
          } catch (const engine::error& e) {
            if (e.tag != "D_PDESC_ZERO") throw;
          }
          // A description that matches nothing is said and passed over, as dtrace(1) lists.
          if (probes.empty()) detail::complain(s, "failed to match " + p.text() + ": No probe matches description");
          add(probes);
        }
    }
  } catch (const engine::error& e) {
    (void)print(s, text);
    const auto i = e.where == d::diagnostic::nowhere ? 0 : loaded.locate(e.where).first;
    detail::complain(s, "invalid probe specifier " + s.programs[i].shown() + ": " + e.what());
    return exit_failure;
  }
  return print(s, text) ? exit_success : exit_failure;
}

// -e: what would stop the run before it starts, as dtrace -e reports it: a probe description
// that matches nothing on the engine that would run the program (unless -Z).
bool probes_match(const settings& s, const loaded_programs& loaded, const ir::program& program) {
  auto h = open_handle(s, program);
  if (h.options().on("zdefs")) return true;
  const engine::run_options run{.program_name = s.name};
  const auto engines = kernel::engines();
  const auto& engine = engine::select(engines, program, h.options().engine());
  const auto refuse = [&](const std::string& tag, const std::string& why, d::span where) {
    report(s, d::diagnostic{tag, why, where}, loaded);
    return false;
  };
  for (const auto& c : program.clauses)
    for (const auto& p : c.probes) {
      const auto one = one_description(program, c, p);
      try {
        if (engine.probes(&one, run).empty())
          return refuse("D_PDESC_ZERO", "probe description " + p.text() + " does not match any probes", p.where);
      } catch (const engine::error& e) {
        return refuse(e.tag, e.what(), e.where);
      }
    }
  return true;
}

/// -n and -i: in the descriptions a program starts with, a number names the probe that has that
/// id, as dtrace(1) reads it. Rewrites each such number as the probe's whole description; says
/// why and returns false for an id no probe has. As in dtrace(1)'s lexer, a number ends at the
/// first other character: `4-2` is probe 4, then a description `-2`.
bool resolve_probe_ids(settings& s) {
  const engine::run_options run{.program_name = s.name};
  std::optional<std::vector<engine::probe_info>> every;  // listed once, at the first id
  const auto description_of = [&](const std::string& digits) -> std::optional<std::string> {
    const auto id = digits.size() > 10 ? UINT64_MAX : std::stoull(digits);
    if (!every) {
      every.emplace();
      for (const auto& e : kernel::engines())
        for (auto& p : e.probes(nullptr, run)) every->push_back(std::move(p));
    }
    const auto p = std::find_if(every->begin(), every->end(), [&](const auto& p) { return p.id == id; });
    if (p == every->end()) return std::nullopt;
    return p->provider + ":" + p->module + ":" + p->function + ":" + p->name;
  };
  for (auto& spec : s.programs) {
    if (!spec.by_id) continue;
    if (spec.given.empty()) spec.given = spec.text;  // messages quote the argument as given
    std::string text;
    std::size_t at = 0;
    // The descriptions end at the first character none has: the predicate's or the body's, or a
    // declaration's (`inline int n = 5;` has no id).
    const auto in_descriptions = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("-_.*?[]!$:`+~ \t\n,", c);
    };
    while (at < spec.text.size() && in_descriptions(spec.text[at])) {
      const auto next = std::min(spec.text.find_first_not_of("0123456789", at), spec.text.size());
      const bool starts_description = at == 0 || std::strchr(detail::description_end, spec.text[at - 1]);
      if (next == at || !starts_description) {
        text += spec.text[at++];
        continue;
      }
      const auto digits = spec.text.substr(at, next - at);
      if (digits.size() > 10 || std::stoull(digits) > UINT32_MAX) {
        detail::complain(s, "invalid probe specifier " + spec.given + ": identifier " + digits + " exceeds maximum probe id");
        return false;
      }
      const auto description = description_of(digits);
      if (!description) {
        detail::complain(s, "invalid probe specifier " + spec.given + ": invalid probe identifier " + digits +
                                ": Unknown probe identifier");
        return false;
      }
      text += *description;
      if (next < spec.text.size() && !std::strchr(detail::description_end, spec.text[next])) text += ' ';
      at = next;
    }
    spec.text = text + spec.text.substr(at);
  }
  return true;
}

/// dtrace -e -v's block for a description: dtrace -l -v's for the first probe it matches on the
/// engine that would run the program. The engines (and the kernel's types they read) are made
/// once for every description.
std::function<std::string(const ir::clause&, const ir::probe&)> describer(const settings& s, const ir::program& program) {
  const auto engines = std::make_shared<const std::vector<engine::factory>>(kernel::engines());
  const auto& engine = engine::select(*engines, program, open_handle(s, program).options().engine());
  return [&s, &program, engines, &engine](const ir::clause& c, const ir::probe& p) {
    const auto one = one_description(program, c, p);
    const auto probes = engine.probes(&one, {.program_name = s.name});
    if (probes.empty()) return std::string();
    const auto& first = probes.front();
    auto* types = engine::types_of(*engines);
    const auto arguments = types ? types->probe_arguments({first.provider, first.module, first.function, first.name, {}})
                                 : std::vector<ir::probe_argument>{};
    return command::verbose_probe_info(first, arguments);
  };
}

int run(const settings& s) {
  command_child = s.command;
  if (!s.list && !s.compile_only && !s.programs.empty()) catch_interrupts();
  loaded_programs loaded;
  std::optional<ir::program> program;
  if (!s.programs.empty() && !(program = compile(s, loaded))) {
    release_command(s, false);
    return exit_failure;
  }
  if (s.list) return list(s, loaded, program);
  if (s.compile_only) {
    const bool match = !program || probes_match(s, loaded, *program);
    release_command(s, false);
    if (match && program && s.verbose && !print(s, stability_report(s, loaded, *program, describer(s, *program))))
      return exit_failure;
    return match ? exit_success : exit_failure;
  }
  if (!program) {
    detail::complain(s, "no probes specified");
    return exit_failure;
  }
  const int status = execute(s, loaded, *program);
  release_command(s, false);
  end_command(s);
  return status;
}

}  // namespace
}  // namespace dtpp::command

int main(int argc, char* argv[]) {
  // A closed standard stream gets a placeholder that refuses writes (EBADF), so that no file
  // dtpp opens lands there and receives what was meant for it.
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) (void)::open("/dev/null", O_RDONLY);
  dtpp::command::settings settings;
  if (const auto status = dtpp::command::read_command_line(argc, argv, settings)) return *status;
  if (!dtpp::command::resolve_probe_ids(settings)) return dtpp::command::exit_failure;
  return dtpp::command::run(settings);
}
