// The consumer handle: compiling on one handle, choosing and making the engine, options.
#include "dtpp/consumer/handle.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include <sys/resource.h>

#include "dtpp/consumer/metric_families.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/d/joined.hpp"
#include "dtpp/d/library.hpp"
#include "dtpp/d/parser.hpp"
#include "dtpp/inproc/engine.hpp"
#include "dtpp/print/json.hpp"
#include "dtpp/symbols/cache.hpp"

namespace dtpp::consumer {
namespace {

// -x cpu=N: the one CPU whose probe firings are traced, when set (a value beyond any CPU is
// refused by the engine).
std::optional<std::uint32_t> traced_cpu(const options::option_set& o) {
  const auto n = o.number("cpu");
  if (!n) return std::nullopt;
  return static_cast<std::uint32_t>(std::min<std::int64_t>(*n, UINT32_MAX));
}

std::string read_text_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    const int e = errno != 0 ? errno : ENOENT;
    throw error(e, "failed to open " + path + ": " + std::strerror(e));
  }
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// What the options tell the compiler.
d::compile_options compiling(const options::option_set& o, std::vector<std::string> arguments) {
  d::compile_options options;
  options.arguments = std::move(arguments);
  options.strsize = static_cast<std::uint32_t>(o.size("strsize", 256));
  for (const auto* name : {"stackframes", "ustackframes", "jstackframes", "maxframes"})
    if (const auto n = o.number(name)) d::set_frames_option(options, name, std::to_string(*n));
  options.defaultargs = o.on("defaultargs");
  options.argref = o.on("argref");
  options.empty_ok = o.on("empty");
  for (const auto* name : {"tregs", "pcapsize"})
    if (const auto text = o.text(name)) d::set_bound_option(options, name, *text);
  if (const auto n = o.number("scratchsize")) d::set_bound_option(options, "scratchsize", std::to_string(*n));
  return options;
}

/// -xlockmem sets the locked-memory limit that BPF maps count against on kernels before 5.11
/// ("unlimited" is -1). As libdtrace does, a limit the process may not raise is left as it is:
/// the map that then fails says why.
void apply_lockmem(const options::option_set& options) {
  const auto lockmem = options.number("lockmem");
  if (!lockmem || *lockmem == options::unset) return;
  const rlim_t limit = *lockmem < 0 ? RLIM_INFINITY : static_cast<rlim_t>(*lockmem);
  const rlimit both{limit, limit};
  setrlimit(RLIMIT_MEMLOCK, &both);
}

void print_verifier_log(std::string_view log) {
  while (!log.empty()) {
    const auto end = log.find('\n');
    const auto line = log.substr(0, end);
    std::fprintf(stderr, "BPF: %.*s\n", static_cast<int>(line.size()), line.data());
    log.remove_prefix(end == std::string_view::npos ? log.size() : end + 1);
  }
}

}  // namespace

handle::handle(std::vector<engine::factory> engines, std::string program_name)
    : engines_(std::move(engines)), program_name_(std::move(program_name)) {}
handle::handle(handle&&) noexcept = default;
handle& handle::operator=(handle&&) noexcept = default;
handle::~handle() = default;

std::vector<engine::factory> handle::default_engines() { return {inproc::engine_factory()}; }

program handle::compile(std::string_view text, std::vector<std::string> arguments) {
  return compile(d::source_file("<string>", std::string(text)), false, "dtpp", std::move(arguments));
}

program handle::compile_file(const std::string& path, std::vector<std::string> arguments) {
  return compile(d::source_file(path, read_text_file(path)), true, path, std::move(arguments));
}

