// The library dtpp_pid_target opens with dlopen() after it starts ("plugin" mode): one function
// with a known result, called once by the library's own constructor as it loads.

extern "C" __attribute__((noipa, visibility("default"))) long plugin_square(long v) { return v * v; }

namespace {
__attribute__((constructor)) void on_load() { plugin_square(10); }
}  // namespace
