// libdtrace's consumer functions (include/dtpp/c/dtrace.h) over dtpp::consumer::handle: each call
// is the handle's, with its exception turned into -1 and dtrace_errno()/dtrace_errmsg().
#include "dtpp/c/dtrace.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dtpp/agg/joined.hpp"
#include "dtpp/agg/walk.hpp"
#include "dtpp/consumer/handle.hpp"
#include "dtpp/kernel/driver.hpp"
#include "layout.hpp"

using dtpp::capi::free_deleter;

struct dtrace_prog {
  dtpp::consumer::program program;
};

struct dtrace_hdl {
  dtpp::consumer::handle handle = open_handle();

  // libdtrace's compile errors carry no source excerpt; dtrace_setopt("errsource", "on") adds it.
  static dtpp::consumer::handle open_handle() {
    dtpp::consumer::handle h(dtpp::kernel::engines());
    h.setopt("errsource", "off");
    return h;
  }
  int error = 0;
  std::string message;  // what went wrong last, for dtrace_errmsg()

  std::vector<std::unique_ptr<dtrace_prog>> programs;  // the handle owns what it compiled
  bool going = false;
  bool exit_reported = false;

  // The executed program as libdtrace's consumers see it.
  std::vector<dtpp::capi::clause_layout> clauses;                       // by EPID - 1
  std::vector<std::unique_ptr<dtrace_aggdesc_t, free_deleter>> aggs;    // by variable id - 1
  std::vector<std::string> agg_names;
  std::vector<dtrace_probedesc_t*> agg_probes;  // the first probe of each one's first clause
  std::map<std::uint32_t, dtrace_probedesc_t> probes;  // by probe id, made when first needed

  // The firing being consumed, in the C layout.
  std::vector<std::byte> firing;
  dtrace_probedata_t probe_data{};

  dtrace_handle_err_f* on_error = nullptr;
  void* on_error_arg = nullptr;
  dtrace_handle_drop_f* on_drop = nullptr;
  void* on_drop_arg = nullptr;
  dtrace_handle_buffered_f* on_output = nullptr;
  void* on_output_arg = nullptr;
  std::uint64_t drops = 0;  // reported to the drop handler, in all
  int handler_abort = 0;  // EDT_ERRABORT or EDT_DROPABORT once a handler said abort
};

