#include "vtime.hpp"

#include "insn.hpp"

namespace dtpp::kernel {
namespace {

constexpr std::int16_t prev_argument = 8,
                       next_argument = 16;  // the context's u64 arguments 1 and 2
constexpr std::int16_t now_slot = -8;

}  // namespace

void vtime_entry(emitter& e, int storage, reg base, std::int16_t offset, std::int32_t exec_runtime, label skip) {
  const auto known = e.make_label();
  e.load(r2, base, offset);
  e.load_map(r1, storage);
  e.mov(r3, 0);
  e.mov(r4, BPF_LOCAL_STORAGE_GET_F_CREATE);
  e.call(BPF_FUNC_task_storage_get);
  e.jump_if(BPF_JEQ, r0, 0, skip);
  e.load(r1, r0, vtime_since);
  e.jump_if(BPF_JNE, r1, 0, known);
  e.load(r2, base, offset);
  e.load(r2, r2, static_cast<std::int16_t>(exec_runtime));  // a trusted task pointer: read directly
  e.store(r0, vtime_on_cpu, r2);
  e.bind(known);
}

std::vector<bpf_insn> vtime_switch_program(int storage, std::int32_t exec_runtime) {
  emitter e;
  const auto next = e.make_label(), out = e.make_label(), first_seen = e.make_label();
  e.mov(r6, r1);
  e.call(BPF_FUNC_ktime_get_ns);
  e.store(r10, now_slot, r0);
  // prev: on_cpu += now - since, unless first seen (on_cpu is then its sum, just brought up to
  // date by the scheduler).
  vtime_entry(e, storage, r6, prev_argument, exec_runtime, next);
  e.load(r1, r0, vtime_since);
  e.jump_if(BPF_JEQ, r1, 0, first_seen);
  e.load(r2, r10, now_slot);
  e.alu(BPF_SUB, r2, r1);
  e.load(r3, r0, vtime_on_cpu);
  e.alu(BPF_ADD, r3, r2);
  e.store(r0, vtime_on_cpu, r3);
  e.bind(first_seen);
  e.load(r2, r10, now_slot);
  e.store(r0, vtime_since, r2);
  // next: since = now.
  e.bind(next);
  vtime_entry(e, storage, r6, next_argument, exec_runtime, out);
  e.load(r2, r10, now_slot);
  e.store(r0, vtime_since, r2);
  e.bind(out);
  e.mov(r0, 0);
  e.exit();
  return e.finish();
}

}  // namespace dtpp::kernel
