// Names of stack frames as dtrace(1) prints them: "module`function+0x1c" for a program counter
// inside a known function, "module`0x7f..." inside a mapping without a symbol there, "0x..." when
// nothing is known. Kernel names come from /proc/kallsyms, user ones from /proc/PID/maps and the
// symbol tables of the mapped ELF files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtpp::print {

/// The name of a kernel program counter ("vmlinux`ksys_write+0x5", "ext4`ext4_file_write_iter").
/// Defined in src/print/frames.cpp, like every function below.
std::string kernel_frame(std::uint64_t pc);

/// The name of a program counter of process `pid` ("libc.so.6`__write+0x14", "a.out`main").
std::string user_frame(std::int64_t pid, std::uint64_t pc);

/// The frames of a stack record's bytes, up to the first zero: a stack() record holds program
/// counters, a ustack() record (`user`) the process id and then its program counters.
std::vector<std::string> stack_frames(bool user, std::string_view record);

}  // namespace dtpp::print