namespace {

using dtpp::consumer::consume;

// Thrown inside the C layer for what the handle does not check itself.
struct c_error {
  int code;
  std::string what;
};

int fail(dtrace_hdl_t* dtp, int code, std::string message) {
  while (!message.empty() && message.back() == '\n') message.pop_back();
  // The handle says what failed ("failed to set option 'x': Invalid option name", compile errors
  // as "dtpp: failed to compile script <string>: line 1: ..."); libdtrace's messages are the
  // cause alone, and its consumers print what failed themselves.
  if (message.starts_with("dtpp: ")) message.erase(0, 6);
  if (message.starts_with("failed to ")) {
    if (const auto colon = message.find(": "); colon != std::string::npos) message.erase(0, colon + 2);
  }
  dtp->error = code;
  dtp->message = std::move(message);
  return -1;
}

// Runs f, turning what it throws into -1 with the error recorded on the handle.
template <class F>
int attempt(dtrace_hdl_t* dtp, F&& f) {
  try {
    return f();
  } catch (const dtpp::consumer::error& e) {
    return fail(dtp, e.code(), e.what());
  } catch (const c_error& e) {
    return fail(dtp, e.code, e.what);
  } catch (const std::bad_alloc&) {
    return fail(dtp, ENOMEM, std::strerror(ENOMEM));
  } catch (const std::exception& e) {
    return fail(dtp, EINVAL, e.what());
  }
}

void copy_name(char* to, std::size_t size, const std::string& from) {
  std::snprintf(to, size, "%s", from.c_str());
}

dtrace_probedesc_t* probe_desc(dtrace_hdl_t* dtp, const dtpp::engine::probe_info& p) {
  const auto [it, fresh] = dtp->probes.try_emplace(p.id);
  if (fresh) {
    auto& d = it->second;
    d.dtpd_id = p.id;
    copy_name(d.dtpd_provider, sizeof d.dtpd_provider, p.provider);
    copy_name(d.dtpd_mod, sizeof d.dtpd_mod, p.module);
    copy_name(d.dtpd_func, sizeof d.dtpd_func, p.function);
    copy_name(d.dtpd_name, sizeof d.dtpd_name, p.name);
  }
  return &it->second;
}

// The C descriptions of an executed program: its clauses and aggregations.
void describe_program(dtrace_hdl_t* dtp, const dtpp::ir::program& program) {
  std::uint64_t uarg = 0;
  for (const auto& c : program.clauses) dtp->clauses.push_back(dtpp::capi::lay_out(c, uarg));
  const auto& probes = dtp->handle.probes();
  for (const auto& d : program.aggregations) {
    std::uint32_t epid = 0;  // the first clause that aggregates into it
    for (const auto& c : program.clauses)
      for (const auto& s : c.statements)
        if (epid == 0 && s.kind == dtpp::ir::action::aggregate && s.aggregation == d.varid) epid = c.id;
    dtp->aggs.push_back(dtpp::capi::describe(d, epid));
    dtp->agg_names.push_back(d.name);
    dtp->agg_probes.push_back(nullptr);
    for (const auto& p : probes)
      if (epid != 0 && std::find(p.clauses.begin(), p.clauses.end(), epid - 1) != p.clauses.end()) {
        dtp->agg_probes.back() = probe_desc(dtp, p);
        break;
      }
  }
  for (std::size_t i = 0; i < dtp->aggs.size(); ++i)
    dtp->aggs[i]->dtagd_name = dtp->agg_names[i].data();
}

// Where output goes: the FILE, or the buffered handler when one is set.
template <class F>
auto with_output(dtrace_hdl_t* dtp, FILE* fp, F&& f) {
  if (!dtp->on_output) return f(fp);
  char* text = nullptr;
  std::size_t size = 0;
  FILE* memory = ::open_memstream(&text, &size);
  if (!memory) throw c_error{errno, std::string("failed to buffer output: ") + std::strerror(errno)};
  const auto close = [&] {
    std::fclose(memory);
    return std::unique_ptr<char, free_deleter>(text);
  };
  std::optional<decltype(f(memory))> result;
  try {
    result = f(memory);
  } catch (...) {
    close();
    throw;
  }
  const auto owned = close();
  if (size > 0) {
    const dtrace_bufdata_t data{dtp, text, nullptr, nullptr, nullptr, 0};
    if (dtp->on_output(&data, dtp->on_output_arg) != DTRACE_HANDLE_OK)
      throw c_error{EDT_DIRABORT, "the buffered output handler said abort"};
  }
  return *result;
}

void check_handler_abort(dtrace_hdl_t* dtp) {
  const int code = std::exchange(dtp->handler_abort, 0);
  if (code == EDT_ERRABORT) throw c_error{code, "Abort due to error: the error handler said abort"};
  if (code == EDT_DROPABORT) throw c_error{code, "Abort due to drop: the drop handler said abort"};
}

// dtrace_work() and dtrace_consume(): the handle's work() with the C callbacks.
int consume_records(dtrace_hdl_t* dtp, FILE* fp, dtrace_consume_probe_f* pfunc,
                    dtrace_consume_rec_f* rfunc, void* arg) {
  auto& pd = dtp->probe_data;
  const auto on_probe = [&](const dtpp::consumer::probe_data& p) {
    const auto& layout = dtp->clauses.at(p.epid - 1);
    dtp->firing.assign(layout.desc->dtepd_size, std::byte{0});
    layout.copy(p.data, dtp->firing.data());
    layout.desc->dtepd_probeid = p.probe.id;
    pd = {dtp, layout.desc.get(), probe_desc(dtp, p.probe), static_cast<int>(p.cpu),
          reinterpret_cast<caddr_t>(dtp->firing.data()), DTRACEFLOW_NONE, "", 0};
    return pfunc ? static_cast<consume>(pfunc(&pd, arg)) : consume::this_record;
  };
  const auto on_record = [&](const dtpp::consumer::probe_data& p,
                             const dtpp::consumer::record_data* r) {
    if (!rfunc) return consume::this_record;
    pd.dtpda_data = reinterpret_cast<caddr_t>(dtp->firing.data());
    if (!r) return static_cast<consume>(rfunc(&pd, nullptr, arg));
    const auto& layout = dtp->clauses.at(p.epid - 1);
    const int first = layout.first_record.at(static_cast<std::size_t>(&r->statement - p.clause.statements.data()));
    if (first < 0) return consume::this_record;
    const auto& rec = layout.desc->dtepd_rec[first];
    pd.dtpda_data += rec.dtrd_offset;  // the record's own bytes, as libdtrace points at them
    return static_cast<consume>(rfunc(&pd, &rec, arg));
  };
  const auto status = with_output(dtp, fp, [&](FILE* out) { return dtp->handle.work(out, on_probe, on_record); });
  check_handler_abort(dtp);
  return status == dtpp::consumer::work_status::done ? DTRACE_WORKSTATUS_DONE : DTRACE_WORKSTATUS_OKAY;
}

// ---- Aggregation walks ----------------------------------------------------------------------

// Tuples as walkers see them, built from one snapshot of each aggregation: dtrace_aggdata_t
// values whose data and per-CPU parts point into this object.
class tuples {
 public:
  explicit tuples(dtrace_hdl_t* dtp) : dtp_(dtp), options_(dtp->handle.print_options()) {
    for (std::uint32_t varid = 1; varid <= dtp->aggs.size(); ++varid)
      tables_.push_back(dtp->handle.aggregation_table(varid));
    for (const auto& t : tables_) {
      pointers_.push_back(&t);
      zero_.push_back(dtpp::agg::zero_words(t.desc()));
    }
    if (options_.percpu) cpus_ = static_cast<std::size_t>(std::max(1L, ::sysconf(_SC_NPROCESSORS_CONF)));
  }

