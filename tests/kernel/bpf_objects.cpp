// Prints how many BPF programs and maps the system has: "PROGRAMS MAPS"; with an argument, only
// those whose names start with it ("dtpp": dtpp's own, whoever else runs BPF on the machine).
#include <bpf/bpf.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace {

// Whether the object with this fd (closed here) has a name starting with `prefix`.
template <typename Info>
bool named(int fd, const char* prefix) {
  if (fd < 0) return false;
  Info info{};
  __u32 size = sizeof info;
  const bool ok = bpf_obj_get_info_by_fd(fd, &info, &size) == 0;
  ::close(fd);
  return ok && std::strncmp(info.name, prefix, std::strlen(prefix)) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  const char* prefix = argc > 1 ? argv[1] : nullptr;
  unsigned programs = 0, maps = 0;
  for (__u32 id = 0; bpf_prog_get_next_id(id, &id) == 0;)
    programs += !prefix || named<bpf_prog_info>(bpf_prog_get_fd_by_id(id), prefix);
  for (__u32 id = 0; bpf_map_get_next_id(id, &id) == 0;)
    maps += !prefix || named<bpf_map_info>(bpf_map_get_fd_by_id(id), prefix);
  std::printf("%u %u\n", programs, maps);
  return 0;
}
