// ELF symbol tables and notes through libelf: the one file that uses it.

#include "dtpp/symbols/object.hpp"

#include <cxxabi.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <lzma.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>

namespace dtpp::symbols {
namespace {

// An open ELF file (or image in memory), closed with its descriptor.
class elf_file {
 public:
  explicit elf_file(const std::string& path) {
    if (elf_version(EV_CURRENT) == EV_NONE) return;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ >= 0) elf_ = elf_begin(fd_, ELF_C_READ_MMAP, nullptr);
    keep_elf_only();
  }
  /// An image in memory, which must outlive this.
  explicit elf_file(std::span<char> image) {
    if (elf_version(EV_CURRENT) == EV_NONE) return;
    elf_ = elf_memory(image.data(), image.size());
    keep_elf_only();
  }
  ~elf_file() {
    if (elf_) elf_end(elf_);
    if (fd_ >= 0) ::close(fd_);
  }
  elf_file(const elf_file&) = delete;
  elf_file& operator=(const elf_file&) = delete;
  Elf* get() const { return elf_; }

 private:
  void keep_elf_only() {
    if (elf_ && elf_kind(elf_) != ELF_K_ELF) {
      elf_end(elf_);
      elf_ = nullptr;
    }
  }

  int fd_ = -1;
  Elf* elf_ = nullptr;
};

std::string hex_bytes(const unsigned char* bytes, std::size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < size; ++i) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

// The NT_GNU_BUILD_ID note of any SHT_NOTE section.
std::string read_build_id(Elf* elf) {
  for (Elf_Scn* section = nullptr; (section = elf_nextscn(elf, section));) {
    GElf_Shdr header;
    if (!gelf_getshdr(section, &header) || header.sh_type != SHT_NOTE) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (!data) continue;
    GElf_Nhdr note;
    std::size_t offset = 0, name_at = 0, desc_at = 0;
    while ((offset = gelf_getnote(data, offset, &note, &name_at, &desc_at)) > 0)
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(static_cast<const char*>(data->d_buf) + name_at, "GNU", 4) == 0)
        return hex_bytes(static_cast<const unsigned char*>(data->d_buf) + desc_at, note.n_descsz);
  }
  return {};
}

// The functions of one symbol table section.
void add_functions(Elf* elf, Elf_Scn* section, const GElf_Shdr& header, std::vector<function>& out) {
  Elf_Data* data = elf_getdata(section, nullptr);
  if (!data || header.sh_entsize == 0) return;
  const auto count = header.sh_size / header.sh_entsize;
  for (std::size_t i = 0; i < count; ++i) {
    GElf_Sym s;
    if (!gelf_getsym(data, static_cast<int>(i), &s)) break;
    const auto type = GELF_ST_TYPE(s.st_info);
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_value == 0 || s.st_shndx == SHN_UNDEF) continue;
    const char* name = elf_strptr(elf, header.sh_link, s.st_name);
    if (!name || !*name) continue;
    out.push_back({s.st_value, s.st_size, name, {}});
  }
}

// The functions of every section of type `wanted` (SHT_SYMTAB, SHT_DYNSYM).
void add_functions(Elf* elf, Elf64_Word wanted, std::vector<function>& out) {
  for (Elf_Scn* section = nullptr; (section = elf_nextscn(elf, section));) {
    GElf_Shdr header;
    if (gelf_getshdr(section, &header) && header.sh_type == wanted) add_functions(elf, section, header, out);
  }
}

// The section called `wanted`, if any.
Elf_Scn* section_named(Elf* elf, const char* wanted) {
  std::size_t names_index = 0;
  if (elf_getshdrstrndx(elf, &names_index) != 0) return nullptr;
  for (Elf_Scn* section = nullptr; (section = elf_nextscn(elf, section));) {
    GElf_Shdr header;
    const char* name = gelf_getshdr(section, &header) ? elf_strptr(elf, names_index, header.sh_name) : nullptr;
    if (name && std::strcmp(name, wanted) == 0) return section;
  }
  return nullptr;
}

// The bytes of an .xz stream; empty when they are not one (or are cut short).
std::string xz_decompressed(const void* data, std::size_t size) {
  lzma_stream stream = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&stream, UINT64_MAX, 0) != LZMA_OK) return {};
  std::string out(size * 4 + 4096, '\0');
  stream.next_in = static_cast<const std::uint8_t*>(data);
  stream.avail_in = size;
  lzma_ret result = LZMA_OK;
  while (result == LZMA_OK) {
    if (stream.total_out == out.size()) out.resize(out.size() * 2);
    stream.next_out = reinterpret_cast<std::uint8_t*>(out.data()) + stream.total_out;
    stream.avail_out = out.size() - stream.total_out;
    result = lzma_code(&stream, LZMA_FINISH);
  }
  out.resize(result == LZMA_STREAM_END ? stream.total_out : 0);
  lzma_end(&stream);
  return out;
}