  const std::vector<const dtpp::agg::dynamic_table*>& tables() const { return pointers_; }
  const dtpp::sort_options& sort() const { return options_.sort; }

  /// Adds the tuple of aggregation `table` for `key` with the value of `row` (none: zero-filled).
  void add(std::size_t table, const dtpp::agg::dynamic_key& key, std::optional<std::uint32_t> row) {
    const auto& t = tables_[table];
    const auto& desc = *dtp_->aggs[table];
    const std::span<const std::uint64_t> zero(zero_[table]);
    const auto at = data_.size();
    data_.resize(at + desc.dtagd_size / sizeof(std::uint64_t));
    dtpp::capi::write_tuple(desc, key, row ? t.words(*row) : zero,
                            reinterpret_cast<std::byte*>(data_.data() + at));
    entries_.push_back({table, at, percpu_.size()});
    if (cpus_ == 0) return;
    // Each thread's (CPU's) part; a lone contributor has none of its own: its part is the total.
    // The tables and the zero-filled words stay where they are, so pointers to them hold.
    for (std::size_t cpu = 0; cpu < std::max(cpus_, t.shards()); ++cpu) {
      const std::uint64_t* words = zero.data();
      if (row && cpu < t.shards()) words = t.shard_words(*row, cpu).data();
      else if (row && cpu == 0 && t.shards() == 0) words = t.words(*row).data();
      percpu_.push_back(const_cast<caddr_t>(reinterpret_cast<const char*>(words)));
    }
  }

