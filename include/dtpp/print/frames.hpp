// Names of stack frames as dtrace(1) prints them: "module`function+0x1c" for a program counter
// inside a known function, "module`0x7f..." inside a mapping without a symbol there, "0x..." when
// nothing is known. Kernel names come from /proc/kallsyms, user ones from /proc/PID/maps and the
// symbol tables of the mapped ELF files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dtpp/agg/symbol_form.hpp"

namespace dtpp::print {

/// The name of a kernel program counter ("vmlinux`ksys_write+0x5", "ext4`ext4_file_write_iter").
/// Defined in src/print/frames.cpp, like every function below.
std::string kernel_frame(std::uint64_t pc);

/// The name of a program counter of process `pid` ("libc.so.6`__write+0x14", "a.out`main").
std::string user_frame(std::int64_t pid, std::uint64_t pc);

/// The frames of a stack record's bytes, up to the first zero: a stack() record holds program
/// counters, a ustack() record (`user`) the process id and then its program counters. The record
/// of a symbol function (a `form`) gives one frame, named as symbol_name() names it.
std::vector<std::string> stack_frames(bool user, std::string_view record,
                                      agg::symbol_form form = agg::symbol_form::none);

/// The name of a sym(), mod(), usym(), uaddr(), umod() ... record (an address; a user one after
/// its process id), as dtrace(1) prints it: "vmlinux`ksys_write", "a.out`ns::f(int)",
/// "a.out`main+0x1c" (uaddr() only), "libc.so.6", or the hexadecimal address when nothing is known.
std::string symbol_name(agg::symbol_form form, bool user, std::string_view record);

/// The record a symbol function's aggregation key is kept as, so that keys naming the same
/// thing are one: usym(), ufunc(), sym() and func() keep the start of the function holding the
/// address, umod() and mod() the start of its module, uaddr() the address itself (as DTrace's
/// dt_aggregate does). `record` is changed in place.
void canonical_symbol(agg::symbol_form form, bool user, std::string& record);

}  // namespace dtpp::print
