// kernel_types(): D's view of vmlinux BTF through libbpf's BTF API. Typedefs and qualifiers are
// seen through (a typedef keeps its name for messages); a forward declaration is replaced by the
// struct or union of the same name, as DTrace looks for a definition.

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtpp/kernel/types.hpp"
#include "btf_ids.hpp"
#include "providers.hpp"

namespace dtpp::kernel {

namespace {

using ir::type;

class btf_types final : public ir::type_table {
 public:
  ~btf_types() override { btf__free(btf_); }

  std::optional<type> find(std::string_view name) override {
    const btf* b = vmlinux();
    if (!b) return std::nullopt;
    const auto lookup = [&](std::string_view n, std::uint32_t kind) -> std::optional<type> {
      const auto id = btf__find_by_name_kind(b, std::string(n).c_str(), kind);
      return id > 0 ? resolve(static_cast<std::uint32_t>(id)) : std::nullopt;
    };
    if (name.rfind("struct ", 0) == 0) return lookup(name.substr(7), BTF_KIND_STRUCT);
    if (name.rfind("union ", 0) == 0) return lookup(name.substr(6), BTF_KIND_UNION);
    if (name.rfind("enum ", 0) == 0) return lookup(name.substr(5), BTF_KIND_ENUM);
    if (auto t = lookup(name, BTF_KIND_TYPEDEF)) return t;
    return lookup(name, BTF_KIND_INT);
  }

  // The id of the kernel type `name` of BTF kind `kind`, or -errno.
  std::int32_t type_id(const char* name, std::uint32_t kind) {
    const btf* b = vmlinux();
    return b ? btf__find_by_name_kind(b, name, kind) : -ENOENT;
  }

  std::optional<type> resolve(std::uint32_t id) override {
    const btf* b = vmlinux();
    if (!b) return std::nullopt;
    std::string typedef_name;
    const btf_type* t = btf__type_by_id(b, id);
    while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
      if (btf_is_typedef(t) && typedef_name.empty())
        typedef_name = btf__name_by_offset(b, t->name_off);
      id = t->type;
      t = btf__type_by_id(b, id);
    }
    if (!t) return std::nullopt;
    if (btf_is_fwd(t)) {  // the definition, where the kernel has one
      const auto defined = btf__find_by_name_kind(b, btf__name_by_offset(b, t->name_off),
                                                  btf_kflag(t) ? BTF_KIND_UNION : BTF_KIND_STRUCT);
      if (defined > 0) {
        id = static_cast<std::uint32_t>(defined);
        t = btf__type_by_id(b, id);
      }
    }
    auto out = convert(b, id, t);
    if (!typedef_name.empty()) out.name = typedef_name;
    return out;
  }

  std::optional<ir::member_info> member(std::uint32_t record, std::string_view name) override {
    const btf* b = vmlinux();
    const btf_type* t = b ? btf__type_by_id(b, record) : nullptr;
    if (!t || !btf_is_composite(t)) return std::nullopt;
    const auto* m = btf_members(t);
    for (std::uint32_t i = 0; i < btf_vlen(t); ++i, ++m) {
      const std::string_view member_name = btf__name_by_offset(b, m->name_off);
      const auto at = btf_member_bit_offset(t, i);
      if (member_name.empty()) {  // an anonymous struct or union: its members are the parent's
        const auto inner = resolve(m->type);
        if (!inner || inner->kind != type::category::record) continue;
        if (auto found = member(inner->id, name)) {
          found->bit_offset += at;
          return found;
        }
        continue;
      }
      if (member_name != name) continue;
      auto t_member = resolve(m->type);
      if (!t_member) return std::nullopt;
      return ir::member_info{std::move(*t_member), at, btf_member_bitfield_size(t, i)};
    }
    return std::nullopt;
  }

  std::vector<std::pair<std::string, ir::member_info>> members(std::uint32_t record) override {
    const btf* b = vmlinux();
    const btf_type* t = b ? btf__type_by_id(b, record) : nullptr;
    std::vector<std::pair<std::string, ir::member_info>> out;
    if (!t || !btf_is_composite(t)) return out;
    const auto* m = btf_members(t);
    for (std::uint32_t i = 0; i < btf_vlen(t); ++i, ++m)
      if (auto t_member = resolve(m->type))
        out.push_back({btf__name_by_offset(b, m->name_off),
                       {std::move(*t_member), btf_member_bit_offset(t, i), btf_member_bitfield_size(t, i)}});
    return out;
  }

  std::optional<type> element(std::uint32_t array) override {
    const btf* b = vmlinux();
    const btf_type* t = b ? btf__type_by_id(b, array) : nullptr;
    if (!t || !btf_is_array(t)) return std::nullopt;
    return resolve(btf_array(t)->type);
  }

  // System call entries and tracepoints declare their arguments in their tracefs format files;
  // the stable providers' are in kernel/providers.cpp's table.
  std::vector<ir::probe_argument> probe_arguments(const ir::probe& description) override {
    const auto& p = description.provider;
    if (p != "syscall" && p != "tracepoint" && p != "sched" && p != "proc" && p != "io") return {};
    std::vector<target> probes;
    try {
      probes = matched(description);
    } catch (const error&) {
      return {};  // tracefs unreadable: running the program says why
    }
    std::vector<ir::probe_argument> common;
    bool first = true;
    for (const auto& t : probes) {
      if (t.type != target::kind::syscall_entry && t.type != target::kind::tracepoint) continue;
      std::vector<ir::probe_argument> own;
      for (const auto& f : t.args) own.push_back({f.name, f.type_name, f.offset, f.size, f.is_signed, f.translated, f.computed});
      if (first) {
        common = std::move(own);
        first = false;
        continue;
      }
      std::size_t same = 0;
      while (same < common.size() && same < own.size() && ir::same_argument(common[same], own[same])) ++same;
      common.resize(same);
    }
    return common;
  }