program handle::compile(const d::source_file& source, bool script_file, std::string zero,
                        std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), std::move(zero));
  auto options = compiling(options_, std::move(arguments));
  options.types = engine::types_of(engines_);
  const d::render_options how{"dtpp", options_.on("errtags"), true, options_.text("errsource") != "off"};
  const auto refuse = [&](std::vector<d::diagnostic> errors, const auto& source_of) {
    std::string text;
    for (auto& e : errors) {
      const auto& [in, where] = source_of(e.where);
      e.where = where;
      text += d::render(e, in, how);
    }
    throw compile_error(text, std::move(errors));
  };
  auto parsed = d::parse(source, script_file, options_.on("pspec"));
  if (!parsed.errors.empty())
    refuse(std::move(parsed.errors), [&](d::ast::span where) { return std::pair{std::cref(source), where}; });

  // D's library files, then the programs compiled before, then this one: all are checked as
  // one text (d::joined_text).
  std::vector<std::string> library_dirs{options_.text("syslibdir").value_or(d::default_library_dir())};
  if (const auto dir = options_.text("libdir")) library_dirs.push_back(*dir);
  const auto found = d::library_files(library_dirs);
  if (!found.error.empty())
    refuse({{"", found.error, d::diagnostic::nowhere}}, [&](d::ast::span where) { return std::pair{std::cref(source), where}; });
  const auto& library = found.files;
  d::joined_text joined;
  for (const auto& l : library) joined.add(l.text());
  for (const auto& c : compiled_) joined.add(c.text());
  joined.add(source.text());
  options.library_end = library.empty() ? 0 : joined.start(library.size());
  const d::source_file all(source.name(), joined.text());
  auto result = joined.programs() == 1 ? d::check(parsed.program, source, options)
                                       : d::check(d::parse(all).program, all, options);
  const auto source_of = [&](std::size_t i) -> const d::source_file& {
    if (i < library.size()) return library[i];
    return i - library.size() < compiled_.size() ? compiled_[i - library.size()] : source;
  };
  if (!result.errors.empty())
    refuse(std::move(result.errors), [&](d::span where) {
      const auto [i, within] = joined.locate(where);
      return std::pair{std::cref(source_of(i)), within};
    });
  compiled_.push_back(source);
  for (const auto& o : result.program.options)
    setopt(o.name, o.value.empty() ? std::nullopt : std::optional<std::string_view>(o.value));
  // Clauses come in program order: this program's are those in its own text.
  const auto own = std::find_if(result.program.clauses.begin(), result.program.clauses.end(),
                                [&](const ir::clause& c) { return c.where.begin >= joined.start(library.size() + compiled_.size() - 1); });
  const auto first = static_cast<std::uint32_t>(own - result.program.clauses.begin());
  return {std::move(result.program), source.name(), first};
}

void handle::exec(const program& p) {
  if (session_ && session_->active())
    throw error(EBUSY, "failed to enable probes: tracing is already active");
  // The latest program holds every clause compiled before it; those not executed keep their
  // place (and so their enabled probe ids) but match no probe.
  auto enabled = enabled_;
  enabled.resize(std::max(enabled.size(), p.checked.clauses.size()), false);
  std::fill(enabled.begin() + p.first_clause, enabled.begin() + static_cast<std::ptrdiff_t>(p.checked.clauses.size()), true);
  const bool newest = p.checked.clauses.size() >= latest_.clauses.size();
  ir::program run_program = newest ? p.checked : latest_;
  for (std::size_t i = 0; i < run_program.clauses.size(); ++i)
    if (!enabled[i]) run_program.clauses[i].probes.clear();
  try {
    // bpflog asks for the BPF programs' verifier logs: under auto, the program runs in the kernel.
    const bool bpflog = options_.on("bpflog");
    const bool kernel_linked = std::any_of(engines_.begin(), engines_.end(), [](const auto& e) { return e.name == "kernel"; });
    const auto choice = bpflog && options_.engine() == "auto" && kernel_linked ? "kernel" : options_.engine();
    const auto& chosen = engine::select(engines_, run_program, choice);
    apply_lockmem(options_);
    // The engine's buffer carries firings to the consumer. Under ring and fill, bufsize is the
    // consumer's principal_buffer, which keeps or drops them; the carrier keeps the default size.
    constexpr std::size_t default_bufsize = 4u << 20;
    const auto bufsize = options_.size("bufsize", default_bufsize);
    const bool switching = options_.number("bufpolicy").value_or(2) == static_cast<std::int64_t>(principal_buffer::policy::switching);
    // bpflog's verifier logs go to standard error, each line after "BPF: ", as libdtrace prints them.
    const engine::run_options run{
        .program_name = program_name_,
        .bufsize = switching ? bufsize : std::max(bufsize, default_bufsize),
        .aggsize = options_.size("aggsize", 4u << 20),
        .dynvarsize = options_.size("dynvarsize", 1u << 20),
        .nspec = static_cast<std::size_t>(options_.number("nspec").value_or(1)),
        .specsize = options_.size("specsize", 4u << 20),
        .zdefs = options_.on("zdefs"),
        .verifier_log = bpflog ? print_verifier_log : std::function<void(std::string_view)>{},
        .verifier_log_size = options_.size("bpflogsize", engine::run_options{}.verifier_log_size),
        .cpu = traced_cpu(options_)};
    auto made = std::make_unique<session>(chosen.make(run_program, run), options_,
                                          std::getenv("_DTRACE_TESTING") != nullptr);
    session_ = std::move(made);
    metric_families_.clear();  // of the program run before, if any
    engine_name_ = chosen.name;
    enabled_ = std::move(enabled);
    if (newest) latest_ = p.checked;
  } catch (const engine::error& e) {
    throw engine_error(ENOENT, "failed to enable probes", e.what(), e.where, e.tag);
  }
  session_->on_fault(on_fault_);
  session_->on_drop(on_drop_);
}

