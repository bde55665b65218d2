// D clauses to eBPF. Values are 64-bit and live in r0 while an expression is evaluated; operands
// wait in stack slots, so helper calls (which clobber r1-r5) never lose them. r6 holds the
// context, r7 the per-CPU scratch memory, r8 the globals, r9 a map value being updated.
#include "codegen.hpp"
#include "vtime.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <limits>
#include <map>
#include <string_view>
#include <variant>

namespace dtpp::kernel {
namespace {

using ir::expr;
using kind_t = ir::expr::kind_t;

constexpr std::int16_t misc_slot = -392;  // 8 bytes for helper arguments (map keys, reads)
constexpr std::int16_t thread_slot = -400;  // the firing thread's task storage
constexpr int temp_slots = 48;            // fp-8 ... fp-384: operands waiting for the other side
constexpr std::int16_t error_return_slot = -408;  // which clause a fault's ERROR clauses go back to
constexpr std::int16_t vtime_slot = -416;         // the task, then its vtime entry, while vtimestamp is read
constexpr std::int16_t agg_key_slot = -480;       // fp-480 ... fp-417: an aggregation's key, when it fits
constexpr std::uint32_t agg_key_stack_bytes = 64;
constexpr std::size_t initial_words_in_place = 8;  // see restart_entry()
constexpr std::int16_t timestamp_slot = -488;     // the firing's timestamp, 0 until read
constexpr std::int16_t vtimestamp_slot = -496;    // the firing's vtimestamp, 0 until read
constexpr std::uint32_t error_arguments = 6;      // arg0 .. arg5 of dtrace:::ERROR
constexpr std::int64_t pt_regs_ip_slot = 16;      // x86-64 pt_regs: ip, the word at byte 128

std::int16_t temp(int depth) {
  if (depth >= temp_slots) throw error("expression nests too deeply for the kernel engine");
  return static_cast<std::int16_t>(-8 * (depth + 1));
}

// An offset from r7 or r8, or from r10 for a place on the stack (negative, kept in a place's
// unsigned offset by wrapping).
std::int16_t off16(std::uint32_t v) {
  const auto signed_v = static_cast<std::int32_t>(v);
  if (signed_v > 32767 || signed_v < -512) throw error("program needs more than 32 KB of scratch memory (lower strsize, or record fewer bytes)");
  return static_cast<std::int16_t>(signed_v);
}

/// The bytes a variable's value takes: a string's strsize, a struct's or union's own (8-byte
/// aligned), 8 for an integer.
std::uint32_t variable_size(const ir::type& t, std::uint32_t strsize) {
  if (t.is_string()) return strsize;
  return t.is_object() ? (t.size + 7) & ~7u : 8;
}

/// A string's place: in scratch (r7) or in the globals (r8), strsize bytes, zero-padded; an
/// aggregation's key: in scratch or on the stack (r10).
struct place {
  reg base = r7;
  std::uint32_t offset = 0;
};

constexpr place misc{r10, static_cast<std::uint32_t>(misc_slot)};

class builder {
 public:
  // `scratch`: whether r7 is made to point at this CPU's scratch (generate() leaves it out of a
  // program that never reads r7).
  builder(const ir::program& p, const target& t, const layout& l, scratch_plan& s, bool scratch)
      : p_(p), t_(&t), l_(l), s_(s), scratch_(scratch), nullable_(nullable_variables(p)) {}

  generated_program build() {
    const auto out = e_.make_label();
    e_.mov(r6, r1);
    // -x cpu: a firing on another CPU does nothing, as in dtrace-utils' trampolines. BEGIN and
    // END (run by dtpp) and ERROR (after a fault on that CPU) always run.
    if (l_.cpu && t_->type != target::kind::begin && t_->type != target::kind::end &&
        t_->type != target::kind::error) {
      e_.call(BPF_FUNC_get_smp_processor_id);
      e_.jump_if(BPF_JNE, r0, static_cast<std::int32_t>(*l_.cpu), out);
    }
    if (scratch_) {
      lookup_fixed(map_scratch, out);
      e_.mov(r7, r0);
    }
    lookup_fixed(map_globals, out);
    e_.mov(r8, r0);
    if (uses_thread_storage()) {
      // The thread's variables, created on its first firing; without memory for them, the
      // firing is a dynamic-variable drop.
      const auto have = e_.make_label();
      call_on_task(BPF_FUNC_get_current_task_btf);
      e_.mov(r2, r0);
      e_.load_map(r1, static_cast<int>(l_.thread_map));
      e_.mov(r3, 0);
      e_.mov(r4, BPF_LOCAL_STORAGE_GET_F_CREATE);
      call_on_task(BPF_FUNC_task_storage_get);
      e_.jump_if(BPF_JNE, r0, 0, have);
      count_drop(drop_dynamic);
      e_.jump(out);
      e_.bind(have);
      e_.store(r10, thread_slot, r0);
    }
    if (t_->probe_table) {
      // A raw_syscalls program: the system call's number (at 8) indexes the probe table; calls
      // no probe asked for have probe id 0 there. The entry is copied to scratch, where records
      // and probefunc read it.
      probe_area_ = s_.allocate(probe_entry_name + l_.strsize);
      e_.load(r1, r6, 8);
      e_.store(r10, misc_slot, r1, 4);
      lookup(t_->probe_table, misc);
      e_.jump_if(BPF_JEQ, r0, 0, out);
      e_.load(r1, r0, 0, 4);
      e_.jump_if(BPF_JEQ, r1, 0, out);
      e_.mov(r3, r0);
      pointer(r1, {r7, probe_area_});
      e_.mov(r2, static_cast<std::int32_t>(probe_entry_name + l_.strsize));
      e_.call(BPF_FUNC_probe_read_kernel);
    }
    // Clause-locals start at zero once per firing and keep their values from one clause of the
    // firing to the next, as DTrace's do.
    for (std::uint32_t id = 0; id < p_.variables.size(); ++id)
      if (p_.variables[id].where == ir::scope::clause)
        zero({r7, l_.variable_offset[id]}, slot_size(p_.variables[id].value));
    if (uses_builtin(ir::builtin::timestamp)) e_.store_imm(r10, timestamp_slot, 0);
    if (uses_builtin(ir::builtin::vtimestamp)) e_.store_imm(r10, vtimestamp_slot, 0);
    run_clauses();
    e_.bind(out);
    e_.mov(r0, 0);
    e_.exit();
    if (!fault_returns_.empty()) error_clauses(out);
    // ERROR's clauses run once after each fault that reaches them.
    return {e_.finish(), reads_task_, ring_bytes_ + fault_returns_.size() * error_ring_bytes_};
  }

 private:
  // ---- helpers -------------------------------------------------------------------------------

  // Whether an expression of this program's clauses (its own, or ERROR's) satisfies `test`.
  template <typename Test>
  bool any_expression(Test test) const {
    bool found = false;
    auto clauses = t_->info.clauses;
    if (l_.error_probe) clauses.insert(clauses.end(), l_.error_probe->clauses.begin(), l_.error_probe->clauses.end());
    for (const auto index : clauses)
      ir::for_each_expression(p_.clauses[index], [&](const expr& e) { found |= test(e); });
    return found;
  }

  // Whether the clauses use a thread-local scalar (self->x) or strtok()'s state.
  bool uses_thread_storage() const {
    return any_expression([&](const expr& e) {
      return (e.kind == kind_t::variable && p_.variables[e.index].where == ir::scope::thread &&
              p_.variables[e.index].keys.empty()) ||
             (e.kind == kind_t::call && e.function == ir::subroutine::strtok);
    });
  }

  // Whether the clauses read the built-in variable `b`.
  bool uses_builtin(ir::builtin b) const {
    return any_expression([b](const expr& e) {
      return e.kind == kind_t::builtin && static_cast<ir::builtin>(e.index) == b;
    });
  }

  // r0 = a value read once per firing, at the first use, and kept on the stack at `slot` (0: not
  // read yet) for every later clause of the firing: `timestamp` (dtrace-utils caches it in its
  // machine state the same way) and `vtimestamp` (DTrace's moves only between firings).
  template <typename Read>
  void once_per_firing(std::int16_t slot, Read read) {
    const auto have = e_.make_label();
    e_.load(r0, r10, slot);
    e_.jump_if(BPF_JNE, r0, 0, have);
    read();
    e_.store(r10, slot, r0);
    e_.bind(have);
  }

  void firing_timestamp() {
    once_per_firing(timestamp_slot, [&] { e_.call(BPF_FUNC_ktime_get_ns); });
  }

  // Calls a helper whose answer is about the task the program runs in: its ids, name, memory,
  // stack or a signal to it. BEGIN and END programs that call one run in the consumer's thread.
  void call_on_task(bpf_func_id helper) {
    reads_task_ = true;
    e_.call(helper);
  }

  // r0 = element 0 of an array map; to `fail` when absent.
  void lookup_fixed(std::uint32_t map, label fail) {
    e_.store_imm(r10, misc_slot, 0, 4);
    lookup(map, misc);
    e_.jump_if(BPF_JEQ, r0, 0, fail);
  }

  void pointer(reg dst, place at) {
    e_.mov(dst, at.base);
    e_.alu(BPF_ADD, dst, static_cast<std::int32_t>(at.offset));
  }

  // Adds one to a per-CPU drop counter.
  void count_drop(drop_slot slot) {
    const auto done = e_.make_label();
    e_.store_imm(r10, misc_slot, static_cast<std::int32_t>(slot), 4);
    lookup(map_drops, misc);
    e_.jump_if(BPF_JEQ, r0, 0, done);
    e_.load(r1, r0, 0);
    e_.alu(BPF_ADD, r1, 1);
    e_.store(r0, 0, r1);
    e_.bind(done);
  }

  // Copies `bytes` (a multiple of 8) from one place to another (map values both): word by word
  // when short, else one helper call.
  void copy(place to, place from, std::uint32_t bytes) {
    if (bytes <= 64) {
      for (std::uint32_t i = 0; i < bytes; i += 8) {
        e_.load(r1, from.base, off16(from.offset + i));
        e_.store(to.base, off16(to.offset + i), r1);
      }
      return;
    }
    pointer(r1, to);
    e_.mov(r2, static_cast<std::int32_t>(bytes));
    pointer(r3, from);
    e_.call(BPF_FUNC_probe_read_kernel);
  }

  void zero(place at, std::uint32_t bytes) {
    for (std::uint32_t i = 0; i < bytes; i += 8) e_.store_imm(at.base, off16(at.offset + i), 0);
  }

  // `bytes` bytes at `at`: `text`'s, then zeros, a word at a time.
  void store_words(place at, const std::string& text, std::uint32_t bytes) {
    for (std::uint32_t i = 0; i < bytes; i += 8) {
      std::int64_t word = 0;
      if (i < text.size()) std::memcpy(&word, text.data() + i, std::min<std::size_t>(8, text.size() - i));
      if (word == static_cast<std::int32_t>(word)) {
        e_.store_imm(at.base, off16(at.offset + i), static_cast<std::int32_t>(word));  // sign-extended
      } else {
        e_.mov64(r1, word);
        e_.store(at.base, off16(at.offset + i), r1);
      }
    }
  }

  // ---- clauses -------------------------------------------------------------------------------

  // The probe's clauses (t_'s), in program order, each as the statement it runs as here.
  void run_clauses() {
    const auto& info = t_->info;
    for (std::size_t i = 0; i < info.clauses.size(); ++i) clause(p_.clauses[info.clauses[i]], info.statements.at(i));
  }

  void clause(const ir::clause& c, std::uint32_t statement_id) {
    clause_ = &c;
    statement_ = statement_id;
    clause_start_ = e_.size();
    const auto next = e_.make_label();
    next_ = next;
    if (t_->type != target::kind::end && t_->type != target::kind::error) {
      e_.load(r1, r8, global_exited);
      e_.jump_if(BPF_JNE, r1, 0, next);
    }
    if (ir::uses_scratch(c)) reset_scratch();
    if (c.predicate) {
      eval(*c.predicate, 0);
      e_.jump_if(BPF_JEQ, r0, 0, next);
    }
    bool output = c.default_action;
    const auto overflow = ir::speculative_overflow(c, l_.specsize);
    for (std::size_t i = 0; i < c.statements.size() && i <= overflow; ++i) output |= statement(c.statements[i]);
    // Past speculate() (else the clause ended there), a record with no room ends the clause.
    if (overflow < c.statements.size()) count_drop(drop_speculative);
    else if (output) emit_record(record_firing, record_header + c.data_size);
    release_speculations(c);
    e_.bind(next);
  }

  bool speculates() const {
    return std::any_of(clause_->statements.begin(), clause_->statements.end(),
                       [](const ir::statement& s) { return s.kind == ir::action::speculate; });
  }

  // ---- speculations --------------------------------------------------------------------------
  // Each of nspec buffers has a word in the globals, nonzero while in use. The buffers' firings
  // are kept by the consumer (consumer::session), which sees a firing's speculation in its
  // record header and commit() and discard() as records.

  // r0 = the first buffer not in use, claimed with compare-and-exchange (CPUs race for it), or 0,
  // counted as a failed speculation.
  void speculation() {
    const auto done = e_.make_label();
    for (std::uint32_t i = 0; i < l_.nspec; ++i) {
      const auto taken = e_.make_label();
      e_.mov(r0, 0);
      e_.mov(r1, 1);
      e_.compare_exchange(r8, off16(l_.speculations + 8 * i), r1);
      e_.jump_if(BPF_JNE, r0, 0, taken);
      e_.mov(r0, static_cast<std::int32_t>(i + 1));
      e_.jump(done);
      e_.bind(taken);
    }
    count_drop(drop_speculation_unavailable);
    e_.mov(r0, 0);
    e_.bind(done);
  }

  // r1 = the address of buffer r0's in-use word, for r0 in 1..nspec; to `outside` otherwise.
  void speculation_word(label outside) {
    e_.mov(r1, r0);
    e_.alu(BPF_SUB, r1, 1);
    e_.jump_if(BPF_JGE, r1, static_cast<std::int32_t>(l_.nspec), outside);
    e_.alu(BPF_LSH, r1, 3);
    e_.alu(BPF_ADD, r1, r8);
    e_.alu(BPF_ADD, r1, static_cast<std::int32_t>(l_.speculations));
  }

  // speculate(): the rest of the clause goes to the buffer named; a buffer not in use (0, past
  // nspec, committed or discarded) drops the clause without a fault, as in DTrace.
  void speculate(const ir::statement& s) {
    eval(s.args[0], 0);
    speculation_word(next_);
    e_.load(r2, r1, 0);
    e_.jump_if(BPF_JEQ, r2, 0, next_);
    e_.store(r7, record_speculation, r0, 2);
  }

  // commit() and discard() record the buffer for the consumer; past nspec (or negative) is an
  // illegal operation, as in DTrace.
  void settle(const ir::statement& s) {
    eval(s.args[0], 0);
    put(s.records[0]);
    const auto valid = e_.make_label();
    e_.jump_if(BPF_JLE, r0, static_cast<std::int32_t>(l_.nspec), valid);
    e_.store(r10, temp(0), r0);
    fault(fault_illegal_operation, temp(0));
    e_.bind(valid);
  }

  // The buffers a clause committed or discarded are free again once its record is out, so that a
  // firing speculating into one again reaches the consumer after the commit() or discard().
  void release_speculations(const ir::clause& c) {
    for (const auto& s : c.statements) {
      if (s.kind != ir::action::commit && s.kind != ir::action::discard) continue;
      const auto none = e_.make_label();
      e_.load(r0, r7, off16(record_header + s.records[0].offset), s.records[0].size);
      speculation_word(none);
      e_.store_imm(r1, 0, 0);
      e_.bind(none);
    }
  }

  std::uint32_t slot_size(const ir::type& t) const { return variable_size(t, l_.strsize); }

  // dst = the id of the probe that fired.
  void probe_id(reg dst) {
    if (t_->probe_table) e_.load(dst, r7, off16(probe_area_), 4);
    else e_.mov(dst, static_cast<std::int32_t>(t_->info.id));
  }

  void header(record_kind kind) {
    // A speculating clause's speculate() wrote the speculation already.
    e_.store_imm(r7, 0, static_cast<std::int32_t>(kind), speculates() ? 2 : 4);
    e_.store_imm(r7, 4, static_cast<std::int32_t>(clause_->id), 4);
    probe_id(r1);
    e_.store(r7, 8, r1, 4);
    e_.call(BPF_FUNC_get_smp_processor_id);
    e_.store(r7, 12, r0, 4);
  }

  void emit_record(record_kind kind, std::uint32_t bytes) {
    // The ring takes the record after an 8-byte header of its own, 8-aligned (BPF_RINGBUF_HDR_SZ).
    (t_->type == target::kind::error ? error_ring_bytes_ : ring_bytes_) += 8 + ((bytes + 7) & ~7u);
    header(kind);
    const auto done = e_.make_label();
    e_.load_map(r1, map_ring);
    e_.mov(r2, r7);
    e_.mov(r3, static_cast<std::int32_t>(bytes));
    e_.mov(r4, 0);
    e_.call(BPF_FUNC_ringbuf_output);
    e_.jump_if(BPF_JEQ, r0, 0, done);
    count_drop(drop_principal);
    e_.bind(done);
  }

  // A fault ends the clause: a fault record (fault_record: code, value from the stack slot, pc,
  // statement) instead of data; then the ERROR clauses run, unless the fault is in one of them.
  // The pc is the index of the fault's first instruction counted from the clause's first, as
  // dtrace-utils' is its dt_probe_error call's in the clause's function: never 0, since the
  // clause computed something before.
  void fault(std::int32_t code, std::int16_t value_slot) {
    const auto pc = static_cast<std::int32_t>(e_.size() - clause_start_);
    e_.store_imm(r7, record_header, code);
    e_.load(r1, r10, value_slot);
    e_.store(r7, record_header + 8, r1);
    e_.store_imm(r7, record_header + 16, pc, 4);
    e_.store_imm(r7, record_header + 20, static_cast<std::int32_t>(statement_), 4);
    if (l_.error_probe && t_->type != target::kind::error) {
      // DTrace's ERROR arguments, as dtrace-utils gives them: 0, the probe, the statement id,
      // the pc, the fault code, the value.
      if (error_args_ == 0) error_args_ = s_.allocate(8 * error_arguments);
      e_.store_imm(r7, off16(error_args_), 0);
      probe_id(r2);
      e_.store(r7, off16(error_args_ + 8), r2);
      e_.store_imm(r7, off16(error_args_ + 16), static_cast<std::int32_t>(statement_));
      e_.store_imm(r7, off16(error_args_ + 24), pc);
      e_.store_imm(r7, off16(error_args_ + 32), code);
      e_.store(r7, off16(error_args_ + 40), r1);
      emit_record(record_fault, record_header + fault_record);
      // Where to go on after the ERROR clauses, in a stack slot, where the verifier sees the
      // constant and follows only the one way back.
      e_.store_imm(r10, error_return_slot, static_cast<std::int32_t>(fault_returns_.size()));
      fault_returns_.push_back(next_);
      e_.jump(error_entry_);
      return;
    }
    emit_record(record_fault, record_header + fault_record);
    e_.jump(next_);
  }

  // The ERROR clauses, once per program after its own: reached from every fault, they run as
  // dtrace:::ERROR's and go back to the clause after the one that faulted.
  void error_clauses(label out) {
    e_.bind(error_entry_);
    target error_target;
    error_target.type = target::kind::error;
    error_target.info = *l_.error_probe;
    const auto* own = std::exchange(t_, &error_target);
    run_clauses();
    e_.load(r1, r10, error_return_slot);
    for (std::size_t i = 0; i < fault_returns_.size(); ++i)
      e_.jump_if(BPF_JEQ, r1, static_cast<std::int32_t>(i), fault_returns_[i]);
    e_.jump(out);
    t_ = own;
  }

  // Stores r0 into a record, narrowed to its size.
  void put(const ir::record& r) { e_.store(r7, off16(record_header + r.offset), r0, r.size >= 8 ? 8 : r.size); }

  // r2 bytes (at most the record's) read into record `r` from the address at temp(0); a bad
  // address faults.
  void read_object(const ir::record& r) {
    e_.load(r3, r10, temp(0));
    pointer(r1, {r7, record_header + r.offset});
    e_.call(BPF_FUNC_probe_read_kernel);
    const auto read = e_.make_label();
    e_.jump_if(BPF_JEQ, r0, 0, read);
    fault(fault_bad_address, temp(0));
    e_.bind(read);
  }

  // A stack() or ustack() record at `at`: bpf_get_stack() fills it and zeroes what it leaves. A
  // user stack starts with the process id. BEGIN and END have no kernel stack of their own (they
  // run in dtpp's bpf() call), as in DTrace, where they fire outside any kernel path.
  void stack_into(place at, const expr& e, int depth = 0) {
    if (e.t.form != agg::symbol_form::none) return symbol_into(at, e, depth);
    std::uint32_t skip = 0;
    std::int32_t flags = 0;
    if (e.t.kind == ir::type::category::ustack) {
      call_on_task(BPF_FUNC_get_current_pid_tgid);
      e_.alu(BPF_RSH, r0, 32);
      e_.store(at.base, off16(at.offset), r0);
      skip = 8;
      flags = BPF_F_USER_STACK;
    } else if (t_->type == target::kind::begin || t_->type == target::kind::end) {
      zero(at, e.t.size);
      return;
    }
    get_stack({at.base, at.offset + skip}, e.t.size - skip, flags);
    if (flags == BPF_F_USER_STACK && t_->type == target::kind::user_entry && t_->entry_skip != 0)
      rewind_entry_frame({at.base, at.offset + skip});
  }

  // A user stack taken past a function's endbr64 starts at the function, as at any other entry
  // probe: its first frame goes back over the skipped bytes (left 0 when the stack is empty).
  void rewind_entry_frame(place first) {
    const auto empty = e_.make_label();
    e_.load(r0, first.base, off16(first.offset));
    e_.jump_if(BPF_JEQ, r0, 0, empty);
    e_.alu(BPF_SUB, r0, static_cast<std::int32_t>(t_->entry_skip));
    e_.store(first.base, off16(first.offset), r0);
    e_.bind(empty);
  }

  // bpf_get_stack() of `bytes` into `at` (flags: 0 or BPF_F_USER_STACK); r0: the bytes it wrote,
  // or a negative errno.
  void get_stack(place at, std::uint32_t bytes, std::int32_t flags) {
    e_.mov(r1, r6);
    pointer(r2, at);
    e_.mov(r3, static_cast<std::int32_t>(bytes));
    e_.mov(r4, flags);
    call_on_task(BPF_FUNC_get_stack);
  }