// The functions of a stripped object's MiniDebugInfo: .gnu_debugdata holds an xz-compressed ELF
// image whose .symtab has the functions .dynsym leaves out (Fedora's and others' libraries).
void add_debugdata_functions(Elf* elf, std::vector<function>& out) {
  Elf_Scn* section = section_named(elf, ".gnu_debugdata");
  Elf_Data* data = section ? elf_getdata(section, nullptr) : nullptr;
  if (!data || !data->d_buf) return;
  auto image = xz_decompressed(data->d_buf, data->d_size);
  if (image.empty()) return;
  const elf_file inner{std::span<char>(image.data(), image.size())};
  if (inner.get()) add_functions(inner.get(), SHT_SYMTAB, out);
}

// The functions of the separate debug file of an object with this build-id, as distributions
// install them (ROOT/.build-id/xx/rest.debug, for each root), when one is there and has that
// build-id.
void add_debug_file_functions(const std::string& build_id, const std::vector<std::string>& debug_roots,
                              std::vector<function>& out) {
  if (build_id.size() < 3) return;
  for (const auto& root : debug_roots) {
    const elf_file debug(root + "/.build-id/" + build_id.substr(0, 2) + "/" + build_id.substr(2) + ".debug");
    if (!debug.get() || read_build_id(debug.get()) != build_id) continue;
    add_functions(debug.get(), SHT_SYMTAB, out);
    return;
  }
}

// The CRC-32 (IEEE 802.3, as zlib's crc32 and .gnu_debuglink use it) of the file at `path`;
// nothing when it cannot be read.
std::optional<std::uint32_t> crc32_of_file(const std::string& path) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int bit = 0; bit < 8; ++bit) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::uint32_t crc = 0xffffffffu;
  std::vector<unsigned char> buffer(1 << 16);
  ssize_t got = 0;
  while ((got = ::read(fd, buffer.data(), buffer.size())) > 0)
    for (ssize_t i = 0; i < got; ++i) crc = table[(crc ^ buffer[static_cast<std::size_t>(i)]) & 0xff] ^ (crc >> 8);
  ::close(fd);
  if (got < 0) return std::nullopt;
  return crc ^ 0xffffffffu;
}

// The functions of the separate debug file that .gnu_debuglink names (a file name, NUL-padded to
// four bytes, then the debug file's CRC-32), looked for where GDB looks: beside the object, in
// its directory's .debug/, and under each root with the object's directory (ROOT/usr/lib/x.debug
// for /usr/lib/x.so). A file whose CRC-32 differs is another build's, and passed over.
void add_debuglink_functions(Elf* elf, const std::string& path, const std::vector<std::string>& debug_roots,
                             std::vector<function>& out) {
  Elf_Scn* section = section_named(elf, ".gnu_debuglink");
  Elf_Data* data = section ? elf_getdata(section, nullptr) : nullptr;
  if (!data || !data->d_buf || data->d_size < 8) return;
  const auto* bytes = static_cast<const char*>(data->d_buf);
  const auto name_end = std::find(bytes, bytes + data->d_size, '\0');
  const std::string name(bytes, name_end);
  const auto crc_at = (static_cast<std::size_t>(name_end - bytes) + 4) & ~std::size_t{3};
  if (name.empty() || name.find('/') != std::string::npos || crc_at + 4 > data->d_size) return;
  std::uint32_t crc = 0;
  std::memcpy(&crc, bytes + crc_at, 4);
  const auto dir = path.substr(0, path.rfind('/') + 1);  // with its '/'
  std::vector<std::string> places{dir + name, dir + ".debug/" + name};
  for (const auto& root : debug_roots) places.push_back(root + dir + name);
  for (const auto& place : places) {
    if (place == path || crc32_of_file(place) != crc) continue;
    const elf_file debug(place);
    if (!debug.get()) continue;
    add_functions(debug.get(), SHT_SYMTAB, out);
    return;
  }
}