  /// The dtrace_aggdata_t of every tuple added, in order; valid while this object lives and
  /// nothing is added.
  const std::vector<dtrace_aggdata_t>& data() {
    rows_.clear();
    rows_.reserve(entries_.size());
    for (const auto& e : entries_) {
      const auto& desc = *dtp_->aggs[e.table];
      dtrace_aggdata_t d{};
      d.dtada_handle = dtp_;
      d.dtada_desc = const_cast<dtrace_aggdesc_t*>(&desc);
      d.dtada_edesc = desc.dtagd_epid ? dtp_->clauses[desc.dtagd_epid - 1].desc.get() : nullptr;
      d.dtada_pdesc = dtp_->agg_probes[e.table];
      d.dtada_data = reinterpret_cast<caddr_t>(data_.data() + e.data);
      d.dtada_normal = tables_[e.table].normal();
      d.dtada_size = desc.dtagd_size;
      if (cpus_ != 0) {
        d.dtada_percpu = percpu_.data() + e.percpu;
        d.dtada_flags = DTRACE_A_PERCPU;
      }
      rows_.push_back(d);
    }
    return rows_;
  }

 private:
  struct entry {
    std::size_t table;
    std::size_t data;    // its first word in data_
    std::size_t percpu;  // its first CPU in percpu_
  };

  dtrace_hdl_t* dtp_;
  dtpp::print::print_options options_;
  std::vector<dtpp::agg::dynamic_table> tables_;
  std::vector<const dtpp::agg::dynamic_table*> pointers_;
  std::vector<std::vector<std::uint64_t>> zero_;  // each aggregation's zero-filled value
  std::size_t cpus_ = 0;  // with aggpercpu: the CPUs to hand out parts for
  std::vector<std::uint64_t> data_;
  std::vector<entry> entries_;
  std::vector<caddr_t> percpu_;
  std::vector<dtrace_aggdata_t> rows_;
};

// What a walker's callback answered: go on, or stop with an error.
void check_walk(int answer) {
  switch (answer) {
    case DTRACE_AGGWALK_NEXT:
      return;
    case DTRACE_AGGWALK_ABORT:
      throw c_error{EDT_DIRABORT, "aggregation walk: Abort explicitly directed"};
    case DTRACE_AGGWALK_ERROR:
      throw c_error{EDT_BADRVAL, "aggregation walk: the callback returned DTRACE_AGGWALK_ERROR"};
    case DTRACE_AGGWALK_CLEAR:
    case DTRACE_AGGWALK_NORMALIZE:
    case DTRACE_AGGWALK_DENORMALIZE:
    case DTRACE_AGGWALK_REMOVE:
      throw c_error{EDT_BADRVAL, "aggregation walk: dtpp does not clear, normalize or remove one tuple ("
                                     "the callback returned " + std::to_string(answer) + ")"};
    default:
      throw c_error{EDT_BADRVAL, "aggregation walk: Invalid return value from callback (" +
                                     std::to_string(answer) + ")"};
  }
}

int walk(dtrace_hdl_t* dtp, dtpp::order o, dtrace_aggregate_f* func, void* arg) {
  return attempt(dtp, [&] {
    tuples set(dtp);
    for (const auto r : dtpp::agg::walk_rows<dtpp::agg::dynamic_key>(set.tables(), o, set.sort()))
      set.add(r.table, set.tables()[r.table]->key(r.row), r.row);
    for (const auto& d : set.data())
      check_walk(func(&d, arg));
    return 0;
  });
}

// The walkers dtrace_aggregate_print() knows, and their orders.
struct walker {
  dtrace_aggregate_walk_f* function;
  dtpp::order order;
};

}  // namespace