  // caller and ucaller (the second frame of the stack, 0 without one), stackdepth and
  // ustackdepth (its frames, up to the kernel's 127). BEGIN and END have no kernel stack.
  void stack_builtin(bool user, bool depth) {
    if (!user && (t_->type == target::kind::begin || t_->type == target::kind::end)) {
      e_.mov(r0, 0);
      return;
    }
    // A return probe fires at the return address: the caller is where it fires.
    if (user && !depth && t_->type == target::kind::user_return) {
      e_.load(r0, r6, off16(8 * pt_regs_ip_slot));
      return;
    }
    // At a function's entry its frame is not made yet: the caller is the return address on top
    // of the stack (the kernel's unwinder skips it unless the function starts with push %rbp).
    if (user && !depth && t_->type == target::kind::user_entry && t_->info.name == "entry") {
      e_.load(r3, r6, 152);  // sp
      return read_user_word();
    }
    const std::uint32_t bytes = depth ? 127 * 8 : 16;
    const place at{r7, s_.allocate(bytes)};
    e_.store_imm(at.base, off16(at.offset + 8), 0);
    get_stack(at, bytes, user ? BPF_F_USER_STACK : 0);
    if (!depth) {
      e_.load(r0, at.base, off16(at.offset + 8));
      return;
    }
    const auto done = e_.make_label();
    e_.jump_if(BPF_JSGE, r0, 0, done);
    e_.mov(r0, 0);
    e_.bind(done);
    e_.alu(BPF_RSH, r0, 3);
  }

  // A sym() ... umod() record at `at`: the address (after the process id, for a user one), named
  // by the consumer.
  void symbol_into(place at, const expr& e, int depth) {
    const bool user = e.t.kind == ir::type::category::ustack;
    eval(e.kids[0], depth);
    e_.store(at.base, off16(at.offset + (user ? 8 : 0)), r0);
    if (!user) return;
    call_on_task(BPF_FUNC_get_current_pid_tgid);
    e_.alu(BPF_RSH, r0, 32);
    e_.store(at.base, off16(at.offset), r0);
  }

  void put_value(const ir::record& r, const expr& e) {
    if (e.t.is_stack()) {
      stack_into({r7, record_header + r.offset}, e);
      return;
    }
    if (e.t.is_string()) {
      const auto from = string_operand(e, 0);
      copy({r7, record_header + r.offset}, from, std::min(r.size, l_.strsize));
      return;
    }
    eval(e, 0);
    put(r);
  }

  bool statement(const ir::statement& s) {
    switch (s.kind) {
      case ir::action::expression:
        eval(s.args[0], 0);
        return false;
      case ir::action::aggregate:
        aggregate(s);
        return false;
      case ir::action::printa:
      case ir::action::clear:
      case ir::action::denormalize:
        for (std::size_t i = 0; i < s.records.size(); ++i) {
          e_.mov(r0, static_cast<std::int32_t>(s.kind == ir::action::printa ? s.aggregations[i] : s.aggregation));
          put(s.records[i]);
        }
        return true;
      case ir::action::trunc:
      case ir::action::normalize:
        e_.mov(r0, static_cast<std::int32_t>(s.aggregation));
        put(s.records[0]);
        if (s.records.size() > 1) put_value(s.records[1], s.args[0]);
        return true;
      case ir::action::exit:
        eval(s.args[0], 0);
        put(s.records[0]);
        e_.store(r8, global_status, r0);
        e_.store_imm(r8, global_exited, 1);
        return true;
      case ir::action::setopt:
      case ir::action::ftruncate:
        return true;  // a record, for the consumer to carry out
      case ir::action::speculate:
        speculate(s);
        return true;  // the firing goes to the buffer even with no data: a probe line, committed
      case ir::action::commit:
      case ir::action::discard:
        settle(s);
        return true;
      case ir::action::raise:
        eval(s.args[0], 0);
        e_.mov(r1, r0);
        call_on_task(BPF_FUNC_send_signal_thread);
        return false;
      case ir::action::stop:
        e_.mov(r1, SIGSTOP);
        call_on_task(BPF_FUNC_send_signal);
        return false;
      case ir::action::chill:
        throw error("chill() is not supported by the kernel engine: a BPF program cannot wait", s.where);
      case ir::action::breakpoint:
      case ir::action::panic:
        throw error(ir::refusal(s.kind), s.where);
      case ir::action::print:
        // The address, then the object's bytes read from it.
        eval(s.args[0], 0);
        put(s.records[0]);
        e_.store(r10, temp(0), r0);
        e_.mov(r2, static_cast<std::int32_t>(s.records[1].size));
        read_object(s.records[1]);
        return true;
      case ir::action::copyout:
      case ir::action::copyoutstr:
        copy_out(s);
        return false;
      case ir::action::tracemem: {
        eval(s.args[0], 0);
        e_.store(r10, temp(0), r0);
        if (s.args.size() > 2) {  // only the bytes shown are read (all for a negative count), as dtrace-utils reads them
          eval(s.args[2], 1);
          put(s.records[1]);
        }
        e_.mov(r2, static_cast<std::int32_t>(s.records[0].size));
        const auto none = e_.make_label();
        if (s.args.size() > 2) {
          const auto all = e_.make_label();
          e_.jump_if(BPF_JGE, r0, r2, all);  // unsigned
          e_.jump_if(BPF_JEQ, r0, 0, none);  // nothing shown is nothing read (pcap() of NULL)
          e_.mov(r2, r0);
          e_.bind(all);
        }
        read_object(s.records[0]);
        e_.bind(none);
        return true;
      }
      case ir::action::system:
      case ir::action::freopen:
      case ir::action::stack:
      case ir::action::ustack:
      case ir::action::trace:
      case ir::action::printf:
        for (std::size_t i = 0; i < s.args.size(); ++i) put_value(s.records[i], s.args[i]);
        return true;
    }
    return false;
  }

  // ---- aggregations --------------------------------------------------------------------------

  static std::uint32_t key_bytes(const std::vector<std::uint32_t>& widths) {
    std::uint32_t size = 0;
    for (const auto w : widths) size += w;
    return size;
  }

  // Writes keys at `at` as a kernel key: integers 8 bytes (their bits, narrowed to the key type),
  // strings and stacks `widths[i]` bytes.
  void build_key(place at, const std::vector<expr>& keys, const std::vector<agg::key_type>& types,
                 const std::vector<std::uint32_t>& widths, int depth) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (types[i].kind == agg::key_type::category::string) {
        string_into(at, keys[i], widths[i], depth);
      } else if (types[i].holds_bytes()) {
        stack_into(at, keys[i], depth);
      } else {
        eval(keys[i], depth);
        e_.extend(r0, types[i].size, false);
        e_.store(at.base, off16(at.offset), r0);
      }
      at.offset += widths[i];
    }
  }

  // A string key of `width` bytes at `at`. execname is copied there by the helper itself, and a
  // string known when the program is made (`@[probename]`) is stored there word by word, not
  // through scratch: such keys then need no scratch.
  void string_into(place at, const expr& e, std::uint32_t width, int depth) {
    if (const auto text = constant_string(e); text && text->size() < width) {
      store_words(at, *text, width);
      return;
    }
    if (e.kind == kind_t::builtin && static_cast<ir::builtin>(e.index) == ir::builtin::execname &&
        width >= comm_bytes()) {
      zero(at, width);  // the helper pads the name with zeros to comm_bytes() only
      pointer(r1, at);
      e_.mov(r2, static_cast<std::int32_t>(comm_bytes()));
      call_on_task(BPF_FUNC_get_current_comm);
      return;
    }
    copy(at, string_operand(e, depth), width);
  }

  void aggregate(const ir::statement& s) {
    const auto& d = p_.aggregations[s.aggregation - 1];
    const auto map = l_.aggregation_map[s.aggregation - 1];
    // A key that fits is built on the stack (a key expression's own keys, a[k], go to scratch, so
    // they never overwrite it): with only such keys, a program may need no scratch at all.
    const auto& widths = l_.key_widths[s.aggregation - 1];
    const auto size = key_bytes(widths);
    const place key = size <= agg_key_stack_bytes ? place{r10, static_cast<std::uint32_t>(agg_key_slot)}
                                                  : place{r7, s_.allocate(size)};
    build_key(key, s.keys, d.keys, widths, 0);
    // The value and increment wait on the stack while the entry is found.
    if (!s.args.empty()) eval(s.args[0], 0);
    else e_.mov(r0, 0);
    e_.store(r10, temp(0), r0);
    if (s.args.size() > 1) eval(s.args[1], 1);
    else e_.mov(r0, 1);
    e_.store(r10, temp(1), r0);

    const std::uint32_t generation = global_generations + 8 * (s.aggregation - 1);

    const auto found = e_.make_label(), fresh = e_.make_label(), done = e_.make_label(), current = e_.make_label();
    if (l_.cache_map[s.aggregation - 1]) {
      const auto missed = e_.make_label();
      front_cache(s.aggregation - 1, key, current, missed);
      e_.bind(missed);
    }
    if (d.keys.empty()) {
      lookup_fixed(map, done);  // the one-entry array's index 0, which the verifier knows is there
    } else {
      // A new key's entry starts all zero (generation 0: each CPU's slot starts itself below).
      lookup_or_insert(map, key, [&] { lookup_fixed(l_.zero_map, done); e_.mov(r3, r0); },
                       drop_aggregation, found);
      e_.jump(done);
    }

    e_.bind(found);
    e_.mov(r9, r0);
    if (!d.keys.empty()) {  // this CPU's slot of the entry
      e_.call(BPF_FUNC_get_smp_processor_id);
      e_.jump_if(BPF_JGE, r0, static_cast<std::int32_t>(l_.cpus), done);
      e_.alu(BPF_MUL, r0, static_cast<std::int32_t>(l_.slot_size[s.aggregation - 1]));
      e_.alu(BPF_ADD, r9, r0);
    }
    // A clear() since this CPU last updated the entry: it restarts from the initial words, then
    // the generation.
    e_.bind(current);
    e_.load(r1, r8, off16(generation));
    e_.load(r2, r9, 0);
    e_.jump_if(BPF_JEQ, r1, r2, fresh);
    restart_entry(s.aggregation, done);
    e_.load(r1, r8, off16(generation));
    e_.store(r9, 0, r1);
    e_.bind(fresh);

    e_.load(r2, r10, temp(0));  // value
    e_.load(r3, r10, temp(1));  // increment
    update(d.fn, done);
    e_.bind(done);
  }

  // Writes aggregation `id`'s initial words into the entry at r9 + 8. A few words are stored in
  // place: no helper call, and no map lookup for the verifier to patch (it copies the whole
  // program for each, so one per clause made 900 clauses load in twice the time). Many words (a
  // quantize's 1 KiB) come from scratch, written once per aggregation, which has 32 KiB.
  void restart_entry(std::uint32_t id, label fail) {
    const auto& fn = p_.aggregations[id - 1].fn;
    std::vector<std::uint64_t> initial(fn.words());
    fn.init(initial.data());
    if (initial.size() <= initial_words_in_place) {
      for (std::size_t i = 0; i < initial.size(); ++i) {
        const auto word = static_cast<std::int64_t>(initial[i]);
        const auto at = off16(static_cast<std::uint32_t>(8 * (i + 1)));
        if (word == static_cast<std::int32_t>(word)) {
          e_.store_imm(r9, at, static_cast<std::int32_t>(word));  // sign-extended to 8 bytes
        } else {
          e_.mov64(r1, word);
          e_.store(r9, at, r1);
        }
      }
      return;
    }
    auto [cached, fresh] = initial_values_.try_emplace(id, 0);
    if (fresh) {
      cached->second = s_.allocate(static_cast<std::uint32_t>(8 * initial.size()));
      std::memcpy(s_.image.data() + cached->second, initial.data(), 8 * initial.size());
    }
    lookup_fixed(map_scratch, fail);
    e_.mov(r3, r0);
    e_.alu(BPF_ADD, r3, static_cast<std::int32_t>(cached->second));
    e_.mov(r1, r9);
    e_.alu(BPF_ADD, r1, 8);
    e_.mov(r2, static_cast<std::int32_t>(8 * initial.size()));
    e_.call(BPF_FUNC_probe_read_kernel);
  }

  // r9 = this CPU's front cache entry for the key at r7 + key (after the key: its generation and
  // words), then to `hit` when the entry holds the key or was empty (it now holds the key, and
  // generation 0 makes the update start it from the initial value); to `missed` when it holds
  // another key. The entry is named by a multiplicative hash of the key's words, its top bits.
  void front_cache(std::uint32_t aggregation, place key, label hit, label missed) {
    const auto key_size = l_.key_size[aggregation];
    const auto slots = l_.cache_slots[aggregation];
    const auto entry = cache_entry_size(key_size, p_.aggregations[aggregation].fn.words());
    lookup_fixed(l_.cache_map[aggregation], missed);
    e_.mov(r9, r0);
    e_.call(BPF_FUNC_get_smp_processor_id);
    e_.jump_if(BPF_JGE, r0, static_cast<std::int32_t>(l_.cpus), missed);
    e_.alu(BPF_MUL, r0, static_cast<std::int32_t>(slots));
    e_.mov64(r3, static_cast<std::int64_t>(0x9e3779b97f4a7c15ull));
    e_.mov(r1, 0);
    for (std::uint32_t i = 0; i < key_size; i += 8) {
      e_.load(r2, key.base, off16(key.offset + i));
      e_.alu(BPF_XOR, r1, r2);
      e_.alu(BPF_MUL, r1, r3);
    }
    std::int32_t bits = 0;
    while ((1u << bits) < slots) ++bits;
    e_.alu(BPF_RSH, r1, 64 - bits);
    e_.alu(BPF_ADD, r0, r1);
    e_.alu(BPF_MUL, r0, static_cast<std::int32_t>(entry));
    e_.alu(BPF_ADD, r9, r0);
    const auto claim = e_.make_label();
    e_.load(r1, r9, off16(key_size));
    e_.jump_if(BPF_JEQ, r1, 0, claim);
    for (std::uint32_t i = 0; i < key_size; i += 8) {
      e_.load(r1, key.base, off16(key.offset + i));
      e_.load(r2, r9, off16(i));
      e_.jump_if(BPF_JNE, r1, r2, missed);
    }
    e_.alu(BPF_ADD, r9, static_cast<std::int32_t>(key_size));
    e_.jump(hit);
    e_.bind(claim);
    copy({r9, 0}, key, key_size);
    e_.alu(BPF_ADD, r9, static_cast<std::int32_t>(key_size));
    e_.jump(hit);
  }

  // Word i of the entry r9 points at (after the generation word).
  static std::int16_t word(std::size_t i) { return static_cast<std::int16_t>(8 * (i + 1)); }

  void add_to(std::size_t i, reg amount) {
    e_.load(r1, r9, word(i));
    e_.alu(BPF_ADD, r1, amount);
    e_.store(r9, word(i), r1);
  }

  // DTrace's words for each function; r2 = value, r3 = increment.
  void update(const agg::function& fn, label done) {
    switch (fn.kind) {
      case agg::kind::count:
        e_.mov(r4, 1);
        add_to(0, r4);
        return;
      case agg::kind::sum:
        add_to(0, r2);
        return;
      case agg::kind::min:
      case agg::kind::max:
        e_.load(r1, r9, word(0));
        e_.jump_if(fn.kind == agg::kind::min ? BPF_JSGE : BPF_JSLE, r2, r1, done);
        e_.store(r9, word(0), r2);
        return;
      case agg::kind::avg:
        e_.mov(r4, 1);
        add_to(0, r4);
        add_to(1, r2);
        return;
      case agg::kind::stddev:
        stddev();
        return;
      default:
        histogram(fn, done);
        return;
    }
  }

  // count, sum, and the 128-bit sum of squares (low word first) of |value|.
  void stddev() {
    e_.mov(r4, 1);
    add_to(0, r4);
    add_to(1, r2);
    const auto positive = e_.make_label();
    e_.jump_if(BPF_JSGE, r2, 0, positive);
    e_.alu(BPF_NEG, r2, 0);
    e_.bind(positive);
    // a = ah * 2^32 + al; a^2 = ah^2 * 2^64 + ah*al * 2^33 + al^2
    e_.mov(r3, r2);
    e_.alu(BPF_RSH, r3, 32);   // ah
    e_.zero_extend32(r2);      // al
    e_.mov(r4, r3);
    e_.alu(BPF_MUL, r4, r2);   // m = ah * al
    e_.alu(BPF_MUL, r2, r2);   // al^2
    e_.alu(BPF_MUL, r3, r3);   // ah^2
    e_.mov(r5, r4);
    e_.alu(BPF_LSH, r5, 33);   // low part of m * 2^33
    e_.alu(BPF_RSH, r4, 31);   // high part
    e_.alu(BPF_ADD, r3, r4);
    e_.alu(BPF_ADD, r5, r2);   // lo = al^2 + (m << 33)
    const auto no_carry = e_.make_label();
    e_.jump_if(BPF_JGE, r5, r2, no_carry);
    e_.alu(BPF_ADD, r3, 1);
    e_.bind(no_carry);
    // (w3:w2) += (r3:r5)
    e_.load(r1, r9, word(2));
    e_.alu(BPF_ADD, r1, r5);
    e_.store(r9, word(2), r1);
    const auto no_carry2 = e_.make_label();
    e_.jump_if(BPF_JGE, r1, r5, no_carry2);
    e_.alu(BPF_ADD, r3, 1);
    e_.bind(no_carry2);
    add_to(3, r3);
  }

  // quantize, lquantize, llquantize: the bucket's word computed from the value (r2) in a few
  // instructions, then the increment (r3) added to it. (A binary search over the bucket
  // boundaries cost a leaf per bucket: 930 instructions for quantize, 65,537 leaves for lquantize's
  // most levels, and seconds of the verifier's time in a program of many updates.)
  void histogram(const agg::function& fn, label done) {
    const auto have = e_.make_label();
    if (fn.kind == agg::kind::quantize) quantize_word(have);
    else if (fn.kind == agg::kind::lquantize) lquantize_word(agg::lquantize_params::decode(fn.param), have);
    else llquantize_word(agg::llquantize_params::decode(fn.param), have);
    e_.bind(have);
    // Never taken: it tells the verifier that the word is inside the entry.
    e_.jump_if(BPF_JGT, r1, static_cast<std::int32_t>(fn.words() - 1), done);
    e_.alu(BPF_LSH, r1, 3);
    e_.alu(BPF_ADD, r1, r9);
    e_.load(r4, r1, word(0));
    e_.alu(BPF_ADD, r4, r3);
    e_.store(r1, word(0), r4);
  }

  // r4 = the bit width of r5 (0 for 0, 64 for 2^63 and up) without a branch: six halvings, each
  // shifting r5 right by 32, 16 .. 1 where anything is left above that many bits. Clobbers r1, r5.
  void bit_width() {
    e_.mov(r4, 0);
    for (std::int32_t half = 32; half >= 1; half /= 2) {
      e_.mov(r1, r5);
      e_.alu(BPF_RSH, r1, half);
      // Below 2^63, so its negation has the top bit set exactly when it is not zero.
      e_.alu(BPF_NEG, r1, 0);
      e_.alu(BPF_RSH, r1, 63);
      e_.alu(BPF_MUL, r1, half);
      e_.alu(BPF_RSH, r5, r1);
      e_.alu(BPF_ADD, r4, r1);
    }
    e_.alu(BPF_AND, r5, 1);  // 0 or 1 by now; the mask says so to the verifier
    e_.alu(BPF_ADD, r4, r5);
  }

  // r1 = agg::quantize::bucket(r2): 63 plus the bit width of a positive value, 63 minus that of
  // a negative value's magnitude (INT64_MIN's is 2^63), and bucket 0 from -2^62 down.
  void quantize_word(label have) {
    const auto magnitude = e_.make_label(), positive = e_.make_label();
    e_.mov(r5, r2);
    e_.jump_if(BPF_JSGT, r2, 0, magnitude);
    e_.alu(BPF_NEG, r5, 0);
    e_.bind(magnitude);
    bit_width();
    const auto zero = static_cast<std::int32_t>(agg::quantize::zero_bucket);
    e_.jump_if(BPF_JSGT, r2, 0, positive);
    e_.mov(r1, zero);
    e_.alu(BPF_SUB, r1, r4);
    e_.jump_if(BPF_JSGE, r1, 0, have);
    e_.mov(r1, 0);
    e_.jump(have);
    e_.bind(positive);
    e_.mov(r1, r4);
    e_.alu(BPF_ADD, r1, zero);
  }

  // r1 = 1 + the lquantize bucket of r2: underflow, (value - base) / step + 1, overflow.
  void lquantize_word(const agg::lquantize_params& q, label have) {
    e_.mov(r1, 1);
    e_.jump_if(BPF_JSLT, r2, q.base, have);
    e_.mov(r1, static_cast<std::int32_t>(q.levels) + 2);
    e_.mov64(r4, q.overflow_start());
    e_.jump_if(BPF_JSGE, r2, r4, have);
    e_.mov(r1, r2);
    e_.alu(BPF_SUB, r1, q.base);
    e_.alu(BPF_DIV, r1, static_cast<std::int32_t>(q.step));  // 0 .. levels - 1
    e_.alu(BPF_ADD, r1, 2);
  }

  // r1 = 1 + the llquantize bucket of r2: underflow below factor^low; in the first order of
  // magnitude m with factor^(m+1) above the value, the value / the order's bucket width, moved to
  // where the order's buckets start; else overflow.
  void llquantize_word(const agg::llquantize_params& q, label have) {
    e_.mov(r1, 1);
    e_.jump_if(BPF_JSLT, r2, 0, have);
    e_.mov64(r4, static_cast<std::int64_t>(q.power(q.low)));
    e_.jump_if(BPF_JLT, r2, r4, have);
    for (unsigned m = q.low; m <= q.high; ++m) {
      const auto next = e_.make_label();
      const auto start = q.power(m), width = q.order_width(m);  // factor^m: below 2^63
      const auto shift = static_cast<std::int64_t>(q.bucket(static_cast<std::int64_t>(start)) - start / width);
      e_.mov64(r4, static_cast<std::int64_t>(q.power(m + 1)));
      e_.jump_if(BPF_JGE, r2, r4, next);
      e_.mov(r1, r2);
      if (width <= std::numeric_limits<std::int32_t>::max()) {
        e_.alu(BPF_DIV, r1, static_cast<std::int32_t>(width));
      } else {
        e_.mov64(r4, static_cast<std::int64_t>(width));
        e_.alu(BPF_DIV, r1, r4);
      }
      e_.alu(BPF_ADD, r1, static_cast<std::int32_t>(1 + shift));
      e_.jump(have);
      e_.bind(next);
    }
    e_.mov(r1, static_cast<std::int32_t>(q.buckets()));  // 1 + the overflow bucket
  }

  // ---- variables -----------------------------------------------------------------------------

  // Builds a thread-local's or array element's map key in scratch: the thread, then the keys.
  std::uint32_t variable_key(const expr& e, int depth) {
    const auto& v = p_.variables[e.index];
    const auto at = s_.allocate(l_.variable_key_size[e.index]);
    std::uint32_t off = at;
    if (v.where == ir::scope::thread) {
      call_on_task(BPF_FUNC_get_current_pid_tgid);
      e_.store(r7, off16(off), r0);
      off += 8;
    }
    std::vector<agg::key_type> types;
    std::vector<std::uint32_t> widths;
    for (const auto& k : v.keys) {
      types.push_back(k.is_string() ? agg::key_type{agg::key_type::category::string, l_.strsize, false}
                                    : agg::key_type{agg::key_type::category::integer, k.size, k.is_signed});
      widths.push_back(k.is_string() ? l_.strsize : 8);
    }
    if (!e.kids.empty()) {
      const auto keys = s_.allocate(std::max<std::uint32_t>(key_bytes(widths), 8));
      build_key({r7, keys}, e.kids, types, widths, depth);
      copy({r7, off}, {r7, keys}, l_.variable_key_size[e.index] - (off - at));
    }
    return at;
  }

