// The kernel's code generator without a kernel: programs for stub probes (nothing loaded), their
// instructions read back. Runs anywhere, unprivileged.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "../fake_types.hpp"
#include "codegen.hpp"
#include "dtpp/d/check.hpp"
#include "stub_targets.hpp"

namespace {

using namespace dtpp;

ir::program compiled(const std::string& text) {
  const d::source_file source("test.d", text);
  auto result = d::compile(source);
  if (!result.errors.empty()) FAIL(d::render(result.errors[0], source));
  return std::move(result.program);
}

// The program of the stub of `kind` (the first one: BEGIN) running every clause, and the bytes
// of scratch it needs.
kernel::generated_program stub_program(const ir::program& program, kernel::target::kind kind,
                                       std::size_t* scratch_bytes = nullptr) {
  const auto targets = kernel::stub_targets(program.clauses.size());
  const auto& t = *std::find_if(targets.begin(), targets.end(), [&](const kernel::target& s) { return s.type == kind; });
  kernel::scratch_plan scratch;
  const auto layout = kernel::plan_layout(program, {t.info}, 1, 1, scratch);
  auto generated = kernel::generate(program, t, layout, scratch);
  if (scratch_bytes) *scratch_bytes = scratch.image.size();
  return generated;
}

std::vector<bpf_insn> stub_code(const ir::program& program, kernel::target::kind kind,
                                std::size_t* scratch_bytes = nullptr) {
  return stub_program(program, kind, scratch_bytes).code;
}

std::vector<bpf_insn> begin_code(const ir::program& program, std::size_t* scratch_bytes = nullptr) {
  return stub_code(program, kernel::target::kind::begin, scratch_bytes);
}

// The offsets of the 8-byte loads from the probe's context (r6) in `code`, in code order.
std::vector<std::int16_t> context_loads(const std::vector<bpf_insn>& code) {
  std::vector<std::int16_t> out;
  for (const auto& i : code)
    if (i.code == (BPF_LDX | BPF_MEM | BPF_DW) && i.src_reg == 6) out.push_back(i.off);
  return out;
}

std::size_t calls_of(const std::vector<bpf_insn>& code, std::int32_t helper) {
  return static_cast<std::size_t>(std::count_if(code.begin(), code.end(), [&](const bpf_insn& i) {
    return i.code == (BPF_JMP | BPF_CALL) && i.imm == helper;
  }));
}

}  // namespace

// A histogram's bucket is computed from the value; a binary search over the bucket boundaries
// cost a leaf per bucket (930 instructions for quantize, 65,537 leaves for lquantize's most levels).
TEST_CASE("a histogram's update computes its bucket: its code does not grow with the buckets", "[kernel][codegen]") {
  const auto size = [](const std::string& clause) { return begin_code(compiled("BEGIN { " + clause + " }")).size(); };
  // sum()'s update is 3 instructions; quantize's 62: a bit width in 45, the sign's cases, the
  // bound for the verifier and the add. After a clear(), sum() restarts with one store, a
  // histogram with a copy from scratch (13): 12 more.
  CHECK(size("@ = quantize(arg0);") - size("@ = sum(arg0);") == 59 + 12);
  CHECK(size("@ = lquantize(arg0, -5, 65530, 1);") == size("@ = lquantize(arg0, -65536, 65536, 8192);"));
  CHECK(size("@ = lquantize(arg0, -5, 65530, 1);") - size("@ = sum(arg0);") == 13 + 12);
  // Each order of magnitude: compare with its end, divide by its width, move to its first bucket.
  CHECK(size("@ = llquantize(arg0, 10, 0, 6, 20);") - size("@ = llquantize(arg0, 10, 0, 5, 20);") == 7);
}

TEST_CASE("statements updating one aggregation share its initial value in scratch", "[kernel][codegen]") {
  // Each statement used to write a copy (1 KiB for quantize), so that 40 clauses updating one
  // quantize() needed more than the kernel's 32 KiB of scratch and were refused.
  std::string forty;
  for (int i = 0; i < 40; ++i) forty += "BEGIN { @q = quantize(arg0); }\n";
  std::size_t one_bytes = 0, forty_bytes = 0;
  (void)begin_code(compiled("BEGIN { @q = quantize(arg0); }"), &one_bytes);
  (void)begin_code(compiled(forty), &forty_bytes);
  CHECK(forty_bytes == one_bytes);  // their keys, short, are built on the stack
}

