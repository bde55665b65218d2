// The consume loop: records to callbacks and the printer, library actions, faults, drops, pacing.
#include "dtpp/consumer/session.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

#include "dtpp/engine/probe_ids.hpp"

namespace dtpp::consumer {
namespace {

// What a callback answered; abort and error end the consumption.
consume check(consume answer) {
  switch (answer) {
    case consume::this_record:
    case consume::next:
      return answer;
    case consume::abort:
      throw error(errc::aborted, "failed to consume records: Abort explicitly directed");
    case consume::error:
      throw error(errc::callback_error, "failed to consume records: a callback returned an error");
  }
  throw error(errc::callback_error, "failed to consume records: Invalid return value from callback");
}

// The actions libdtrace carries out itself without offering their records to a consumer's
// record callback (its DTRACEACT_LIBACT records).
bool is_library_action(ir::action a) {
  switch (a) {
    case ir::action::clear:
    case ir::action::trunc:
    case ir::action::normalize:
    case ir::action::denormalize:
    case ir::action::setopt:
    case ir::action::commit:
    case ir::action::discard:
      return true;
    default:
      return false;
  }
}

// A firing whose only actions are commit() and discard() prints nothing at all, not even its
// probe's line, as in dtrace(1).
bool only_speculation_records(const ir::clause& c) {
  bool any = false;
  for (const auto& s : c.statements) {
    switch (s.kind) {
      case ir::action::expression:
      case ir::action::aggregate:
      case ir::action::speculate:
        break;
      case ir::action::commit:
      case ir::action::discard:
        any = true;
        break;
      default:
        return false;
    }
  }
  return any;
}

}  // namespace

namespace {

[[noreturn]] void write_failed() {
  const int e = errno != 0 ? errno : EIO;
  throw write_error(e, std::string("failed to write output: ") + std::strerror(e));
}

}  // namespace

void write(std::FILE* out, const std::string& text) {
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), out) != text.size()) write_failed();
}

void flush(std::FILE* out) {
  if (std::fflush(out) != 0) write_failed();
}

session::session(std::unique_ptr<engine::source> engine, options::option_set& options, bool testing)
    : engine_(std::move(engine)),
      options_(options),
      testing_(testing),
      printer_(*engine_, printing(options, testing)) {}

session::~session() {
  if (first_out_ >= 0) ::close(first_out_);
}

void session::go() {
  // As dtrace-utils' dtrace_go(): destructive actions need -w (the destructive option).
  if (!options_.number("destructive"))
    for (const auto& c : engine_->program().clauses)
      for (const auto& st : c.statements)
        if (!c.probes.empty() && ir::is_destructive(st.kind))
          throw engine_error(EPERM, "failed to go", "Destructive actions not allowed", st.where, "");
  // As libdtrace's dtrace_go(): no buffer holds no record (`-x bufsize` with no value is 0).
  // An aggregation whose row does not fit in aggsize could hold none (libdtrace's too).
  const auto aggsize = options_.size("aggsize", 4u << 20);
  const auto& aggregations = engine_->program().aggregations;
  const bool no_row = std::any_of(aggregations.begin(), aggregations.end(), [&](const auto& a) { return agg::row_bytes(a) > aggsize; });
  if (options_.size("bufsize", 1) == 0 || no_row)
    throw engine_error(EBUSY, "failed to go", "Enabling exceeds size of buffer", d::diagnostic::nowhere, "");
  try {
    const auto policy = static_cast<principal_buffer::policy>(options_.number("bufpolicy").value_or(2));
    buffer_.emplace(engine_->program(), engine_->probes(), policy, options_.size("bufsize", 4u << 20));
    engine_->go();
  } catch (const engine::error& e) {
    throw engine_error(EBUSY, "failed to go", e.what(), e.where, e.tag);
  }
  active_ = true;
  last_switch_ = last_agg_ = last_status_ = clock::now();
}

void session::stop() {
  if (!active_ || stopped_) return;
  engine_->stop();
  stopped_ = true;
}

run_status session::status() {
  last_status_ = clock::now();
  if (engine_->exited()) stop();
  return {engine_->exited(), stopped_, drops_, faults_};
}

work_status session::work(std::FILE* out, const probe_callback& on_probe,
                          const record_callback& on_record) {
  // The buffers are read once a switchrate, as Linux DTrace reads them, and an exit() is seen
  // when they are: it ends the run no sooner. A stop() ends it at once.
  if (!work_due()) return work_status::okay;
  const auto st = status();
  aggregate_snap();
  drain(out, on_probe, on_record);
  flush(out);
  report_faults();
  report_drops();
  return st.exited || st.stopped ? work_status::done : work_status::okay;
}