  // Associative arrays (and thread-local ones) live in hash maps; the other variables at fixed
  // offsets: globals in the globals map, clause-locals in scratch, thread-locals in the thread's
  // task storage.
  static bool in_map(const ir::variable& v) { return !v.keys.empty(); }

  // The register holding a fixed-offset variable's base (r9 for the thread's storage).
  reg direct_base(const ir::variable& v) {
    if (v.where == ir::scope::clause) return r7;
    if (v.where == ir::scope::global) return r8;
    e_.load(r9, r10, thread_slot);
    return r9;
  }

  // r0 = an integer variable's value (0 when a dynamic variable does not exist); a struct's or
  // union's address.
  void load_variable(const expr& e, int depth) {
    const auto& v = p_.variables[e.index];
    if (v.value.is_object()) {
      if (made_element_ && made_element_->root == &e) {
        e_.load(r0, r10, made_element_->slot);
      } else if (in_map(v)) {
        // An element not made yet reads as zeros, and reading it makes none.
        const auto found = e_.make_label();
        lookup_element(e.index, variable_key(e, depth));
        e_.jump_if(BPF_JNE, r0, 0, found);
        pointer(r0, zero_element());
        e_.bind(found);
      } else {
        pointer(r0, {direct_base(v), l_.variable_offset[e.index]});
      }
      // As a number, through a scratch word: the verifier refuses a computed index added to a
      // map pointer, and memory reads take any address.
      e_.store(r7, off16(address_word()), r0);
      e_.load(r0, r7, off16(address_word()));
      return;
    }
    if (!in_map(v)) {
      const reg base = direct_base(v);
      e_.load(r0, base, off16(l_.variable_offset[e.index]), v.value.size >= 8 ? 8 : v.value.size);
      e_.extend(r0, v.value.size, v.value.is_signed);
      return;
    }
    load_element(e.index, variable_key(e, depth));
  }

  // r0 = an integer element's value at the key built at `key` in scratch (0 when there is none).
  void load_element(std::uint32_t id, std::uint32_t key) {
    const auto done = e_.make_label();
    lookup_element(id, key);
    e_.jump_if(BPF_JEQ, r0, 0, done);
    e_.load(r0, r0, 0);
    e_.bind(done);
  }

  // r0 = the value of `map` at `key`, or 0.
  void lookup(std::uint32_t map, place key) {
    e_.load_map(r1, static_cast<int>(map));
    pointer(r2, key);
    e_.call(BPF_FUNC_map_lookup_elem);
  }

  // r0 = the map value of an associative array's element whose key is at `key` in scratch, or 0.
  void lookup_element(std::uint32_t id, std::uint32_t key) { lookup(l_.variable_map[id], {r7, key}); }

  // To `found` with r0 = the value of `map` at `key`, inserted first when missing, from the zeros
  // that `zeros_to_r3` points r3 at; falls through with the drop counted when the map is full.
  template <class ZerosToR3>
  void lookup_or_insert(std::uint32_t map, place key, ZerosToR3 zeros_to_r3, drop_slot slot, label found) {
    lookup(map, key);
    e_.jump_if(BPF_JNE, r0, 0, found);
    zeros_to_r3();
    e_.load_map(r1, static_cast<int>(map));
    pointer(r2, key);
    e_.mov(r4, BPF_NOEXIST);
    e_.call(BPF_FUNC_map_update_elem);
    lookup(map, key);
    e_.jump_if(BPF_JNE, r0, 0, found);
    count_drop(slot);
  }

  // r0 = the map value of a struct's or union's element for e's keys, made (zeroed) when it does
  // not exist yet, as a store into it makes it in DTrace; to `dropped`, with r0 0, when the map
  // has no room (a dynamic-variable drop).
  void make_element(const expr& e, int depth, label dropped) {
    const auto found = e_.make_label();
    lookup_or_insert(l_.variable_map[e.index], {r7, variable_key(e, depth)},
                     [&] { pointer(r3, zero_element()); }, drop_dynamic, found);
    e_.mov(r0, 0);  // what an update's value is then
    e_.jump(dropped);
    e_.bind(found);
  }

  // Zero bytes as large as the largest struct or union element, which nothing writes.
  place zero_element() {
    if (!zero_element_) {
      std::uint32_t most = 8;
      for (const auto& v : p_.variables)
        if (in_map(v) && v.value.is_object()) most = std::max(most, variable_size(v.value, l_.strsize));
      zero_element_ = s_.allocate(most);
    }
    return {r7, *zero_element_};
  }

  // An assignment's target: a variable, or (*p, p->m, p[i]) memory.
  void load_target(const expr& e, int depth) {
    if (e.kind == kind_t::memory) memory(e, depth);
    else load_variable(e, depth);
  }
  void store_target(const expr& e, int depth) {
    if (e.kind == kind_t::memory) store_memory(e, depth);
    else store_variable(e, depth);
  }

  // Stores r0 (an integer, already narrowed) into a variable; keeps r0.
  void store_variable(const expr& e, int depth) {
    const auto& v = p_.variables[e.index];
    if (!in_map(v)) {
      const reg base = direct_base(v);
      e_.store(base, off16(l_.variable_offset[e.index]), r0, v.value.size >= 8 ? 8 : v.value.size);
      return;
    }
    e_.store(r10, temp(depth), r0);
    const auto key = variable_key(e, depth + 1);
    e_.load(r0, r10, temp(depth));
    store_element(e.index, key, depth);
  }

  // Stores r0 into an integer element at the key built at `key`; keeps r0.
  void store_element(std::uint32_t id, std::uint32_t key, int depth) {
    e_.store(r10, temp(depth), r0);
    store_dynamic(id, key, {r10, 0}, depth);
    e_.load(r0, r10, temp(depth));
  }

  // An associative array's integer element that a compound assignment or ++/-- updates
  // (`a[i++] += 1`, `self->x[j++]++`): its key, built once for the load and the store.
  std::optional<std::uint32_t> element_to_update(const expr& target, int depth) {
    if (target.kind != kind_t::variable || !in_map(p_.variables[target.index])) return std::nullopt;
    return variable_key(target, depth);
  }

  // Stores a dynamic variable: deletes it when the value is zero (an integer in temp(depth)) or
  // NULL (the string at `text`), as DTrace's dynamic variables do; counts a drop when the map is
  // full.
  void store_dynamic(std::uint32_t id, std::uint32_t key, place text, int depth) {
    const bool is_string = p_.variables[id].value.is_string();
    const auto remove = e_.make_label(), done = e_.make_label();
    if (is_string) e_.load(r1, text.base, off16(text.offset), 2);
    else e_.load(r1, r10, temp(depth));
    e_.jump_if(BPF_JEQ, r1, is_string ? null_mark : 0, remove);
    e_.load_map(r1, static_cast<int>(l_.variable_map[id]));
    pointer(r2, {r7, key});
    if (is_string) pointer(r3, text);
    else {
      e_.mov(r3, r10);
      e_.alu(BPF_ADD, r3, temp(depth));
    }
    e_.mov(r4, BPF_ANY);
    e_.call(BPF_FUNC_map_update_elem);
    e_.jump_if(BPF_JEQ, r0, 0, done);
    count_drop(drop_dynamic);
    e_.jump(done);
    e_.bind(remove);
    e_.load_map(r1, static_cast<int>(l_.variable_map[id]));
    pointer(r2, {r7, key});
    e_.call(BPF_FUNC_map_delete_elem);
    e_.bind(done);
  }

  // ---- strings -------------------------------------------------------------------------------

  // The bytes of execname that bpf_get_current_comm() writes: the name (TASK_COMM_LEN with its
  // NUL), cut at string_chars.
  std::uint32_t comm_bytes() const { return std::min<std::uint32_t>(16, l_.string_chars + 1); }

  // Cuts the string at `at` (from a copy that may run to its place's end) at string_chars
  // characters: every byte from there to the place's end is zero, so that comparisons and keys,
  // which take whole words, see no byte past the NUL.
  void cut(place at) {
    for (auto i = l_.string_chars; i < l_.strsize; ++i) e_.store_imm(at.base, off16(at.offset + i), 0, 1);
  }

  // Constant strings live in the scratch image, once per text: nothing writes them.
  place literal(const std::string& text) {
    auto [it, fresh] = literals_.try_emplace(text, 0);
    if (fresh) {
      it->second = s_.allocate(l_.strsize);
      std::memcpy(s_.image.data() + it->second, text.data(), std::min<std::size_t>(text.size(), l_.string_chars));
    }
    return {r7, it->second};
  }

  // NULL where a string goes (`s = NULL`, an element never assigned, strstr() finding nothing):
  // a place whose first byte is a NUL and whose second is 1, as no string's is (a string's place
  // is zero past its NUL). Under -x strsize=1 there is no room for the 1: NULL is "" there.
  static constexpr std::int32_t null_mark = 0x0100;  // the first two bytes, little-endian

  place null_literal() {
    if (!null_literal_) {
      null_literal_ = s_.allocate(l_.strsize);
      if (l_.string_chars > 1) s_.image[*null_literal_ + 1] = 1;
    }
    return {r7, *null_literal_};
  }

  void make_null(place at) {
    if (l_.string_chars > 1) e_.store_imm(at.base, off16(at.offset), null_mark, 2);
  }

  // A thread's string variables are kept with the 1 of null_mark flipped, so that the zeroed
  // storage of a thread new to the program reads as NULL, as its variables do in DTrace.
  void flip_null_mark(place at) {
    if (l_.string_chars <= 1) return;
    e_.load(r1, at.base, off16(at.offset + 1), 1);
    e_.alu(BPF_XOR, r1, 1);
    e_.store(at.base, off16(at.offset + 1), r1, 1);
  }

  // r0 = whether the string at `s` is NULL, 0 or 1.
  void is_null_string(place s) {
    e_.load(r0, s.base, off16(s.offset), 2);
    equals(r0, null_mark, r1);
  }

  // Jumps to `not_null` unless the string at `s` is NULL (r1 is clobbered).
  void jump_unless_null(place s, label not_null) {
    e_.load(r1, s.base, off16(s.offset), 2);
    e_.jump_if(BPF_JNE, r1, null_mark, not_null);
  }

  // Faults where the string at `s` is NULL, at the address in `address_slot` (its bytes are at
  // 0), or at 0 when `address_slot` is none (the slot is then temp(depth)).
  void fault_if_null(place s, std::optional<std::int16_t> address_slot, int depth) {
    const auto ok = e_.make_label();
    jump_unless_null(s, ok);
    if (!address_slot) e_.store_imm(r10, temp(depth), 0);
    fault(fault_bad_address, address_slot.value_or(temp(depth)));
    e_.bind(ok);
  }

  // Whether the string e may be NULL: NULL itself, what the subroutines that find nothing
  // return, a dynamic variable (an element or a thread's variable not assigned), and a global or
  // clause-local one that such a string is assigned to (`nullable`, by variable).
  static bool may_be_null(const expr& e, const std::vector<bool>& nullable, const ir::program& p) {
    const auto maybe = [&](const expr& x) { return may_be_null(x, nullable, p); };
    switch (e.kind) {
      case kind_t::string: return e.value == 1;
      case kind_t::variable:
        return in_map(p.variables[e.index]) || p.variables[e.index].where == ir::scope::thread || nullable[e.index];
      case kind_t::assign: return maybe(e.kids[1]);
      case kind_t::stringof: return e.kids[0].t.is_string() && maybe(e.kids[0]);
      case kind_t::conditional: return maybe(e.kids[1]) || maybe(e.kids[2]);
      case kind_t::call:
        return e.function == ir::subroutine::strchr || e.function == ir::subroutine::strrchr ||
               e.function == ir::subroutine::strstr || e.function == ir::subroutine::strtok;
      default: return false;
    }
  }
  bool may_be_null(const expr& e) const { return may_be_null(e, nullable_, p_); }