extern "C" {

dtrace_hdl_t* dtrace_open(int version, int flags, int* errp) {
  int error = 0;
  if (version != DTRACE_VERSION) error = EDT_VERSION;
  else if ((flags & ~DTRACE_O_MASK) != 0) error = EINVAL;
  dtrace_hdl_t* dtp = nullptr;
  if (error == 0) {
    dtp = new (std::nothrow) dtrace_hdl;
    if (!dtp) error = ENOMEM;
  }
  if (errp) *errp = error;
  return dtp;
}

void dtrace_close(dtrace_hdl_t* dtp) { delete dtp; }

int dtrace_errno(dtrace_hdl_t* dtp) { return dtp ? dtp->error : 0; }

const char* dtrace_errmsg(dtrace_hdl_t* dtp, int error) {
  if (dtp && error == dtp->error && !dtp->message.empty()) return dtp->message.c_str();
  switch (error) {
    case EDT_COMPILER: return "D program compilation failed";
    case EDT_BADOPTNAME: return "Invalid option name";
    case EDT_BADOPTVAL: return "Invalid value for specified option";
    case EDT_ACTIVE: return "Operation illegal when tracing is active";
    case EDT_DIRABORT: return "Abort explicitly directed";
    case EDT_BADRVAL: return "Invalid return value from callback";
    case EDT_ERRABORT: return "Abort due to error";
    case EDT_VERSION: return "Client requested a version other than the library's";
    case EDT_DROPABORT: return "Abort due to drop";
    default: return std::strerror(error);
  }
}

dtrace_prog_t* dtrace_program_strcompile(dtrace_hdl_t* dtp, const char* s, dtrace_probespec_t spec,
                                         unsigned int cflags, int argc, char* const argv[]) {
  dtrace_prog_t* result = nullptr;
  attempt(dtp, [&] {
    if (spec < DTRACE_PROBESPEC_NONE || spec > DTRACE_PROBESPEC_NAME)
      throw c_error{EINVAL, "invalid probe specifier kind " + std::to_string(spec)};
    // The flags dtpp honours are its compile-time options (they stay set, as -x ones do).
    static constexpr std::pair<unsigned, const char*> options[] = {{DTRACE_C_EMPTY, "empty"},
                                                                   {DTRACE_C_ETAGS, "errtags"},
                                                                   {DTRACE_C_ARGREF, "argref"},
                                                                   {DTRACE_C_DEFARG, "defaultargs"}};
    unsigned rest = cflags;
    for (const auto& [flag, option] : options)
      if (cflags & flag) {
        dtp->handle.setopt(option);
        rest &= ~flag;
      }
    if (rest != 0) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%x", rest);
      throw c_error{EINVAL, std::string("compiler flags ") + hex + " are not supported by dtpp"};
    }
    std::vector<std::string> arguments;  // argv[0] is $0, which dtpp names "dtpp"
    for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i]);
    auto program = std::make_unique<dtrace_prog>(dtrace_prog{dtp->handle.compile(s ? s : "", std::move(arguments))});
    result = program.get();
    dtp->programs.push_back(std::move(program));
    return 0;
  });
  return result;
}

dtrace_prog_t* dtrace_program_fcompile(dtrace_hdl_t* dtp, FILE* fp, unsigned int cflags, int argc,
                                       char* const argv[]) {
  std::string text;
  char chunk[4096];
  for (std::size_t n; fp && (n = std::fread(chunk, 1, sizeof chunk, fp)) > 0;) text.append(chunk, n);
  if (!fp || std::ferror(fp)) {
    fail(dtp, fp ? EIO : EINVAL, fp ? "failed to read the D program" : "no file to compile");
    return nullptr;
  }
  return dtrace_program_strcompile(dtp, text.c_str(), DTRACE_PROBESPEC_NAME, cflags, argc, argv);
}

int dtrace_program_exec(dtrace_hdl_t* dtp, dtrace_prog_t* pgp, dtrace_proginfo_t* pip) {
  return attempt(dtp, [&] {
    if (!pgp) throw c_error{EINVAL, "failed to enable probes: no program"};
    dtp->handle.exec(pgp->program);
    const auto& program = pgp->program.checked;
    describe_program(dtp, program);
    if (pip) {
      *pip = {};
      pip->dpi_aggregates = static_cast<unsigned>(program.aggregations.size());
      for (const auto& c : program.clauses)
        for (const auto& s : c.statements)
          if (!s.records.empty()) ++pip->dpi_recgens;
      pip->dpi_matches = static_cast<unsigned>(dtp->handle.probes().size());
    }
    return 0;
  });
}

