// The kernel's types for the D checker: structs, unions, typedefs and their members from the
// running kernel's BTF (/sys/kernel/btf/vmlinux), read only when a program names one.
#pragma once

#include "dtpp/ir/type_table.hpp"

namespace dtpp::kernel {

/// The running kernel's types, shared by the whole process; vmlinux BTF is parsed on the first
/// lookup (a program that names no kernel type never pays for it) and kept. Lookups are safe
/// from several threads. Without BTF every lookup finds nothing.
///
///     d::compile_options options;
///     options.types = &kernel::kernel_types();  // curthread->pid, (struct file *)arg0 ...
ir::type_table& kernel_types();

}  // namespace dtpp::kernel
