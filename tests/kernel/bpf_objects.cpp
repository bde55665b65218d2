// Prints how many BPF programs and maps the system has: "PROGRAMS MAPS".
#include <bpf/bpf.h>

#include <cstdio>

int main() {
  unsigned programs = 0, maps = 0;
  for (__u32 id = 0; bpf_prog_get_next_id(id, &id) == 0;) ++programs;
  for (__u32 id = 0; bpf_map_get_next_id(id, &id) == 0;) ++maps;
  std::printf("%u %u\n", programs, maps);
  return 0;
}
