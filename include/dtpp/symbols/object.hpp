// One ELF object's functions, as its .symtab and .dynsym name them, and where its loaded segments
// lie: what names a user stack's frames and places a pid probe. Read through libelf, once per
// object (see symbols/cache.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtpp::symbols {

/// A function symbol: its address in the object's own virtual addresses (before any load bias),
/// its size (0 when the symbol gives none), its name as the object spells it and demangled.
struct function {
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  std::string mangled;
  std::string name;  ///< demangled; the mangled name when it is not a C++ name
  friend bool operator<(const function& a, const function& b) { return a.address < b.address; }
};

/// The entry of a table sorted by address that holds `address`: the last one at or below it,
/// when `address` is within its size (or its size is 0, unknown: up to the next entry). Any
/// entry type with `address` and `size` (kernel symbols have no size).
template <typename Entry>
const Entry* entry_holding(const std::vector<Entry>& table, std::uint64_t address) {
  auto it = std::upper_bound(table.begin(), table.end(), address,
                             [](std::uint64_t a, const Entry& e) { return a < e.address; });
  if (it == table.begin()) return nullptr;
  --it;
  if (it->size != 0 && address >= it->address + it->size) return nullptr;
  return &*it;
}

/// A USDT probe site of the object's .note.stapsdt (<sys/sdt.h>, DTPP_PROBE): where it is (the
/// object's own addresses, corrected for prelinking), its semaphore (0: none) and its argument
/// operands as the note spells them ("-4@%edi 8@-16(%rbp) 4@$3").
struct usdt_site {
  std::string provider;
  std::string name;
  std::uint64_t address = 0;
  std::uint64_t semaphore = 0;
  std::string arguments;
};

/// A C++ name demangled ("_ZN2ns5Shape4areaEv" -> "ns::Shape::area()"); any other name as given.
std::string demangle(std::string_view mangled);

/// The functions and loaded segments of one ELF file. Defined in src/symbols/object.cpp, the one
/// file that uses libelf.
class object {
 public:
  /// Reads `path`; an object that cannot be read or is not ELF has no functions and no segments
  /// (`readable()` false), so that a frame inside it is named by its address. A stripped object
  /// (no .symtab) takes its functions from its separate debug file, found by build-id under each
  /// of `debug_roots` (ROOT/.build-id/xx/rest.debug), or else by the name and CRC-32 its
  /// .gnu_debuglink gives (beside it, in DIR/.debug/, or ROOT/DIR/ for its directory DIR), or
  /// else from its MiniDebugInfo (.gnu_debugdata, xz-compressed); .dynsym's are added in every case.
  static object read(const std::string& path, const std::vector<std::string>& debug_roots = {"/usr/lib/debug"});
  /// Only the GNU build-id of the file at `path` (hex; empty when it has none or is unreadable):
  /// cheap, reads the notes alone.
  static std::string build_id_of(const std::string& path);

  /// Only the USDT sites of the file at `path` (none when it has none or is unreadable): cheap,
  /// reads the section headers and the notes alone.
  static std::vector<usdt_site> usdt_sites_of(const std::string& path);

  bool readable() const { return readable_; }
  /// The GNU build-id's bytes in hex; empty when the object has none.
  const std::string& build_id() const { return build_id_; }
  /// Every function, sorted by address, one per address (.dynsym's name wins over the others).
  const std::vector<function>& functions() const { return functions_; }
  /// Every USDT site, in note order.
  const std::vector<usdt_site>& usdt_sites() const { return usdt_sites_; }

  /// The function holding `address`: the last one at or below it, when `address` is within its
  /// size (or the size is unknown).
  const function* function_at(std::uint64_t address) const;
  /// A file offset (from /proc/PID/maps) as the object's own address; nothing outside its
  /// loaded segments.
  std::optional<std::uint64_t> address_of(std::uint64_t file_offset) const;
  /// The file offset of an address in a loaded segment, which is where a uprobe is placed.
  std::optional<std::uint64_t> file_offset_of(std::uint64_t address) const;

 private:
  struct segment {
    std::uint64_t offset, size, address;
  };
  bool readable_ = false;
  std::string build_id_;
  std::vector<segment> segments_;
  std::vector<function> functions_;
  std::vector<usdt_site> usdt_sites_;
};

}  // namespace dtpp::symbols