bool session::work_due() const { return stopped_ || clock::now() >= due(last_switch_, "switchrate"); }

session::clock::time_point session::due(clock::time_point last, std::string_view rate) const {
  return last + std::chrono::nanoseconds(options_.number(rate).value_or(0));
}

void session::sleep() const {
  const auto next = std::min({due(last_switch_, "switchrate"), due(last_agg_, "aggrate"),
                              due(last_status_, "statusrate")});
  // Never less than idle_pace: a rate of 0, or a rate due already (work() waits for switchrate),
  // would make the consume loop spin.
  std::this_thread::sleep_until(std::max(next, clock::now() + clock::duration(idle_pace)));
}

void session::options_changed() { printer_.set_options(printing(options_, testing_)); }

void session::aggregate_clear() {
  for (std::uint32_t id = 1; id <= engine_->program().aggregations.size(); ++id)
    engine_->aggregation(id).clear();
}

void session::aggregate_print(std::FILE* out, order o) {
  std::string text;
  printer_.unprinted_aggregations(text, o);
  write(out, text);
  flush(out);
}

void session::carry_out(const ir::statement& s, const engine::firing& f) {
  const std::span<const std::byte> data(f.data);
  switch (s.kind) {
    case ir::action::clear:
      engine_->aggregation(s.aggregation).clear();
      return;
    case ir::action::denormalize:
      engine_->aggregation(s.aggregation).denormalize();
      return;
    case ir::action::normalize:
      if (const auto n = read_record(s.records[1], data).as_unsigned(); n != 0)
        engine_->aggregation(s.aggregation).normalize(n);
      return;
    case ir::action::trunc:
      if (s.records.size() > 1)
        engine_->aggregation(s.aggregation).trunc(read_record(s.records[1], data).as_signed());
      else
        engine_->aggregation(s.aggregation).trunc();
      return;
    case ir::action::commit:
    case ir::action::discard:
      settle_speculation(static_cast<std::uint32_t>(read_record(s.records[0], data).as_signed()),
                         s.kind == ir::action::commit);
      return;
    case ir::action::setopt: {  // from here on, as libdtrace's does; a refusal changes nothing
      const auto value = s.args.empty() ? std::optional<std::string_view>() : std::string_view(s.args[0].text);
      if (const auto refused = options_.set(s.format, value, true)) {
        // libdtrace's message ends in a newline of its own: a blank line follows it.
        report_library_fault(f, "couldn't set option \"" + s.format + "\" to \"" + std::string(value.value_or("1")) +
                                    "\": " + std::string(refused->message) + "\n");
        return;
      }
      options_changed();
      return;
    }
    default:
      return;
  }
}

// system(): the formatted command runs with /bin/sh after what was printed before it, and the run
// goes on whatever it does, as in dtrace(1).
void session::run_system(std::FILE* out, const ir::statement& s, const engine::firing& f) {
  std::string command;
  printer_.print(s, f, command);
  consumer::flush(out);
  (void)std::system(command.c_str());
}

// freopen(): what is printed from here on goes to the file named (created, appended to), or with
// an empty name back where it went before the first freopen(). The stream stays the caller's:
// the file takes its descriptor's place. A file that cannot be opened is a library fault, as in
// dtrace-utils, and the output stays where it was.
void session::reopen(std::FILE* out, const ir::statement& s, const engine::firing& f) {
  consumer::flush(out);
  const int out_fd = ::fileno(out);
  if (s.format.empty()) {
    if (first_out_ >= 0) (void)::dup2(first_out_, out_fd);
    return;
  }
  std::string name;
  printer_.print(s, f, name);
  const int fd = out_fd < 0 ? -1 : ::open(name.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0 || (first_out_ < 0 && (first_out_ = ::fcntl(out_fd, F_DUPFD_CLOEXEC, 0)) < 0)) {
    const int why = out_fd < 0 ? EBADF : errno;
    if (fd >= 0) ::close(fd);
    report_library_fault(f, "couldn't freopen() \"" + name + "\": " + std::strerror(why));
    return;
  }
  (void)::dup2(fd, out_fd);
  ::close(fd);
}

// An action the consumer could not carry out is a fault of the clause that asked for it, as
// libdtrace's dt_handle_liberr() reports it.
void session::report_library_fault(const engine::firing& f, std::string message) {
  const auto& probe = engine::probe_with_id(engine_->probes(), f.probe);
  std::uint32_t statement = 0;
  for (std::size_t i = 0; i < probe.clauses.size(); ++i)
    if (probe.clauses[i] + 1 == f.epid) statement = probe.statements[i];
  report_fault({f.epid, f.probe, statement, 0, engine::fault_kind::library, 0, std::move(message)});
}