TEST_CASE("pid entry arguments come from the x86-64 argument registers, then the user stack",
          "[kernel][codegen]") {
  // pt_regs: rdi 112, rsi 104, rdx 96, rcx 88, r8 72, r9 64; sp 152, the seventh argument 8
  // bytes above the return address.
  const auto code = stub_code(compiled("BEGIN { @ = sum(arg0 + arg1 + arg2 + arg3 + arg4 + arg5); }"),
                              kernel::target::kind::user_entry);
  CHECK(context_loads(code) == std::vector<std::int16_t>{112, 104, 96, 88, 72, 64});
  CHECK(calls_of(code, BPF_FUNC_probe_read_user) == 0);
  const auto stack = stub_code(compiled("BEGIN { @ = sum(arg6); }"), kernel::target::kind::user_entry);
  CHECK(context_loads(stack) == std::vector<std::int16_t>{152});
  CHECK(calls_of(stack, BPF_FUNC_probe_read_user) == 1);
  CHECK(std::any_of(stack.begin(), stack.end(), [](const bpf_insn& i) {
    return i.code == (BPF_ALU64 | BPF_ADD | BPF_K) && i.dst_reg == 3 && i.imm == 8;
  }));
}

TEST_CASE("a pid return probe's arg1 is rax and its arg0 is 0", "[kernel][codegen]") {
  const auto code = stub_code(compiled("BEGIN { @ = sum(arg0 + arg1 + arg2); }"), kernel::target::kind::user_return);
  CHECK(context_loads(code) == std::vector<std::int16_t>{80});
}

TEST_CASE("USDT operands give each argument's register, memory or constant", "[kernel][usdt]") {
  using kind = kernel::usdt_argument::kind;
  const auto parsed = kernel::parse_usdt_arguments("-4@%edi 8@-16(%rbp) 1@(%r12) 2@0x10(%rsp) 8@$-9223372036854775808 -8@%r9b 4@$7");
  REQUIRE(parsed);
  const auto& a = *parsed;
  REQUIRE(a.size() == 7);
  CHECK((a[0].type == kind::reg && a[0].reg == 112 && a[0].size == 4 && a[0].is_signed));
  CHECK((a[1].type == kind::memory && a[1].reg == 32 && a[1].value == -16 && a[1].size == 8 && !a[1].is_signed));
  CHECK((a[2].type == kind::memory && a[2].reg == 24 && a[2].value == 0 && a[2].size == 1));
  CHECK((a[3].type == kind::memory && a[3].reg == 152 && a[3].value == 16 && a[3].size == 2));
  CHECK((a[4].type == kind::constant && a[4].value == std::numeric_limits<std::int64_t>::min()));
  CHECK((a[5].type == kind::reg && a[5].reg == 64 && a[5].is_signed));
  CHECK((a[6].type == kind::constant && a[6].value == 7 && a[6].size == 4));
  CHECK(kernel::parse_usdt_arguments("")->empty());
  CHECK(kernel::parse_usdt_arguments("  ")->empty());
  // What is not understood is refused, never read as something else.
  for (const char* refused : {"8@counter(%rip)", "8@(%rax,%rbx,8)", "3@%eax", "8@%xmm0", "8@", "%eax", "8@$x", "-4@%edi junk"})
    CHECK_FALSE(kernel::parse_usdt_arguments(refused));
}

TEST_CASE("a USDT argument in memory is read from the user's address space, then extended", "[kernel][usdt]") {
  const auto code = stub_code(compiled("BEGIN { @ = sum(arg0 + arg1 + arg2); }"), kernel::target::kind::usdt);
  CHECK(context_loads(code) == std::vector<std::int16_t>{112, 32});
  CHECK(calls_of(code, BPF_FUNC_probe_read_user) == 1);
}

namespace {

// The sizes kernel memory is read in, in code order: each call of `helper` with the size (r2) it
// was given.
std::vector<std::int32_t> read_sizes(const std::vector<bpf_insn>& code, std::int32_t helper) {
  std::vector<std::int32_t> out;
  std::int32_t r2 = -1;
  for (const auto& i : code) {
    if (i.code == (BPF_ALU64 | BPF_MOV | BPF_K) && i.dst_reg == 2) r2 = i.imm;
    if (i.code == (BPF_JMP | BPF_CALL) && i.imm == helper) out.push_back(r2);
  }
  return out;
}

ir::program compiled_with_types(const std::string& text) {
  testing::fake_types types;
  d::compile_options options;
  options.types = &types;
  const d::source_file source("test.d", text);
  auto result = d::compile(source, options);
  if (!result.errors.empty()) FAIL(d::render(result.errors[0], source));
  return std::move(result.program);
}

}  // namespace

