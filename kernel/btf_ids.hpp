// Raw ids in the running kernel's BTF, for programs the kernel attaches by type id (tp_btf).
#pragma once

#include <cstdint>

namespace dtpp::kernel {

/// The id of the type `name` of BTF kind `kind` (BTF_KIND_TYPEDEF ...) in vmlinux BTF, parsed
/// once and shared with kernel_types(); -errno when the kernel has no such type or no BTF.
std::int32_t kernel_type_id(const char* name, std::uint32_t kind);

}  // namespace dtpp::kernel
