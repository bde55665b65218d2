// The types a D program declares (struct, union, enum, typedef) in front of the kernel's: one
// type_table for the checker, whose ids from first_id up are the program's own, the others the
// kernel's (BTF), so that ->, ., *, stringof and sizeof work alike on both.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dtpp/ir/type_table.hpp"

namespace dtpp::d::detail {

class declared_types final : public ir::type_table {
 public:
  static constexpr std::uint32_t first_id = ir::first_declared_id;

  /// `kernel` may be null (no kernel types: the in-process engine); not owned.
  explicit declared_types(ir::type_table* kernel) : kernel_(kernel) {}

  /// Whether the program declared `name` ("struct s", "enum e", a typedef's name).
  bool declares(std::string_view name) const { return names_.count(std::string(name)) != 0; }
  /// A member of a struct or union to be: `bits` a bit-field's width, 0 for others.
  struct record_member {
    std::string name;
    ir::type t;
    std::uint32_t bits = 0;
  };
  /// A struct or union of these members, in order, laid out as DTrace's libctf lays out the
  /// types D declares: each member at the first byte past the one before that its alignment
  /// allows (a union's all at 0), a bit-field in an integer of the fewest bytes (1, 2, 4 or 8)
  /// that hold it, and the size where the last member ends, with no padding after it. An
  /// anonymous one (`name` "struct " or "union ") is known by its id only.
  ir::type add_record(std::string name, bool is_union, const std::vector<record_member>& members);
  /// A struct or union named before it is defined (`struct s *` of a cast or a translator's
  /// input): known by name, of no size until add_record defines it.
  ir::type add_forward(std::string name);
  /// An array of `count` elements.
  ir::type add_array(const ir::type& element, std::uint32_t count);
  /// An enum or typedef: a name for `t`.
  void add_name(std::string name, const ir::type& t) { names_.emplace(std::move(name), t); }

  std::optional<ir::type> find(std::string_view name) override;
  std::optional<ir::type> resolve(std::uint32_t id) override;
  std::optional<ir::member_info> member(std::uint32_t record, std::string_view name) override;
  std::optional<ir::type> element(std::uint32_t array) override;
  std::vector<std::pair<std::string, ir::member_info>> members(std::uint32_t record) override;

 private:
  struct entry {
    ir::type t;
    ir::type element;  // an array's
    std::vector<std::pair<std::string, ir::member_info>> members;  // a record's
    std::uint32_t align = 1;
  };
  const entry* ours(std::uint32_t id) const;
  std::uint32_t align_of(const ir::type& t) const;

  ir::type_table* kernel_;
  std::vector<entry> entries_;  // id first_id + i
  std::map<std::string, ir::type> names_;
};

}  // namespace dtpp::d::detail
