// A function that starts with endbr64, as GCC's -fcf-protection makes them, then push %rbp: a
// pid entry probe is placed past the endbr64 (which uprobes single-step) onto the push (which
// they emulate). Returns its argument plus one. In assembly, so that the compiler cannot change
// it; included once per program (the pid provider's test target, kernel_bench).
#pragma once

extern "C" long endbr64_plus_one(long);
asm(R"(
  .text
  .globl endbr64_plus_one
  .type endbr64_plus_one, @function
endbr64_plus_one:
  endbr64
  push %rbp
  mov %rsp, %rbp
  lea 1(%rdi), %rax
  pop %rbp
  ret
  .size endbr64_plus_one, .-endbr64_plus_one
)");