int dtrace_setopt(dtrace_hdl_t* dtp, const char* opt, const char* val) {
  return attempt(dtp, [&] {
    dtp->handle.setopt(opt ? opt : "", val ? std::optional<std::string_view>(val) : std::nullopt);
    return 0;
  });
}

int dtrace_getopt(dtrace_hdl_t* dtp, const char* opt, dtrace_optval_t* val) {
  return attempt(dtp, [&] {
    const auto value = dtp->handle.getopt(opt ? opt : "");
    if (val) *val = value ? std::stoll(*value) : DTRACEOPT_UNSET;
    return 0;
  });
}

int dtrace_go(dtrace_hdl_t* dtp) {
  return attempt(dtp, [&] {
    dtp->handle.go();
    dtp->going = true;
    return 0;
  });
}

int dtrace_stop(dtrace_hdl_t* dtp) {
  return attempt(dtp, [&] {
    dtp->handle.stop();
    return 0;
  });
}

void dtrace_sleep(dtrace_hdl_t* dtp) { dtp->handle.sleep(); }

int dtrace_status(dtrace_hdl_t* dtp) {
  return attempt(dtp, [&] {
    if (!dtp->going) return DTRACE_STATUS_NONE;
    const auto status = dtp->handle.status();
    check_handler_abort(dtp);
    if (status.exited && !std::exchange(dtp->exit_reported, true)) return DTRACE_STATUS_EXITED;
    return status.stopped ? DTRACE_STATUS_STOPPED : DTRACE_STATUS_OKAY;
  });
}

dtrace_workstatus_t dtrace_work(dtrace_hdl_t* dtp, FILE* fp, dtrace_consume_probe_f* pfunc,
                                dtrace_consume_rec_f* rfunc, void* arg) {
  const int status = attempt(dtp, [&] { return consume_records(dtp, fp, pfunc, rfunc, arg); });
  return status < 0 ? DTRACE_WORKSTATUS_ERROR : static_cast<dtrace_workstatus_t>(status);
}

int dtrace_consume(dtrace_hdl_t* dtp, FILE* fp, dtrace_consume_probe_f* pfunc,
                   dtrace_consume_rec_f* rfunc, void* arg) {
  return dtrace_work(dtp, fp, pfunc, rfunc, arg) == DTRACE_WORKSTATUS_ERROR ? -1 : 0;
}

int dtrace_handle_err(dtrace_hdl_t* dtp, dtrace_handle_err_f* hdlr, void* arg) {
  dtp->on_error = hdlr;
  dtp->on_error_arg = arg;
  if (!hdlr) {
    dtp->handle.handle_faults({});
    return 0;
  }
  dtp->handle.handle_faults([dtp](const dtpp::consumer::fault_data& f) {
    const auto message = f.message();
    const auto& fault = f.fault;
    dtrace_errdata_t data{};
    data.dteda_handle = dtp;
    data.dteda_edesc = fault.epid ? dtp->clauses.at(fault.epid - 1).desc.get() : nullptr;
    data.dteda_pdesc = probe_desc(dtp, f.probe);
    data.dteda_cpu = -1;
    // As dtrace-utils fills them: the statement id (dt_clause_N), the pc, the kind, the value; a
    // probe that could not be enabled, or an action the library could not carry out, is a
    // library-level fault with neither.
    const bool library = !fault.epid || fault.kind == dtpp::engine::fault_kind::library;
    data.dteda_action = library ? -1 : static_cast<int>(fault.statement);
    data.dteda_offset = library ? -1 : static_cast<int>(fault.pc);
    data.dteda_fault = library ? DTRACEFLT_LIBRARY : static_cast<int>(fault.kind);
    data.dteda_addr = library ? 0 : fault.value;
    data.dteda_msg = message.c_str();
    if (dtp->on_error(&data, dtp->on_error_arg) != DTRACE_HANDLE_OK) dtp->handler_abort = EDT_ERRABORT;
  });
  return 0;
}

