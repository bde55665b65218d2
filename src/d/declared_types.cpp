// The program's own types in front of the kernel's (declared_types.hpp).

#include "declared_types.hpp"

#include <algorithm>

namespace dtpp::d::detail {

const declared_types::entry* declared_types::ours(std::uint32_t id) const {
  if (id < first_id || id - first_id >= entries_.size()) return nullptr;
  return &entries_[id - first_id];
}

// Integers at their size; the program's records and arrays at their members' largest alignment;
// the kernel's (BTF records no alignment) at their size's, up to 8.
std::uint32_t declared_types::align_of(const ir::type& t) const {
  if (const auto* e = t.is_object() ? ours(t.id) : nullptr) return e->align;
  std::uint32_t align = 1;
  while (align < 8 && align * 2 <= t.size) align *= 2;
  return align;
}

ir::type declared_types::add_record(std::string name, bool is_union, const std::vector<record_member>& members) {
  entry e;
  std::uint32_t size = 0;
  std::uint32_t end_bits = 0;  // where the member before ends, in bits
  for (const auto& m : members) {
    const auto bytes = m.bits ? ir::bit_field_bytes(m.bits) : m.t.size;
    const auto align = m.bits ? bytes : align_of(m.t);
    e.align = std::max(e.align, align);
    const auto at = is_union ? 0 : ((end_bits + 7) / 8 + align - 1) / align * align;
    e.members.push_back({m.name, {m.t, at * 8, m.bits}});
    end_bits = at * 8 + (m.bits ? m.bits : bytes * 8);
    size = std::max(size, at + bytes);
  }
  const auto id = first_id + static_cast<std::uint32_t>(entries_.size());
  e.t = {ir::type::category::record, size, false, name, id, 0};
  entries_.push_back(e);
  if (name != "struct " && name != "union ") names_.insert_or_assign(std::move(name), e.t);  // a forward one's too
  return e.t;
}

ir::type declared_types::add_forward(std::string name) {
  entry e;
  e.t = {ir::type::category::record, 0, false, name, first_id + static_cast<std::uint32_t>(entries_.size()), 0};
  entries_.push_back(e);
  names_.emplace(std::move(name), e.t);
  return e.t;
}

ir::type declared_types::add_array(const ir::type& element, std::uint32_t count) {
  entry e;
  e.align = align_of(element);
  e.element = element;
  const auto id = first_id + static_cast<std::uint32_t>(entries_.size());
  // C's names: an array of arrays is "int [2][3]", its own dimension first.
  const auto inner = element.kind == ir::type::category::array ? element.name.find(" [") : std::string::npos;
  const auto dimension = " [" + std::to_string(count) + "]";
  auto name = inner == std::string::npos ? element.name + dimension
                                         : element.name.substr(0, inner) + dimension + element.name.substr(inner + 1);
  e.t = {ir::type::category::array, element.size * count, false, std::move(name), id, 0};
  entries_.push_back(e);
  return e.t;
}

std::optional<ir::type> declared_types::find(std::string_view name) {
  if (const auto it = names_.find(std::string(name)); it != names_.end()) return it->second;
  return kernel_ ? kernel_->find(name) : std::nullopt;
}

std::optional<ir::type> declared_types::resolve(std::uint32_t id) {
  if (const auto* e = ours(id)) return e->t;
  return kernel_ && id < first_id ? kernel_->resolve(id) : std::nullopt;
}

std::optional<ir::member_info> declared_types::member(std::uint32_t record, std::string_view name) {
  if (const auto* e = ours(record)) {
    for (const auto& [member_name, info] : e->members)
      if (member_name == name) return info;
    return std::nullopt;
  }
  return kernel_ && record < first_id ? kernel_->member(record, name) : std::nullopt;
}

std::optional<ir::type> declared_types::element(std::uint32_t array) {
  if (const auto* e = ours(array)) return e->element;
  return kernel_ && array < first_id ? kernel_->element(array) : std::nullopt;
}

std::vector<std::pair<std::string, ir::member_info>> declared_types::members(std::uint32_t record) {
  if (const auto* e = ours(record)) return e->members;
  return kernel_ && record < first_id ? kernel_->members(record) : decltype(members(0)){};
}

}  // namespace dtpp::d::detail
