// print()'s text: an object's members, one a line, as dtrace-utils lays them out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "dtpp/ir/printed_type.hpp"

namespace dtpp::print {

/// printsize's effect: how many of an object's bytes print() shows (dtrace-utils: 8192 unless
/// set to 1 .. 65536, rounded up to a multiple of 8).
std::size_t printed_size(std::int64_t printsize);

/// Appends what print() shows of the object at `address`, of type `t`, whose bytes the probe
/// recorded as `data`: the address, then each member that is not zero, at most `shown` bytes in:
///
///     0xffff9b7aca7e0000 = *
///                                                 (struct s) {
///                                                  .a = (int)1,
///                                                 }
void print_typed(std::string& out, std::uint64_t address, const ir::printed_type& t,
                 std::span<const std::byte> data, std::size_t shown);

}  // namespace dtpp::print
