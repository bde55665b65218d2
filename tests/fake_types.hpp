// A type table of known layout for tests of the kernel's types without a kernel: a small
// struct task_struct whose members sit at fixed offsets, and the types around it.
#pragma once

#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "dtpp/ir/type_table.hpp"

namespace dtpp::testing {

// struct task_struct {              // id 2, 64 bytes (the table checks no overlap)
//   (8 bytes)   pid_t pid;          // at 8
//   struct task_struct *real_parent;// at 16
//   char comm[16];                  // at 24 (id 5)
//   struct sched_entity se;         // at 40 (id 6: u64 sum_exec_runtime at 8)
//   char *name;                     // at 56
//   int flag:1;                     // bit 448
//   u64 small:3, across:9, wide:60; // bits 453, 460 (across spans two bytes) and 0
//   union { int anon_member; };     // at 60 (id 9)
//   struct opaque *opaque;          // at 64: a struct without a definition (id 7)
// };
class fake_types final : public ir::type_table {
 public:
  int lookups = 0;

  std::optional<ir::type> find(std::string_view name) override {
    ++lookups;
    if (name == "struct task_struct") return resolve(2);
    if (name == "struct sched_entity") return resolve(6);
    if (name == "struct opaque") return resolve(7);
    if (name == "pid_t") return resolve(8);
    return std::nullopt;
  }
  std::optional<ir::type> resolve(std::uint32_t id) override {
    ++lookups;
    switch (id) {
      case 1:
        return integer("int", 4, true);
      case 2:
        return record("struct task_struct", 64, 2);
      case 3:
        return pointer("struct task_struct *", 2);
      case 4:
        return integer("char", 1, true);
      case 5:
        return ir::type{ir::type::category::array, 16, false, "char [16]", 5, 0};
      case 6:
        return record("struct sched_entity", 16, 6);
      case 7:
        return record("struct opaque", 0, 7);
      case 8:
        return integer("pid_t", 4, true);
      case 9:
        return record("union (anon)", 4, 9);
      case 10:
        return integer("u64", 8, false);
      case 11:
        return pointer("struct opaque *", 7);
      case 12:
        return pointer("char *", 4);
      default:
        return std::nullopt;
    }
  }
  std::optional<ir::member_info> member(std::uint32_t record, std::string_view name) override {
    ++lookups;
    static const std::map<std::pair<std::uint32_t, std::string_view>,
                          std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>>
        members{{{2, "pid"}, {8, 64, 0}},
                {{2, "real_parent"}, {3, 128, 0}},
                {{2, "comm"}, {5, 192, 0}},
                {{2, "se"}, {6, 320, 0}},
                {{2, "flag"}, {1, 448, 1}},
                {{2, "opaque"}, {11, 448 + 64, 0}},
                {{2, "name"}, {12, 448, 0}},
                {{9, "anon_member"}, {1, 0, 0}},
                {{6, "sum_exec_runtime"}, {10, 64, 0}},
                {{2, "small"}, {10, 453, 3}},
                {{2, "across"}, {10, 460, 9}},
                {{2, "wide"}, {10, 7, 60}}};
    const auto it = members.find({record, name});
    if (it == members.end()) {
      if (record == 2)  // the anonymous union at 60
        if (auto inner = member(9, name)) {
          inner->bit_offset += 480;
          return inner;
        }
      return std::nullopt;
    }
    const auto [type_id, bit_offset, bit_size] = it->second;
    return ir::member_info{*resolve(type_id), bit_offset, bit_size};
  }
  std::optional<ir::type> element(std::uint32_t array) override {
    ++lookups;
    return array == 5 ? resolve(4) : std::nullopt;
  }
  // test:::a and test:::b both declare `int x` first; then a has `char s[8]` and a task pointer,
  // b a `long y`. test:::t, as a stable provider's probe, a task pointer translated to a
  // `struct out *`, an int, and an int the inline `computed` gives; test:::u the same task
  // pointer elsewhere, then a char array.
  std::vector<ir::probe_argument> probe_arguments(const ir::probe& p) override {
    if (p.provider != "test") return {};
    if (p.name == "a")
      return {{"x", "int", 8, 4, true, {}}, {"s", "char[8]", 12, 8, false, {}},
              {"task", "struct task_struct *", 24, 8, false, {}}};
    if (p.name == "b") return {{"x", "int", 8, 4, true, {}}, {"y", "long", 12, 8, true, {}}};
    if (p.name == "t")
      return {{{}, "struct task_struct *", 0, 8, false, "struct out *"}, {{}, "int", 8, 4, true, {}},
              {{}, "int", 16, 8, false, {}, "computed"}};
    if (p.name == "u") return {{{}, "struct task_struct *", 16, 8, false, "struct out *"}, {"s", "char[8]", 24, 8, false, {}}};
    return {};
  }
  // fbt, as on a kernel without kprobes or fentry.
  std::optional<std::string> unavailable(const ir::probe& p) override {
    if (p.provider == "fbt") return "fbt is not served here";
    return std::nullopt;
  }

 private:
  static ir::type integer(const char* name, std::uint32_t size, bool is_signed) {
    return {ir::type::category::integer, size, is_signed, name, 0, 0};
  }
  static ir::type record(const char* name, std::uint32_t size, std::uint32_t id) {
    return {ir::type::category::record, size, false, name, id, 0};
  }
  static ir::type pointer(const char* name, std::uint32_t pointee) {
    return {ir::type::category::integer, 8, false, name, 0, pointee};
  }
};

}  // namespace dtpp::testing