  // The global and clause-local variables that may hold NULL: those a NULL-able string is
  // assigned to, followed through assignments of one variable to another.
  static std::vector<bool> nullable_variables(const ir::program& p) {
    std::vector<bool> nullable(p.variables.size(), false);
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& c : p.clauses)
        ir::for_each_expression(c, [&](const expr& e) {
          if (e.kind != kind_t::assign || !e.t.is_string() || e.kids[0].kind != kind_t::variable) return;
          if (nullable[e.kids[0].index] || !may_be_null(e.kids[1], nullable, p)) return;
          nullable[e.kids[0].index] = true;
          changed = true;
        });
    }
    return nullable;
  }

  // r0 = the address of the string's bytes (`(char *)s`), as a number; NULL's is 0.
  void string_address(const expr& e, int depth) {
    const auto at = eval_string(e, depth);
    pointer(r0, at);
    e_.store(r7, off16(address_word()), r0);  // a number, no more a map pointer
    e_.load(r0, r7, off16(address_word()));
    if (!may_be_null(e)) return;
    const auto done = e_.make_label();
    jump_unless_null(at, done);
    e_.mov(r0, 0);
    e_.bind(done);
  }

  // The text of a string this probe's program knows when it is made: a literal (not NULL) or one
  // of the probe's names.
  std::optional<std::string> constant_string(const expr& e) const {
    const std::string* text = nullptr;
    if (e.kind == kind_t::string && e.value != 1) text = &e.text;
    if (e.kind == kind_t::builtin) {
      switch (static_cast<ir::builtin>(e.index)) {
        case ir::builtin::probeprov: text = &t_->info.provider; break;
        case ir::builtin::probemod: text = &t_->info.module; break;
        case ir::builtin::probefunc:
          if (!t_->probe_table) text = &t_->info.function;
          break;
        case ir::builtin::probename: text = &t_->info.name; break;
        default: break;
      }
    }
    if (!text) return std::nullopt;
    return text->substr(0, l_.string_chars);
  }

  // A string whose bytes are read (by a subroutine, into a record or a key): NULL faults at 0,
  // as DTrace's does.
  place string_operand(const expr& e, int depth) {
    const auto s = eval_string(e, depth);
    if (may_be_null(e)) fault_if_null(s, std::nullopt, depth);
    return s;
  }

  place eval_string(const expr& e, int depth) {
    if (const auto text = constant_string(e)) return literal(*text);
    switch (e.kind) {
      case kind_t::string: return null_literal();  // the only string constant_string leaves
      case kind_t::builtin: {
        switch (static_cast<ir::builtin>(e.index)) {
          case ir::builtin::execname: {
            // Bytes past the name stay zero: only comm writes here.
            const auto at = s_.allocate(l_.strsize);
            e_.mov(r1, r7);
            e_.alu(BPF_ADD, r1, static_cast<std::int32_t>(at));
            e_.mov(r2, static_cast<std::int32_t>(comm_bytes()));
            call_on_task(BPF_FUNC_get_current_comm);
            return {r7, at};
          }
          case ir::builtin::probefunc: return {r7, probe_area_ + probe_entry_name};  // a probe table's
          default: break;
        }
        break;
      }
      case kind_t::variable: {
        const auto& v = p_.variables[e.index];
        if (!in_map(v) && v.where != ir::scope::thread) return {direct_base(v), l_.variable_offset[e.index]};
        if (!in_map(v)) {
          const place at{r7, s_.allocate(l_.strsize)};
          copy(at, {direct_base(v), l_.variable_offset[e.index]}, l_.strsize);
          flip_null_mark(at);
          return at;
        }
        const auto key = variable_key(e, depth);
        const place at{r7, s_.allocate(l_.strsize)};
        const auto done = e_.make_label();
        zero(at, l_.strsize);
        make_null(at);  // an element not made reads as NULL
        lookup_element(e.index, key);
        e_.jump_if(BPF_JEQ, r0, 0, done);
        pointer(r1, at);
        e_.mov(r2, static_cast<std::int32_t>(l_.strsize));
        e_.mov(r3, r0);
        e_.call(BPF_FUNC_probe_read_kernel);
        e_.bind(done);
        return at;
      }
      case kind_t::assign: {
        if (e.operation != ir::op::assign) break;
        const auto from = eval_string(e.kids[1], depth);
        const auto& v = p_.variables[e.kids[0].index];
        if (!in_map(v)) {
          const place to{direct_base(v), l_.variable_offset[e.kids[0].index]};
          copy(to, from, l_.strsize);
          if (v.where == ir::scope::thread) flip_null_mark(to);
          return from;
        }
        const auto key = variable_key(e.kids[0], depth);
        store_dynamic(e.kids[0].index, key, from, depth);
        return from;
      }
      case kind_t::conditional: {
        const place at{r7, s_.allocate(l_.strsize)};
        const auto other = e_.make_label(), done = e_.make_label();
        eval(e.kids[0], depth);
        e_.jump_if(BPF_JEQ, r0, 0, other);
        copy(at, eval_string(e.kids[1], depth), l_.strsize);
        e_.jump(done);
        e_.bind(other);
        copy(at, eval_string(e.kids[2], depth), l_.strsize);
        e_.bind(done);
        return at;
      }
      case kind_t::stringof:
        if (e.kids[0].t.is_string()) return eval_string(e.kids[0], depth);
        eval(e.kids[0], depth);
        e_.store(r10, temp(depth), r0);
        e_.store_imm(r10, temp(depth + 1), 10);
        return integer_text(depth);
      case kind_t::call: return string_call(e, depth);
      case kind_t::memory_string: return memory_string(e, depth);
      default: break;
    }
    refuse(e);
  }

  // The subroutines with a string result that the kernel engine runs.
  place string_call(const expr& e, int depth) {
    switch (e.function) {
      case ir::subroutine::copyinstr: return copyinstr(e, depth);
      case ir::subroutine::toupper: return with_case(string_operand(e.kids[0], depth), 'a');
      case ir::subroutine::tolower: return with_case(string_operand(e.kids[0], depth), 'A');
      case ir::subroutine::strjoin: return strjoin(e, depth);
      case ir::subroutine::substr: return substr(e, depth);
      case ir::subroutine::strchr: return character_search(e, depth, true);
      case ir::subroutine::strrchr: return character_search(e, depth, false);
      case ir::subroutine::lltostr:
        return lltostr(e, depth);
      case ir::subroutine::strstr: return strstr(e, depth);
      case ir::subroutine::basename: return path_part(e, depth, false);
      case ir::subroutine::dirname: return path_part(e, depth, true);
      case ir::subroutine::strtok: return strtok(e, depth);
      case ir::subroutine::cleanpath: return cleanpath(e, depth);
      case ir::subroutine::inet_ntoa: return inet_ntoa(e.kids[0], depth);
      case ir::subroutine::inet_ntoa6:  // strict when the constant second argument is not 0
        return inet_ntoa6(e.kids[0], depth, e.kids.size() > 1 && e.kids[1].value != 0);
      case ir::subroutine::inet_ntop: return inet_ntop(e, depth);
      case ir::subroutine::link_ntop: return link_ntop(e, depth);
      case ir::subroutine::strlen:
      case ir::subroutine::strtoll:
      case ir::subroutine::htons:
      case ir::subroutine::htonl:
      case ir::subroutine::htonll:
      case ir::subroutine::ntohs:
      case ir::subroutine::ntohl:
      case ir::subroutine::ntohll:
      case ir::subroutine::getmajor:
      case ir::subroutine::getminor:
      case ir::subroutine::index:
      case ir::subroutine::rindex:
      case ir::subroutine::rand:
      case ir::subroutine::progenyof:
      case ir::subroutine::speculation:
      case ir::subroutine::stack:
      case ir::subroutine::ustack:
      case ir::subroutine::sym:
      case ir::subroutine::func:
      case ir::subroutine::mod:
      case ir::subroutine::usym:
      case ir::subroutine::ufunc:
      case ir::subroutine::uaddr:
      case ir::subroutine::umod:
      case ir::subroutine::copyin:
      case ir::subroutine::alloca:
      case ir::subroutine::bcopy:
      case ir::subroutine::copyinto:
      case ir::subroutine::action:
        break;
    }
    refuse(e);
  }

  // inet_ntoa(addr): the four bytes at addr (kernel memory, as copyin() and alloca() give),
  // dotted; a failed read faults with addr.
  place inet_ntoa(const expr& address, int depth) {
    eval(address, depth);
    const auto text = address_text();
    ipv4_text(text, depth);
    return end_address_text(text);
  }

  place inet_ntoa6(const expr& address, int depth, bool strict) {
    eval(address, depth);
    const auto text = address_text();
    ipv6_text(text, depth, strict);
    return end_address_text(text);
  }

  // inet_ntop(af, addr) as dtrace-utils makes it: AF_INET6 (10) is inet_ntoa6(addr, 1), any
  // other family inet_ntoa(addr); a family known only when the probe fires picks at run time.
  place inet_ntop(const expr& e, int depth) {
    constexpr std::int32_t af_inet6 = 10;
    const auto& family = e.kids[0];
    if (family.kind == kind_t::constant)
      return family.value == af_inet6 ? inet_ntoa6(e.kids[1], depth, true) : inet_ntoa(e.kids[1], depth);
    eval(family, depth);
    e_.store(r10, temp(depth), r0);
    eval(e.kids[1], depth + 1);
    const auto text = address_text();
    const auto ipv4 = e_.make_label(), done = e_.make_label();
    e_.load(r1, r10, temp(depth));
    e_.jump_if(BPF_JNE, r1, af_inet6, ipv4);
    ipv6_text(text, depth + 1, true);
    e_.jump(done);
    e_.bind(ipv4);
    ipv4_text(text, depth + 1);
    e_.bind(done);
    return end_address_text(text);
  }

  // link_ntop(type, addr) as dtrace-utils makes it: an Ethernet address (ARPHRD_ETHER, 1) is its
  // 6 bytes, an InfiniBand one (ARPHRD_INFINIBAND, 32) its 20, two lowercase hexadecimal digits
  // each between colons; any other type is an illegal operation, with the type.
  place link_ntop(const expr& e, int depth) {
    constexpr std::int32_t ethernet = 1, infiniband = 32, longest = 20;
    constexpr std::uint32_t text_bytes = 3 * longest;  // "xx:" a byte, the last one's NUL
    eval(e.kids[0], depth);
    e_.store(r10, temp(depth), r0);
    const auto known = e_.make_label(), ethernet_text = e_.make_label(), done = e_.make_label();
    e_.jump_if(BPF_JEQ, r0, ethernet, known);
    e_.jump_if(BPF_JEQ, r0, infiniband, known);
    fault(fault_illegal_operation, temp(depth));
    e_.bind(known);
    eval(e.kids[1], depth + 1);
    const place bytes{r7, s_.allocate(24)};
    const place text{r7, s_.allocate(std::max(l_.strsize, text_bytes))};
    zero(text, std::max(l_.strsize, text_bytes));
    const auto hexadecimal = [&](std::int32_t count) {
      read_address(bytes.base, off16(bytes.offset), count, depth + 1);
      for (std::int32_t i = 0; i < count; ++i) {
        if (i > 0) e_.store_imm(text.base, off16(text.offset + 3 * i - 1), ':', 1);
        e_.load(r5, bytes.base, off16(bytes.offset + i), 1);
        e_.mov(r1, r5);
        e_.alu(BPF_RSH, r1, 4);
        hex_digit(text, 3 * i);
        e_.mov(r1, r5);
        e_.alu(BPF_AND, r1, 15);
        hex_digit(text, 3 * i + 1);
      }
    };
    e_.load(r1, r10, temp(depth));
    e_.jump_if(BPF_JEQ, r1, ethernet, ethernet_text);
    hexadecimal(longest);
    e_.jump(done);
    e_.bind(ethernet_text);
    hexadecimal(6);
    e_.bind(done);
    for (auto cut = l_.string_chars; cut < text_bytes; ++cut) e_.store_imm(text.base, off16(text.offset + cut), 0, 1);
    return text;
  }

  // The hexadecimal digit for r1 (0 to 15) at the text's byte `at`, without a jump: '0' + r1,
  // and 39 more ('a' - '0' - 10) when 9 - r1 is negative.
  void hex_digit(place text, std::uint32_t at) {
    e_.mov(r2, 9);
    e_.alu(BPF_SUB, r2, r1);
    e_.alu(BPF_RSH, r2, 63);
    e_.alu(BPF_MUL, r2, 'a' - '0' - 10);
    e_.alu(BPF_ADD, r2, '0');
    e_.alu(BPF_ADD, r2, r1);
    e_.store(text.base, off16(text.offset + at), r2, 1);
  }

  // An address's text is written at r4, its end, which moves past a character only when it
  // counts, so that no branch depends on the data. Its place holds the longest text the verifier
  // can see: eight words of a "::" and four digits each, and the ending NUL.
  static constexpr std::uint32_t address_text_bytes = 56;

  place address_text() {
    const place text{r7, s_.allocate(std::max(l_.strsize, address_text_bytes))};
    zero(text, std::max(l_.strsize, address_text_bytes));
    return text;
  }

  // At most string_chars characters.
  place end_address_text(place text) {
    for (auto cut = l_.string_chars; cut < address_text_bytes; ++cut)
      e_.store_imm(text.base, off16(text.offset + cut), 0, 1);
    return text;
  }

  // Reads `bytes` bytes at the address in r0 (kept in temp(depth) for the fault) to `to`.
  void read_address(reg base, std::int16_t offset, std::int32_t bytes, int depth) {
    e_.store(r10, temp(depth), r0);
    e_.mov(r3, r0);
    e_.mov(r1, base);
    e_.alu(BPF_ADD, r1, offset);
    e_.mov(r2, bytes);
    e_.call(BPF_FUNC_probe_read_kernel);
    const auto read = e_.make_label();
    e_.jump_if(BPF_JSGE, r0, 0, read);
    fault(fault_bad_address, temp(depth));
    e_.bind(read);
  }

  // The IPv4 address at r0, dotted, into text.
  void ipv4_text(place text, int depth) {
    read_address(r10, misc_slot, 4, depth);
    e_.mov(r4, 0);
    dotted_quad(text, r10, misc_slot);
  }

  // The four bytes at base + offset, dotted, at the text's end (r4).
  void dotted_quad(place text, reg base, std::int16_t offset) {
    for (std::int16_t byte = 0; byte < 4; ++byte) {
      e_.load(r5, base, static_cast<std::int16_t>(offset + byte), 1);
      for (const std::int32_t divisor : {100, 10, 1}) {
        e_.mov(r1, r5);
        e_.alu(BPF_DIV, r1, divisor);
        e_.mov(r0, r1);  // nonzero: the digit counts
        e_.alu(BPF_MOD, r1, 10);
        e_.alu(BPF_ADD, r1, '0');
        byte_address(r2, text, r4);
        e_.store(r2, 0, r1, 1);
        if (divisor == 1) {
          e_.alu(BPF_ADD, r4, 1);
        } else {
          to_flag(r0, r1);
          e_.alu(BPF_ADD, r4, r0);
        }
      }
      if (byte == 3) break;
      byte_address(r2, text, r4);
      e_.store_imm(r2, 0, '.', 1);
      e_.alu(BPF_ADD, r4, 1);
    }
    byte_address(r2, text, r4);
    e_.store_imm(r2, 0, 0, 1);
  }

  // The IPv6 address at r0 as dtrace-utils' inet_ntoa6() writes it (and the in-process engine's
  // ipv6_text()): an IPv4 address inside (five zero words and 0xffff, or six zero words and then
  // more than 1) dotted, after "::ffff:" or "::" when strict; else eight hexadecimal words
  // without leading zeros, the first of the longest runs of two or more zero words as "::".
  void ipv6_text(place text, int depth, bool strict) {
    const place address{r7, s_.allocate(16)};
    read_address(address.base, off16(address.offset), 16, depth);
    const auto at = [&](std::uint32_t byte) { return off16(address.offset + byte); };
    const auto words = e_.make_label(), mapped = e_.make_label(), done = e_.make_label();
    e_.load(r1, address.base, at(0));
    e_.jump_if(BPF_JNE, r1, 0, words);
    e_.load(r1, address.base, at(8), 4);
    e_.to_big_endian(r1, 32);
    e_.jump_if(BPF_JEQ, r1, 0xffff, mapped);
    e_.jump_if(BPF_JNE, r1, 0, words);
    e_.load(r1, address.base, at(12), 4);
    e_.to_big_endian(r1, 32);
    e_.jump_if(BPF_JLE, r1, 1, words);
    const auto prefix = [&](std::string_view chars) {
      if (!strict) chars = {};
      for (std::uint32_t i = 0; i < chars.size(); ++i)
        e_.store_imm(text.base, off16(text.offset + i), chars[i], 1);
      e_.mov(r4, static_cast<std::int32_t>(chars.size()));
    };
    const auto quad = e_.make_label();
    prefix("::");
    e_.jump(quad);
    e_.bind(mapped);
    prefix("::ffff:");
    e_.bind(quad);
    dotted_quad(text, address.base, at(12));
    e_.jump(done);
    e_.bind(words);
    // The runs of zero words, one word at a time: r2 is the run so far and r3 the longest before,
    // each its length << 8 | a bit per word in it; the longest starts as a run of one, none.
    e_.mov(r2, 0);
    e_.mov(r3, 1 << 8);
    counted_loop(r5, 8, [&] {
      word_address(r1, address, r5);
      e_.load(r1, r1, 0, 2);
      to_flag(r1, r0);
      e_.alu(BPF_SUB, r1, 1);  // all ones when the word is 0
      e_.alu(BPF_ADD, r2, 1 << 8);
      e_.mov(r0, 1);
      e_.alu(BPF_LSH, r0, r5);
      e_.alu(BPF_OR, r2, r0);
      e_.alu(BPF_AND, r2, r1);
      // Longer than the longest before (not as long: the first run wins): (r3 | 0xff) < r2.
      e_.mov(r0, r3);
      e_.alu(BPF_OR, r0, 0xff);
      e_.alu(BPF_SUB, r0, r2);
      e_.alu(BPF_RSH, r0, 63);
      e_.alu(BPF_NEG, r0, 0);
      choose(r3, r2, r0, r1);
    });
    // Per word i, in bit i of a slot: the run starts at i ("::"), bit 8 + i: a ':' goes before
    // it (not the first, in the run or just after it), bit 16 + i: it is written (not in the run).
    const auto plan = temp(depth + 1);
    e_.alu(BPF_AND, r3, 0xff);
    e_.mov(r0, r3);
    e_.alu(BPF_LSH, r0, 1);
    e_.mov(r1, r0);
    e_.alu(BPF_XOR, r0, -1);
    e_.alu(BPF_AND, r0, r3);  // the run's start
    e_.alu(BPF_OR, r1, r3);
    e_.alu(BPF_OR, r1, 1);
    e_.alu(BPF_XOR, r1, 0xff);
    e_.alu(BPF_AND, r1, 0xff);  // the separators
    e_.alu(BPF_LSH, r1, 8);
    e_.alu(BPF_OR, r0, r1);
    e_.alu(BPF_XOR, r3, 0xff);  // the words written
    e_.alu(BPF_LSH, r3, 16);
    e_.alu(BPF_OR, r0, r3);
    e_.store(r10, plan, r0);
    e_.mov(r4, 0);
    counted_loop(r5, 8, [&] {
      e_.load(r3, r10, plan);
      e_.alu(BPF_RSH, r3, r5);
      byte_address(r2, text, r4);
      e_.store_imm(r2, 0, ':', 1);
      e_.mov(r0, r3);
      e_.alu(BPF_RSH, r0, 8);
      e_.alu(BPF_OR, r0, r3);
      e_.alu(BPF_AND, r0, 1);
      e_.alu(BPF_ADD, r4, r0);
      byte_address(r2, text, r4);
      e_.store_imm(r2, 0, ':', 1);
      e_.alu(BPF_AND, r3, 1);
      e_.alu(BPF_ADD, r4, r3);
      word_address(r1, address, r5);
      e_.load(r1, r1, 0, 2);
      e_.to_big_endian(r1, 16);
      for (const std::int32_t shift : {12, 8, 4, 0}) {
        e_.mov(r0, r1);
        e_.alu(BPF_RSH, r0, shift);  // nonzero: the digit counts
        e_.mov(r2, r0);
        e_.alu(BPF_AND, r2, 15);
        e_.mov(r3, r2);  // 1 from 10 on, for 'a' - '0' - 10 more
        e_.alu(BPF_ADD, r3, 6);
        e_.alu(BPF_RSH, r3, 4);
        e_.alu(BPF_MUL, r3, 'a' - '0' - 10);
        e_.alu(BPF_ADD, r2, r3);
        e_.alu(BPF_ADD, r2, '0');
        byte_address(r3, text, r4);
        e_.store(r3, 0, r2, 1);
        if (shift != 0) {
          to_flag(r0, r2);
          e_.alu(BPF_ADD, r4, r0);
        } else {  // the last digit counts when the word is written (a word in the run is 0)
          e_.load(r3, r10, plan);
          e_.alu(BPF_RSH, r3, r5);
          e_.alu(BPF_RSH, r3, 16);
          e_.alu(BPF_AND, r3, 1);
          e_.alu(BPF_ADD, r4, r3);
        }
      }
    });
    byte_address(r2, text, r4);
    e_.store_imm(r2, 0, 0, 1);
    e_.bind(done);
  }

  // dst = the address of 16-bit word `index` of a place.
  void word_address(reg dst, place at, reg index) {
    pointer(dst, at);
    e_.alu(BPF_ADD, dst, index);
    e_.alu(BPF_ADD, dst, index);
  }

  place copyinstr(const expr& e, int depth) {
    reads_task_ = true;  // the string is in the task's memory
    eval(e.kids[0], depth);
    e_.store(r10, temp(depth), r0);
    // r2 = the bytes to read, the ending zero's included: the length asked (unsigned) and one,
    // at most strsize.
    const auto last = static_cast<std::int32_t>(l_.string_chars);
    if (e.kids.size() > 1) {
      eval(e.kids[1], depth + 1);
      const auto within = e_.make_label();
      e_.jump_if(BPF_JLE, r0, last, within);
      e_.mov(r0, last);
      e_.bind(within);
      e_.alu(BPF_ADD, r0, 1);
      e_.store(r10, temp(depth + 1), r0);
      return read_string(BPF_FUNC_probe_read_user_str, limit_in_slot{temp(depth + 1)}, depth);
    }
    return read_string(BPF_FUNC_probe_read_user_str, last + 1, depth);
  }

  // r0 = a <=> b for two zero-padded strings, compared bytewise as strcmp() does: 8 bytes at a
  // time, big-endian so that unsigned order is byte order. NULL orders before every string
  // (`nulls`: either may be NULL).
  void compare_strings(place a, place b, bool nulls) {
    const auto done = e_.make_label();
    if (nulls) {
      is_null_string(b);
      e_.mov(r4, r0);
      is_null_string(a);
      e_.mov(r3, r0);
      e_.mov(r0, r4);
      e_.alu(BPF_SUB, r0, r3);  // -1: a alone is NULL, 1: b alone
      e_.alu(BPF_OR, r3, r4);
      e_.jump_if(BPF_JNE, r3, 0, done);
    }
    e_.mov(r0, 0);
    for (std::uint32_t i = 0; i < l_.strsize; i += 8) {
      const auto same = e_.make_label();
      e_.load(r1, a.base, off16(a.offset + i));
      e_.load(r2, b.base, off16(b.offset + i));
      e_.jump_if(BPF_JEQ, r1, r2, same);
      e_.to_big_endian64(r1);
      e_.to_big_endian64(r2);
      e_.mov(r0, 1);
      e_.jump_if(BPF_JGT, r1, r2, done);
      e_.mov(r0, -1);
      e_.jump(done);
      e_.bind(same);
    }
    e_.bind(done);
  }

  // The string loops below branch only on their counter: a branch on the data would leave the
  // verifier a path to walk later for every byte, and it keeps at most 8,192 such paths for a
  // whole program (a few dozen strjoin()s).

  // for (counter = 0; counter < count; ++counter) body();
  template <class Body>
  void counted_loop(reg counter, std::uint32_t count, Body body) {
    const auto loop = e_.make_label(), done = e_.make_label();
    e_.mov(counter, 0);
    e_.bind(loop);
    e_.jump_if(BPF_JGE, counter, static_cast<std::int32_t>(count), done);
    body();
    e_.alu(BPF_ADD, counter, 1);
    e_.jump(loop);
    e_.bind(done);
  }

  // dst = the address of byte `index` of a place.
  void byte_address(reg dst, place at, reg index) {
    pointer(dst, at);
    e_.alu(BPF_ADD, dst, index);
  }

  // r = 1 when r is not 0, else 0, without a jump (spare is clobbered).
  void to_flag(reg r, reg spare) {
    e_.mov(spare, r);
    e_.alu(BPF_NEG, spare, 0);
    e_.alu(BPF_OR, r, spare);
    e_.alu(BPF_RSH, r, 63);
  }

  // dst = value where mask is all ones, dst where it is 0: a choice without a jump (spare is
  // clobbered; it may be value's register).
  void choose(reg dst, reg value, reg mask, reg spare) {
    e_.mov(spare, value);
    e_.alu(BPF_XOR, spare, dst);
    e_.alu(BPF_AND, spare, mask);
    e_.alu(BPF_XOR, dst, spare);
  }

  // toupper() (first = 'a') or tolower() (first = 'A'): a copy with the 26 letters from first
  // flipped in case.
  place with_case(place from, std::int32_t first) {
    const place at{r7, s_.allocate(l_.strsize)};
    copy(at, from, l_.strsize);
    counted_loop(r0, l_.strsize, [&] {
      byte_address(r1, at, r0);
      e_.load(r2, r1, 0, 1);
      // t = byte - first is a letter's when 0 <= t <= 25: then both ~t and t - 26 are negative.
      e_.mov(r3, r2);
      e_.alu(BPF_SUB, r3, first);
      e_.mov(r4, r3);
      e_.alu(BPF_SUB, r4, 26);
      e_.alu(BPF_XOR, r3, -1);
      e_.alu(BPF_AND, r3, r4);
      e_.alu(BPF_RSH, r3, 63);
      e_.alu(BPF_LSH, r3, 5);  // 0x20, the case bit, for a letter
      e_.alu(BPF_XOR, r2, r3);
      e_.store(r1, 0, r2, 1);
    });
    return at;
  }

  // strjoin(a, b): a, then b's bytes (its zero padding too) after a's end, cut at string_chars.
  // The copy runs into a second strsize bytes, so that no byte's place needs a check.
  place strjoin(const expr& e, int depth) {
    const place at{r7, s_.allocate(2 * l_.strsize)};
    copy(at, string_operand(e.kids[0], depth), l_.strsize);
    const auto second = string_operand(e.kids[1], depth);
    string_length(at);
    e_.mov(r4, r0);
    counted_loop(r3, l_.strsize, [&] {  // r3 indexes b, r4 + r3 the joined string
      byte_address(r1, second, r3);
      e_.load(r2, r1, 0, 1);
      byte_address(r1, at, r4);
      e_.alu(BPF_ADD, r1, r3);
      e_.store(r1, 0, r2, 1);
    });
    cut(at);
    return at;
  }

  // substr(s, index, [count]) as DTrace's (and the in-process engine's substring()): a negative
  // index counts from the end, the part of the range before the start is cut off, a negative
  // count leaves that many characters off the end.
  place substr(const expr& e, int depth) {
    const place text{r7, s_.allocate(2 * l_.strsize)};  // the copy reads up to strsize past index
    zero({r7, text.offset + l_.strsize}, l_.strsize);
    copy(text, string_operand(e.kids[0], depth), l_.strsize);
    eval(e.kids[1], depth);
    e_.store(r10, temp(depth), r0);
    if (e.kids.size() > 2) {
      eval(e.kids[2], depth + 1);
      e_.store(r10, temp(depth + 1), r0);
    }
    string_length(text);
    e_.load(r1, r10, temp(depth));  // r1: the index
    if (e.kids.size() > 2)
      e_.load(r2, r10, temp(depth + 1));  // r2: the count
    else
      e_.mov(r2, static_cast<std::int32_t>(l_.strsize));
    const auto from_start = e_.make_label(), empty = e_.make_label(), counted = e_.make_label();
    e_.jump_if(BPF_JSGE, r1, 0, from_start);
    e_.alu(BPF_ADD, r1, r0);
    e_.jump_if(BPF_JSGE, r1, 0, from_start);
    e_.mov(r3, r1);  // before the start: what of the range is left
    e_.alu(BPF_ADD, r3, r2);
    e_.jump_if(BPF_JSLE, r3, 0, empty);
    e_.mov(r2, r3);
    e_.mov(r1, 0);
    e_.bind(from_start);
    e_.jump_if(BPF_JSGE, r1, r0, empty);
    e_.jump_if(BPF_JSGE, r2, 0, counted);
    e_.alu(BPF_ADD, r2, r0);  // a negative count: len - index + count
    e_.alu(BPF_SUB, r2, r1);
    e_.jump_if(BPF_JSGT, r2, 0, counted);
    e_.bind(empty);
    e_.mov(r1, 0);
    e_.mov(r2, 0);
    e_.bind(counted);
    return copy_part(text);
  }

  // strchr(s, c) (first) or strrchr(s, c): s from c's first or last place on (c 0: the NUL), or
  // NULL without one. Every byte is looked at: r4 keeps the place of a match (the first: while
  // r5, "none yet", is 1), r5 ends 0 when there was one.
  place character_search(const expr& e, int depth, bool first) {
    const place text{r7, s_.allocate(2 * l_.strsize)};
    zero({r7, text.offset + l_.strsize}, l_.strsize);
    copy(text, string_operand(e.kids[0], depth), l_.strsize);
    eval(e.kids[1], depth);
    e_.alu(BPF_AND, r0, 0xff);
    e_.mov(r4, 0);
    e_.mov(r5, 1);
    counted_loop(r3, l_.strsize - 1, [&] {
      byte_address(r1, text, r3);
      e_.load(r1, r1, 0, 1);
      e_.alu(BPF_XOR, r1, r0);
      to_flag(r1, r2);  // 0 for a match
      if (first) {
        e_.alu(BPF_AND, r5, r1);
        e_.alu(BPF_ADD, r4, r5);
      } else {
        e_.alu(BPF_SUB, r1, 1);  // all ones for a match: r4 = r3, r5 = 0
        e_.mov(r2, r3);
        e_.alu(BPF_XOR, r2, r4);
        e_.alu(BPF_AND, r2, r1);
        e_.alu(BPF_XOR, r4, r2);
        e_.alu(BPF_XOR, r1, -1);
        e_.alu(BPF_AND, r5, r1);
      }
    });
    e_.mov(r1, r4);
    return rest_or_null(text, [&](label found) { e_.jump_if(BPF_JEQ, r5, 0, found); });
  }

  // The text (2 * strsize bytes, zero past the first strsize) from the place in r1 on where the
  // jump that found(label) makes is taken, else NULL: the two bytes of null_mark, written past
  // the text.
  template <class Found>
  place rest_or_null(place text, Found found) {
    const auto at = e_.make_label();
    e_.mov(r2, static_cast<std::int32_t>(l_.strsize));
    found(at);
    make_null({text.base, text.offset + l_.strsize});
    e_.mov(r1, static_cast<std::int32_t>(l_.strsize));
    e_.mov(r2, 2);
    e_.bind(at);
    return copy_part(text);
  }

  // The r2 bytes of `from` from r1 on, in a new string cut at string_chars, each byte masked by
  // whether its place is below r2: `from` holds r1 + strsize bytes (r1 < strsize in a place of
  // 2 * strsize, r1 <= 68 in integer_text()'s digits).
  place copy_part(place from) {
    const place at{r7, s_.allocate(l_.strsize)};
    counted_loop(r3, l_.strsize, [&] {
      byte_address(r4, from, r1);
      e_.alu(BPF_ADD, r4, r3);
      e_.load(r5, r4, 0, 1);
      e_.mov(r4, r3);
      e_.alu(BPF_SUB, r4, r2);
      e_.alu(BPF_ARSH, r4, 63);  // -1 when r3 < r2
      e_.alu(BPF_AND, r5, r4);
      byte_address(r4, at, r3);
      e_.store(r4, 0, r5, 1);
    });
    cut(at);
    return at;
  }

  // lltostr(value, [base]).
  place lltostr(const expr& e, int depth) {
    eval(e.kids[0], depth);
    e_.store(r10, temp(depth), r0);
    base_argument(e, depth + 1);
    return integer_text(depth);
  }

  // temp(depth) = the base of lltostr() or strtoll(), kids[1] or 10: one outside 2..36 is an
  // illegal operation, as in DTrace.
  void base_argument(const expr& e, int depth) {
    if (e.kids.size() < 2) {
      e_.store_imm(r10, temp(depth), 10);
      return;
    }
    eval(e.kids[1], depth);
    e_.store(r10, temp(depth), r0);
    const auto valid = e_.make_label();
    e_.alu(BPF_SUB, r0, 2);
    e_.jump_if(BPF_JLE, r0, 34, valid);
    fault(fault_illegal_operation, temp(depth));
    e_.bind(valid);
  }

  // A copy of a string argument in a place of 2 * strsize bytes, zero past the string, for the
  // subroutines that read from a computed place on.
  place padded_copy(const expr& e, int depth) {
    const place text{r7, s_.allocate(2 * l_.strsize)};
    zero({r7, text.offset + l_.strsize}, l_.strsize);
    copy(text, string_operand(e, depth), l_.strsize);
    return text;
  }

  // r0 = where the string `sub` is in `text` (a padded_copy()), -1 where it is not: forward,
  // the first place at or after the one in temp(depth); else the last at or before it. Places
  // up to the text's length count, so "" is found at each. Every place is compared with all of
  // sub's words (each byte of the text there xor sub's, kept where sub's byte is not 0): the
  // loops branch on their counters only (see below), and the words are unrolled, which keeps
  // the verifier's walk to about strsize * strsize / 8 * 6 instructions.
  void search(place text, place sub, bool forward, int depth) {
    const auto words = l_.strsize / 8;
    const place mask{r7, s_.allocate(l_.strsize)};
    e_.mov64(r4, 0x7f7f7f7f7f7f7f7f);
    e_.mov64(r5, static_cast<std::int64_t>(0x8080808080808080u));
    for (std::uint32_t w = 0; w < words; ++w) {  // 0xff for each byte of sub that is not 0
      e_.load(r1, sub.base, off16(sub.offset + 8 * w));
      e_.mov(r2, r1);
      e_.alu(BPF_AND, r2, r4);
      e_.alu(BPF_ADD, r2, r4);
      e_.alu(BPF_OR, r2, r1);
      e_.alu(BPF_AND, r2, r5);
      e_.alu(BPF_RSH, r2, 7);
      e_.alu(BPF_MUL, r2, 0xff);
      e_.store(mask.base, off16(mask.offset + 8 * w), r2);
    }
    string_length(text);
    e_.store(r10, temp(depth + 1), r0);
    const auto length = temp(depth + 1), found = temp(depth + 2), none = temp(depth + 3);
    e_.store_imm(r10, found, forward ? 0 : -1);
    e_.store_imm(r10, none, 1);
    counted_loop(r3, l_.strsize, [&] {
      byte_address(r1, text, r3);
      e_.mov(r0, 0);
      for (std::uint32_t w = 0; w < words; ++w) {
        e_.load(r2, r1, off16(8 * w));
        e_.load(r4, sub.base, off16(sub.offset + 8 * w));
        e_.alu(BPF_XOR, r2, r4);
        e_.load(r4, mask.base, off16(mask.offset + 8 * w));
        e_.alu(BPF_AND, r2, r4);
        e_.alu(BPF_OR, r0, r2);
      }
      to_flag(r0, r2);
      e_.alu(BPF_XOR, r0, 1);  // 1: sub is here
      e_.load(r2, r10, length);
      e_.alu(BPF_SUB, r2, r3);
      e_.alu(BPF_RSH, r2, 63);  // 1: past the length
      e_.load(r4, r10, temp(depth));
      e_.alu(BPF_SUB, r4, r3);
      if (forward) e_.alu(BPF_SUB, r4, 1);  // negative: at or after the start
      e_.alu(BPF_RSH, r4, 63);              // (backward: after the start)
      if (forward) e_.alu(BPF_XOR, r4, 1);
      e_.alu(BPF_OR, r2, r4);   // 1: out of the range
      e_.alu(BPF_XOR, r2, 1);
      e_.alu(BPF_AND, r0, r2);  // 1: a place that counts
      e_.load(r5, r10, none);
      if (forward) {  // found counts the places before the first
        e_.alu(BPF_XOR, r0, 1);
        e_.alu(BPF_AND, r5, r0);
        e_.load(r4, r10, found);
        e_.alu(BPF_ADD, r4, r5);
      } else {  // found = the place, for each that counts
        e_.mov(r2, r0);
        e_.alu(BPF_XOR, r2, 1);
        e_.alu(BPF_AND, r5, r2);
        e_.alu(BPF_NEG, r0, 0);
        e_.load(r4, r10, found);
        choose(r4, r3, r0, r2);
      }
      e_.store(r10, found, r4);
      e_.store(r10, none, r5);
    });
    const auto done = e_.make_label();
    e_.load(r0, r10, found);
    e_.load(r1, r10, none);
    e_.jump_if(BPF_JEQ, r1, 0, done);
    e_.mov(r0, -1);
    e_.bind(done);
  }

  // index(s, sub, [start]) and rindex(s, sub, [start]) as DTrace's: index looks from start (0
  // when negative, the length when past it); rindex looks back from start (the end without
  // one), and a negative start finds only "" (at 0).
  void string_index(const expr& e, int depth, bool forward) {
    const auto text = padded_copy(e.kids[0], depth);
    const place sub{r7, s_.allocate(l_.strsize)};
    copy(sub, string_operand(e.kids[1], depth), l_.strsize);
    const auto start = temp(depth);
    if (e.kids.size() > 2) {
      eval(e.kids[2], depth);
    } else {
      e_.mov(r0, forward ? 0 : static_cast<std::int32_t>(l_.strsize));
    }
    e_.store(r10, start, r0);
    const auto from_zero = e_.make_label();
    if (forward) {
      e_.jump_if(BPF_JSGE, r0, 0, from_zero);
      e_.store_imm(r10, start, 0);
    } else {
      e_.store(r10, temp(depth + 4), r0);  // the start asked, for the test after the search
      e_.jump_if(BPF_JSGE, r0, 0, from_zero);
      e_.store_imm(r10, start, 0);
    }
    e_.bind(from_zero);
    if (forward) {  // past the length: the length (where only "" is found)
      string_length(text);
      e_.load(r1, r10, start);
      const auto within = e_.make_label();
      e_.jump_if(BPF_JSLE, r1, r0, within);
      e_.store(r10, start, r0);
      e_.bind(within);
    }
    search(text, sub, forward, depth);
    if (forward) return;
    const auto done = e_.make_label();
    e_.load(r1, r10, temp(depth + 4));
    e_.jump_if(BPF_JSGE, r1, 0, done);
    e_.load(r1, sub.base, off16(sub.offset), 1);
    e_.jump_if(BPF_JEQ, r1, 0, done);  // "" before the start: at 0, as the search found
    e_.mov(r0, -1);
    e_.bind(done);
  }

  // strstr(s, sub): s from sub's first place on, or NULL where sub is not in s.
  place strstr(const expr& e, int depth) {
    const auto text = padded_copy(e.kids[0], depth);
    const place sub{r7, s_.allocate(l_.strsize)};
    copy(sub, string_operand(e.kids[1], depth), l_.strsize);
    e_.store_imm(r10, temp(depth), 0);
    search(text, sub, true, depth);
    e_.mov(r1, r0);
    return rest_or_null(text, [&](label found) { e_.jump_if(BPF_JSGE, r0, 0, found); });
  }

  // r0 = the last place below the one in temp(bound) whose byte is a '/' (slash) or is not
  // (!slash), plus one; 0 where there is none. (Counted from 1, the verifier sees it bounded.)
  void last_place(place text, std::int16_t bound, bool slash) {
    e_.mov(r0, 0);
    counted_loop(r3, l_.strsize - 1, [&] {
      byte_address(r1, text, r3);
      e_.load(r1, r1, 0, 1);
      e_.alu(BPF_XOR, r1, '/');
      to_flag(r1, r2);  // 1: not a '/'
      if (slash) e_.alu(BPF_XOR, r1, 1);
      e_.load(r2, r10, bound);
      e_.mov(r4, r3);
      e_.alu(BPF_SUB, r4, r2);
      e_.alu(BPF_RSH, r4, 63);  // 1: below the bound
      e_.alu(BPF_AND, r1, r4);
      e_.alu(BPF_NEG, r1, 0);
      e_.mov(r5, r3);
      e_.alu(BPF_ADD, r5, 1);
      choose(r0, r5, r1, r2);
    });
  }

  // basename(path) and dirname(path) as DTrace's and POSIX's: "" is ".", a path of slashes only
  // is "/", and the slashes that end a path or separate its last part do not count.
  place path_part(const expr& e, int depth, bool directory) {
    const auto text = padded_copy(e.kids[0], depth);
    const auto length = temp(depth), end = temp(depth + 1), last_slash = temp(depth + 2);
    string_length(text);
    e_.store(r10, length, r0);
    last_place(text, length, false);  // end: after the last byte not a '/'; "/" is all slashes
    const auto ended = e_.make_label();
    e_.jump_if(BPF_JNE, r0, 0, ended);
    e_.load(r0, r10, length);
    to_flag(r0, r1);
    e_.bind(ended);
    e_.store(r10, end, r0);
    last_place(text, end, true);  // r0: after the last slash before the end
    const auto dot = e_.make_label(), counted = e_.make_label();
    if (directory) {  // up to the last slash, without the slashes before it (but "/" stays)
      e_.jump_if(BPF_JEQ, r0, 0, dot);
      const auto at_least_one = e_.make_label();
      e_.alu(BPF_SUB, r0, 1);
      e_.jump_if(BPF_JSGT, r0, 0, at_least_one);
      e_.mov(r0, 1);
      e_.bind(at_least_one);
      e_.store(r10, last_slash, r0);
      last_place(text, last_slash, false);
      e_.mov(r2, r0);
      to_flag(r0, r1);
      e_.alu(BPF_XOR, r0, 1);
      e_.alu(BPF_ADD, r2, r0);  // 0 is 1: "/"
      e_.mov(r1, 0);
      e_.jump(counted);
    } else {  // after the last slash, but a one-byte path is itself
      e_.load(r1, r10, length);
      e_.jump_if(BPF_JEQ, r1, 0, dot);
      e_.load(r2, r10, end);
      const auto after_slash = e_.make_label();
      e_.jump_if(BPF_JNE, r2, 1, after_slash);
      e_.mov(r0, 0);
      e_.bind(after_slash);
      e_.mov(r1, r0);
      e_.alu(BPF_SUB, r2, r1);
      e_.jump(counted);
    }
    e_.bind(dot);
    e_.mov(r1, 0);
    e_.mov(r2, 0);
    e_.bind(counted);
    e_.store(r10, temp(depth + 3), r2);
    const auto result = copy_part(text);
    const auto done = e_.make_label();
    e_.load(r2, r10, temp(depth + 3));
    e_.jump_if(BPF_JNE, r2, 0, done);
    e_.store_imm(result.base, off16(result.offset), '.', 1);  // nothing left: "."
    e_.bind(done);
    return result;
  }

  // strtok(s, delimiters): s's first token, the bytes from the first one not a delimiter up to
  // the next delimiter (NULL without one); strtok(NULL, delimiters) goes on from there, and
  // faults at 0 in a thread that has no string. As in-process, the thread keeps the string and
  // where the last token ended (at the delimiter after it, as dtrace-utils), plus one, in its
  // storage: 0 there is no string. The delimiters are a 256-bit set, and a 0 byte (the string's
  // end) counts as one.
  place strtok(const expr& e, int depth) {
    const auto state = *l_.strtok_state;
    if (e.kids.size() == 2) {
      const auto s = string_operand(e.kids[0], depth);
      e_.load(r9, r10, thread_slot);
      copy({r9, state + 8}, s, l_.strsize);
      e_.store_imm(r9, off16(state), 1);
    } else {
      const auto kept = e_.make_label();
      e_.load(r9, r10, thread_slot);
      e_.load(r1, r9, off16(state));
      e_.jump_if(BPF_JNE, r1, 0, kept);
      e_.store_imm(r10, temp(depth), 0);
      fault(fault_bad_address, temp(depth));
      e_.bind(kept);
    }
    const auto delimiters = string_operand(e.kids.back(), depth);
    // The text: the thread's string from the offset on (offset < strsize, masked for the
    // verifier), zero past it.
    const place text{r7, s_.allocate(2 * l_.strsize)};
    zero(text, 2 * l_.strsize);
    e_.load(r9, r10, thread_slot);
    e_.load(r1, r9, off16(state));
    e_.alu(BPF_SUB, r1, 1);
    std::int32_t mask = 1;
    while (static_cast<std::uint32_t>(mask) < l_.strsize) mask *= 2;
    e_.alu(BPF_AND, r1, mask - 1);
    pointer(r3, {r9, state + 8});
    e_.alu(BPF_ADD, r3, r1);
    pointer(r1, text);
    e_.mov(r2, static_cast<std::int32_t>(l_.strsize));
    e_.call(BPF_FUNC_probe_read_kernel_str);
    const place set{r7, s_.allocate(32)};
    zero(set, 32);
    e_.store_imm(set.base, off16(set.offset), 1, 1);
    counted_loop(r3, l_.strsize - 1, [&] {
      byte_address(r1, delimiters, r3);
      e_.load(r2, r1, 0, 1);
      e_.mov(r4, r2);
      e_.alu(BPF_AND, r4, 7);
      e_.mov(r5, 1);
      e_.alu(BPF_LSH, r5, r4);
      e_.alu(BPF_RSH, r2, 3);
      byte_address(r1, set, r2);
      e_.load(r2, r1, 0, 1);
      e_.alu(BPF_OR, r2, r5);
      e_.store(r1, 0, r2, 1);
    });
    const auto start = temp(depth), none = temp(depth + 1);
    for (const bool delimiter : {false, true}) {  // the token's start, then its end
      e_.store_imm(r10, none, 1);
      e_.mov(r0, 0);
      counted_loop(r3, l_.strsize - 1, [&] {
        byte_address(r1, text, r3);
        e_.load(r2, r1, 0, 1);
        e_.mov(r4, r2);
        e_.alu(BPF_AND, r4, 7);
        e_.alu(BPF_RSH, r2, 3);
        byte_address(r1, set, r2);
        e_.load(r2, r1, 0, 1);
        e_.alu(BPF_RSH, r2, r4);
        e_.alu(BPF_AND, r2, 1);  // 1: a delimiter
        if (delimiter) {  // not yet: before a delimiter at or after the start
          e_.load(r4, r10, start);
          e_.alu(BPF_SUB, r4, r3);
          e_.alu(BPF_SUB, r4, 1);
          e_.alu(BPF_RSH, r4, 63);
          e_.alu(BPF_AND, r2, r4);
          e_.alu(BPF_XOR, r2, 1);
        }  // (else not yet: on a delimiter)
        e_.load(r5, r10, none);
        e_.alu(BPF_AND, r5, r2);
        e_.store(r10, none, r5);
        e_.alu(BPF_ADD, r0, r5);
      });
      if (!delimiter) e_.store(r10, start, r0);
    }
    e_.load(r9, r10, thread_slot);  // the next call starts where this token ended
    e_.load(r1, r9, off16(state));
    e_.alu(BPF_ADD, r1, r0);
    e_.store(r9, off16(state), r1);
    e_.load(r1, r10, start);
    e_.mov(r2, r0);
    e_.alu(BPF_SUB, r2, r1);
    const auto token = copy_part(text);
    const auto found = e_.make_label();  // a token has a first byte
    e_.load(r1, token.base, off16(token.offset), 1);
    e_.jump_if(BPF_JNE, r1, 0, found);
    make_null(token);
    e_.bind(found);
    return token;
  }

  // r = (r == value) as 0 or 1 (spare is clobbered).
  void equals(reg r, std::int32_t value, reg spare) {
    e_.alu(BPF_XOR, r, value);
    to_flag(r, spare);
    e_.alu(BPF_XOR, r, 1);
  }

  // cleanpath(path) as DTrace's: "//", "/./" and "x/.." taken out; a ".." past the root stays
  // at the root, one past the start of a relative path is kept; "" stays "", and a relative path
  // with nothing left is ".". One pass over the bytes, without a branch on them: each byte of a
  // part is written at the output's end (after a '/' when a part was kept before it), and where
  // a part ends it is kept (its start and whether it is ".." pushed on a stack), dropped (the
  // output's end goes back to where it started), or pops the part before it. Writes past the
  // output's end cost nothing, so they are made whether they count or not.
  place cleanpath(const expr& e, int depth) {
    const auto text = string_operand(e.kids[0], depth);
    std::uint32_t room = 256;  // a power of two past strsize: places are masked with room - 1
    while (room <= l_.strsize) room *= 2;
    const auto mask = static_cast<std::int32_t>(room - 1), parts_mask = mask / 2;  // a part takes 2 bytes
    const place out{r7, s_.allocate(room)}, starts{r7, s_.allocate(room)}, dotdots{r7, s_.allocate(room / 2)};
    const auto end = temp(depth), part_start = temp(depth + 1), part_length = temp(depth + 2),
               all_dots = temp(depth + 3), kept = temp(depth + 4), absolute = temp(depth + 5), byte = temp(depth + 6),
               in_part = temp(depth + 7);
    e_.store_imm(dotdots.base, off16(dotdots.offset + parts_mask), 0, 1);  // "kept[-1]": not ".."
    e_.load(r1, text.base, off16(text.offset), 1);
    equals(r1, '/', r2);
    e_.store(r10, absolute, r1);
    e_.store(r10, end, r1);  // an absolute path's output starts as "/"
    e_.store_imm(out.base, off16(out.offset), '/', 1);
    e_.store_imm(r10, part_length, 0);
    e_.store_imm(r10, all_dots, 1);
    e_.store_imm(r10, kept, 0);
    const auto at_end = [&](reg r, place where) {  // r = the address of where[end & mask] (r1 is clobbered)
      e_.load(r1, r10, end);
      e_.alu(BPF_AND, r1, mask);
      byte_address(r, where, r1);
    };
    // r = the address of where[(slot + add) & parts_mask], of elements of `size` bytes (r1 is clobbered)
    const auto at = [&](reg r, place where, std::int16_t slot, std::int32_t add, std::int32_t size) {
      e_.load(r1, r10, slot);
      e_.alu(BPF_ADD, r1, add);
      e_.alu(BPF_AND, r1, parts_mask);
      e_.alu(BPF_MUL, r1, size);
      byte_address(r, where, r1);
    };
    const auto add_to = [&](std::int16_t slot, reg value, reg spare) {  // slot += value
      e_.load(spare, r10, slot);
      e_.alu(BPF_ADD, spare, value);
      e_.store(r10, slot, spare);
    };
    const auto choose_slot = [&](std::int16_t slot, reg value, reg flag) {  // slot = flag ? value : slot
      e_.load(r1, r10, slot);
      e_.alu(BPF_NEG, flag, 0);
      choose(r1, value, flag, value);
      e_.store(r10, slot, r1);
    };
    counted_loop(r3, l_.strsize, [&] {
      byte_address(r1, text, r3);
      e_.load(r0, r1, 0, 1);
      e_.store(r10, byte, r0);
      e_.mov(r2, r0);  // in a part: neither a '/' nor the end
      e_.alu(BPF_XOR, r2, '/');
      e_.alu(BPF_MUL, r2, r0);
      to_flag(r2, r4);
      e_.store(r10, in_part, r2);
      // A part's byte: its first one notes where the part starts and writes a '/' after a kept part.
      e_.load(r4, r10, part_length);
      equals(r4, 0, r5);
      e_.alu(BPF_AND, r4, r2);  // r4: a part starts here
      e_.load(r0, r10, end);
      e_.mov(r5, r4);
      choose_slot(part_start, r0, r5);
      at_end(r0, out);
      e_.store_imm(r0, 0, '/', 1);
      e_.load(r0, r10, kept);
      to_flag(r0, r5);
      e_.alu(BPF_AND, r4, r0);  // 1: the '/' counts
      add_to(end, r4, r0);
      at_end(r0, out);
      e_.load(r4, r10, byte);
      e_.store(r0, 0, r4, 1);
      e_.load(r2, r10, in_part);
      add_to(end, r2, r0);
      // The end of a part (a '/' or the end after one): keep, drop or pop.
      e_.load(r0, r10, part_length);
      e_.mov(r4, r0);
      to_flag(r4, r5);
      e_.alu(BPF_XOR, r2, 1);
      e_.alu(BPF_AND, r2, r4);  // r2: a part ends here
      e_.load(r4, r10, all_dots);
      e_.alu(BPF_AND, r4, r2);  // r4: a part of dots only ends here
      e_.mov(r5, r0);
      equals(r5, 1, r1);
      e_.alu(BPF_AND, r5, r4);  // r5: "."
      equals(r0, 2, r1);
      e_.alu(BPF_AND, r4, r0);  // r4: ".."
      e_.store(r10, byte, r4);  // (the byte is not needed any more)
      at(r0, dotdots, kept, -1, 1);
      e_.load(r0, r0, 0, 1);
      e_.alu(BPF_XOR, r0, 1);
      e_.load(r1, r10, kept);
      to_flag(r1, r4);
      e_.alu(BPF_AND, r0, r1);  // r0: a part before this one can be popped
      e_.load(r4, r10, byte);
      e_.mov(r1, r4);
      e_.alu(BPF_AND, r1, r0);  // r1: pop
      e_.alu(BPF_XOR, r0, 1);
      e_.alu(BPF_AND, r0, r4);
      e_.load(r4, r10, absolute);
      e_.alu(BPF_AND, r0, r4);
      e_.alu(BPF_OR, r5, r0);  // r5: drop ("." or a ".." past the root)
      e_.mov(r0, r2);
      e_.store(r10, in_part, r1);  // (pop, kept for below)
      e_.alu(BPF_OR, r1, r5);
      e_.alu(BPF_XOR, r1, 1);
      e_.alu(BPF_AND, r0, r1);  // r0: keep
      e_.mov(r4, r0);
      at(r2, starts, kept, 0, 2);  // kept[top] = the part (harmless when not kept: past the top)
      e_.load(r1, r10, part_start);
      e_.store(r2, 0, r1, 2);
      at(r2, dotdots, kept, 0, 1);
      e_.load(r1, r10, byte);
      e_.store(r2, 0, r1, 1);
      add_to(kept, r4, r1);
      e_.load(r4, r10, in_part);
      e_.alu(BPF_NEG, r4, 0);
      add_to(kept, r4, r1);
      e_.load(r0, r10, part_start);  // dropped: the end goes back to the part's start
      choose_slot(end, r0, r5);
      at(r2, starts, kept, 0, 2);  // popped: to the popped part's start (kept is one less now)
      e_.load(r0, r2, 0, 2);
      e_.load(r4, r10, in_part);
      choose_slot(end, r0, r4);
      // After a '/' a new part starts: its length 0 and all dots so far.
      byte_address(r1, text, r3);
      e_.load(r0, r1, 0, 1);
      e_.mov(r2, r0);
      e_.alu(BPF_XOR, r2, '/');
      e_.alu(BPF_MUL, r2, r0);
      to_flag(r2, r4);  // r2: in a part
      e_.load(r4, r10, part_length);
      e_.alu(BPF_ADD, r4, r2);
      e_.alu(BPF_MUL, r4, r2);
      e_.store(r10, part_length, r4);
      equals(r0, '.', r4);
      e_.load(r4, r10, all_dots);
      e_.alu(BPF_AND, r4, r0);
      e_.alu(BPF_XOR, r2, 1);
      e_.alu(BPF_OR, r4, r2);
      e_.store(r10, all_dots, r4);
    });
    e_.mov(r1, 0);
    e_.load(r2, r10, end);
    e_.alu(BPF_AND, r2, mask);
    const auto result = copy_part(out);
    const auto done = e_.make_label();
    e_.load(r2, r10, end);
    e_.jump_if(BPF_JNE, r2, 0, done);
    e_.load(r1, text.base, off16(text.offset), 1);
    e_.jump_if(BPF_JEQ, r1, 0, done);  // "" stays ""
    e_.store_imm(result.base, off16(result.offset), '.', 1);
    e_.bind(done);
    return result;
  }

  // strtoll(s, [base]) as DTrace's: blanks and tabs, a sign, "0x" before base 16 digits, then
  // the base's digits up to the first other byte; none is 0, and overflow wraps.
  void strtoll(const expr& e, int depth) {
    const place text{r7, s_.allocate(2 * l_.strsize + 8)};  // the digits start up to 3 past strsize
    zero({r7, text.offset + l_.strsize}, l_.strsize + 8);
    copy(text, string_operand(e.kids[0], depth), l_.strsize);
    base_argument(e, depth);
    const auto base = temp(depth), at = temp(depth + 1), negative = temp(depth + 2), value = temp(depth + 3),
               going = temp(depth + 4);
    e_.mov(r0, 0);
    e_.mov(r5, 1);
    counted_loop(r3, l_.strsize - 1, [&] {  // r0: the blanks before the rest
      byte_address(r1, text, r3);
      e_.load(r1, r1, 0, 1);
      e_.mov(r2, r1);
      e_.alu(BPF_XOR, r2, ' ');
      e_.alu(BPF_XOR, r1, '\t');
      e_.alu(BPF_MUL, r2, r1);  // 0 for a blank or a tab
      to_flag(r2, r4);
      e_.alu(BPF_XOR, r2, 1);
      e_.alu(BPF_AND, r5, r2);
      e_.alu(BPF_ADD, r0, r5);
    });
    e_.store(r10, at, r0);
    e_.store_imm(r10, negative, 0);
    byte_address(r1, text, r0);
    e_.load(r1, r1, 0, 1);
    const auto plus = e_.make_label(), unsigned_ = e_.make_label(), signed_ = e_.make_label();
    e_.jump_if(BPF_JNE, r1, '-', plus);
    e_.store_imm(r10, negative, 1);
    e_.jump(signed_);
    e_.bind(plus);
    e_.jump_if(BPF_JNE, r1, '+', unsigned_);
    e_.bind(signed_);
    e_.alu(BPF_ADD, r0, 1);
    e_.store(r10, at, r0);
    e_.bind(unsigned_);
    const auto digits = e_.make_label();
    e_.load(r1, r10, base);
    e_.jump_if(BPF_JNE, r1, 16, digits);
    byte_address(r1, text, r0);
    e_.load(r2, r1, 0, 1);
    e_.jump_if(BPF_JNE, r2, '0', digits);
    e_.load(r2, r1, 1, 1);
    e_.alu(BPF_OR, r2, 0x20);
    e_.jump_if(BPF_JNE, r2, 'x', digits);
    e_.load(r2, r1, 2, 1);  // a hex digit must follow
    e_.alu(BPF_OR, r2, 0x20);
    const auto prefix = e_.make_label();
    e_.mov(r3, r2);
    e_.alu(BPF_SUB, r3, '0');
    e_.jump_if(BPF_JLT, r3, 10, prefix);
    e_.alu(BPF_SUB, r2, 'a');
    e_.jump_if(BPF_JGE, r2, 6, digits);
    e_.bind(prefix);
    e_.alu(BPF_ADD, r0, 2);
    e_.store(r10, at, r0);
    e_.bind(digits);
    e_.store_imm(r10, value, 0);
    e_.store_imm(r10, going, 1);
    counted_loop(r3, l_.strsize - 1, [&] {
      e_.load(r2, r10, at);
      e_.alu(BPF_ADD, r2, r3);
      byte_address(r1, text, r2);
      e_.load(r1, r1, 0, 1);
      e_.mov(r2, r1);  // r2: a decimal digit's value (below 10)
      e_.alu(BPF_SUB, r2, '0');
      e_.alu(BPF_AND, r2, 0xff);
      e_.mov(r4, r1);  // r4: a letter's (10 .. 35), else 36 or more
      e_.alu(BPF_OR, r4, 0x20);
      e_.alu(BPF_SUB, r4, 'a');
      e_.alu(BPF_AND, r4, 0xff);
      e_.alu(BPF_ADD, r4, 10);
      e_.mov(r5, r2);
      e_.alu(BPF_SUB, r5, 10);
      e_.alu(BPF_ARSH, r5, 63);  // -1 for a decimal digit
      e_.alu(BPF_XOR, r2, r4);
      e_.alu(BPF_AND, r2, r5);
      e_.alu(BPF_XOR, r4, r2);  // r4: the byte's digit value
      e_.load(r5, r10, base);
      e_.mov(r2, r4);
      e_.alu(BPF_SUB, r2, r5);
      e_.alu(BPF_RSH, r2, 63);  // 1: a digit of the base
      e_.load(r0, r10, going);
      e_.alu(BPF_AND, r0, r2);
      e_.store(r10, going, r0);
      e_.load(r2, r10, value);
      e_.mov(r1, r2);
      e_.alu(BPF_MUL, r1, r5);
      e_.alu(BPF_ADD, r1, r4);
      e_.alu(BPF_NEG, r0, 0);
      choose(r2, r1, r0, r4);
      e_.store(r10, value, r2);
    });
    e_.load(r0, r10, value);
    e_.load(r1, r10, negative);
    const auto done = e_.make_label();
    e_.jump_if(BPF_JEQ, r1, 0, done);
    e_.alu(BPF_NEG, r0, 0);
    e_.bind(done);
  }

  // temp(depth) in base temp(depth + 1) (2..36), as lltostr() and stringof() write it, cut at
  // strsize - 1 characters: negative only in base 10 (other bases show the 64 bits), "0x" before
  // base 16 digits and "0" before base 8 ones (but 0 is "0"). Its 64 digits (leading zeros too)
  // end at byte 68 of a zeroed buffer strsize bytes longer, after room for the prefix; the string
  // is copied from the first significant digit or the prefix.
  place integer_text(int depth) {
    constexpr std::int32_t end = 68, most_digits = 64;
    const place digits{r7, s_.allocate(end + l_.strsize)};
    zero(digits, end + l_.strsize);
    e_.load(r0, r10, temp(depth));
    e_.load(r1, r10, temp(depth + 1));
    e_.mov(r3, 0);             // r3: -1 for a negative value in base 10
    const auto magnitude = e_.make_label();
    e_.jump_if(BPF_JNE, r1, 10, magnitude);
    e_.mov(r3, r0);
    e_.alu(BPF_ARSH, r3, 63);
    e_.alu(BPF_XOR, r0, r3);
    e_.alu(BPF_SUB, r0, r3);   // the magnitude, unsigned (INT64_MIN's too)
    e_.bind(magnitude);
    e_.store(r10, misc_slot, r3);
    e_.mov(r4, 0);             // r4: significant digits
    counted_loop(r5, most_digits, [&] {
      e_.mov(r1, r0);          // one more significant digit while the rest is not 0
      to_flag(r1, r2);
      e_.alu(BPF_ADD, r4, r1);
      e_.mov(r2, end - 1);     // places counted up from the buffer: the verifier refuses ones counted down
      e_.alu(BPF_SUB, r2, r5);
      byte_address(r1, digits, r2);
      e_.load(r3, r10, temp(depth + 1));
      e_.mov(r2, r0);
      e_.alu(BPF_MOD, r2, r3);
      e_.alu(BPF_DIV, r0, r3);
      e_.mov(r3, 9);           // past 9, a letter: 'a' is 39 after '0' + 10
      e_.alu(BPF_SUB, r3, r2);
      e_.alu(BPF_ARSH, r3, 63);
      e_.alu(BPF_AND, r3, 'a' - '0' - 10);
      e_.alu(BPF_ADD, r2, r3);
      e_.alu(BPF_ADD, r2, '0');
      e_.store(r1, 0, r2, 1);
    });
    e_.mov(r1, r4);            // 0 has one digit
    to_flag(r1, r2);
    e_.alu(BPF_XOR, r1, 1);
    e_.alu(BPF_ADD, r4, r1);
    e_.mov(r1, end);
    e_.alu(BPF_SUB, r1, r4);   // where the digits start
    const auto octal = e_.make_label(), sign = e_.make_label(), text = e_.make_label();
    e_.load(r3, r10, temp(depth + 1));
    e_.jump_if(BPF_JNE, r3, 16, octal);
    e_.alu(BPF_SUB, r1, 2);
    byte_address(r2, digits, r1);
    e_.store_imm(r2, 0, '0', 1);
    e_.store_imm(r2, 1, 'x', 1);
    e_.jump(text);
    e_.bind(octal);
    e_.jump_if(BPF_JNE, r3, 8, sign);
    e_.load(r3, r10, temp(depth));
    e_.jump_if(BPF_JEQ, r3, 0, text);  // an octal 0 is "0"
    e_.alu(BPF_SUB, r1, 1);
    byte_address(r2, digits, r1);
    e_.store_imm(r2, 0, '0', 1);
    e_.jump(text);
    e_.bind(sign);
    e_.load(r3, r10, misc_slot);
    byte_address(r2, digits, r1);
    e_.mov(r4, '-');
    e_.alu(BPF_AND, r4, r3);
    e_.store(r2, -1, r4, 1);   // a '-' before the digits, or a 0 outside the string
    e_.alu(BPF_ADD, r1, r3);   // which then starts one place earlier
    e_.bind(text);
    e_.mov(r2, static_cast<std::int32_t>(l_.strsize));
    return copy_part(digits);
  }

  // r0 = strlen of a zero-padded string, at most strsize - 1: one is added for each byte until
  // the first zero one (r3: 1 while none was).
  void string_length(place s) {
    e_.mov(r0, 0);
    e_.mov(r3, 1);
    counted_loop(r4, l_.strsize - 1, [&] {
      byte_address(r1, s, r4);
      e_.load(r1, r1, 0, 1);
      e_.alu(BPF_ADD, r1, 255);
      e_.alu(BPF_RSH, r1, 8);  // 1 for a byte not zero
      e_.alu(BPF_AND, r3, r1);
      e_.alu(BPF_ADD, r0, r3);
    });
  }

  // ---- integer expressions -------------------------------------------------------------------

  [[noreturn]] static void refuse(const expr& e) {
    const auto what = e.kind == kind_t::call      ? std::string(ir::name(e.function)) + "()"
                      : e.kind == kind_t::builtin ? std::string("this built-in variable")
                                                  : std::string("this expression");
    throw error(what + " is not supported by the kernel engine yet", e.where);
  }

  void builtin(const expr& e) {
    using ir::builtin;
    switch (static_cast<builtin>(e.index)) {
      case builtin::arg: return argument(static_cast<std::size_t>(e.value));
      case builtin::timestamp: return firing_timestamp();
      case builtin::walltimestamp:
        e_.call(BPF_FUNC_ktime_get_ns);
        e_.mov64(r1, l_.walltime_offset);
        e_.alu(BPF_ADD, r0, r1);
        return;
      case builtin::vtimestamp: return once_per_firing(vtimestamp_slot, [&] { vtimestamp(); });
      case builtin::ppid:
        return task_field({l_.task_real_parent, l_.task_tgid}, 4, "ppid");
      case builtin::pid:
        call_on_task(BPF_FUNC_get_current_pid_tgid);
        e_.alu(BPF_RSH, r0, 32);
        return;
      case builtin::tid:
        call_on_task(BPF_FUNC_get_current_pid_tgid);
        e_.zero_extend32(r0);
        return;
      case builtin::uid:
        call_on_task(BPF_FUNC_get_current_uid_gid);
        e_.zero_extend32(r0);
        return;
      case builtin::gid:
        call_on_task(BPF_FUNC_get_current_uid_gid);
        e_.alu(BPF_RSH, r0, 32);
        return;
      case builtin::cpu: e_.call(BPF_FUNC_get_smp_processor_id); return;
      case builtin::epid: e_.mov(r0, static_cast<std::int32_t>(clause_->id)); return;
      case builtin::id: return probe_id(r0);
      case builtin::curthread: call_on_task(BPF_FUNC_get_current_task); return;
      case builtin::uregs:
        if (t_->type != target::kind::user_entry && t_->type != target::kind::user_return && t_->type != target::kind::usdt) {
          // Elsewhere, the registers the task entered the kernel with, as dtrace-utils reads them:
          // task_pt_regs() of the task (a BTF pointer, whose loads the kernel makes fault-safe).
          call_on_task(BPF_FUNC_get_current_task_btf);
          e_.mov(r1, r0);
          e_.call(BPF_FUNC_task_pt_regs);
          e_.load(r0, r0, off16(static_cast<std::uint32_t>(8 * e.value)));
          return;
        }
        e_.load(r0, r6, off16(static_cast<std::uint32_t>(8 * e.value)));
        // An entry probe placed past the function's endbr64 reports the function's own address.
        if (e.value == pt_regs_ip_slot && t_->type == target::kind::user_entry)
          e_.alu(BPF_SUB, r0, static_cast<std::int32_t>(t_->entry_skip));
        return;
      case builtin::caller: return stack_builtin(false, false);
      case builtin::ucaller: return stack_builtin(true, false);
      case builtin::stackdepth: return stack_builtin(false, true);
      case builtin::ustackdepth: return stack_builtin(true, true);
      case builtin::probe_record: e_.mov(r0, r6); return;
      case builtin::errno_value: {
        e_.mov(r0, 0);
        if (t_->type != target::kind::syscall_return) return;
        const auto done = e_.make_label();
        e_.load(r0, r6, 16);
        e_.jump_if(BPF_JSLT, r0, 0, done);
        e_.mov(r0, 0);
        e_.bind(done);
        e_.alu(BPF_NEG, r0, 0);
        return;
      }
      default: break;
    }
    refuse(e);
  }

  // r0 = the thread's on-CPU nanoseconds: its vtime entry (vtime.hpp) and the time since it was
  // switched in. A thread the switch program has not seen yet (running since before it was
  // attached) starts here from its se.sum_exec_runtime, and from now; without memory for an
  // entry, vtimestamp is that sum alone.
  void vtimestamp() {
    if (l_.task_exec_runtime < 0 || l_.task_exec_runtime > 32767 || !l_.vtime_map)
      throw error("vtimestamp needs kernel BTF, which this kernel lacks");
    const auto running = e_.make_label(), fallback = e_.make_label(), done = e_.make_label();
    call_on_task(BPF_FUNC_get_current_task_btf);
    e_.store(r10, vtime_slot, r0);
    vtime_entry(e_, static_cast<int>(l_.vtime_map), r10, vtime_slot, static_cast<std::int32_t>(l_.task_exec_runtime),
                fallback);
    e_.store(r10, vtime_slot, r0);
    e_.call(BPF_FUNC_ktime_get_ns);
    e_.load(r1, r10, vtime_slot);
    e_.load(r2, r1, vtime_since);
    e_.jump_if(BPF_JNE, r2, 0, running);
    e_.store(r1, vtime_since, r0);
    e_.mov(r2, r0);
    e_.bind(running);
    e_.alu(BPF_SUB, r0, r2);
    e_.load(r1, r1, vtime_on_cpu);
    e_.alu(BPF_ADD, r0, r1);
    e_.jump(done);
    e_.bind(fallback);
    task_field({l_.task_exec_runtime}, 8, "vtimestamp");
    e_.bind(done);
  }

  // Follows pointers from the current task: each step reads 8 bytes (the last `last` bytes).
  void task_field(std::vector<std::int64_t> offsets, std::uint32_t last, const char* name) {
    for (auto o : offsets)
      if (o < 0) throw error(std::string(name) + " needs kernel BTF, which this kernel lacks");
    call_on_task(BPF_FUNC_get_current_task);
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      e_.mov(r3, r0);
      e_.alu(BPF_ADD, r3, static_cast<std::int32_t>(offsets[i]));
      e_.store_imm(r10, misc_slot, 0);
      e_.mov(r1, r10);
      e_.alu(BPF_ADD, r1, misc_slot);
      e_.mov(r2, static_cast<std::int32_t>(i + 1 == offsets.size() ? last : 8));
      e_.call(BPF_FUNC_probe_read_kernel);
      e_.load(r0, r10, misc_slot);
    }
  }

  // progenyof(pid): 1 when the current process is pid or descends from it. The loop follows
  // real_parent up to most_generations tasks, without a branch on what it finds (init_task is its
  // own parent, so the walk stays there); pid 0 or less is no one's ancestor, as in-process. The
  // counter lives in r6 (kept across helper calls), the context waiting on the stack.
  // ---- scratch memory ------------------------------------------------------------------------
  // alloca() and copyin() take their bytes from one area of scratchsize bytes per clause, as
  // DTrace's scratch memory: `[base, top, area, slack]`, base the area's address (as a number, for
  // the bounds checks), top how many of its bytes are taken (8-byte aligned). A clause that uses it
  // starts with top 0 and the area zeroed, so that memory taken in an earlier clause is gone.
  // Stores, bcopy() and copyinto() land only in [area, area + top); the slack after the area lets
  // the verifier see that a copy of up to scratchsize bytes at up to scratchsize stays in the map.

  std::uint32_t scratch_area() {
    if (!scratch_area_) scratch_area_ = s_.allocate(16 + 2 * p_.scratchsize);
    return *scratch_area_;
  }
  std::int16_t scratch_base_word() { return off16(scratch_area()); }
  std::int16_t scratch_top_word() { return off16(scratch_area() + 8); }
  std::int32_t scratch_start() { return static_cast<std::int32_t>(scratch_area() + 16); }

  void reset_scratch() {
    e_.mov(r1, r7);
    e_.alu(BPF_ADD, r1, scratch_start());
    e_.store(r7, scratch_base_word(), r1);
    e_.store_imm(r7, scratch_top_word(), 0);
    zero({r7, scratch_area() + 16}, p_.scratchsize);
  }

  // Faults unless `bytes` bytes (or as many as `bytes_slot` holds) at offset r1 of the area lie
  // within the bytes taken: an offset outside them (a negative one too, unsigned) is an invalid
  // address, the one in `slot`, and an access running past them an invalid size, as dtrace-utils
  // checks an alloca()'d pointer's. Keeps r1.
  void check_taken(std::int16_t slot, std::int32_t bytes, std::optional<std::int16_t> bytes_slot) {
    const auto bad_address = e_.make_label(), ok = e_.make_label();
    e_.load(r3, r7, scratch_top_word());
    e_.jump_if(BPF_JGE, r1, r3, bad_address);
    e_.mov(r2, r1);
    if (bytes_slot) {
      e_.load(r4, r10, *bytes_slot);
      e_.alu(BPF_ADD, r2, r4);
    } else {
      e_.alu(BPF_ADD, r2, bytes);
      e_.store_imm(r10, misc_slot, bytes);
    }
    e_.jump_if(BPF_JLE, r2, r3, ok);
    fault(fault_bad_size, bytes_slot ? *bytes_slot : misc_slot);
    e_.bind(bad_address);
    fault(fault_bad_address, slot);
    e_.bind(ok);
  }

  // r1 = a pointer the verifier accepts to `bytes` bytes of scratch at the address in `slot`, when
  // they lie within what alloca() and copyin() took; else a fault (check_taken). `bytes` is a
  // constant, or (bytes_slot) a size already checked to be at most scratchsize; the area's slack
  // after it keeps any offset within it plus such a size in the map.
  void scratch_pointer(std::int16_t slot, std::int32_t bytes, std::optional<std::int16_t> bytes_slot = std::nullopt) {
    const auto inside = e_.make_label();
    e_.load(r1, r10, slot);
    e_.load(r2, r7, scratch_base_word());
    e_.alu(BPF_SUB, r1, r2);
    e_.jump_if(BPF_JLT, r1, static_cast<std::int32_t>(p_.scratchsize), inside);
    fault(fault_bad_address, slot);
    e_.bind(inside);
    check_taken(slot, bytes, bytes_slot);
    e_.mov(r2, r7);
    e_.alu(BPF_ADD, r2, scratch_start());
    e_.alu(BPF_ADD, r2, r1);
    e_.mov(r1, r2);
  }

  // A load of `bytes` bytes (or of the count in bytes_slot) at the address in `slot` that lies near the scratch area (from
  // scratchsize before it to its slack's end: a pointer from alloca() gone astray, not other
  // memory) must lie within the bytes taken (check_taken).
  void check_scratch_load(std::int16_t slot, std::int32_t bytes, std::optional<std::int16_t> bytes_slot = std::nullopt) {
    const auto most = static_cast<std::int32_t>(p_.scratchsize);
    const auto elsewhere = e_.make_label();
    e_.load(r1, r10, slot);
    e_.load(r2, r7, scratch_base_word());
    e_.alu(BPF_SUB, r1, r2);
    e_.alu(BPF_ADD, r1, most);  // the offset from scratchsize before the area, unsigned
    e_.jump_if(BPF_JGE, r1, 3 * most, elsewhere);
    e_.alu(BPF_SUB, r1, most);
    check_taken(slot, bytes, bytes_slot);
    e_.bind(elsewhere);
  }

  // copyin(addr, size) and alloca(size): r0 = the address of size bytes taken from the clause's
  // scratch (copyin's read from user memory at addr). More than is left is DTrace's "out of
  // scratch space" fault, an unreadable addr a bad address.
  void scratch_bytes(const expr& e, int depth) {
    const auto most = static_cast<std::int32_t>(p_.scratchsize);
    const auto no_room = e_.make_label(), fits = e_.make_label();
    eval(e.kids.back(), depth);
    e_.store(r10, temp(depth), r0);
    e_.jump_if(BPF_JGT, r0, most, no_room);
    e_.alu(BPF_ADD, r0, 7);
    e_.alu(BPF_AND, r0, -8);
    e_.load(r1, r7, scratch_top_word());
    e_.store(r10, temp(depth + 1), r1);  // where the bytes start
    e_.alu(BPF_ADD, r0, r1);
    e_.jump_if(BPF_JGT, r0, most, no_room);
    e_.store(r7, scratch_top_word(), r0);
    e_.jump(fits);
    e_.bind(no_room);
    fault(fault_no_scratch, temp(depth));
    e_.bind(fits);
    if (e.function == ir::subroutine::copyin) {
      eval(e.kids[0], depth + 2);
      e_.store(r10, temp(depth + 2), r0);
      bounded_scratch_copy(temp(depth + 1), temp(depth), temp(depth + 2), BPF_FUNC_probe_read_user);
    }
    e_.load(r0, r7, scratch_base_word());
    e_.load(r1, r10, temp(depth + 1));
    e_.alu(BPF_ADD, r0, r1);
  }

  // Copies the size in `size_slot` (at most scratchsize) from the address in `from_slot` with
  // `helper` to the area offset in `offset_slot` (at most scratchsize); a failed read faults with
  // the address.
  void bounded_scratch_copy(std::int16_t offset_slot, std::int16_t size_slot, std::int16_t from_slot, bpf_func_id helper) {
    const auto most = static_cast<std::int32_t>(p_.scratchsize);
    const auto ok = e_.make_label();
    e_.mov(r1, r7);
    e_.alu(BPF_ADD, r1, scratch_start());
    e_.load(r2, r10, offset_slot);
    e_.load(r3, r10, size_slot);
    e_.jump_if(BPF_JGT, r2, most, ok);  // for the verifier: the slots lost the bounds
    e_.jump_if(BPF_JGT, r3, most, ok);
    e_.alu(BPF_ADD, r1, r2);
    e_.mov(r2, r3);
    e_.load(r3, r10, from_slot);
    call_on_task(helper);
    e_.jump_if(BPF_JEQ, r0, 0, ok);
    fault(fault_bad_address, from_slot);
    e_.bind(ok);
  }

  // r1 = where a store of `size` bytes at the address in `slot` lands in an object of `bytes`
  // bytes whose address, as a number, is in r1: the address less it is the offset there, which
  // must leave room for the store (the verifier's bound, after the index's own check), added to
  // the pointer `pointer_to_r1` sets.
  template <class PointerToR1>
  void place_within(std::int16_t slot, std::uint32_t bytes, std::uint32_t size, PointerToR1 pointer_to_r1) {
    e_.load(r0, r10, slot);
    e_.alu(BPF_SUB, r0, r1);
    const auto ok = e_.make_label();
    e_.jump_if(BPF_JLE, r0, static_cast<std::int32_t>(bytes - size), ok);
    fault(fault_bad_address, slot);
    e_.bind(ok);
    pointer_to_r1();
    e_.alu(BPF_ADD, r1, r0);
  }

  // r1 = where a store at the address in `slot` lands in the bytes of the variable `root` (a[i] = v).
  void variable_place(const expr& root, std::int16_t slot, std::uint32_t size, int depth) {
    const auto& v = p_.variables[root.index];
    load_variable(root, depth);
    e_.mov(r1, r0);
    place_within(slot, v.value.size, size, [&] { pointer(r1, {direct_base(v), l_.variable_offset[root.index]}); });
  }

  // memory_place() in an associative array's struct element (`a[i++].m += 1`, `a[k].r[j] = v`):
  // the element is found or made first (to `dropped` when there is no room for it), its key built
  // once, and the address derived from it (the root standing for the element: made_element_).
  void element_place(const expr& target, const expr& root, std::uint32_t size, int depth, label dropped) {
    make_element(root, depth + 1, dropped);
    e_.store(r10, temp(depth), r0);  // the element's map value
    made_element_ = made_element{&root, temp(depth)};
    eval(target.kids[0], depth + 1);
    made_element_.reset();
    if (target.value != 0) e_.alu(BPF_ADD, r0, static_cast<std::int32_t>(target.value));
    e_.store(r10, temp(depth + 1), r0);
    e_.load(r1, r10, temp(depth));
    e_.store(r7, off16(address_word()), r1);  // the element's address as a number
    e_.load(r1, r7, off16(address_word()));
    place_within(temp(depth + 1), p_.variables[root.index].value.size, size, [&] { e_.load(r1, r10, temp(depth)); });
  }

  // Where a member (or constant element) of a struct or union variable lies, when e is one.
  std::optional<place> in_variable(const expr& e) {
    const auto& object = e.kids[0];
    if (object.kind != kind_t::variable || !object.t.is_object() || in_map(p_.variables[object.index])) return std::nullopt;
    const auto& v = p_.variables[object.index];
    return place{direct_base(v), l_.variable_offset[object.index] + static_cast<std::uint32_t>(e.value)};
  }

  // The struct, union or array variable (or associative array's element) an address derives
  // from through members and elements (a[i], rec.a[i], m[i][j], e[k].a[i]), when it does.
  const expr* variable_root(const expr& address) {
    const expr* at = &address;
    while ((at->kind == kind_t::binary && at->operation == ir::op::add) || (at->kind == kind_t::memory && at->t.is_object()))
      at = &at->kids[0];
    if (at->kind != kind_t::variable || !at->t.is_object()) return nullptr;
    return at;
  }

  // *p = v, p->m = v, p[i] = v: r0 (already narrowed) into scratch memory, rec.m = v and a[i] = v
  // into the variable; keeps r0.
  void store_memory(const expr& target, int depth) {
    const auto size = target.t.size >= 8 ? 8u : target.t.size;
    if (const auto at = in_variable(target)) return e_.store(at->base, off16(at->offset), r0, size);
    const auto dropped = e_.make_label();
    e_.store(r10, temp(depth), r0);
    memory_place(target, size, depth + 1, dropped);
    e_.load(r0, r10, temp(depth));
    e_.store(r1, 0, r0, size);
    e_.bind(dropped);
    e_.load(r0, r10, temp(depth));
  }

  // Whether an assignment's target is memory at an address computed when it runs (*p, p->m,
  // a[i]), not a struct variable's member at a constant place.
  bool computed_memory(const expr& target) { return target.kind == kind_t::memory && !in_variable(target); }

  // r1 = where a store of `size` bytes to the memory target at a computed address lands: the
  // bytes of the variable or element it derives from (variable_place; to `dropped` when an
  // element cannot be made), or scratch bytes alloca() took (else the invalid-address fault). The
  // address is evaluated once, here (into temp(depth)), so that a compound assignment or ++
  // through it has its side effects once.
  void memory_place(const expr& target, std::uint32_t size, int depth, label dropped) {
    if (const auto* root = variable_root(target.kids[0]); root && in_map(p_.variables[root->index]))
      return element_place(target, *root, size, depth, dropped);
    eval(target.kids[0], depth);
    if (target.value != 0) e_.alu(BPF_ADD, r0, static_cast<std::int32_t>(target.value));
    e_.store(r10, temp(depth), r0);
    if (const auto* root = variable_root(target.kids[0]))
      return variable_place(*root, temp(depth), size, depth + 1);
    scratch_pointer(temp(depth), static_cast<std::int32_t>(size));
  }

  // x op= v and ++x / x++ through memory at a computed address: `update` turns r0, the old
  // value, into the new one (temps from depth + 2 free), which is narrowed and stored where
  // memory_place() found the old one. r0 is then the new value, or the old one when `old` asks
  // (x++), or 0 when an element could not be made.
  template <class Update>
  void update_memory(const expr& target, int depth, bool old, Update update) {
    const auto size = target.t.size >= 8 ? 8u : target.t.size;
    const auto dropped = e_.make_label();
    memory_place(target, size, depth, dropped);
    e_.store(r10, temp(depth), r1);
    e_.load(r0, r1, 0, size);
    e_.extend(r0, size, target.t.is_signed);
    if (old) e_.store(r10, temp(depth + 1), r0);
    update();
    e_.extend(r0, target.t.size, target.t.is_signed);
    e_.load(r1, r10, temp(depth));
    e_.store(r1, 0, r0, size);
    if (old) e_.load(r0, r10, temp(depth + 1));
    e_.bind(dropped);
  }

  // bcopy(from, to, size) and copyinto(uaddr, size, to): size bytes into what alloca() took.
  // A size over scratchsize is DTrace's "invalid size"; a destination outside the taken bytes,
  // or an unreadable source, an invalid address. bcopy() from scratch reads only taken bytes.
  // The arguments are evaluated in their order before anything is checked, as in DTrace: the
  // source into temp(depth + 1) (a string's place kept above it), the destination into
  // temp(depth + 2), the size (evaluated above both) into temp(depth).
  void copy_to_scratch(const expr& e, int depth) {
    const bool user = e.function == ir::subroutine::copyinto;
    const auto& from = e.kids[0];
    const auto& to = e.kids[user ? 2 : 1];
    const auto& size = e.kids[user ? 1 : 2];
    if (from.t.is_string()) {
      pointer(r0, string_operand(from, depth + 1));
    } else {
      eval(from, depth + 1);
    }
    e_.store(r10, temp(depth + 1), r0);
    const auto destination = [&] {
      eval(to, depth + 2);
      e_.store(r10, temp(depth + 2), r0);
    };
    if (!user) destination();
    eval(size, depth + 3);
    e_.store(r10, temp(depth), r0);
    if (user) destination();
    const auto sized = e_.make_label();
    e_.load(r0, r10, temp(depth));
    e_.jump_if(BPF_JLE, r0, static_cast<std::int32_t>(p_.scratchsize), sized);
    fault(fault_bad_size, temp(depth));
    e_.bind(sized);
    if (!user && !from.t.is_string()) {
      // From scratch: the source's bytes must have been taken too.
      const auto outside = e_.make_label();
      e_.load(r0, r10, temp(depth + 1));
      e_.load(r2, r7, scratch_base_word());
      e_.alu(BPF_SUB, r0, r2);
      e_.jump_if(BPF_JGE, r0, static_cast<std::int32_t>(2 * p_.scratchsize), outside);
      e_.load(r1, r10, temp(depth));
      e_.alu(BPF_ADD, r0, r1);
      e_.load(r1, r7, scratch_top_word());
      e_.jump_if(BPF_JLE, r0, r1, outside);
      fault(fault_bad_size, temp(depth));
      e_.bind(outside);
    }
    scratch_pointer(temp(depth + 2), 0, temp(depth));
    e_.load(r2, r7, scratch_base_word());
    e_.load(r1, r10, temp(depth + 2));
    e_.alu(BPF_SUB, r1, r2);
    e_.store(r10, temp(depth + 2), r1);  // now the offset in the area
    bounded_scratch_copy(temp(depth + 2), temp(depth), temp(depth + 1),
                         user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel);
  }

  // copyout(from, to, size) and copyoutstr(string, to, most): bytes of D memory (a pointer's, or
  // a string's place) written at the firing process's address with bpf_probe_write_user, staged
  // in scratch first (the helper writes only from memory the verifier knows). At most scratchsize
  // bytes, as bcopy(); copyoutstr() writes the string up to its NUL. An unreadable source or an
  // unwritable destination is an invalid address.
  void copy_out(const ir::statement& s) {
    const auto most = static_cast<std::int32_t>(p_.scratchsize);
    if (!copy_out_area_) copy_out_area_ = s_.allocate(p_.scratchsize);
    const place staged{r7, *copy_out_area_};
    const auto& from = s.args[0];
    if (from.t.is_string()) {
      const auto text = string_operand(from, 0);
      if (s.kind == ir::action::copyoutstr) {
        string_length(text);
        e_.alu(BPF_ADD, r0, 1);
        e_.store(r10, temp(1), r0);  // the bytes up to the NUL, the NUL included
      }
      pointer(r0, text);
    } else {
      eval(from, 0);
    }
    e_.store(r10, temp(0), r0);
    eval(s.args[1], 2);
    e_.store(r10, temp(2), r0);
    eval(s.args[2], 3);
    e_.store(r10, temp(3), r0);
    const auto sized = e_.make_label(), done = e_.make_label();
    e_.jump_if(BPF_JLE, r0, most, sized);
    fault(fault_bad_size, temp(3));
    e_.bind(sized);
    if (s.kind == ir::action::copyoutstr) {
      const auto shorter = e_.make_label();
      e_.load(r1, r10, temp(1));
      e_.jump_if(BPF_JLE, r0, r1, shorter);
      e_.store(r10, temp(3), r1);
      e_.bind(shorter);
    }
    // The verifier needs each size bounded where the helper is called.
    e_.load(r2, r10, temp(3));
    e_.jump_if(BPF_JGT, r2, most, done);
    pointer(r1, staged);
    e_.load(r3, r10, temp(0));
    e_.call(BPF_FUNC_probe_read_kernel);
    const auto read = e_.make_label();
    e_.jump_if(BPF_JEQ, r0, 0, read);
    fault(fault_bad_address, temp(0));
    e_.bind(read);
    e_.load(r3, r10, temp(3));
    e_.jump_if(BPF_JLT, r3, 1, done);  // nothing to write (the helper takes no empty write)
    e_.jump_if(BPF_JGT, r3, most, done);
    pointer(r2, staged);
    e_.load(r1, r10, temp(2));
    call_on_task(BPF_FUNC_probe_write_user);
    e_.jump_if(BPF_JEQ, r0, 0, done);
    fault(fault_bad_address, temp(2));
    e_.bind(done);
  }

  void progenyof(const expr& e, int depth) {
    static constexpr std::uint32_t most_generations = 128;
    if (l_.task_real_parent < 0 || l_.task_tgid < 0) throw error("progenyof() needs kernel BTF, which this kernel lacks");
    eval(e.kids[0], depth);
    e_.store(r10, temp(depth), r0);       // the pid
    e_.store_imm(r10, temp(depth + 1), 0);  // the answer
    call_on_task(BPF_FUNC_get_current_task);
    e_.store(r10, temp(depth + 2), r0);   // the task
    e_.store(r10, temp(depth + 3), r6);
    const auto read = [&](std::int64_t offset, std::int32_t bytes) {
      e_.load(r3, r10, temp(depth + 2));
      e_.alu(BPF_ADD, r3, static_cast<std::int32_t>(offset));
      e_.store_imm(r10, misc_slot, 0);
      e_.mov(r1, r10);
      e_.alu(BPF_ADD, r1, misc_slot);
      e_.mov(r2, bytes);
      e_.call(BPF_FUNC_probe_read_kernel);
      e_.load(r0, r10, misc_slot, static_cast<std::uint32_t>(bytes));
    };
    counted_loop(r6, most_generations, [&] {
      read(l_.task_tgid, 4);
      e_.mov(r1, r0);
      e_.load(r2, r10, temp(depth));
      e_.alu(BPF_XOR, r1, r2);
      to_flag(r1, r2);
      e_.alu(BPF_XOR, r1, 1);  // 1: this tgid is the pid
      to_flag(r0, r2);         // 1: and it is not 0
      e_.alu(BPF_AND, r1, r0);
      e_.load(r2, r10, temp(depth + 1));
      e_.alu(BPF_OR, r2, r1);
      e_.store(r10, temp(depth + 1), r2);
      read(l_.task_real_parent, 8);
      e_.store(r10, temp(depth + 2), r0);
    });
    e_.load(r6, r10, temp(depth + 3));
    e_.load(r0, r10, temp(depth + 1));
  }

  // r0 = argN of this probe.
  // r0 = the 8 bytes of user memory at r3 (0 where unreadable).
  void read_user_word() {
    e_.store_imm(r10, misc_slot, 0);
    e_.mov(r1, r10);
    e_.alu(BPF_ADD, r1, misc_slot);
    e_.mov(r2, 8);
    call_on_task(BPF_FUNC_probe_read_user);
    e_.load(r0, r10, misc_slot);
  }

  void argument(std::size_t n) {
    switch (t_->type) {
      case target::kind::syscall_entry:
      case target::kind::tracepoint: {
        if (n >= t_->args.size()) {
          e_.mov(r0, 0);
          return;
        }
        const auto& f = t_->args[n];
        const auto size = f.size >= 8 ? 8u : f.size;
        e_.load(r0, r6, off16(f.offset), size);
        e_.extend(r0, size, f.is_signed);
        return;
      }
      case target::kind::user_entry: {
        // The x86-64 calling convention: six in registers (pt_regs offsets of rdi, rsi, rdx,
        // rcx, r8, r9), the rest on the user stack above the return address.
        static constexpr std::int16_t in_registers[] = {112, 104, 96, 88, 72, 64};
        if (n < 6) {
          e_.load(r0, r6, in_registers[n]);
          return;
        }
        e_.load(r3, r6, 152);  // sp
        e_.alu(BPF_ADD, r3, static_cast<std::int32_t>(8 * (n - 5)));
        return read_user_word();
      }
      case target::kind::usdt: {
        if (n >= t_->usdt_args.size()) {
          e_.mov(r0, 0);
          return;
        }
        const auto& a = t_->usdt_args[n];
        if (a.type == usdt_argument::kind::constant) {
          e_.mov64(r0, a.value);
          return;
        }
        if (a.type == usdt_argument::kind::reg) {
          e_.load(r0, r6, a.reg);
        } else {
          e_.load(r3, r6, a.reg);
          e_.mov64(r1, a.value);
          e_.alu(BPF_ADD, r3, r1);
          e_.store_imm(r10, misc_slot, 0);
          e_.mov(r1, r10);
          e_.alu(BPF_ADD, r1, misc_slot);
          e_.mov(r2, static_cast<std::int32_t>(a.size));
          call_on_task(BPF_FUNC_probe_read_user);
          e_.load(r0, r10, misc_slot);
        }
        e_.extend(r0, a.size, a.is_signed);
        return;
      }
      case target::kind::error:
        // Filled in by fault(): DTrace's six ERROR arguments.
        if (n < error_arguments) e_.load(r0, r7, off16(error_args_ + 8 * static_cast<std::uint32_t>(n)));
        else e_.mov(r0, 0);
        return;
      case target::kind::user_return:
        // arg1: the return value (rax). arg0, DTrace's offset of the returning instruction, is
        // not known to a uretprobe, which fires at the caller's return address: 0.
        if (n == 1) e_.load(r0, r6, 80);
        else e_.mov(r0, 0);
        return;
      case target::kind::syscall_return:
        // arg0 and arg1: the return value.
        if (n < 2) e_.load(r0, r6, 16);
        else e_.mov(r0, 0);
        return;
      case target::kind::profile:
      case target::kind::tick: {
        // arg0: the kernel PC, arg1: the user PC (x86-64 pt_regs: ip at 128, cs at 136).
        if (n > 1) {
          e_.mov(r0, 0);
          return;
        }
        const auto zero_it = e_.make_label(), done = e_.make_label();
        e_.load(r1, r6, 136);
        e_.alu(BPF_AND, r1, 3);
        e_.jump_if(n == 0 ? BPF_JNE : BPF_JEQ, r1, 0, zero_it);
        e_.load(r0, r6, 128);
        e_.jump(done);
        e_.bind(zero_it);
        e_.mov(r0, 0);
        e_.bind(done);
        return;
      }
      default:
        e_.mov(r0, 0);
        return;
    }
  }

  // r0 = (r0 op r1) as 0 or 1.
  void compare(std::uint8_t op) {
    const auto yes = e_.make_label(), done = e_.make_label();
    e_.jump_if(op, r0, r1, yes);
    e_.mov(r0, 0);
    e_.jump(done);
    e_.bind(yes);
    e_.mov(r0, 1);
    e_.bind(done);
  }

  // The jump that tests a comparison operator; 0 for any other operator.
  static std::uint8_t comparison(ir::op op, bool is_signed) {
    switch (op) {
      case ir::op::equal: return BPF_JEQ;
      case ir::op::not_equal: return BPF_JNE;
      case ir::op::less: return is_signed ? BPF_JSLT : BPF_JLT;
      case ir::op::less_equal: return is_signed ? BPF_JSLE : BPF_JLE;
      case ir::op::greater: return is_signed ? BPF_JSGT : BPF_JGT;
      case ir::op::greater_equal: return is_signed ? BPF_JSGE : BPF_JGE;
      case ir::op::add:
      case ir::op::subtract:
      case ir::op::multiply:
      case ir::op::divide:
      case ir::op::modulo:
      case ir::op::bit_and:
      case ir::op::bit_or:
      case ir::op::bit_xor:
      case ir::op::shift_left:
      case ir::op::shift_right:
      case ir::op::logical_and:
      case ir::op::logical_or:
      case ir::op::logical_xor:
      case ir::op::negate:
      case ir::op::plus:
      case ir::op::logical_not:
      case ir::op::complement:
      case ir::op::assign:
      case ir::op::increment:
      case ir::op::decrement:
        break;
    }
    return 0;
  }

  // r0 = r0 op r1 for D's arithmetic operators (a compound assignment's too); any other operator
  // yields r1.
  void arithmetic(ir::op op, bool is_signed, int depth) {
    switch (op) {
      case ir::op::divide:
      case ir::op::modulo: {
        const auto ok = e_.make_label();
        e_.jump_if(BPF_JNE, r1, 0, ok);
        e_.store_imm(r10, temp(depth), 0);
        fault(fault_divide_by_zero, temp(depth));
        e_.bind(ok);
        // Signed division is BPF's sdiv/smod (offset 1), which also defines INT64_MIN / -1.
        return e_.alu(op == ir::op::divide ? BPF_DIV : BPF_MOD, r0, r1, is_signed ? 1 : 0);
      }
      case ir::op::add: return e_.alu(BPF_ADD, r0, r1);
      case ir::op::subtract: return e_.alu(BPF_SUB, r0, r1);
      case ir::op::multiply: return e_.alu(BPF_MUL, r0, r1);
      case ir::op::bit_and: return e_.alu(BPF_AND, r0, r1);
      case ir::op::bit_or: return e_.alu(BPF_OR, r0, r1);
      case ir::op::bit_xor: return e_.alu(BPF_XOR, r0, r1);
      case ir::op::shift_left: return e_.alu(BPF_LSH, r0, r1);
      case ir::op::shift_right: return e_.alu(is_signed ? BPF_ARSH : BPF_RSH, r0, r1);
      case ir::op::equal:
      case ir::op::not_equal:
      case ir::op::less:
      case ir::op::less_equal:
      case ir::op::greater:
      case ir::op::greater_equal:
      case ir::op::logical_and:
      case ir::op::logical_or:
      case ir::op::logical_xor:
      case ir::op::negate:
      case ir::op::plus:
      case ir::op::logical_not:
      case ir::op::complement:
      case ir::op::assign:
      case ir::op::increment:
      case ir::op::decrement:
        break;
    }
    e_.mov(r0, r1);
  }

  // r0 = the truth of e (a string is true unless NULL, as a pointer is).
  void truth(const expr& e, int depth) {
    if (e.t.is_string()) {
      is_null_string(eval_string(e, depth));
      e_.alu(BPF_XOR, r0, 1);
      return;
    }
    eval(e, depth);
  }

  void eval(const expr& e, int depth) {
    switch (e.kind) {
      case kind_t::constant: e_.mov64(r0, e.value); return;
      case kind_t::builtin: return builtin(e);
      case kind_t::variable: return load_variable(e, depth);
      case kind_t::unary: {
        if (e.operation == ir::op::logical_not) {
          truth(e.kids[0], depth);
          e_.mov(r1, 0);
          return compare(BPF_JEQ);
        }
        eval(e.kids[0], depth);
        if (e.operation == ir::op::negate) e_.alu(BPF_NEG, r0, 0);
        if (e.operation == ir::op::complement) e_.alu(BPF_XOR, r0, -1);
        return;
      }
      case kind_t::binary: return binary(e, depth);
      case kind_t::sequence:
        for (const auto& k : e.kids) eval(k, depth);
        return;
      case kind_t::conditional: {
        const auto other = e_.make_label(), done = e_.make_label();
        truth(e.kids[0], depth);
        e_.jump_if(BPF_JEQ, r0, 0, other);
        eval(e.kids[1], depth);
        e_.jump(done);
        e_.bind(other);
        eval(e.kids[2], depth);
        e_.bind(done);
        return;
      }
      case kind_t::assign: {
        if (e.t.is_string()) {
          (void)eval_string(e, depth);
          return;
        }
        if (e.t.is_object()) return assign_whole(e, depth);
        if (e.operation != ir::op::assign && computed_memory(e.kids[0])) {
          eval(e.kids[1], depth);
          e_.store(r10, temp(depth), r0);
          return update_memory(e.kids[0], depth + 1, false, [&] {
            e_.load(r1, r10, temp(depth));
            arithmetic(e.operation, e.t.is_signed, depth + 3);
          });
        }
        if (e.operation != ir::op::assign) {
          // x op= v reads x (its key built once, in scratch) before it evaluates v, as DTrace's
          // x = x op v does.
          const auto key = element_to_update(e.kids[0], depth + 1);
          if (key) load_element(e.kids[0].index, *key);
          else load_target(e.kids[0], depth + 1);
          e_.store(r10, temp(depth), r0);
          eval(e.kids[1], depth + 1);
          e_.mov(r1, r0);
          e_.load(r0, r10, temp(depth));
          arithmetic(e.operation, e.t.is_signed, depth + 1);
          if (key) {
            e_.extend(r0, e.t.size, e.t.is_signed);
            return store_element(e.kids[0].index, *key, depth);
          }
        } else {
          eval(e.kids[1], depth);
        }
        e_.extend(r0, e.t.size, e.t.is_signed);
        return store_target(e.kids[0], depth);
      }
      case kind_t::increment: {
        if (computed_memory(e.kids[0])) {
          // postfix (x++): the old value
          return update_memory(e.kids[0], depth, !e.value,
                               [&] { e_.alu(BPF_ADD, r0, e.operation == ir::op::increment ? 1 : -1); });
        }
        const auto key = element_to_update(e.kids[0], depth);
        if (key) load_element(e.kids[0].index, *key);
        else load_target(e.kids[0], depth);
        e_.store(r10, temp(depth), r0);
        e_.alu(BPF_ADD, r0, e.operation == ir::op::increment ? 1 : -1);
        e_.extend(r0, e.t.size, e.t.is_signed);
        if (key) store_element(e.kids[0].index, *key, depth + 1);
        else store_target(e.kids[0], depth + 1);
        if (!e.value) e_.load(r0, r10, temp(depth));  // postfix: the old value
        return;
      }
      case kind_t::cast:
        if (e.kids[0].t.is_string()) return string_address(e.kids[0], depth);
        eval(e.kids[0], depth);
        e_.extend(r0, e.t.size, e.t.is_signed);
        return;
      case kind_t::call: return call(e, depth);
      case kind_t::memory: return memory(e, depth);
      case kind_t::string_character: return string_character(e, depth);
      default: break;
    }
    refuse(e);
  }

  // A struct or union variable = the object at the address kids[1] stands for: its bytes copied
  // into the variable's (a read that fails faults with the address).
  // *p = rec and rec.in = other.in: the bytes copied into the member of a struct variable, or
  // into the scratch bytes p points at, which alloca() must have taken (else the invalid-address
  // fault, as for other stores).
  void assign_whole(const expr& e, int depth) {
    const auto& target = e.kids[0];
    if (e.kids[1].t.is_integer()) {
      const auto& v = p_.variables[target.index];
      if (!in_map(v))  // self->rec = 0: the thread's bytes zeroed, as if deleted
        return zero({direct_base(v), l_.variable_offset[target.index]}, variable_size(v.value, l_.strsize));
      const auto key = variable_key(target, depth);  // a[k] = 0: the element deleted
      e_.load_map(r1, static_cast<int>(l_.variable_map[target.index]));
      pointer(r2, {r7, key});
      e_.call(BPF_FUNC_map_delete_elem);
      return;
    }
    eval(e.kids[1], depth);
    e_.store(r10, temp(depth), r0);
    const auto dropped = e_.make_label();
    if (target.kind == kind_t::variable && in_map(p_.variables[target.index])) {
      make_element(target, depth + 1, dropped);
      e_.mov(r1, r0);
    } else if (target.kind == kind_t::variable) {
      pointer(r1, {direct_base(p_.variables[target.index]), l_.variable_offset[target.index]});
    } else if (const auto at = in_variable(target)) {
      pointer(r1, *at);
    } else {
      // The verifier takes a copy of at most scratch's slack (scratchsize) past any offset in it.
      if (!variable_root(target.kids[0]) && e.t.size > p_.scratchsize)
        throw error("a whole " + e.t.name + " stored there is not supported by the kernel engine yet", e.where);
      memory_place(target, e.t.size, depth + 1, dropped);
    }
    e_.mov(r2, static_cast<std::int32_t>(e.t.size));
    e_.load(r3, r10, temp(depth));
    e_.call(BPF_FUNC_probe_read_kernel);
    const auto ok = e_.make_label();
    e_.jump_if(BPF_JEQ, r0, 0, ok);
    fault(fault_bad_address, temp(depth));
    e_.bind(ok);
    e_.bind(dropped);
  }

  // r0 = the address kids[0] + offset, or (an integer or pointer) what lies there in kernel
  // memory. A read that fails faults with the address, as DTrace's do.
  void memory(const expr& e, int depth) {
    if (const auto at = in_variable(e); at && !e.t.is_object()) {
      const auto size = e.t.size >= 8 ? 8u : e.t.size;
      e_.load(r0, at->base, off16(at->offset), size);
      e_.extend(r0, size, e.t.is_signed);
      return;
    }
    eval(e.kids[0], depth);
    if (e.value != 0) e_.alu(BPF_ADD, r0, static_cast<std::int32_t>(e.value));
    if (e.t.is_object()) return;
    const auto size = e.t.size >= 8 ? 8u : e.t.size;
    e_.store(r10, temp(depth), r0);
    if (ir::loads_through_pointer(e)) check_scratch_load(temp(depth), static_cast<std::int32_t>(size));
    e_.store_imm(r10, misc_slot, 0);
    e_.mov(r1, r10);
    e_.alu(BPF_ADD, r1, misc_slot);
    e_.mov(r2, static_cast<std::int32_t>(size));
    e_.mov(r3, r0);
    e_.call(BPF_FUNC_probe_read_kernel);
    const auto ok = e_.make_label();
    e_.jump_if(BPF_JEQ, r0, 0, ok);
    if (e.value != 0) {  // a NULL pointer faults at 0, not at its member's offset, as dtrace-utils checks it first
      const auto elsewhere = e_.make_label();
      e_.load(r1, r10, temp(depth));
      e_.jump_if(BPF_JNE, r1, static_cast<std::int32_t>(e.value), elsewhere);
      e_.store_imm(r10, temp(depth), 0);
      e_.bind(elsewhere);
    }
    fault(fault_bad_address, temp(depth));
    e_.bind(ok);
    e_.load(r0, r10, misc_slot);
    e_.extend(r0, size, e.t.is_signed);
  }

  // The string in kernel memory at kids[0]: a char array's bytes up to its NUL (or its end), a
  // char pointer's up to strsize - 1. A read that fails faults with the address.
  place memory_string(const expr& e, int depth) {
    eval(e.kids[0], depth);
    e_.store(r10, temp(depth), r0);
    const auto bound = static_cast<std::int32_t>(ir::memory_string_bound(e, l_.string_chars + 1));
    const auto text = read_string(BPF_FUNC_probe_read_kernel_str, bound, depth);
    if (e.value != 0) {  // through a pointer into scratch: its bytes (the NUL's, unless cut) were taken
      const auto within = e_.make_label();
      e_.jump_if(BPF_JLE, r0, bound - 1, within);
      e_.mov(r0, bound - 1);
      e_.bind(within);
      e_.store(r10, temp(depth + 1), r0);
      check_scratch_load(temp(depth), 0, temp(depth + 1));
    }
    return text;
  }

  // The bytes a string read may take, its NUL included: a constant, or a value (at most strsize)
  // the program computed into a stack slot.
  struct limit_in_slot {
    std::int16_t slot;
  };
  using read_limit = std::variant<std::int32_t, limit_in_slot>;

  // A string that `helper` (bpf_probe_read_user_str or _kernel_str) reads from the address in
  // temp(depth) into zeroed scratch, at most limit - 1 bytes and a NUL; a read that fails faults
  // with the address.
  place read_string(bpf_func_id helper, read_limit limit, int depth) {
    const place at{r7, s_.allocate(l_.strsize)};
    zero(at, l_.strsize);
    pointer(r1, at);
    if (const auto* in_slot = std::get_if<limit_in_slot>(&limit))
      e_.load(r2, r10, in_slot->slot);
    else
      e_.mov(r2, std::get<std::int32_t>(limit));
    e_.load(r3, r10, temp(depth));
    e_.call(helper);
    const auto ok = e_.make_label();
    e_.jump_if(BPF_JSGE, r0, 0, ok);
    fault(fault_bad_address, temp(depth));
    e_.bind(ok);
    return at;
  }

  // The subroutines with an integer result that the kernel engine runs.
  void call(const expr& e, int depth) {
    if (e.t.is_string()) {  // a string subroutine called for its effect: strtok(s, d);
      (void)string_call(e, depth);
      return;
    }
    switch (e.function) {
      case ir::subroutine::strlen: return string_length(string_operand(e.kids[0], depth));
      case ir::subroutine::speculation: return speculation();
      case ir::subroutine::progenyof: return progenyof(e, depth);
      case ir::subroutine::copyin:
      case ir::subroutine::alloca: return scratch_bytes(e, depth);
      case ir::subroutine::bcopy:
      case ir::subroutine::copyinto: return copy_to_scratch(e, depth);
      case ir::subroutine::rand:
        e_.call(BPF_FUNC_get_prandom_u32);
        e_.extend(r0, 4, true);
        return;
      case ir::subroutine::htons:
      case ir::subroutine::ntohs:
      case ir::subroutine::htonl:
      case ir::subroutine::ntohl:
      case ir::subroutine::htonll:
      case ir::subroutine::ntohll:
        eval(e.kids[0], depth);
        e_.to_big_endian(r0, 8 * e.t.size);
        return;
      // Linux's dev_t in the kernel: the major number in bits 20-31, the minor in bits 0-19.
      case ir::subroutine::getmajor:
        eval(e.kids[0], depth);
        e_.alu(BPF_LSH, r0, 32);
        e_.alu(BPF_RSH, r0, 52);
        return;
      case ir::subroutine::getminor:
        eval(e.kids[0], depth);
        e_.alu(BPF_AND, r0, 0xfffff);
        return;
      case ir::subroutine::index: return string_index(e, depth, true);
      case ir::subroutine::rindex: return string_index(e, depth, false);
      case ir::subroutine::strtoll: return strtoll(e, depth);
      case ir::subroutine::strjoin:
      case ir::subroutine::cleanpath:
      case ir::subroutine::toupper:
      case ir::subroutine::tolower:
      case ir::subroutine::substr:
      case ir::subroutine::strchr:
      case ir::subroutine::strrchr:
      case ir::subroutine::strstr:
      case ir::subroutine::strtok:
      case ir::subroutine::lltostr:
      case ir::subroutine::copyinstr:
      case ir::subroutine::basename:
      case ir::subroutine::dirname:
      case ir::subroutine::stack:
      case ir::subroutine::ustack:
      case ir::subroutine::sym:
      case ir::subroutine::func:
      case ir::subroutine::mod:
      case ir::subroutine::usym:
      case ir::subroutine::ufunc:
      case ir::subroutine::uaddr:
      case ir::subroutine::umod:
      case ir::subroutine::inet_ntoa:
      case ir::subroutine::inet_ntoa6:
      case ir::subroutine::inet_ntop:
      case ir::subroutine::link_ntop:
      case ir::subroutine::action:
        break;
    }
    refuse(e);
  }

  void binary(const expr& e, int depth) {
    const auto op = e.operation;
    if (op == ir::op::logical_and || op == ir::op::logical_or || op == ir::op::logical_xor) {
      const auto done = e_.make_label();
      truth(e.kids[0], depth);
      e_.mov(r1, 0);
      compare(BPF_JNE);
      if (op != ir::op::logical_xor) e_.jump_if(op == ir::op::logical_and ? BPF_JEQ : BPF_JNE, r0, 0, done);
      e_.store(r10, temp(depth), r0);
      truth(e.kids[1], depth + 1);
      e_.mov(r1, 0);
      compare(BPF_JNE);
      if (op == ir::op::logical_xor) {
        e_.load(r1, r10, temp(depth));
        e_.alu(BPF_XOR, r0, r1);
      }
      e_.bind(done);
      return;
    }
    if (e.kids[0].t.is_string()) {
      const auto a = eval_string(e.kids[0], depth);
      const auto b = eval_string(e.kids[1], depth);
      compare_strings(a, b, may_be_null(e.kids[0]) || may_be_null(e.kids[1]));
      e_.mov(r1, 0);
      return compare(comparison(op, true));
    }
    eval(e.kids[0], depth);
    e_.store(r10, temp(depth), r0);
    eval(e.kids[1], depth + 1);
    e_.mov(r1, r0);
    if (op == ir::op::add && e.value != 0 && e.kids[0].t.kind == ir::type::category::array) element_bounds(e, depth + 1);
    e_.load(r0, r10, temp(depth));
    if (const auto c = comparison(op, e.kids[0].t.is_signed)) return compare(c);
    arithmetic(op, e.t.is_signed, depth + 1);
  }

  // s[i]: the string's byte i as a char. A string's place is zero-padded past its NUL, so from
  // there to its last byte (strsize) it is 0; before or past those, "index out of bounds". The
  // index is taken first: it then waits in a slot, not over the string's place.
  void string_character(const expr& e, int depth) {
    eval(e.kids[1], depth);
    e_.store(r10, temp(depth), r0);
    const auto s = eval_string(e.kids[0], depth + 1);
    if (may_be_null(e.kids[0])) fault_if_null(s, temp(depth), depth + 1);  // NULL's byte i is at address i
    e_.load(r1, r10, temp(depth));
    const auto ok = e_.make_label();
    e_.jump_if(BPF_JLT, r1, static_cast<std::int32_t>(e.kids[0].t.size), ok);  // unsigned: negative too
    fault(fault_bad_index, temp(depth));
    e_.bind(ok);
    byte_address(r2, s, r1);
    e_.load(r0, r2, 0, 1);
    e_.extend(r0, 1, true);
  }

  // An element's byte offset (r1) into an array (e.kids[0]) at a computed index: past the last
  // element (or negative) is DTrace's "index out of bounds" fault, with the index. Keeps r1, which
  // the verifier then knows leaves room for the element.
  void element_bounds(const expr& e, int depth) {
    const auto element = static_cast<std::int32_t>(e.value);
    const auto last = static_cast<std::int32_t>(e.kids[0].t.size) - element;
    const auto ok = e_.make_label();
    e_.jump_if(BPF_JLE, r1, last, ok);
    e_.alu(BPF_DIV, r1, element);
    e_.store(r10, temp(depth), r1);
    fault(fault_bad_index, temp(depth));
    e_.bind(ok);
  }

  const ir::program& p_;
  const target* t_;  // the probe being compiled; ERROR while its clauses are
  const layout& l_;
  scratch_plan& s_;
  bool scratch_;
  emitter e_;
  label error_entry_ = e_.make_label();
  std::vector<label> fault_returns_;   // by the number a fault leaves in error_return_slot
  std::uint32_t error_args_ = 0;       // in scratch: the ERROR arguments, once a fault needs them
  std::optional<std::uint32_t> scratch_area_;  // in scratch: alloca()'s area, once a clause uses it
  std::optional<std::uint32_t> copy_out_area_;  // in scratch: copyout()'s staged bytes, once a clause uses it
  std::optional<std::uint32_t> address_word_;  // in scratch: a struct variable's address, as a number
  std::uint32_t address_word() {
    if (!address_word_) address_word_ = s_.allocate(8);
    return *address_word_;
  }
  // While element_place() evaluates an address: the element it made, at `slot` on the stack,
  // which its root variable stands for instead of being looked up again.
  struct made_element {
    const expr* root;
    std::int16_t slot;
  };
  std::optional<made_element> made_element_;
  std::optional<std::uint32_t> zero_element_;  // in scratch, never written: what a missing element reads as
  const ir::clause* clause_ = nullptr;
  std::uint32_t statement_ = 0;     // the clause's statement id for this probe (fault::statement)
  std::size_t clause_start_ = 0;    // the index of the clause's first instruction
  label next_;
  std::uint32_t probe_area_ = 0;
  std::map<std::string, std::uint32_t> literals_;
  std::optional<std::uint32_t> null_literal_;
  std::vector<bool> nullable_;  // nullable_variables()
  std::map<std::uint32_t, std::uint32_t> initial_values_;  // by aggregation id
  bool reads_task_ = false;  // see call_on_task
  // The bytes the records written outside ERROR's clauses take in the ring, each written at most
  // once a run, and those ERROR's clauses write (at most once a fault).
  std::uint64_t ring_bytes_ = 0, error_ring_bytes_ = 0;
};

}  // namespace