void handle::setopt(std::string_view name, std::optional<std::string_view> value) {
  if (const auto refused = options_.set(name, value, session_ && session_->active())) {
    const auto code = refused->why == options::refusal::reason::bad_name    ? errc::bad_option_name
                      : refused->why == options::refusal::reason::bad_value ? errc::bad_option_value
                                                                            : errc::tracing_active;
    throw error(code, "failed to set option '" + std::string(name) + "': " + std::string(refused->message));
  }
  if (name == "metrics_labels") metric_families_.clear();  // read again at the next metrics()
  if (session_) session_->options_changed();
}

std::optional<std::string> handle::getopt(std::string_view name) const {
  const auto* spec = options::find_option(name);
  if (!spec || spec->effect == options::when::compile)
    throw error(errc::bad_option_name, "failed to get option '" + std::string(name) + "': Invalid option name");
  const auto v = options_.number(name);
  return v ? std::optional<std::string>(std::to_string(*v)) : std::nullopt;
}

session& handle::running(const char* operation) const {
  if (!session_)
    throw error(EINVAL, std::string("failed to ") + operation + ": no program has been executed");
  return *session_;
}

void handle::go() {
  auto& s = running("go");
  if (s.active()) throw error(EINVAL, "failed to go: tracing is already active");
  // Bad labels or an address nobody can bind end the run before it starts.
  if (const auto address = options_.text("metrics")) {
    (void)metrics();
    metrics_server_ = std::make_unique<metrics_server>(*address);
  }
  symbols::shared_cache().name_mangled(options_.on("mangled"));
  symbols::shared_cache().name_unresolved(options_.on("noresolve"));
  s.go();
}

void handle::sleep() const { running("sleep").sleep(); }

bool handle::work_due() const { return running("work").work_due(); }

run_status handle::status() { return session_ ? session_->status() : run_status{}; }

work_status handle::work(std::FILE* out, const probe_callback& on_probe, const record_callback& on_record) {
  auto& s = running("work");
  if (const auto format = metrics_server_ ? metrics_server_->wanted() : std::nullopt) metrics_server_->publish(metrics(*format));
  return s.work(out, on_probe, on_record);
}

std::string handle::metrics(print::metrics_format format) {
  auto& e = running("render metrics").engine();
  const auto& program = e.program();
  if (metric_families_.empty() && !program.aggregations.empty())
    metric_families_ = metric_families(program, options_.text("metrics_labels").value_or(""));
  std::string text;
  for (const auto& d : program.aggregations)
    print::print_metric_family(text, metric_families_[d.varid - 1], e.aggregation(d.varid).snapshot(), format);
  print::print_metrics_end(text, format);
  return text;
}

std::uint16_t handle::metrics_port() const { return metrics_server_ ? metrics_server_->port() : 0; }

void handle::handle_faults(fault_callback on_fault) {
  on_fault_ = std::move(on_fault);
  if (session_) session_->on_fault(on_fault_);
}

void handle::handle_drops(drop_callback on_drop) {
  on_drop_ = std::move(on_drop);
  if (session_) session_->on_drop(on_drop_);
}

void handle::aggregate_snap() {
  if (session_) session_->aggregate_snap();
}

void handle::aggregate_clear() { running("aggregate_clear").aggregate_clear(); }

void handle::aggregate_print(std::FILE* out, order o) { running("aggregate_print").aggregate_print(out, o); }

agg::live_aggregation& handle::live_aggregation(std::string_view name) {
  auto& e = running("aggregation").engine();
  for (const auto& d : e.program().aggregations)
    if (d.name == name) return e.aggregation(d.varid);
  throw error(ENOENT, "no aggregation named @" + std::string(name));
}

print::json handle::record_json(const record_data& record) const {
  return running("record_json").printer().json_record(record.statement, record.data);
}

print::json handle::aggregation_json(std::string_view name, order o) {
  const auto& a = live_aggregation(name);
  return print::json_aggregation(a.snapshot(), o, printing(options_).print.sort);
}

print::folded_stacks handle::folded_stacks() const { return running("folded_stacks").printer().folded_stack_aggregations(); }

void handle::stop() {
  if (session_) session_->stop();
}

int handle::exit_status() const { return session_ ? session_->exit_status() : 0; }

const ir::program& handle::running_program() const { return running("read the program").engine().program(); }

engine::source& handle::engine() { return running("reach the engine").engine(); }

std::string_view handle::engine_name() const { return engine_name_; }

const std::vector<engine::probe_info>& handle::probes() { return running("list the probes").engine().probes(); }

agg::dynamic_table handle::aggregation_table(std::uint32_t varid) {
  return running("aggregation_table").engine().aggregation(varid).snapshot();
}

print::print_options handle::print_options() const { return printing(options_).print; }

}  // namespace dtpp::consumer