TEST_CASE("a member read through two pointers is two kernel reads, of the pointer and of the member",
          "[kernel][codegen]") {
  const auto code = begin_code(compiled_with_types("BEGIN { trace(curthread->real_parent->pid); }"));
  CHECK(read_sizes(code, BPF_FUNC_probe_read_kernel) == std::vector<std::int32_t>{8, 4});
  // The offsets added to the address before each read: real_parent's, then pid's.
  std::vector<std::int32_t> offsets;
  for (const auto& i : code)
    if (i.code == (BPF_ALU64 | BPF_ADD | BPF_K) && i.dst_reg == 0) offsets.push_back(i.imm);
  CHECK(offsets == std::vector<std::int32_t>{16, 8});
}

TEST_CASE("stringof a char array reads at most its bytes and a NUL, of a char pointer strsize",
          "[kernel][codegen]") {
  CHECK(read_sizes(begin_code(compiled_with_types("BEGIN { trace(stringof(curthread->comm)); }")),
                   BPF_FUNC_probe_read_kernel_str) == std::vector<std::int32_t>{17});
  CHECK(read_sizes(begin_code(compiled_with_types("BEGIN { trace(stringof(curthread->name)); }")),
                   BPF_FUNC_probe_read_kernel_str) == std::vector<std::int32_t>{257});
}

// BEGIN and END run from an interrupt on CPU 0 unless they read their task (the driver's
// run_in_kernel): what the generator reports decides it.
TEST_CASE("a program reports whether it reads the task it runs in", "[kernel][codegen]") {
  const auto reads_task = [](const std::string& clause_body) {
    return stub_program(compiled("BEGIN { " + clause_body + " }"), kernel::target::kind::begin).reads_task;
  };
  CHECK_FALSE(reads_task("exit(0);"));
  CHECK_FALSE(reads_task("trace(cpu); trace(timestamp); trace(walltimestamp); trace(rand()); trace(probename);"));
  CHECK_FALSE(reads_task("@[1] = count(); @q = quantize(arg0); x = 1; a[2] = 3; this->y = 4; printa(@q);"));
  CHECK_FALSE(reads_task("trace(stack()); trace(caller); trace(stackdepth); trace(stringof(arg0));"));
  for (const char* body : {"trace(pid);", "trace(tid);", "trace(uid);", "trace(gid);", "trace(execname);",
                           "@[execname] = count();", "self->x = 1;", "self->a[1] = 2;",
                           "trace(ustack());", "trace(ucaller);", "trace(ustackdepth);", "trace(usym(arg0));",
                           "trace(copyinstr(arg0));", "trace(copyin(arg0, 4));", "raise(9);", "stop();"}) {
    INFO(body);
    CHECK(reads_task(body));
  }
  CHECK(stub_program(compiled_with_types("BEGIN { trace(curthread->pid); }"), kernel::target::kind::begin).reads_task);
  CHECK(stub_program(compiled("END { trace(pid); }"), kernel::target::kind::end).reads_task);
}

// Looking up this CPU's scratch costs a firing a page of memory: a program whose aggregation keys
// fit on the stack does without, execname's included (the helper writes it into the key), and so
// do the probe's names and literals (stored into the key word by word).
TEST_CASE("a program needing no scratch memory never looks it up", "[kernel][codegen]") {
  const auto uses_scratch = [](const std::string& clause_body) {
    const auto code = stub_code(compiled("syscall::read:entry { " + clause_body + " }"), kernel::target::kind::syscall_entry);
    return std::any_of(code.begin(), code.end(), [](const bpf_insn& i) { return i.dst_reg == 7 || i.src_reg == 7; });
  };
  for (const char* body : {"@[tid] = count();", "@[execname] = count();", "@[pid, execname] = sum(arg0);",
                           "@ = count();", "@[tid] = quantize(arg0);",
                           "self->ts = timestamp;", "self->ts = 1; @ = quantize(timestamp - self->ts); @a = avg(timestamp);", "@[arg0, arg1, arg2, arg3, arg4, arg5, arg6, arg7] = max(1);",
                           "@[probefunc] = count();", "@[probeprov, probemod, probename, \"a literal\"] = count();"}) {
    INFO(body);
    CHECK_FALSE(uses_scratch(body));
  }
  for (const char* body : {"this->x = 1; @[this->x] = count();", "@[tid] = count(); trace(timestamp);",
                           "@[arg0, arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8] = max(1);"}) {
    INFO(body);
    CHECK(uses_scratch(body));
  }
}