namespace {

// The most bytes (with the NUL) each of the probes' four names takes, over the program's probes.
struct probe_name_bounds {
  std::uint32_t provider = 1, module = 1, function = 1, name = 1;

  explicit probe_name_bounds(const std::vector<probe_info>& probes) {
    const auto grow = [](std::uint32_t& bound, const std::string& text) {
      bound = std::max(bound, static_cast<std::uint32_t>(text.size()) + 1);
    };
    for (const auto& p : probes) {
      grow(provider, p.provider);
      grow(module, p.module);
      grow(function, p.function);
      grow(name, p.name);
    }
  }
};

// The most bytes (with the NUL) a string expression can hold, within strsize.
std::uint32_t string_bound(const expr& e, const probe_name_bounds& names, std::uint32_t strsize) {
  std::uint32_t bound = strsize;
  switch (e.kind) {
    case kind_t::string: bound = static_cast<std::uint32_t>(e.text.size()) + 1; break;
    case kind_t::builtin:
      switch (static_cast<ir::builtin>(e.index)) {
        case ir::builtin::execname: bound = 16; break;  // the kernel's TASK_COMM_LEN
        case ir::builtin::probeprov: bound = names.provider; break;
        case ir::builtin::probemod: bound = names.module; break;
        case ir::builtin::probefunc: bound = names.function; break;
        case ir::builtin::probename: bound = names.name; break;
        default: break;
      }
      break;
    case kind_t::conditional:
      bound = std::max(string_bound(e.kids[1], names, strsize), string_bound(e.kids[2], names, strsize));
      break;
    case kind_t::stringof:
      if (e.kids[0].t.is_string()) bound = string_bound(e.kids[0], names, strsize);
      break;
    case kind_t::memory_string: bound = ir::memory_string_bound(e, strsize); break;
    default: break;
  }
  return std::min(bound, strsize);
}

// The strsize the program was checked with (-x strsize or #pragma D option strsize): every
// string-typed value carries it, as the in-process engine reads it.
std::uint32_t checked_strsize(const ir::program& program) {
  std::uint32_t strsize = 0;
  for (const auto& v : program.variables)
    if (v.value.is_string()) strsize = std::max(strsize, v.value.size);
  for (const auto& c : program.clauses)
    ir::for_each_expression(c, [&](const expr& e) {
      if (e.t.is_string()) strsize = std::max(strsize, e.t.size);
    });
  return strsize ? strsize : 256;
}

}  // namespace