namespace {

dtrace_dropkind_t drop_kind(dtpp::engine::drop_count::kind k) {
  using kind = dtpp::engine::drop_count::kind;
  switch (k) {
    case kind::principal: return DTRACEDROP_PRINCIPAL;
    case kind::aggregation: return DTRACEDROP_AGGREGATION;
    case kind::dynamic: return DTRACEDROP_DYNAMIC;
    case kind::speculative: return DTRACEDROP_SPEC;
    case kind::speculation_busy: return DTRACEDROP_SPECBUSY;
    case kind::speculation_unavailable: return DTRACEDROP_SPECUNAVAIL;
  }
  return DTRACEDROP_PRINCIPAL;
}

}  // namespace

int dtrace_handle_drop(dtrace_hdl_t* dtp, dtrace_handle_drop_f* hdlr, void* arg) {
  dtp->on_drop = hdlr;
  dtp->on_drop_arg = arg;
  if (!hdlr) {
    dtp->handle.handle_drops({});  // drops abort dtrace_work() (EDT_DROPABORT), as in libdtrace
    return 0;
  }
  dtp->handle.handle_drops([dtp](const dtpp::consumer::drop_data& d) {
    dtp->drops += d.drops.count;
    const auto message = d.message();
    const dtrace_dropdata_t data{dtp, static_cast<int>(d.drops.cpu), drop_kind(d.drops.what), d.drops.count,
                                 dtp->drops, message.c_str()};
    if (dtp->on_drop(&data, dtp->on_drop_arg) != DTRACE_HANDLE_OK) dtp->handler_abort = EDT_DROPABORT;
  });
  return 0;
}

int dtrace_handle_buffered(dtrace_hdl_t* dtp, dtrace_handle_buffered_f* hdlr, void* arg) {
  dtp->on_output = hdlr;
  dtp->on_output_arg = arg;
  return 0;
}

int dtrace_aggregate_snap(dtrace_hdl_t* dtp) {
  return attempt(dtp, [&] {
    dtp->handle.aggregate_snap();
    return 0;
  });
}

void dtrace_aggregate_clear(dtrace_hdl_t* dtp) {
  attempt(dtp, [&] {
    dtp->handle.aggregate_clear();
    return 0;
  });
}

int dtrace_aggregate_walk(dtrace_hdl_t* dtp, dtrace_aggregate_f* func, void* arg) {
  return walk(dtp, dtpp::order::unsorted, func, arg);
}
int dtrace_aggregate_walk_sorted(dtrace_hdl_t* dtp, dtrace_aggregate_f* func, void* arg) {
  return walk(dtp, dtpp::order::sorted, func, arg);
}
int dtrace_aggregate_walk_keysorted(dtrace_hdl_t* dtp, dtrace_aggregate_f* func, void* arg) {
  return walk(dtp, dtpp::order::keysorted, func, arg);
}
int dtrace_aggregate_walk_valsorted(dtrace_hdl_t* dtp, dtrace_aggregate_f* func, void* arg) {
  return walk(dtp, dtpp::order::valsorted, func, arg);
}
int dtrace_aggregate_walk_keyrevsorted(dtrace_hdl_t* dtp, dtrace_aggregate_f* func, void* arg) {
  return walk(dtp, dtpp::order::keyrevsorted, func, arg);
}
int dtrace_aggregate_walk_valrevsorted(dtrace_hdl_t* dtp, dtrace_aggregate_f* func, void* arg) {
  return walk(dtp, dtpp::order::valrevsorted, func, arg);
}
int dtrace_aggregate_walk_keyvarsorted(dtrace_hdl_t* dtp, dtrace_aggregate_f* func, void* arg) {
  return walk(dtp, dtpp::order::keyvarsorted, func, arg);
}
int dtrace_aggregate_walk_valvarsorted(dtrace_hdl_t* dtp, dtrace_aggregate_f* func, void* arg) {
  return walk(dtp, dtpp::order::valvarsorted, func, arg);
}
int dtrace_aggregate_walk_keyvarrevsorted(dtrace_hdl_t* dtp, dtrace_aggregate_f* func, void* arg) {
  return walk(dtp, dtpp::order::keyvarrevsorted, func, arg);
}
int dtrace_aggregate_walk_valvarrevsorted(dtrace_hdl_t* dtp, dtrace_aggregate_f* func, void* arg) {
  return walk(dtp, dtpp::order::valvarrevsorted, func, arg);
}