  void compile_begins() override {
    const std::lock_guard lock(events_mutex_);
    events_ = {};
  }

  std::optional<std::string> unavailable(const ir::probe& description) override {
    auto why = unavailable_reason(description);
    try {
      if (why && !matched(description).empty()) return std::nullopt;
    } catch (const error&) {
      return std::nullopt;  // tracefs unreadable: running the program says why
    }
    return why;
  }

 private:
  // The probes a description matches, bare event names looked up in this compile's one event list.
  std::vector<target> matched(const ir::probe& description) {
    const std::lock_guard lock(events_mutex_);
    return match_probes(description, events_);
  }

  // Parsed once, on the first lookup; the BTF is never changed after.
  const btf* vmlinux() {
    std::call_once(loaded_, [this] {
      btf_ = mapped_vmlinux();
      if (!btf_) btf_ = btf__load_vmlinux_btf();  // older kernels: no mmap, or BTF elsewhere
    });
    return btf_;
  }

  // /sys/kernel/btf/vmlinux through mmap (Linux 6.16 and later), which spares reading its 5 MB
  // through sysfs a page at a time: half of the start-up cost of a program naming kernel types.
  static btf* mapped_vmlinux() {
    const int fd = ::open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return nullptr;
    struct stat st {};
    void* data =
        ::fstat(fd, &st) == 0 && st.st_size > 0
            ? ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0)
            : MAP_FAILED;
    ::close(fd);
    if (data == MAP_FAILED) return nullptr;
    btf* parsed = btf__new(data, static_cast<__u32>(st.st_size));  // a copy: the mapping can go
    ::munmap(data, static_cast<std::size_t>(st.st_size));
    return parsed && !libbpf_get_error(parsed) ? parsed : nullptr;
  }

  // C's name of a type, for messages: "struct task_struct", "char [16]", "pid_t *".
  static std::string name_of(const btf* b, std::uint32_t id) {
    const btf_type* t = btf__type_by_id(b, id);
    if (!t || id == 0) return "void";
    const std::string own = btf__name_by_offset(b, t->name_off);
    switch (btf_kind(t)) {
      case BTF_KIND_STRUCT:
        return "struct " + own;
      case BTF_KIND_UNION:
        return "union " + own;
      case BTF_KIND_ENUM:
      case BTF_KIND_ENUM64:
        return "enum " + own;
      case BTF_KIND_FWD:
        return (btf_kflag(t) ? "union " : "struct ") + own;
      case BTF_KIND_PTR:
        return name_of(b, t->type) + " *";
      case BTF_KIND_ARRAY:
        return name_of(b, btf_array(t)->type) + " [" + std::to_string(btf_array(t)->nelems) + "]";
      case BTF_KIND_CONST:
      case BTF_KIND_VOLATILE:
      case BTF_KIND_RESTRICT:
      case BTF_KIND_TYPE_TAG:
        return name_of(b, t->type);
      case BTF_KIND_FUNC_PROTO:
        return "function";
      default:
        return own;
    }
  }

  static type convert(const btf* b, std::uint32_t id, const btf_type* t) {
    type out;
    out.name = name_of(b, id);
    if (id == 0) return out;  // void
    switch (btf_kind(t)) {
      case BTF_KIND_INT:
        out.kind = type::category::integer;
        out.size = t->size;
        out.is_signed = (btf_int_encoding(t) & BTF_INT_SIGNED) != 0;
        break;
      case BTF_KIND_ENUM:
      case BTF_KIND_ENUM64:
        out.kind = type::category::integer;
        out.size = t->size;
        out.is_signed = btf_kflag(t);
        break;
      case BTF_KIND_PTR: {
        out.kind = type::category::integer;
        out.size = 8;
        // A pointer to void or to a function has nothing D can reach through it: a plain address.
        const btf_type* to = btf__type_by_id(b, btf__resolve_type(b, t->type));
        if (t->type != 0 && to && !btf_is_func_proto(to)) out.pointee = t->type;
        break;
      }
      case BTF_KIND_STRUCT:
      case BTF_KIND_UNION:
      case BTF_KIND_FWD:  // a struct without a definition: size 0, its members unknown
        out.kind = type::category::record;
        out.size = btf_is_fwd(t) ? 0 : t->size;
        out.id = id;
        break;
      case BTF_KIND_ARRAY: {
        const auto size = btf__resolve_size(b, id);
        out.kind = type::category::array;
        out.size = size > 0 ? static_cast<std::uint32_t>(size) : 0;
        out.id = id;
        break;
      }
      case BTF_KIND_FLOAT:  // float and double: bits D prints with %e %f %g (long double: void)
        if (t->size == 4 || t->size == 8) {
          out.kind = type::category::floating;
          out.size = t->size;
        }
        break;
      default:
        break;  // functions: nothing D reads (void)
    }
    return out;
  }

  std::once_flag loaded_;
  btf* btf_ = nullptr;
  std::mutex events_mutex_;  // compiles in several threads share the table
  event_subsystems events_;
};

}  // namespace

namespace {
btf_types& shared_types() {
  static btf_types table;
  return table;
}
}  // namespace

ir::type_table& kernel_types() { return shared_types(); }

std::int32_t kernel_type_id(const char* name, std::uint32_t kind) { return shared_types().type_id(name, kind); }

}  // namespace dtpp::kernel
