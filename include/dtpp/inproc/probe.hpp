// DTPP_PROBE: a probe site in C++ code that costs one load and a branch while no D program
// enables it, and fires the clauses that name it when one does.
#pragma once

// STAP_PROBEV, the variadic USDT macro, exists only with SDT_USE_VARIADIC.
#ifndef SDT_USE_VARIADIC
#define SDT_USE_VARIADIC 1
#endif
#include <sys/sdt.h>

// On x86-64 a site is the 5-byte nop `0f 1f 44 00 00` rather than <sys/sdt.h>'s one-byte `nop`
// (so are the other <sys/sdt.h> sites of the files that include this header): Linux 6.18 turns a
// uprobe on that nop into a call to a trampoline after its first hit, no trap from then on, so a
// site traced from the kernel costs 1.6 us a firing instead of 6.3 us here. A fork()ed child
// inherits the call but not the trampoline; each site is therefore listed in a `.note.dtpp` note
// too, from which the child puts the nop back (src/inproc/sites.cpp). Plain <sys/sdt.h> sites have
// no note, nor is a child made without the C library's fork() restored: such a program defines
// DTPP_PROBE_NOP1 for every file, which keeps the one-byte nop. Nothing changes in-process.
#if defined(__x86_64__) && !defined(DTPP_PROBE_NOP1)
#undef _SDT_NOP
// One statement a byte: <sys/sdt.h> passes this text through a one-argument macro (no commas).
// clang-format off
#define _SDT_NOP .byte 0x0f; .byte 0x1f; .byte 0x44; .byte 0x00; .byte 0x00
// clang-format on
// The note of the site just placed (label 990, <sys/sdt.h>'s): owner "dtpp", type 1, the site's
// offset from the descriptor, so that it needs no relocation at load. "?" puts the note in the
// section group of the site's function, so that the linker keeps or drops the two together.
#define DTPP_PROBE_NOTE_                                                                        \
  asm volatile(".pushsection .note.dtpp,\"a?\",@note\n.balign 4\n.4byte 5, 4, 1\n"            \
               ".asciz \"dtpp\"\n.balign 4\n.4byte 990b - .\n.popsection")
#else
#define DTPP_PROBE_NOTE_ (void)0
#endif

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

namespace dtpp::inproc {

/// One DTPP_PROBE site, placed by the compiler in the `dtpp_probes` section so that the engine
/// finds every site of the program without running any code first.
struct probe_site {
  const char* provider;
  const char* name;
  const char* function;
  std::atomic<bool> enabled{false};
  std::uint32_t probe = 0;  ///< 1 + the engine's index of its bound probe, set before `enabled`
};

/// Every DTPP_PROBE site of the executable (an empty span when it has none).
std::span<probe_site> probe_sites();

/// Fires the clauses enabled on a site; the arguments are arg0, arg1, ...
void fire(probe_site& site, std::span<const std::int64_t> args);

namespace detail {
// Integers and enums pass their value; pointers and arrays (strings) their address.
template <class T>
std::int64_t probe_argument(const T& value) {
  if constexpr (std::is_pointer_v<T> || std::is_array_v<T>)
    return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(&*value));
  else
    return static_cast<std::int64_t>(value);
}
// Inlined into the probe site, so that ustack() starts at the function holding the site.
template <class... Args>
[[gnu::always_inline]] inline void fire(probe_site& site, const Args&... args) {
  const std::int64_t values[] = {probe_argument(args)..., 0};
  inproc::fire(site, std::span<const std::int64_t>(values, sizeof...(Args)));
  asm volatile("");  // no tail call: the site's function stays on the stack that ustack() reads
}
}  // namespace detail

}  // namespace dtpp::inproc

/// DTPP_PROBE(provider, name, args...): a probe `provider:<program>:<function>:name` whose
/// arguments are arg0, arg1 ... (integers and pointers; copyinstr(argN) reads a C string).
/// It is also a standard USDT site (a .note.stapsdt entry, as <sys/sdt.h> makes), so the kernel
/// shim can reach the same place with a uprobe.
#define DTPP_PROBE(provider, name, ...)                                                         \
  do {                                                                                          \
    STAP_PROBEV(provider, name __VA_OPT__(, ) __VA_ARGS__);                                    \
    DTPP_PROBE_NOTE_;                                                                           \
    [[gnu::section("dtpp_probes"), gnu::used]] static constinit ::dtpp::inproc::probe_site     \
        dtpp_probe_site_{#provider, #name, __func__};                                          \
    if (dtpp_probe_site_.enabled.load(std::memory_order_relaxed)) [[unlikely]]                 \
      ::dtpp::inproc::detail::fire(dtpp_probe_site_ __VA_OPT__(, ) __VA_ARGS__);               \
  } while (0)