// A string key holding one of the probe's names is as wide as that name can be over the program's
// probes (with its NUL, in words), so that a short name makes a key the front cache takes.
TEST_CASE("a key of a probe's name is as wide as the longest of that name", "[kernel][codegen]") {
  const auto program = compiled("syscall::read:entry { @n[probename] = count(); @m[probemod] = count(); "
                                "@f[probefunc, probeprov] = count(); @l[\"twelve chars\"] = count(); }");
  const std::vector<engine::probe_info> probes = {{1, "prov", "a_module_name_of_31_characters_", "read", "entry", {0}, {0}},
                                                  {2, "provider_nine", "m", "f", "return", {0}, {0}}};
  kernel::scratch_plan scratch;
  const auto layout = kernel::plan_layout(program, probes, 1, 1, scratch);
  CHECK(layout.key_widths == std::vector<std::vector<std::uint32_t>>{{8}, {32}, {8, 16}, {16}});
}

// BEGIN and END run once: the ring needs no more room than their records (each after the
// ring's 8-byte header, 8-aligned): a clause's record (a 16-byte header, then its data), or a
// fault's (24 bytes of data: code, value, pc, statement) and then ERROR's records, once per place
// that can fault.
TEST_CASE("a program counts the bytes one run of it can take in the ring buffer", "[kernel][codegen]") {
  const auto ring_bytes = [](const std::string& source) {
    return stub_program(compiled(source), kernel::target::kind::begin).ring_bytes;
  };
  CHECK(ring_bytes("BEGIN { @ = count(); x = 1; }") == 0);
  CHECK(ring_bytes("BEGIN { exit(0); }") == 8 + 16 + 8);
  CHECK(ring_bytes("BEGIN { } BEGIN { trace(timestamp); trace(timestamp); } BEGIN { trace(timestamp); exit(0); }") ==
        (8 + 16) + (8 + 16 + 16) + (8 + 16 + 16));
  CHECK(ring_bytes("BEGIN { x = 0; trace(timestamp); } BEGIN { trace(timestamp / x); }") ==
        (8 + 16 + 8) + (8 + 16 + 8) + (8 + 16 + 24));

  const auto program = compiled("BEGIN { x = 0; trace(timestamp / x); } BEGIN { trace(timestamp / x); }"
                                " ERROR { trace(timestamp / x); }");
  auto begin = kernel::stub_targets(program.clauses.size())[0];
  begin.info.clauses = {0, 1};
  const engine::probe_info error{99, "dtrace", "", "", "ERROR", {2}, {2}};
  kernel::scratch_plan scratch;
  const auto layout = kernel::plan_layout(program, {begin.info, error}, 1, 1, scratch);
  const auto record = 8 + 16 + 8, fault = 8 + 16 + 24;
  CHECK(kernel::generate(program, begin, layout, scratch).ring_bytes == 2 * (record + fault) + 2 * (record + fault));
}

