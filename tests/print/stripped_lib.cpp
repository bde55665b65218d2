// A library the symbol tests strip: one exported function (which .dynsym keeps) calling one hidden
// C++ function (which only .symtab, a debug file or MiniDebugInfo names).

namespace stripped_ns {
__attribute__((noinline, visibility("hidden"))) long hidden_square(long v) { return v * v; }
}  // namespace stripped_ns

extern "C" __attribute__((visibility("default"))) long stripped_lib_entry(long v) {
  return stripped_ns::hidden_square(v) + 1;
}
