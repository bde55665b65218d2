// Kernel probes made up for generating code without a kernel (the fuzz target, the code
// generator's tests): what tracefs would say about them is invented, and nothing is loaded.
#pragma once

#include <cstddef>
#include <vector>

#include "codegen.hpp"

namespace dtpp::kernel {

/// One probe of each kind the code generator tells apart, each running clauses 0 .. clauses-1; the
/// last one is a raw_syscalls program finding its probe in a table.
inline std::vector<target> stub_targets(std::size_t clauses) {
  std::vector<target> out;
  const auto add = [&](target::kind kind, const char* provider, const char* function, const char* name) {
    target t;
    t.type = kind;
    t.info = {static_cast<std::uint32_t>(out.size() + 1), provider, "", function, name, {}, {}};
    for (std::uint32_t i = 0; i < clauses; ++i) {
      t.info.clauses.push_back(i);
      t.info.statements.push_back(i);
    }
    out.push_back(std::move(t));
    return &out.back();
  };
  add(target::kind::begin, "dtrace", "", "BEGIN");
  add(target::kind::end, "dtrace", "", "END");
  auto* entry = add(target::kind::syscall_entry, "syscall", "read", "entry");
  for (std::uint32_t i = 0; i < 3; ++i) entry->args.push_back({16 + 8 * i, 8, false, {}, "unsigned long"});
  add(target::kind::syscall_return, "syscall", "read", "return");
  auto* tracepoint = add(target::kind::tracepoint, "tracepoint", "sched", "sched_switch");
  tracepoint->args = {{8, 16, false, "f0", "char[16]"}, {24, 4, true, "f1", "pid_t"}, {28, 4, true, "f2", "int"},
                       {32, 8, true, "f3", "long"}, {40, 2, false, "f4", "unsigned short"}, {42, 1, true, "f5", "signed char"}};
  add(target::kind::profile, "profile", "", "profile-97")->period = 10309278;
  add(target::kind::tick, "profile", "", "tick-1")->period = 1000000000;
  add(target::kind::user_entry, "pid1", "main", "entry")->uprobe_path = "/bin/true";
  add(target::kind::user_return, "pid1", "main", "return")->uprobe_path = "/bin/true";
  add(target::kind::usdt, "prov1", "main", "site")->usdt_args = *parse_usdt_arguments("-4@%edi 8@-16(%rbp) 4@$7");
  auto* raw = add(target::kind::syscall_entry, "syscall", "write", "entry");
  for (std::uint32_t i = 0; i < 6; ++i) raw->args.push_back({16 + 8 * i, 8, false, {}, "unsigned long"});
  raw->probe_table = map_fixed;
  return out;
}

}  // namespace dtpp::kernel
