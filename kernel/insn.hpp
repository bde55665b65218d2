// eBPF instructions as dtpp's code generator writes them: an emitter with named registers,
// forward labels and the handful of instruction shapes D needs.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace dtpp::kernel {

enum reg : std::uint8_t { r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10 };

/// A place in the code jumps can name before it is bound.
struct label {
  std::uint32_t id = 0;
};

class emitter {
 public:
  const std::vector<bpf_insn>& code() const { return code_; }
  std::size_t size() const { return code_.size(); }

  label make_label() {
    targets_.push_back(-1);
    return {static_cast<std::uint32_t>(targets_.size() - 1)};
  }
  void bind(label l) { targets_[l.id] = static_cast<std::int64_t>(code_.size()); }

  // ---- moves and arithmetic (64-bit) ----
  void mov(reg dst, reg src) { alu(BPF_MOV, dst, src); }
  void mov(reg dst, std::int32_t imm) { alu(BPF_MOV, dst, imm); }
  /// Any 64-bit constant (two instruction slots).
  void mov64(reg dst, std::int64_t value) {
    const auto bits = static_cast<std::uint64_t>(value);
    put(BPF_LD | BPF_DW | BPF_IMM, dst, 0, 0, static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)));
    put(0, 0, 0, 0, static_cast<std::int32_t>(static_cast<std::uint32_t>(bits >> 32)));
  }
  /// A map's fd as a map pointer (BPF_PSEUDO_MAP_FD).
  void load_map(reg dst, int map_fd) {
    put(BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, map_fd);
    put(0, 0, 0, 0, 0);
  }
  void alu(std::uint8_t op, reg dst, reg src, std::int16_t off = 0) {
    put(BPF_ALU64 | op | BPF_X, dst, src, off, 0);
  }
  void alu(std::uint8_t op, reg dst, std::int32_t imm, std::int16_t off = 0) {
    put(BPF_ALU64 | op | BPF_K, dst, 0, off, imm);
  }
  /// dst = (u32)dst: clears the upper half.
  void zero_extend32(reg dst) { put(BPF_ALU | BPF_MOV | BPF_X, dst, dst, 0, 0); }
  /// Byte-swaps dst as a big-endian 64-bit value would read (on little-endian machines).
  void to_big_endian64(reg dst) { to_big_endian(dst, 64); }
  /// The low `bits` (16, 32, 64) of dst in big-endian order, the rest cleared (on a little-endian host).
  void to_big_endian(reg dst, std::int32_t bits) { put(BPF_ALU | BPF_END | BPF_TO_BE, dst, 0, 0, bits); }
  /// Sign- or zero-extends the low `bytes` of dst to 64 bits.
  void extend(reg dst, std::uint32_t bytes, bool is_signed) {
    if (bytes >= 8) return;
    const auto shift = static_cast<std::int32_t>(64 - 8 * bytes);
    alu(BPF_LSH, dst, shift);
    alu(is_signed ? BPF_ARSH : BPF_RSH, dst, shift);
  }

  // ---- memory ----
  void load(reg dst, reg base, std::int16_t off, std::uint32_t bytes = 8) {
    put(BPF_LDX | size_of(bytes) | BPF_MEM, dst, base, off, 0);
  }
  void store(reg base, std::int16_t off, reg src, std::uint32_t bytes = 8) {
    put(BPF_STX | size_of(bytes) | BPF_MEM, base, src, off, 0);
  }
  void store_imm(reg base, std::int16_t off, std::int32_t imm, std::uint32_t bytes = 8) {
    put(BPF_ST | size_of(bytes) | BPF_MEM, base, 0, off, imm);
  }
  /// The 8 bytes at base + off become src if they equal r0; r0 = what they were (Linux 5.12).
  void compare_exchange(reg base, std::int16_t off, reg src) {
    put(BPF_STX | BPF_DW | BPF_ATOMIC, base, src, off, BPF_CMPXCHG);
  }
  /// The 8 bytes at base + off grow by src, atomically.
  void atomic_add(reg base, std::int16_t off, reg src) { put(BPF_STX | BPF_DW | BPF_ATOMIC, base, src, off, BPF_ADD); }

  // ---- control ----
  void jump(label to) { jump_op(BPF_JA, r0, r0, false, 0, to); }
  void jump_if(std::uint8_t op, reg a, reg b, label to) { jump_op(op, a, b, true, 0, to); }
  void jump_if(std::uint8_t op, reg a, std::int32_t imm, label to) { jump_op(op, a, r0, false, imm, to); }
  void call(bpf_func_id helper) { put(BPF_JMP | BPF_CALL, 0, 0, 0, helper); }
  void exit() { put(BPF_JMP | BPF_EXIT, 0, 0, 0, 0); }

  /// Resolves every jump; throws if a label was never bound. A jump whose 16-bit offset does not
  /// reach (programs of many clauses) becomes the long jump, gotol (BPF_JMP32 | BPF_JA with a
  /// 32-bit offset in imm, Linux 6.4+): a goto in place; a conditional jump as `if cond goto +1;
  /// goto +1; gotol target`, two slots longer. Those slots can push other jumps out of reach, so
  /// the layout is repeated until no further jump needs to be long.
  std::vector<bpf_insn> finish() {
    // The verifier rewrites some instructions into several (inlined map lookups and helpers,
    // division by a register), lengthening the jumps over them; one it can then no longer encode
    // fails the load ("cannot be patched due to 16-bit range"). So a 16-bit jump is given a
    // quarter of its reach.
    constexpr std::int64_t near_reach = INT16_MAX / 4;
    for (const auto& f : fixups_)
      if (targets_[f.target] < 0) throw std::logic_error("dtpp: BPF label never bound");
    std::vector<bool> far(fixups_.size(), false);
    std::vector<std::int64_t> moved(code_.size() + 1);  // where each old slot goes
    const auto offset_of = [&](std::size_t k) {
      const auto& f = fixups_[k];
      const auto from = moved[f.at] + (far[k] && is_conditional(f) ? 2 : 0);
      return moved[static_cast<std::size_t>(targets_[f.target])] - from - 1;
    };
    for (bool grew = true; grew;) {
      grew = false;
      std::int64_t extra = 0;
      std::size_t k = 0;
      for (std::size_t at = 0; at <= code_.size(); ++at) {
        moved[at] = static_cast<std::int64_t>(at) + extra;
        for (; k < fixups_.size() && fixups_[k].at == at; ++k)
          if (far[k] && is_conditional(fixups_[k])) extra += 2;
      }
      for (std::size_t i = 0; i < fixups_.size(); ++i) {
        const auto off = offset_of(i);
        if (!far[i] && (off < -near_reach || off > near_reach)) far[i] = grew = true;
      }
    }
    std::vector<bpf_insn> out;
    out.reserve(static_cast<std::size_t>(moved.back()));
    std::size_t k = 0;
    for (std::size_t at = 0; at < code_.size(); ++at) {
      auto insn = code_[at];
      if (k == fixups_.size() || fixups_[k].at != at) {
        out.push_back(insn);
        continue;
      }
      const auto off = offset_of(k);
      if (!far[k]) {
        insn.off = static_cast<std::int16_t>(off);
        out.push_back(insn);
      } else {
        if (is_conditional(fixups_[k])) {
          insn.off = 1;
          out.push_back(insn);
          out.push_back(goto_insn(BPF_JMP, 1, 0));
        }
        out.push_back(goto_insn(BPF_JMP32, 0, static_cast<std::int32_t>(off)));
      }
      ++k;
    }
    return out;
  }

 private:
  struct fixup {
    std::size_t at;
    std::uint32_t target;
  };

  bool is_conditional(const fixup& f) const { return BPF_OP(code_[f.at].code) != BPF_JA; }
  static bpf_insn goto_insn(std::uint8_t cls, std::int16_t off, std::int32_t imm) {
    bpf_insn i{};
    i.code = cls | BPF_JA;
    i.off = off;
    i.imm = imm;
    return i;
  }
  static std::uint8_t size_of(std::uint32_t bytes) {
    switch (bytes) {
      case 1: return BPF_B;
      case 2: return BPF_H;
      case 4: return BPF_W;
      default: return BPF_DW;
    }
  }
  void put(std::uint8_t code, std::uint8_t dst, std::uint8_t src, std::int16_t off, std::int32_t imm) {
    bpf_insn i{};
    i.code = code;
    i.dst_reg = dst & 0xf;
    i.src_reg = src & 0xf;
    i.off = off;
    i.imm = imm;
    code_.push_back(i);
  }
  void jump_op(std::uint8_t op, reg a, reg b, bool by_register, std::int32_t imm, label to) {
    fixups_.push_back({code_.size(), to.id});
    put(BPF_JMP | op | (by_register ? BPF_X : BPF_K), a, b, 0, imm);
  }

  std::vector<bpf_insn> code_;
  std::vector<std::int64_t> targets_;
  std::vector<fixup> fixups_;
};

}  // namespace dtpp::kernel
