// print()'s walk over an object (print/typed.hpp). It follows dtrace-utils' dt_print_visit(): a
// member is shown only when its bytes are not all zero, a char array stops at its first NUL,
// and "..." ends the walk at the first member past the bytes shown or 10 levels down.

#include "dtpp/print/typed.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "dtpp/print/append.hpp"

namespace dtpp::print {

namespace {

using shape = ir::printed_type::shape;

constexpr int start_indent = 44;  // dtrace-utils' column for the object's first line

class typed_walk {
 public:
  typed_walk(std::string& out, std::span<const std::byte> data, std::size_t shown)
      : out_(out), data_(data), shown_(shown) {}

  // Shows `t` at `bit_offset`, then its members unless `descend` is false (an array's elements
  // are shown without theirs, as dtrace-utils does); false once "..." ended the walk.
  bool visit(const std::string& name, const ir::printed_type& t, std::uint64_t bit_offset, int depth,
             bool descend = true) {
    const auto byte = bit_offset / 8;
    if (byte >= shown_ || depth >= ir::printed_depth) {
      detail::append(out_, "%*s...\n", start_indent + depth, "");
      return false;
    }
    if (last_depth_ > depth) close(depth);
    if (depth > 0 && zero(byte, t.size)) return !descend || members(t, bit_offset, depth);
    kinds_[static_cast<std::size_t>(depth)] = t.kind;
    last_depth_ = depth;
    std::string value;
    switch (t.kind) {
      case shape::record:
        value = "(" + t.name + ") {";
        break;
      case shape::array:
        value = "(" + t.name + ") [" + (t.count == 0 ? "]," : "");
        break;
      case shape::integer:
        if (!integer_text(t, bit_offset, value)) return true;
        break;
      case shape::enumeration: {
        const auto v = static_cast<std::int32_t>(read(byte, 4));
        const auto named = std::find_if(t.enumerators.begin(), t.enumerators.end(),
                                        [&](const auto& e) { return e.first == v; });
        value = "(" + t.name + ")" + (named != t.enumerators.end() ? named->second : std::to_string(v)) + ",";
        break;
      }
      case shape::pointer:
        detail::append(value, "(%s)0x%llx,", t.name.c_str(), static_cast<unsigned long long>(read(byte, 8)));
        break;
      case shape::other:
        return true;
    }
    const bool named = depth > 0 && !name.empty();
    detail::append(out_, "%*s%s%s%s%s\n", start_indent + depth, "", named ? "." : "", named ? name.c_str() : "",
                   named ? " = " : "", value.c_str());
    if (t.kind == shape::array) return elements(t, bit_offset, depth);
    return !descend || members(t, bit_offset, depth);
  }

  // The closing braces of the records shown deeper than `depth`, where the walk comes back up.
  void close(int depth) {
    if (kinds_[static_cast<std::size_t>(depth)] != shape::record) return;
    if (depth == 0 && last_depth_ == 0) last_depth_ = 1;  // an empty top-level record still closes
    for (int i = last_depth_ - depth; i > 0; --i) {
      detail::append(out_, "%*s}%s\n", start_indent + depth + i - 1, "", depth > 0 || i > 1 ? "," : "");
      last_depth_ = depth;
    }
  }

 private:
  bool members(const ir::printed_type& t, std::uint64_t bit_offset, int depth) {
    if (t.kind != shape::record) return true;
    for (const auto& m : t.members)
      if (!visit(m.name, m.t, bit_offset + m.bit_offset, depth + 1)) return false;
    return true;
  }

  // An array's elements: none when all are zero (and then no "]," either, as dtrace-utils), a
  // char array's up to its first NUL. The elements' walk keeps its own depth, as dtrace-utils'.
  bool elements(const ir::printed_type& t, std::uint64_t bit_offset, int depth) {
    const auto byte = bit_offset / 8;
    if (zero(byte, t.size) || t.members.empty()) return true;
    const auto& element = t.members[0].t;
    const bool chars = element.kind == shape::integer && element.size == 1 &&
                       element.name.find("char") != std::string::npos;
    typed_walk inner = *this;
    for (std::uint32_t i = 0; i < t.count; ++i) {
      const auto at = byte + std::uint64_t{i} * element.size;
      if (chars && read(at, 1) == 0) break;
      if (!inner.visit("", element, at * 8, depth + 1, false)) return false;
    }
    if (t.count > 0) detail::append(out_, "%*s],\n", start_indent + depth, "");
    return true;
  }

  // An integer's "(type)value,"; false for a bit-field of value zero, which is not shown.
  bool integer_text(const ir::printed_type& t, std::uint64_t bit_offset, std::string& value) const {
    const auto byte = bit_offset / 8;
    const bool whole = t.bit_size == 0 || (bit_offset % 8 == 0 && t.bit_size == 8 * t.size);
    if (!whole) {
      const auto bits = (read(byte, 8) >> (bit_offset % 8)) & (t.bit_size >= 64 ? ~0ull : (1ull << t.bit_size) - 1);
      if (bits == 0) return false;
      detail::append(value, "(%s)%lld,", t.name.c_str(), static_cast<long long>(bits));
      return true;
    }
    const auto raw = read(byte, t.size);
    if (t.size >= 8 && !t.is_signed) {
      detail::append(value, "(%s)%llu,", t.name.c_str(), static_cast<unsigned long long>(raw));
      return true;
    }
    const auto shift = 64 - 8 * std::min<std::uint32_t>(t.size, 8);
    const auto v = t.is_signed ? static_cast<std::int64_t>(raw << shift) >> shift : static_cast<std::int64_t>(raw);
    if (t.name == "char")
      detail::append(value, "(%s)'%c',", t.name.c_str(), static_cast<char>(v));
    else
      detail::append(value, "(%s)%lld,", t.name.c_str(), static_cast<long long>(v));
    return true;
  }

  // Up to 8 bytes at `byte`, little-endian; bytes past the data read as zero.
  std::uint64_t read(std::uint64_t byte, std::uint32_t size) const {
    std::uint64_t v = 0;
    if (byte < data_.size())
      std::memcpy(&v, data_.data() + byte, std::min<std::uint64_t>({size, 8, data_.size() - byte}));
    return v;
  }

  bool zero(std::uint64_t byte, std::uint32_t size) const {
    if (byte >= data_.size()) return true;
    const auto* at = data_.data() + byte;
    const auto* end = at + std::min<std::uint64_t>(size, data_.size() - byte);
    return std::all_of(at, end, [](std::byte b) { return b == std::byte{0}; });
  }

  std::string& out_;
  std::span<const std::byte> data_;
  std::size_t shown_;
  int last_depth_ = 0;
  std::array<shape, ir::printed_depth> kinds_{};
};

}  // namespace

std::size_t printed_size(std::int64_t printsize) {
  constexpr std::int64_t fallback = 8192, largest = 65536;
  const auto v = printsize <= 0 || printsize > largest ? fallback : printsize;
  return static_cast<std::size_t>((v + 7) / 8 * 8);
}

void print_typed(std::string& out, std::uint64_t address, const ir::printed_type& t,
                 std::span<const std::byte> data, std::size_t shown) {
  detail::append(out, "%p = *\n", reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)));
  typed_walk walk(out, data, std::min(shown, data.size()));
  walk.visit("", t, 0, 0);
  walk.close(0);
}

}  // namespace dtpp::print