// dtrace-utils checks a computed index into an array of more than one element at run time
// (DTRACEFLT_BADINDEX); a constant one is checked when compiled, and costs nothing at run time.
TEST_CASE("a computed index into an array is bounds-checked, a constant one is not", "[kernel][codegen]") {
  const auto count = [](const std::vector<bpf_insn>& code, auto&& is) {
    return static_cast<std::size_t>(std::count_if(code.begin(), code.end(), is));
  };
  // The check: the byte offset against the last element's (16 of an int[5]), unsigned.
  const auto bound_checks = [&](const std::string& program, std::int32_t last) {
    return count(begin_code(compiled(program)),
                 [&](const bpf_insn& i) { return i.code == (BPF_JMP | BPF_JLE | BPF_K) && i.imm == last; });
  };
  // The fault's code in the record: DTRACEFLT_BADINDEX, 11.
  const auto bad_index_faults = [&](const std::string& program) {
    return count(begin_code(compiled(program)), [](const bpf_insn& i) {
      return i.code == (BPF_ST | BPF_MEM | BPF_DW) && i.dst_reg == 7 && i.imm == kernel::fault_bad_index;
    });
  };
  CHECK(bound_checks("int a[5]; BEGIN { i = 1; trace(a[i]); }", 16) == 1);
  CHECK(bad_index_faults("int a[5]; BEGIN { i = 1; trace(a[i]); }") == 1);
  CHECK(bad_index_faults("int a[5]; BEGIN { i = 1; a[i] = 2; }") == 1);
  CHECK(bound_checks("short m[2][3]; BEGIN { i = 1; m[i][i] = 2; }", 6) == 1);  // each index against its own array
  CHECK(bound_checks("short m[2][3]; BEGIN { i = 1; m[i][i] = 2; }", 4) == 1);
  CHECK(bad_index_faults("int a[5]; BEGIN { trace(a[4]); a[0] = 1; }") == 0);
  CHECK(bad_index_faults("long one[1]; BEGIN { i = 0; trace(one[i]); }") == 0);  // a trailing array's idiom
}

// inet_ntoa6()'s text comes from two loops over the eight words (the longest run of zero words,
// then the text), not unrolled: 416 instructions a call (2 of them the fault's pc and statement), of
// which 33 clear the text (strsize 256: 256 characters and a NUL, 264 bytes) and 133 write an IPv4
// address inside dotted, as inet_ntoa() does in its 250.
TEST_CASE("inet_ntoa6 and inet_ntop of a family known at run time cost a few hundred instructions",
          "[kernel][codegen]") {
  const auto size = [](const std::string& clause) { return begin_code(compiled("BEGIN { " + clause + " }")).size(); };
  const auto none = size("trace(arg0);");
  CHECK(size("trace(inet_ntoa((void *)arg0));") - none == 250);
  CHECK(size("trace(inet_ntoa6((void *)arg0));") - none == 416);
  // Strict: and the stores of "::" and "::ffff:".
  CHECK(size("trace(inet_ntop(AF_INET6, (void *)arg0));") - none == 425);
  // Either text into one place: the family's test, and inet_ntoa()'s code but the clearing.
  CHECK(size("trace(inet_ntop(arg1, (void *)arg0));") - none == 644);
}

// dtrace-utils names a fault's place as its BPF pc in the clause's own function; here a probe's
// clauses share one program, so the pc counts from the clause's first instruction (its test of
// exit()'s flag, a load from the globals in r8) to the fault's first (the code's store into the
// record), and the statement is the one the probe runs the clause as.
TEST_CASE("a fault record names the statement and the pc of the fault within its clause", "[kernel][codegen]") {
  const auto program = compiled("BEGIN { x = 0; } BEGIN { trace(1 / x); }");
  auto begin = kernel::stub_targets(program.clauses.size())[0];
  begin.info.statements = {0, 5};
  kernel::scratch_plan scratch;
  const auto layout = kernel::plan_layout(program, {begin.info}, 1, 1, scratch);
  const auto code = kernel::generate(program, begin, layout, scratch).code;

  std::vector<std::size_t> clause_starts;
  std::size_t fault_at = 0;
  std::int32_t pc = -1, statement = -1;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const auto& insn = code[i];
    if (insn.code == (BPF_LDX | BPF_MEM | BPF_DW) && insn.src_reg == 8 && insn.off == 0) clause_starts.push_back(i);
    const bool stores_into_record = insn.dst_reg == 7 && (insn.code & 0xe7) == (BPF_ST | BPF_MEM);
    if (stores_into_record && insn.code == (BPF_ST | BPF_MEM | BPF_DW) && insn.off == 16 &&
        insn.imm == static_cast<std::int32_t>(engine::fault_kind::divide_by_zero))
      fault_at = i;
    if (stores_into_record && insn.code == (BPF_ST | BPF_MEM | BPF_W) && insn.off == 32) pc = insn.imm;
    if (stores_into_record && insn.code == (BPF_ST | BPF_MEM | BPF_W) && insn.off == 36) statement = insn.imm;
  }
  REQUIRE(clause_starts.size() == 2);
  REQUIRE(fault_at > clause_starts[1]);
  CHECK(pc == static_cast<std::int32_t>(fault_at - clause_starts[1]));
  CHECK(pc > 0);
  CHECK(statement == 5);
}