layout plan_layout(const ir::program& program, const std::vector<probe_info>& probes, std::uint32_t cpus,
                   std::size_t nspec, scratch_plan& scratch, std::size_t aggsize) {
  if (nspec > most_speculations)
    throw error("nspec " + std::to_string(nspec) + " is more than the kernel engine's " +
                std::to_string(most_speculations) + " speculative buffers");
  layout l;
  l.cpus = cpus;
  l.nspec = static_cast<std::uint32_t>(nspec);
  const auto strsize = checked_strsize(program);
  l.strsize = std::max<std::uint32_t>((strsize + 7) & ~7u, 8);
  l.string_chars = strsize - 1;
  std::uint32_t data = 0;
  for (const auto& c : program.clauses) data = std::max(data, c.data_size);
  scratch.allocate(record_header + std::max(data, fault_record));  // the record, at 0

  l.globals_size = global_generations + 8 * static_cast<std::uint32_t>(program.aggregations.size());
  for (const auto& p : probes)
    if (p.provider == "dtrace" && p.name == "ERROR") l.error_probe = p;
  l.speculations = l.globals_size;
  l.globals_size += 8 * l.nspec;
  const probe_name_bounds probe_names(probes);
  std::uint32_t next_map = map_fixed;
  for (const auto& d : program.aggregations) {
    l.aggregation_map.push_back(next_map++);
    // Integers 8 bytes, stacks their size; strings grow to their bound.
    std::vector<std::uint32_t> widths;
    for (const auto& k : d.keys) widths.push_back(k.is_stack() ? k.size : 8);
    for (const auto& c : program.clauses)
      for (const auto& s : c.statements) {
        if (s.kind != ir::action::aggregate || s.aggregation != d.varid) continue;
        for (std::size_t i = 0; i < s.keys.size(); ++i)
          if (d.keys[i].kind == agg::key_type::category::string)
            widths[i] = std::max(widths[i], (string_bound(s.keys[i], probe_names, l.strsize) + 7) & ~7u);
      }
    std::uint32_t key = 0;
    for (const auto w : widths) key += w;
    l.key_widths.push_back(std::move(widths));
    l.key_size.push_back(d.keys.empty() ? 4 : key);  // no keys: a one-entry array
    const auto entry = static_cast<std::uint32_t>(8 * (d.fn.words() + 1));
    l.slot_size.push_back(d.keys.empty() ? entry : (entry + 63) & ~63u);
    if (!d.keys.empty()) l.zero_size = std::max(l.zero_size, cpus * l.slot_size.back());
  }
  for (const auto& v : program.variables) {
    const auto size = variable_size(v.value, l.strsize);
    std::uint32_t offset = 0, map = 0, key = 0;
    if (!v.keys.empty()) {
      map = next_map++;
      key = v.where == ir::scope::thread ? 8 : 0;
      for (const auto& k : v.keys) key += k.is_string() ? l.strsize : 8;
    } else if (v.where == ir::scope::thread) {
      offset = l.thread_storage_size;
      l.thread_storage_size += size;
    } else if (v.where == ir::scope::clause) {
      offset = scratch.allocate(size);
    } else {
      offset = l.globals_size;
      l.globals_size += size;
    }
    // Instructions reach a fixed-offset variable through their 16-bit offsets.
    if (v.keys.empty() && offset + size > 32768)
      throw error("variable " + v.name + " (" + std::to_string(v.value.size) +
                  " bytes) does not fit: the kernel engine keeps each scope's variables in 32 KB");
    l.variable_offset.push_back(offset);
    l.variable_map.push_back(map);
    l.variable_key_size.push_back(std::max<std::uint32_t>(key, 8));
    l.variable_value_size.push_back(size);
  }
  bool calls_strtok = false;
  for (const auto& c : program.clauses)
    ir::for_each_expression(c, [&](const expr& e) {
      calls_strtok |= e.kind == kind_t::call && e.function == ir::subroutine::strtok;
    });
  if (calls_strtok) {
    l.strtok_state = l.thread_storage_size;
    l.thread_storage_size += 8 + l.strsize;
  }
  if (l.thread_storage_size) l.thread_map = next_map++;
  bool reads_vtimestamp = false;
  for (const auto& c : program.clauses)
    ir::for_each_expression(c, [&](const expr& e) {
      reads_vtimestamp |= e.kind == kind_t::builtin && static_cast<ir::builtin>(e.index) == ir::builtin::vtimestamp;
    });
  if (reads_vtimestamp) l.vtime_map = next_map++;
  if (l.zero_size) l.zero_map = next_map++;
  for (std::size_t i = 0; i < program.aggregations.size(); ++i) {
    const auto& d = program.aggregations[i];
    const bool cacheable = !d.keys.empty() && l.key_size[i] <= cache_key_bytes && d.fn.kind != agg::kind::quantize &&
                           d.fn.kind != agg::kind::lquantize && d.fn.kind != agg::kind::llquantize;
    const std::uint64_t entry = cache_entry_size(l.key_size[i], d.fn.words());
    std::uint32_t slots = cache_slots_most;
    while (slots > 1 && (cpus * slots * entry > cache_bytes_most || 4 * slots * entry > aggsize)) slots /= 2;
    l.cache_map.push_back(cacheable && slots >= 16 ? next_map++ : 0);
    l.cache_slots.push_back(l.cache_map.back() ? slots : 0);
  }
  return l;
}

generated_program generate(const ir::program& program, const target& t, const layout& l, scratch_plan& scratch) {
  const auto before = scratch;
  auto with_scratch = builder(program, t, l, scratch, true).build();
  // Looking up the per-CPU scratch costs a firing a page of memory more (about 14 ns on a host
  // with page-table isolation): a program that never reads r7 after setting it goes without.
  const auto r7_uses = std::count_if(with_scratch.code.begin(), with_scratch.code.end(),
                                     [](const bpf_insn& i) { return i.dst_reg == r7 || i.src_reg == r7; });
  if (r7_uses > 1) return with_scratch;
  scratch = before;
  return builder(program, t, l, scratch, false).build();
}

void resolve_maps(std::vector<bpf_insn>& code, const std::vector<int>& fds) {
  for (auto& i : code)
    if (i.code == (BPF_LD | BPF_DW | BPF_IMM) && i.src_reg == BPF_PSEUDO_MAP_FD)
      i.imm = fds.at(static_cast<std::size_t>(i.imm));
}

}  // namespace dtpp::kernel