int dtrace_aggregate_walk_joined(dtrace_hdl_t* dtp, dtrace_aggvarid_t* aggvars, int naggvars,
                                 dtrace_aggregate_walk_joined_f* func, void* arg) {
  return attempt(dtp, [&] {
    if (naggvars < 1 || !aggvars) throw c_error{EINVAL, "a joined walk needs at least one aggregation"};
    tuples set(dtp);
    std::vector<std::size_t> positions;  // table index of each joined aggregation
    std::vector<const dtpp::agg::dynamic_table*> joined;
    for (int i = 0; i < naggvars; ++i) {
      if (aggvars[i] < 1 || static_cast<std::size_t>(aggvars[i]) > dtp->aggs.size())
        throw c_error{ENOENT, "no aggregation has variable id " + std::to_string(aggvars[i])};
      positions.push_back(static_cast<std::size_t>(aggvars[i] - 1));
      joined.push_back(set.tables()[positions.back()]);
    }
    const auto bundles = dtpp::agg::joined_bundles<dtpp::agg::dynamic_key>(joined, set.sort());
    for (const auto& b : bundles) {
      const auto& key = joined[b.key.table]->key(b.key.row);
      for (std::size_t p = 0; p < positions.size(); ++p) set.add(positions[p], key, b.members[p]);
    }
    const auto& data = set.data();
    std::vector<const dtrace_aggdata_t*> bundle(positions.size() + 1);
    for (std::size_t b = 0; b < bundles.size(); ++b) {
      for (std::size_t p = 0; p < positions.size(); ++p) bundle[p + 1] = &data[b * positions.size() + p];
      bundle[0] = bundle[1];  // the key's holder
      check_walk(func(bundle.data(), static_cast<int>(bundle.size()), arg));
    }
    return 0;
  });
}

int dtrace_aggregate_print(dtrace_hdl_t* dtp, FILE* fp, dtrace_aggregate_walk_f* func) {
  static constexpr walker walkers[] = {
      {dtrace_aggregate_walk, dtpp::order::unsorted},
      {dtrace_aggregate_walk_sorted, dtpp::order::sorted},
      {dtrace_aggregate_walk_keysorted, dtpp::order::keysorted},
      {dtrace_aggregate_walk_valsorted, dtpp::order::valsorted},
      {dtrace_aggregate_walk_keyrevsorted, dtpp::order::keyrevsorted},
      {dtrace_aggregate_walk_valrevsorted, dtpp::order::valrevsorted},
      {dtrace_aggregate_walk_keyvarsorted, dtpp::order::keyvarsorted},
      {dtrace_aggregate_walk_valvarsorted, dtpp::order::valvarsorted},
      {dtrace_aggregate_walk_keyvarrevsorted, dtpp::order::keyvarrevsorted},
      {dtrace_aggregate_walk_valvarrevsorted, dtpp::order::valvarrevsorted},
  };
  return attempt(dtp, [&] {
    auto o = dtpp::order::sorted;
    if (func) {
      const auto* w = std::find_if(std::begin(walkers), std::end(walkers),
                                   [&](const walker& w) { return w.function == func; });
      if (w == std::end(walkers))
        throw c_error{EINVAL, "failed to print aggregations: dtpp orders them with its own walkers only"};
      o = w->order;
    }
    with_output(dtp, fp, [&](FILE* out) {
      dtp->handle.aggregate_print(out, o);
      return 0;
    });
    return 0;
  });
}

}  // extern "C"