// The USDT notes (type 3, owner "stapsdt") of .note.stapsdt: the site's address, the address of
// .stapsdt.base when the note was written and the semaphore's, then provider, name and argument
// strings. A prelinked object moved .stapsdt.base: the sites move with it.
std::vector<usdt_site> read_usdt_sites(Elf* elf) {
  std::vector<usdt_site> out;
  Elf_Scn* notes = section_named(elf, ".note.stapsdt");
  GElf_Shdr header;
  if (notes && (!gelf_getshdr(notes, &header) || header.sh_type != SHT_NOTE)) notes = nullptr;
  Elf_Scn* base_section = section_named(elf, ".stapsdt.base");
  const bool has_base = base_section && gelf_getshdr(base_section, &header);
  const std::uint64_t base = has_base ? header.sh_addr : 0;
  Elf_Data* data = notes ? elf_getdata(notes, nullptr) : nullptr;
  if (!data) return out;
  GElf_Nhdr note;
  std::size_t offset = 0, name_at = 0, desc_at = 0;
  while ((offset = gelf_getnote(data, offset, &note, &name_at, &desc_at)) > 0) {
    const auto* desc = static_cast<const char*>(data->d_buf) + desc_at;
    if (note.n_type != 3 || note.n_namesz != 8 ||
        std::memcmp(static_cast<const char*>(data->d_buf) + name_at, "stapsdt", 8) != 0 || note.n_descsz < 27)
      continue;
    std::uint64_t words[3];
    std::memcpy(words, desc, sizeof words);
    // Three strings follow the words, each ending inside the note.
    std::string strings[3];
    std::size_t at = sizeof words;
    bool whole = true;
    for (auto& text : strings) {
      const auto end = std::find(desc + at, desc + note.n_descsz, '\0');
      if (end == desc + note.n_descsz) whole = false;
      if (!whole) break;
      text.assign(desc + at, end);
      at = static_cast<std::size_t>(end - desc) + 1;
    }
    if (!whole) continue;
    const auto moved = has_base ? base - words[1] : 0;  // wraps as the addresses do
    out.push_back({strings[0], strings[1], words[0] + moved, words[2] ? words[2] + moved : 0, strings[2]});
  }
  return out;
}

}  // namespace

std::string demangle(std::string_view mangled) {
  if (!mangled.starts_with("_Z")) return std::string(mangled);
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(std::string(mangled).c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && text ? std::string(text.get()) : std::string(mangled);
}

std::string object::build_id_of(const std::string& path) {
  const elf_file file(path);
  return file.get() ? read_build_id(file.get()) : std::string();
}

std::vector<usdt_site> object::usdt_sites_of(const std::string& path) {
  const elf_file file(path);
  return file.get() ? read_usdt_sites(file.get()) : std::vector<usdt_site>{};
}

object object::read(const std::string& path, const std::vector<std::string>& debug_roots) {
  object o;
  const elf_file file(path);
  Elf* elf = file.get();
  if (!elf) return o;
  o.readable_ = true;
  o.build_id_ = read_build_id(elf);
  std::size_t headers = 0;
  if (elf_getphdrnum(elf, &headers) == 0)
    for (std::size_t i = 0; i < headers; ++i) {
      GElf_Phdr ph;
      if (gelf_getphdr(elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD)
        o.segments_.push_back({ph.p_offset, ph.p_filesz, ph.p_vaddr});
    }
  // .dynsym first: where two tables name an address, the stable sort and unique below keep the
  // exported name (exit, not glibc's internal alias __GI_exit). A stripped object (no .symtab)
  // takes its other functions from its debug file, else its MiniDebugInfo.
  std::vector<function> found;
  add_functions(elf, SHT_DYNSYM, found);
  const auto exported = found.size();
  add_functions(elf, SHT_SYMTAB, found);
  if (found.size() == exported) add_debug_file_functions(o.build_id_, debug_roots, found);
  if (found.size() == exported) add_debuglink_functions(elf, path, debug_roots, found);
  if (found.size() == exported) add_debugdata_functions(elf, found);
  std::stable_sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end(),
                          [](const function& a, const function& b) { return a.address == b.address; }),
              found.end());
  for (auto& f : found) f.name = demangle(f.mangled);
  o.functions_ = std::move(found);
  o.usdt_sites_ = read_usdt_sites(elf);
  return o;
}

const function* object::function_at(std::uint64_t address) const { return entry_holding(functions_, address); }

std::optional<std::uint64_t> object::address_of(std::uint64_t file_offset) const {
  for (const auto& s : segments_)
    if (file_offset >= s.offset && file_offset < s.offset + s.size) return file_offset - s.offset + s.address;
  return std::nullopt;
}

std::optional<std::uint64_t> object::file_offset_of(std::uint64_t address) const {
  for (const auto& s : segments_)
    if (address >= s.address && address < s.address + s.size) return address - s.address + s.offset;
  return std::nullopt;
}

}  // namespace dtpp::symbols
