// A function that starts with the 5-byte nop `0f 1f 44 00 00`, which Linux 6.18
// turns a uprobe on into a call to its [uprobes-trampoline] after the first hit (no trap from
// then on). Returns its argument plus one. The nop is spelled in bytes: an assembler shortens
// `nopl 0(%rax,%rax,1)` to the 4-byte `0f 1f 04 00`, which is not optimized. Included once per
// program (the pid provider's test target, kernel_bench). Aligned: Linux optimizes no nop that
// crosses a page boundary (it cannot write the call atomically there).
#pragma once

extern "C" long nop5_plus_one(long);
asm(R"(
  .text
  .globl nop5_plus_one
  .type nop5_plus_one, @function
  .p2align 4
nop5_plus_one:
  .byte 0x0f, 0x1f, 0x44, 0x00, 0x00
  lea 1(%rdi), %rax
  ret
  .size nop5_plus_one, .-nop5_plus_one
)");