// A speculative firing waits for its commit() or discard(); what does not fit in specsize
// bytes with the firings kept before it is a speculative drop. (The engine dropped a firing
// that does not fit on its own before the rest of its clause ran.)
void session::keep_speculative(engine::firing f) {
  auto& buffer = speculative_[f.speculation];
  const std::size_t cost = f.data.size() + ir::speculative_header_bytes;
  if (buffer.bytes + cost > options_.size("specsize", 4u << 20)) {
    ++speculative_drops_;
    return;
  }
  buffer.bytes += cost;
  buffer.firings.push_back(std::move(f));
}

// commit(): the buffer's firings are consumed next, where the commit is; discard(): dropped.
void session::settle_speculation(std::uint32_t id, bool commit) {
  const auto it = speculative_.find(id);
  if (it == speculative_.end()) return;
  auto firings = std::move(it->second.firings);
  speculative_.erase(it);
  if (!commit) return;
  for (auto f = firings.rbegin(); f != firings.rend(); ++f) {
    f->speculation = 0;
    pending_.push_front(std::move(*f));
  }
}

void session::drain(std::FILE* out, const probe_callback& on_probe, const record_callback& on_record) {
  auto taken = engine_->take_records();
  if (buffer_) {
    taken = buffer_->admit(std::move(taken), stopped_);
    if (buffer_->full()) stop();  // a fill buffer that filled ends tracing, as exit() does
  }
  for (auto& f : taken) pending_.push_back(std::move(f));
  last_switch_ = clock::now();
  std::string text;
  // Printed text goes out before each callback, so that what a callback writes to `out`
  // itself lands after the records before it.
  const auto flush = [&] {
    write(out, text);
    text.clear();
  };
  while (!pending_.empty()) {
    engine::firing f = std::move(pending_.front());
    pending_.pop_front();
    if (f.speculation != 0) {
      keep_speculative(std::move(f));
      continue;
    }
    const auto& clause = engine_->program().clauses[f.epid - 1];
    if (only_speculation_records(clause)) {
      for (const auto& s : clause.statements)
        if (!s.records.empty()) carry_out(s, f);
      continue;
    }
    const probe_data probe{engine::probe_with_id(engine_->probes(), f.probe), clause, f.epid, f.cpu, f.data};
    if (on_probe && check(on_probe(probe)) == consume::next) continue;
    printer_.open(f, text);
    for (const auto& s : clause.statements) {
      // Assignments and aggregating write no record; every action does, printf() of a bare
      // format included.
      if (s.kind == ir::action::expression || s.kind == ir::action::aggregate) continue;
      if (is_library_action(s.kind)) {
        carry_out(s, f);
        continue;
      }
      if (on_record) {
        flush();
        const record_data record{s, f.data};
        if (check(on_record(probe, &record)) == consume::next) continue;
      }
      if (s.kind == ir::action::system) {
        flush();
        run_system(out, s, f);
        continue;
      }
      if (s.kind == ir::action::freopen) {
        flush();
        reopen(out, s, f);
        continue;
      }
      if (s.kind == ir::action::ftruncate) {  // as dtrace-utils: where nothing can be cut, nothing is
        flush();
        consumer::flush(out);
        if (::ftruncate(::fileno(out), 0) == 0) std::fseek(out, 0, SEEK_SET);
        continue;
      }
      printer_.print(s, f, text);
    }
    flush();
    if (!on_record || check(on_record(probe, nullptr)) == consume::this_record) printer_.close(text);
  }
  flush();
}

void session::report_faults() {
  for (const auto& f : engine_->take_faults()) report_fault(f);
}

void session::report_fault(const engine::fault& f) {
  ++faults_;
  const fault_data fault{engine::probe_with_id(engine_->probes(), f.probe), f};
  if (!on_fault_)
    throw error(errc::probe_fault, "failed to consume records: Abort due to error: " + fault.message());
  on_fault_(fault);
}

void session::report_drops() {
  auto drops = engine_->take_drops();
  // One report of speculative drops, the engine's and the consumer's together, as DTrace's.
  if (const auto n = std::exchange(speculative_drops_, 0)) {
    const auto engines = std::find_if(drops.begin(), drops.end(),
                                      [](const auto& d) { return d.what == engine::drop_count::kind::speculative; });
    if (engines != drops.end()) engines->count += n;
    else drops.push_back({engine::drop_count::kind::speculative, 0, n});
  }
  for (const auto& d : drops) {
    drops_ += d.count;
    const drop_data drop{d, options_.on("droptags")};
    if (!on_drop_)
      throw error(errc::drop_abort, "failed to consume records: Abort due to drop: " + drop.message());
    on_drop_(drop);
  }
}

}  // namespace dtpp::consumer
