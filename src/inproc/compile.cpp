// The in-process engine's compiler: a clause to closures, resolved once for one probe, so that a
// firing neither walks the expression tree nor compares operator names.

#include <execinfo.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <random>
#include <span>
#include <string>
#include <utility>

#include "dtpp/print/frames.hpp"
#include "state.hpp"

namespace dtpp::inproc::detail {

using ir::expr;
using kind_t = ir::expr::kind_t;

// Reads a C string of this process without faulting on a bad address.
inline std::optional<std::string> read_string(std::uint64_t address, std::size_t limit) {
  std::string out;
  char chunk[256];
  while (out.size() < limit) {
    const auto want = std::min(sizeof chunk, limit - out.size());
    iovec local{chunk, want};
    iovec remote{reinterpret_cast<void*>(address + out.size()), want};
    const auto got = ::process_vm_readv(::getpid(), &local, 1, &remote, 1, 0);
    if (got <= 0) return out.empty() ? std::nullopt : std::optional<std::string>(out);
    const auto* nul = static_cast<const char*>(std::memchr(chunk, '\0', static_cast<std::size_t>(got)));
    out.append(chunk, nul ? static_cast<std::size_t>(nul - chunk) : static_cast<std::size_t>(got));
    if (nul) break;
  }
  return out;
}

// `size` bytes of this process's memory at `address` into `out`, or the bad-address fault: a safe
// read, which an unmapped address does not crash.
inline void read_memory(void* out, std::int64_t address, std::size_t size) {
  iovec local{out, size};
  iovec remote{reinterpret_cast<void*>(address), size};
  if (::process_vm_readv(::getpid(), &local, 1, &remote, 1, 0) != static_cast<ssize_t>(size)) bad_address(address);
}

// `bytes` into this process's memory at `address` (copyout()), or the bad-address fault: a write
// to memory not mapped writable is refused, not a crash.
inline void write_memory(std::int64_t address, std::string_view bytes) {
  iovec local{const_cast<char*>(bytes.data()), bytes.size()};
  iovec remote{reinterpret_cast<void*>(address), bytes.size()};
  if (::process_vm_writev(::getpid(), &local, 1, &remote, 1, 0) != static_cast<ssize_t>(bytes.size()))
    bad_address(address);
}

// `N` bytes of this process's memory at `address` (what an in-process probe's pointer points to).
template <std::size_t N>
std::array<std::uint8_t, N> read_bytes(std::int64_t address) {
  std::array<std::uint8_t, N> out{};
  read_memory(out.data(), address, N);
  return out;
}

// print()'s object, tracemem()'s bytes: the first `size` (at most the record's) of this
// process's memory at `address`, into the record.
inline void put_object(std::vector<std::byte>& data, const ir::record& record, std::int64_t address,
                       std::uint64_t size = UINT64_MAX) {
  if (record.offset + record.size > data.size()) return;
  read_memory(data.data() + record.offset, address, std::min<std::uint64_t>(size, record.size));
}

// An integer or pointer of type `t` (a float's bits too) from its bytes, as D loads one, and back.
inline std::int64_t load_integer(const std::byte* bytes, const ir::type& t) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes, std::min<std::size_t>(t.size, 8));  // little-endian: low bytes first
  return ir::fit(static_cast<std::int64_t>(bits), t);
}
inline void store_integer(std::byte* bytes, std::int64_t v, const ir::type& t) {
  const auto bits = static_cast<std::uint64_t>(v);
  std::memcpy(bytes, &bits, std::min<std::size_t>(t.size, 8));
}

// An address `offset` bytes past `address`, in 64-bit unsigned arithmetic as D's.
inline std::int64_t past(std::int64_t address, std::int64_t offset) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(address) + static_cast<std::uint64_t>(offset));
}

// inet_ntoa(): an IPv4 address's four bytes, in memory (network) order, dotted.
inline std::string ipv4_text(const std::uint8_t* b) {
  char text[16];
  std::snprintf(text, sizeof text, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
  return text;
}

// link_ntop(): a hardware address's bytes, two lowercase hexadecimal digits each, between colons.
inline std::string link_text(const std::uint8_t* b, std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    char digits[4];
    std::snprintf(digits, sizeof digits, i == 0 ? "%02x" : ":%02x", b[i]);
    text += digits;
  }
  return text;
}

// inet_ntoa6() as dtrace-utils': eight hexadecimal words, the first of the longest runs of two or
// more zero words written "::". An IPv4 address inside (five zero words and 0xffff, six zero words
// and a nonzero one, or seven and a last word above 1) is dotted alone, or, when `strict`
// (inet_ntop), after "::ffff:" or "::".
inline std::string ipv6_text(const std::array<std::uint8_t, 16>& b, bool strict) {
  std::array<unsigned, 8> w{};
  for (std::size_t i = 0; i < 8; ++i) w[i] = static_cast<unsigned>(b[2 * i] << 8 | b[2 * i + 1]);
  std::size_t leading = 0;
  while (leading < 8 && w[leading] == 0) ++leading;
  const bool mapped = leading == 5 && w[5] == 0xffff;
  if (mapped || leading == 6 || (leading == 7 && w[7] > 1)) {
    const char* prefix = !strict ? "" : mapped ? "::ffff:" : "::";
    return prefix + ipv4_text(b.data() + 12);
  }
  std::size_t run_at = 8, run_length = 1;
  for (std::size_t i = 0; i < 8;) {
    std::size_t j = i;
    while (j < 8 && w[j] == 0) ++j;
    if (j - i > run_length) {
      run_at = i;
      run_length = j - i;
    }
    i = j == i ? i + 1 : j;
  }
  std::string text;
  for (std::size_t i = 0; i < 8; ++i) {
    if (i == run_at) {
      text += "::";
      i += run_length - 1;
      continue;
    }
    char word[8];
    std::snprintf(word, sizeof word, "%s%x", text.empty() || text.back() == ':' ? "" : ":", w[i]);
    text += word;
  }
  return text;
}

inline void put(std::vector<std::byte>& data, const ir::record& r, const value& v,
                const ir::type& t) {
  if (r.offset + r.size > data.size()) return;
  auto* at = data.data() + r.offset;
  if (t.is_string()) {
    if (v.is_null()) bad_address(0);
    std::memcpy(at, v.s.data(), std::min<std::size_t>(v.s.size(), r.size > 0 ? r.size - 1 : 0));
  } else if (t.is_stack()) {
    std::memcpy(at, v.s.data(), std::min<std::size_t>(v.s.size(), r.size));
  } else {
    const auto bits = static_cast<std::uint64_t>(v.i);
    std::memcpy(at, &bits, std::min<std::size_t>(r.size, 8));  // little-endian: low bytes first
  }
}

// A ustack() record of `size` bytes: this process's id, then the return addresses from the code
// that fired the probe outwards (the engine's own frames left out), ended by a zero when fewer
// than fit. Only the id when the probe fired on one of the engine's threads.
inline std::string user_stack(const void* caller, std::size_t size) {
  static_assert(sizeof(void*) == 8, "a record's frames are 8-byte words, as backtrace()'s are here");
  std::string bytes(size, '\0');
  const auto pid = static_cast<std::uint64_t>(::getpid());
  std::memcpy(bytes.data(), &pid, sizeof pid);
  if (!caller) return bytes;
  const std::size_t room = size / 8 - 1;
  std::vector<void*> pcs;
  // backtrace() starts here: room enough for the engine's frames, twice as much if they were not.
  for (std::size_t capacity = room + 64; capacity <= room + 4096; capacity *= 2) {
    pcs.resize(capacity);
    const int n = ::backtrace(pcs.data(), static_cast<int>(capacity));
    const auto end = pcs.begin() + n;
    const auto first = std::find(pcs.begin(), end, caller);
    if (first != end) {
      const auto count = std::min<std::size_t>(room, static_cast<std::size_t>(end - first));
      std::memcpy(bytes.data() + 8, &*first, 8 * count);
      return bytes;
    }
    if (static_cast<std::size_t>(n) < capacity) break;  // the whole stack, and the caller is not on it
  }
  return bytes;
}

// ---- operators and subroutines, each chosen once by name ---------------------------------------

inline std::int64_t divide(bool quotient, std::int64_t a, std::int64_t b, bool is_signed) {
  if (b == 0) throw fault_signal{fault_kind::divide_by_zero, 0};
  const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
  if (is_signed) {
    if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return quotient ? a : 0;
    return quotient ? a / b : a % b;
  }
  return static_cast<std::int64_t>(quotient ? ua / ub : ua % ub);
}

// An integer operator (add for `+` and `+=` ...): in 64 bits, signedness from the operation's
// type. Any other operator yields its right operand.
using arithmetic_fn = std::int64_t (*)(std::int64_t a, std::int64_t b, bool is_signed);
inline arithmetic_fn arithmetic_of(ir::op op) {
  using u = std::uint64_t;
  using i = std::int64_t;
  switch (op) {
    case ir::op::add: return [](i a, i b, bool) { return static_cast<i>(u(a) + u(b)); };
    case ir::op::subtract: return [](i a, i b, bool) { return static_cast<i>(u(a) - u(b)); };
    case ir::op::multiply: return [](i a, i b, bool) { return static_cast<i>(u(a) * u(b)); };
    case ir::op::divide: return [](i a, i b, bool s) { return divide(true, a, b, s); };
    case ir::op::modulo: return [](i a, i b, bool s) { return divide(false, a, b, s); };
    case ir::op::bit_and: return [](i a, i b, bool) { return a & b; };
    case ir::op::bit_or: return [](i a, i b, bool) { return a | b; };
    case ir::op::bit_xor: return [](i a, i b, bool) { return a ^ b; };
    case ir::op::shift_left: return [](i a, i b, bool) { return static_cast<i>(u(a) << (u(b) & 63)); };
    case ir::op::shift_right:
      return [](i a, i b, bool s) { return s ? a >> (u(b) & 63) : static_cast<i>(u(a) >> (u(b) & 63)); };
    case ir::op::equal:
    case ir::op::not_equal:
    case ir::op::less:
    case ir::op::less_equal:
    case ir::op::greater:
    case ir::op::greater_equal:
    case ir::op::logical_and:
    case ir::op::logical_or:
    case ir::op::logical_xor:
    case ir::op::negate:
    case ir::op::plus:
    case ir::op::logical_not:
    case ir::op::complement:
    case ir::op::assign:
    case ir::op::increment:
    case ir::op::decrement:
      break;
  }
  return [](i, i b, bool) { return b; };
}

// Calls make(comparison) with the function object a comparison operator names, or returns
// nullopt for an operator that compares nothing.
template <class Make>
std::optional<compiled_expr> with_comparison(ir::op op, Make make) {
  switch (op) {
    case ir::op::equal: return make(std::equal_to<>{});
    case ir::op::not_equal: return make(std::not_equal_to<>{});
    case ir::op::less: return make(std::less<>{});
    case ir::op::less_equal: return make(std::less_equal<>{});
    case ir::op::greater: return make(std::greater<>{});
    case ir::op::greater_equal: return make(std::greater_equal<>{});
    case ir::op::add:
    case ir::op::subtract:
    case ir::op::multiply:
    case ir::op::divide:
    case ir::op::modulo:
    case ir::op::bit_and:
    case ir::op::bit_or:
    case ir::op::bit_xor:
    case ir::op::shift_left:
    case ir::op::shift_right:
    case ir::op::logical_and:
    case ir::op::logical_or:
    case ir::op::logical_xor:
    case ir::op::negate:
    case ir::op::plus:
    case ir::op::logical_not:
    case ir::op::complement:
    case ir::op::assign:
    case ir::op::increment:
    case ir::op::decrement:
      break;
  }
  return std::nullopt;
}

// D's subroutines over their evaluated arguments (at most three); strsize, a string type's bytes
// (-x strsize and a NUL), bounds the strings they return.
using subroutine_fn = value (*)(std::span<const value> a, std::size_t strsize);
inline value clip(std::string s, std::size_t strsize) {
  if (s.size() >= strsize) s.resize(strsize - 1);
  return {0, std::move(s)};
}
// chill(): spins for the time asked; more than DTrace's chill_max (half a second) at once is an
// illegal operation, as a negative time is.
inline void chill(std::int64_t ns) {
  constexpr std::int64_t chill_max = 500'000'000;
  if (ns < 0 || ns > chill_max) throw fault_signal{fault_kind::illegal_operation, ns};
  const auto until = now(CLOCK_MONOTONIC) + static_cast<std::uint64_t>(ns);
  while (now(CLOCK_MONOTONIC) < until) {
  }
}

// basename() and dirname() as DTrace and POSIX have them: "" is ".", a path of slashes only is
// "/", and the slashes that end a path or separate its last component do not count.
inline std::string_view without_trailing_slashes(std::string_view s) {
  while (s.size() > 1 && s.back() == '/') s.remove_suffix(1);
  return s;
}
inline std::string path_basename(std::string_view path) {
  if (path.empty()) return ".";
  const auto s = without_trailing_slashes(path);
  const auto slash = s.rfind('/');
  return std::string(slash == std::string_view::npos || s.size() == 1 ? s : s.substr(slash + 1));
}
inline std::string path_dirname(std::string_view path) {
  const auto s = without_trailing_slashes(path);
  const auto slash = s.rfind('/');
  if (slash == std::string_view::npos) return ".";
  return std::string(without_trailing_slashes(s.substr(0, std::max<std::size_t>(slash, 1))));
}
// cleanpath(): the path with "//", "/./" and "/x/.." taken out, as DTrace's: a ".." past the root
// stays at the root, one past the start of a relative path is kept; "" stays "".
inline std::string path_clean(std::string_view path) {
  if (path.empty()) return {};
  const bool absolute = path.front() == '/';
  std::vector<std::string_view> parts;
  for (std::size_t at = 0; at <= path.size();) {
    auto end = std::min(path.find('/', at), path.size());
    const auto part = path.substr(at, end - at);
    at = end + 1;
    if (part.empty() || part == ".") continue;
    if (part == ".." && !parts.empty() && parts.back() != "..") parts.pop_back();
    else if (part != ".." || !absolute) parts.push_back(part);
  }
  std::string clean = absolute ? "/" : "";
  for (std::size_t i = 0; i < parts.size(); ++i) (clean += i ? "/" : "") += parts[i];
  return clean.empty() ? "." : clean;
}
// substr(s, index, [count]) as DTrace's: a negative index counts from the end, and the part of
// the asked range before the start of the string is cut off.
inline std::string substring(const std::string& s, std::int64_t index, std::optional<std::int64_t> count,
                             std::size_t strsize) {
  const auto len = static_cast<std::int64_t>(s.size());
  auto remaining = count.value_or(static_cast<std::int64_t>(strsize));
  if (index < 0) {
    index += len;
    if (index < 0 && index + remaining > 0) {
      remaining += index;
      index = 0;
    }
  }
  if (index >= len || index < 0) return {};
  if (remaining < 0) remaining += len - index;
  if (remaining <= 0) return {};
  return s.substr(static_cast<std::size_t>(index), static_cast<std::size_t>(remaining));
}
// index() and rindex() with a start, as DTrace's: index searches from start (0 if negative) and
// finds "" at the length when start is past the end; rindex searches back from start (the
// length if past it) and finds nothing before 0, but "" at 0.
inline std::int64_t string_index(const std::string& s, const std::string& sub, std::optional<std::int64_t> start) {
  const auto len = static_cast<std::int64_t>(s.size());
  const auto from = std::max<std::int64_t>(start.value_or(0), 0);
  if (start && from >= len) return sub.empty() ? len : -1;
  const auto at = s.find(sub, static_cast<std::size_t>(from));
  return at == std::string::npos ? -1 : static_cast<std::int64_t>(at);
}
inline std::int64_t string_rindex(const std::string& s, const std::string& sub, std::optional<std::int64_t> start) {
  if (start && *start < 0) return sub.empty() ? 0 : -1;
  const auto from = start ? static_cast<std::size_t>(*start) : std::string::npos;
  const auto at = s.rfind(sub, from);
  return at == std::string::npos ? -1 : static_cast<std::int64_t>(at);
}
// A base outside 2..36 for lltostr() and strtoll() is an illegal operation, as in DTrace.
inline int checked_base(std::span<const value> a) {
  const auto base = a.size() > 1 ? a[1].i : 10;
  if (base < 2 || base > 36) throw fault_signal{fault_kind::illegal_operation, base};
  return static_cast<int>(base);
}
// lltostr(value, [base]) as DTrace's: negative only in base 10 (other bases show the 64 bits),
// "0x" before base 16 digits and "0" before base 8 ones.
inline std::string integer_text(std::int64_t v, int base) {
  auto u = base == 10 && v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  std::string digits;
  for (const auto b = static_cast<unsigned>(base); u; u /= b) digits.insert(digits.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[u % b]);
  if (v == 0 && base == 16) digits = "0" + digits;
  if (base == 16) digits = "x" + digits;
  if (v == 0 || base == 8 || base == 16) digits = "0" + digits;
  if (v < 0 && base == 10) digits = "-" + digits;
  return digits;
}
// strtoll(s, [base]) as DTrace's: blanks and tabs, a sign, "0x" in base 16, then the digits of
// the base up to the first other character; no digits is 0, and overflow wraps.
inline std::int64_t string_to_integer(std::string_view s, int base) {
  std::size_t at = s.find_first_not_of(" \t");
  if (at == std::string_view::npos) return 0;
  const bool negative = s[at] == '-';
  if (s[at] == '-' || s[at] == '+') ++at;
  const auto digit = [&](std::size_t i) {
    if (i >= s.size()) return 99;
    const char c = s[i];
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 99;
  };
  if (base == 16 && digit(at) == 0 && at + 1 < s.size() && (s[at + 1] | 0x20) == 'x' && digit(at + 2) < 16) at += 2;
  std::uint64_t v = 0;
  for (; digit(at) < base; ++at) v = v * static_cast<unsigned>(base) + static_cast<unsigned>(digit(at));
  return static_cast<std::int64_t>(negative ? 0 - v : v);
}
inline std::string with_case(std::string s, bool upper) {
  for (auto& c : s)
    if ((upper ? c >= 'a' && c <= 'z' : c >= 'A' && c <= 'Z')) c = static_cast<char>(c ^ 0x20);
  return s;
}
// progenyof(pid): whether this process (which fires in-process probes) is pid or descends from
// it, by the parents /proc/PID/stat names up to init.
inline bool is_progeny_of(pid_t ancestor) {
  for (pid_t p = ::getpid(); p > 0;) {
    if (p == ancestor) return true;
    char path[32];
    std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(p));
    std::FILE* f = std::fopen(path, "r");
    if (!f) return false;
    char line[512] = {};
    const bool read = std::fgets(line, sizeof line, f) != nullptr;
    std::fclose(f);
    const char* after_name = read ? std::strrchr(line, ')') : nullptr;  // the name may hold blanks and ')'
    int parent = 0;
    if (!after_name || std::sscanf(after_name, ") %*c %d", &parent) != 1) return false;
    p = parent;
  }
  return false;
}
// strchr(), strrchr(), strstr(): the rest of s from where it found, or NULL.
inline value from(const std::string& s, std::size_t at) {
  return at == std::string::npos ? value::null() : value{0, s.substr(at)};
}
// strchr() and strrchr() of c: the rest of s from its first or last c; the NUL ending s is one.
inline value from_character(const std::string& s, std::int64_t c, bool first) {
  const auto byte = static_cast<char>(c);
  if (byte == '\0') return value{};
  return from(s, first ? s.find(byte) : s.rfind(byte));
}
inline subroutine_fn subroutine_of(ir::subroutine f) {
  using args = std::span<const value>;
  using size = std::size_t;
  using id = ir::subroutine;
  switch (f) {
    case id::strlen:
      return [](args a, size) { return value{static_cast<std::int64_t>(a[0].s.size()), {}}; };
    case id::strjoin:
      return [](args a, size n) { return clip(a[0].s + a[1].s, n); };
    case id::substr:
      return [](args a, size n) {
        return clip(substring(a[0].s, a[1].i, a.size() > 2 ? std::optional(a[2].i) : std::nullopt, n), n);
      };
    case id::strchr:
      return [](args a, size) { return from_character(a[0].s, a[1].i, true); };
    case id::strrchr:
      return [](args a, size) { return from_character(a[0].s, a[1].i, false); };
    case id::strstr:
      return [](args a, size) { return from(a[0].s, a[0].s.find(a[1].s)); };
    case id::index:
      return [](args a, size) {
        return value{string_index(a[0].s, a[1].s, a.size() > 2 ? std::optional(a[2].i) : std::nullopt), {}};
      };
    case id::rindex:
      return [](args a, size) {
        return value{string_rindex(a[0].s, a[1].s, a.size() > 2 ? std::optional(a[2].i) : std::nullopt), {}};
      };
    case id::lltostr:
      return [](args a, size n) { return clip(integer_text(a[0].i, checked_base(a)), n); };
    case id::strtoll:
      return [](args a, size) { return value{string_to_integer(a[0].s, checked_base(a)), {}}; };
    case id::toupper:
      return [](args a, size) { return value{0, with_case(a[0].s, true)}; };
    case id::tolower:
      return [](args a, size) { return value{0, with_case(a[0].s, false)}; };
    case id::cleanpath:
      return [](args a, size) { return value{0, path_clean(a[0].s)}; };
    case id::htons:
    case id::ntohs:
      return [](args a, size) { return value{static_cast<std::int64_t>(__builtin_bswap16(static_cast<std::uint16_t>(a[0].i))), {}}; };
    case id::htonl:
    case id::ntohl:
      return [](args a, size) { return value{static_cast<std::int64_t>(__builtin_bswap32(static_cast<std::uint32_t>(a[0].i))), {}}; };
    case id::htonll:
    case id::ntohll:
      return [](args a, size) { return value{static_cast<std::int64_t>(__builtin_bswap64(static_cast<std::uint64_t>(a[0].i))), {}}; };
    // Linux's dev_t in the kernel: the major number in bits 20-31, the minor in bits 0-19.
    case id::getmajor:
      return [](args a, size) { return value{static_cast<std::int64_t>((static_cast<std::uint64_t>(a[0].i) & 0xffffffff) >> 20), {}}; };
    case id::getminor:
      return [](args a, size) { return value{a[0].i & 0xfffff, {}}; };
    case id::basename:
      return [](args a, size) { return value{0, path_basename(a[0].s)}; };
    case id::dirname:
      return [](args a, size) { return value{0, path_dirname(a[0].s)}; };
    case id::copyinstr:
      return [](args a, size n) {
        const auto limit = a.size() > 1 ? static_cast<size>(a[1].i) : n - 1;
        auto s = read_string(static_cast<std::uint64_t>(a[0].i), std::min(limit, n - 1));
        if (!s) bad_address(a[0].i);
        return value{0, std::move(*s)};
      };
    case id::inet_ntoa:
      return [](args a, size n) { return clip(ipv4_text(read_bytes<4>(a[0].i).data()), n); };
    case id::inet_ntoa6:
      return [](args a, size n) { return clip(ipv6_text(read_bytes<16>(a[0].i), a.size() > 1 && a[1].i != 0), n); };
    // inet_ntop(af, addr) as dtrace-utils makes it: AF_INET6's strict inet_ntoa6(), else inet_ntoa().
    case id::inet_ntop:
      return [](args a, size n) {
        constexpr std::int64_t af_inet6 = 10;
        if (a[0].i == af_inet6) return clip(ipv6_text(read_bytes<16>(a[1].i), true), n);
        return clip(ipv4_text(read_bytes<4>(a[1].i).data()), n);
      };
    // link_ntop(type, addr): an Ethernet address's 6 bytes or an InfiniBand one's 20; any other
    // type is an illegal operation, as in dtrace-utils.
    case id::link_ntop:
      return [](args a, size n) {
        constexpr std::int64_t ethernet = 1, infiniband = 32;
        if (a[0].i == ethernet) return clip(link_text(read_bytes<6>(a[1].i).data(), 6), n);
        if (a[0].i == infiniband) return clip(link_text(read_bytes<20>(a[1].i).data(), 20), n);
        throw fault_signal{fault_kind::illegal_operation, a[0].i};
      };
    case id::rand:
      return [](args, size) {
        thread_local std::minstd_rand generator(static_cast<unsigned>(now(CLOCK_MONOTONIC)));
        return value{static_cast<std::int32_t>(generator()), {}};
      };
    case id::progenyof:
      return [](args a, size) { return value{is_progeny_of(static_cast<pid_t>(a[0].i)) ? 1 : 0, {}}; };
    // stack() and ustack() are taken by their type before, and an action used as a value never
    // passes the checker.
    case id::speculation:  // compiled with the engine's state (speculation_call, strtok_call)
    case id::strtok:
    case id::stack:
    case id::ustack:
    case id::sym:
    case id::func:
    case id::mod:
    case id::usym:
    case id::ufunc:
    case id::uaddr:
    case id::umod:
    case id::copyin:  // scratch_call, copy_call
    case id::alloca:
    case id::bcopy:
    case id::copyinto:
    case id::action:
      break;
  }
  return [](args, size) { return value{}; };
}

// A key record from a D value: strings as they are, integers cut to the key's size.
inline void set_record(agg::record& r, const agg::key_type& type, const value& v) {
  r.type = type;
  if (type.holds_bytes()) {
    r.string.assign(v.s);
    r.integer = 0;
    if (type.form != agg::symbol_form::none)
      print::canonical_symbol(type.form, type.kind == agg::key_type::category::ustack, r.string);
  } else {
    r.string.clear();
    r.integer = static_cast<std::uint64_t>(v.i) &
                (type.size >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * type.size)) - 1);
  }
}

// The key of an update whose keys change from firing to firing, in keys reused per thread, one
// per key count: no allocation once their strings have grown.
// A NULL string key faults at 0, as its bytes are read: at `pc`, the update's operation.
[[gnu::noinline]] const agg::dynamic_key& evaluated_key(runner& r,
                                                        const std::vector<compiled_expr>& keys,
                                                        const std::vector<agg::key_type>& types, std::uint32_t pc) {
  thread_local std::vector<agg::dynamic_key> scratch;
  if (scratch.size() <= keys.size()) scratch.resize(keys.size() + 1);
  auto& key = scratch[keys.size()];
  key.records.resize(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto v = keys[i](r);
    if (types[i].kind == agg::key_type::category::string && v.is_null())
      throw fault_signal{fault_kind::bad_address, 0, pc};
    set_record(key.records[i], types[i], v);
  }
  return key;
}

// The rows of fixed keys this thread updated lately, by compiled aggregate statement: such an
// update finds its row without a lookup. Statement ids are never reused, so an entry left by an
// engine since destroyed is never read.
struct cached_row {
  std::uint64_t step = 0;
  std::uint64_t* words = nullptr;
};
inline thread_local cached_row row_cache[64] = {};  // constant-initialized: no guard
inline std::uint64_t next_step() {
  static std::atomic<std::uint64_t> id{1};
  return id++;
}
// A row not in the cache (never used by this thread, or its entry taken by another step's):
// looked up or made, then cached; out of line, so that a firing's common path stays short.
// The update's key and hash are read there only. A key that found no room (aggsize) got the
// shard's spare row and counted a drop: that row is not cached, so that each later update of
// the key is tried again and counted as a drop again.
[[gnu::noinline]] std::uint64_t* cache_row(cached_row& cached, const compiled_update& u) {
  const auto drops = u.aggregation->drops();
  auto* words = u.aggregation->words(u.fixed_key, u.fixed_hash);
  if (u.aggregation->drops() == drops) cached = {u.step, words};
  return words;
}
inline std::uint64_t* fixed_row(agg::dynamic_aggregation& a, std::uint64_t step,
                                const compiled_update& u) {
  auto& cached = row_cache[step % std::size(row_cache)];
  if (cached.step != step) [[unlikely]]
    return cache_row(cached, u);
  return a.current(cached.words);
}

// The row of a key evaluated at this firing; out of line, so that a fixed key's path stays short.
[[gnu::noinline]] std::uint64_t* compiled_update::keyed_row(const agg::dynamic_key& key) const {
  return aggregation->words(key, agg::dynamic_aggregation::hash(key));
}
inline std::uint64_t* compiled_update::fixed_row() const {
  return detail::fixed_row(*aggregation, step, *this);
}
inline void compiled_update::add(std::uint64_t* row, std::int64_t x, std::int64_t by) const {
  std::visit([&](const auto& policy) { policy.add(row, x, by); }, fn);
}
// The keys first, then the value and the increment, as D evaluates them; the row only once all
// are known, so that a fault in one leaves no new key behind.
inline void compiled_update::run(runner& r) const {
  const auto* key = keys.empty() ? nullptr : &evaluated_key(r, keys, types, pc);
  const std::int64_t x = value(r);
  const std::int64_t by = incr(r);
  add(key ? keyed_row(*key) : fixed_row(), x, by);
}
// Flattened: the updates, their operands and the policies' adds inline here, with calls left
// only to closures and to the out-of-line paths (a key evaluated per firing, a new row).
[[gnu::flatten]] void run_updates(runner& r, const std::vector<compiled_update>& updates) {
  for (const auto& u : updates) u.run(r);
}

// A direct update for one policy and its operands' sources, so that a constant operand is not
// even tested at a firing. The operands the policy ignores (count()'s value, the increment
// outside the quantize family) are not read at all.
template <class Policy, bool ValueIsArgument, bool IncrIsArgument>
void apply_direct(const direct_update& d, std::span<const std::int64_t> args) {
  constexpr auto kind = Policy::kind;
  const std::int64_t x =
      kind == agg::kind::count ? 0 : integer_operand::read(ValueIsArgument, d.value, args);
  const std::int64_t by =
      agg::is_histogram(kind) ? integer_operand::read(IncrIsArgument, d.incr, args) : 1;
  std::uint64_t* row = fixed_row(*d.aggregation, d.step, *d.update);
  static_cast<const Policy*>(d.policy)->add(row, x, by);
}
template <class Policy>
direct_update::apply_fn apply_for(bool value_is_argument, bool incr_is_argument) {
  if (value_is_argument)
    return incr_is_argument ? &apply_direct<Policy, true, true> : &apply_direct<Policy, true, false>;
  return incr_is_argument ? &apply_direct<Policy, false, true> : &apply_direct<Policy, false, false>;
}

direct_update direct_update::of(const compiled_update& u) {
  using source = integer_operand::source;
  direct_update d{.aggregation = u.aggregation, .step = u.step, .update = &u,
                  .value = u.value.n, .incr = u.incr.n};
  std::visit(
      [&](const auto& policy) {
        d.apply = apply_for<std::decay_t<decltype(policy)>>(u.value.from == source::argument,
                                                             u.incr.from == source::argument);
        d.policy = &policy;
      },
      u.fn);
  return d;
}

// ---- the compiler -----------------------------------------------------------------------------

// An operation that may fault, made to name itself in the fault (fault_signal::pc) unless an
// operation inside it did already. Zero cost until a fault is thrown.
template <class Operation>
auto naming_pc(std::uint32_t pc, Operation operation) {
  return [pc, operation = std::move(operation)](runner& r) {
    try {
      return operation(r);
    } catch (fault_signal& f) {
      if (f.pc == 0) f.pc = pc;
      throw;
    }
  };
}

// Compiles the clauses of one probe. The closures hold what they need by value, or point into the
// engine's state (the program, the aggregations), which outlives them.
class compiler {
 public:
  compiler(engine::state& st, const bound_probe& probe) : st_(st), probe_(probe) {}

  compiled_clause clause(const ir::clause& c, std::uint32_t statement_id) {
    compiled_clause out;
    out.clause = &c;
    out.statement = statement_id;
    clause_id_ = c.id;
    pc_ = 0;
    out.needs_lock = needs_lock(c);
    out.uses_scratch = ir::uses_scratch(c);
    if (c.predicate) out.predicate = truth(*c.predicate);
    const bool updates_only =
        !c.default_action && !c.statements.empty() &&
        std::all_of(c.statements.begin(), c.statements.end(),
                    [](const ir::statement& s) { return s.kind == ir::action::aggregate; });
    const auto overflow = ir::speculative_overflow(c, st_.options.specsize);
    for (std::size_t i = 0; i < c.statements.size() && i <= overflow; ++i) {
      if (updates_only) out.updates.push_back(aggregate(c.statements[i]));
      else if (i == overflow) out.statements.push_back(without_room(statement(c.statements[i])));
      else out.statements.push_back(statement(c.statements[i]));
    }
    return out;
  }

 private:
  // Whether a clause touches state shared across threads.
  bool needs_lock(const ir::clause& c) const {
    bool shared = c.default_action;
    const auto visit = [&](const auto& self, const expr& e) -> void {
      if (e.kind == kind_t::variable && st_.program.variables[e.index].where != ir::scope::clause)
        shared = true;
      if (e.kind == kind_t::call && (e.function == ir::subroutine::speculation || e.function == ir::subroutine::strtok))
        shared = true;
      for (const auto& k : e.kids) self(self, k);
    };
    if (c.predicate) visit(visit, *c.predicate);
    for (const auto& s : c.statements) {
      if (!s.records.empty() || s.kind == ir::action::speculate) shared = true;
      for (const auto& e : s.args) visit(visit, e);
      for (const auto& e : s.keys) visit(visit, e);
    }
    return shared;
  }

  // The statement of a speculating clause whose record passes specsize: a speculative drop, and
  // the clause ends there (it is past speculate(), else it ended at it).
  static compiled_step without_room(compiled_step step) {
    return [step = std::move(step)](runner& r) -> bool {
      (void)step(r);
      r.st.speculative_drops.fetch_add(1, std::memory_order_relaxed);
      throw clause_abandoned{};
    };
  }

  compiled_step statement(const ir::statement& s) {
    const auto pc = ++pc_;
    switch (s.kind) {
      case ir::action::expression:
        return [x = compile(s.args[0])](runner& r) {
          (void)x(r);
          return false;
        };
      case ir::action::aggregate:
        return [update = aggregate(s)](runner& r) {
          update.run(r);
          return false;
        };
      case ir::action::printa:
      case ir::action::clear:
      case ir::action::denormalize:
        return [&s](runner& r) {
          for (std::size_t i = 0; i < s.records.size(); ++i) {
            const auto id = s.kind == ir::action::printa ? s.aggregations[i] : s.aggregation;
            put(r.record, s.records[i], {id, {}}, s.records[i].t);
          }
          return true;
        };
      case ir::action::trunc:
      case ir::action::normalize: {
        compiled_expr n = s.records.size() > 1 ? compile(s.args[0]) : compiled_expr();
        return [&s, n](runner& r) {
          put(r.record, s.records[0], {s.aggregation, {}}, s.records[0].t);
          if (n) put(r.record, s.records[1], n(r), s.records[1].t);
          return true;
        };
      }
      case ir::action::exit:
        return [&s, status = compile(s.args[0])](runner& r) {
          const auto v = status(r);
          put(r.record, s.records[0], v, s.records[0].t);
          r.st.status.store(static_cast<int>(v.i), std::memory_order_relaxed);
          r.st.exited.store(true, std::memory_order_release);
          return true;
        };
      case ir::action::setopt:
      case ir::action::ftruncate:
        return [](runner&) { return true; };  // a record, for the consumer to carry out
      case ir::action::speculate:
        // The rest of the clause goes to the buffer; to none that is not in use (0, an id past
        // nspec, a discarded one), which drops it without a fault, as in DTrace.
        return [id = compile(s.args[0])](runner& r) {
          const auto n = id(r).i;
          if (n <= 0 || static_cast<std::uint64_t>(n) > r.st.speculations.size() || !r.st.speculations[n - 1])
            throw clause_abandoned{};
          r.speculation = static_cast<std::uint32_t>(n);
          return true;  // the firing goes to the buffer even with no data: a probe line, committed
        };
      case ir::action::commit:
      case ir::action::discard:
        // The buffer is free again at once: the consumer meets this record before any later
        // use of the same id, and acts on the records it kept for it first.
        return naming_pc(pc, [&s, id = compile(s.args[0])](runner& r) {
          const auto v = id(r);
          if (const auto n = speculation_index(r, v.i); n != 0) r.st.speculations[n - 1] = false;
          put(r.record, s.records[0], v, s.records[0].t);
          return true;
        });
      case ir::action::raise:
        return [sig = compile(s.args[0])](runner& r) {
          ::syscall(SYS_tgkill, ::getpid(), ::gettid(), static_cast<int>(sig(r).i));
          return false;
        };
      case ir::action::stop:
        return [](runner&) {
          ::kill(::getpid(), SIGSTOP);
          return false;
        };
      case ir::action::chill:
        return naming_pc(pc, [ns = compile(s.args[0])](runner& r) {
          chill(ns(r).i);
          return false;
        });
      case ir::action::breakpoint:
      case ir::action::panic:
        throw engine_error(ir::refusal(s.kind), s.where);
      case ir::action::print:
        return naming_pc(pc, [&s, address = compile(s.args[0])](runner& r) {
          const auto at = address(r).i;
          put(r.record, s.records[0], value{at, {}}, s.records[0].t);
          put_object(r.record, s.records[1], at);
          return true;
        });
      case ir::action::copyout:
      case ir::action::copyoutstr:
        return naming_pc(pc, copy_out(s));
      case ir::action::tracemem: {
        // Only the bytes shown are read, as dtrace-utils reads them: a shorter run may end
        // where memory does.
        const auto shown = s.args.size() > 2 ? compile(s.args[2]) : compiled_expr{};
        return naming_pc(pc, [&s, address = compile(s.args[0]), shown](runner& r) {
          const auto at = address(r).i;
          std::uint64_t size = UINT64_MAX;
          if (shown) {
            const auto n = shown(r);
            put(r.record, s.records[1], n, s.records[1].t);
            size = static_cast<std::uint64_t>(n.i);
          }
          put_object(r.record, s.records[0], at, size);
          return true;
        });
      }
      case ir::action::system:
      case ir::action::freopen:
      case ir::action::stack:
      case ir::action::ustack:
      case ir::action::trace:
      case ir::action::printf: {
        std::vector<compiled_expr> args;
        for (const auto& a : s.args) args.push_back(compile(a));
        return naming_pc(pc, [&s, args](runner& r) {  // a NULL string's record faults
          for (std::size_t i = 0; i < args.size(); ++i)
            put(r.record, s.records[i], args[i](r), s.args[i].t);
          return true;
        });
      }
    }
    return [](runner&) { return false; };
  }

  // The aggregation's function is resolved to its policy here; keys that are the same at every
  // firing of this probe (`@[probename]`, `@["reads"]`, none at all) are built and hashed here
  // too, so that such an update only evaluates its arguments and takes its row from fixed_row().
  compiled_update aggregate(const ir::statement& s) {
    compiled_update u;
    u.aggregation = st_.aggregations[s.aggregation - 1].get();
    u.fn = u.aggregation->desc().fn.visit(
        [](const auto& fn) { return compiled_update::policy(fn); });
    u.step = next_step();
    u.pc = ++pc_;
    u.types = u.aggregation->desc().keys;
    const bool all_fixed = std::all_of(s.keys.begin(), s.keys.end(),
                                       [&](const expr& k) { return fixed(k).has_value(); });
    for (std::size_t i = 0; i < s.keys.size(); ++i) {
      if (all_fixed)
        set_record(u.fixed_key.records.emplace_back(), u.types[i], *fixed(s.keys[i]));
      else
        u.keys.push_back(compile(s.keys[i]));
    }
    u.fixed_hash = agg::dynamic_aggregation::hash(u.fixed_key);
    if (!s.args.empty()) u.value = integer(s.args[0]);
    u.incr = s.args.size() > 1 ? integer(s.args[1])
                               : integer_operand{integer_operand::source::constant, 1, {}};
    return u;
  }

  // An update's integer operand: constants and argN need no closure.
  integer_operand integer(const expr& e) {
    using source = integer_operand::source;
    if (const auto v = fixed(e); v && !e.t.is_string()) return {source::constant, v->i, {}};
    if (e.kind == kind_t::builtin && static_cast<ir::builtin>(e.index) == ir::builtin::arg)
      return {source::argument, e.value, {}};
    return {source::closure, 0, compile(e)};
  }

  // ---- expressions ---------------------------------------------------------------------------

  // The value of an expression that is the same at every firing of this probe: literals, the
  // probe's names and id, the executable's name, and casts of these.
  std::optional<value> fixed(const expr& e) const {
    auto v = fixed_value(e);
    // At most strsize characters, as every D string (a long literal, a long probe name).
    if (v && e.t.is_string()) v->s = clip(std::move(v->s), e.t.size).s;
    return v;
  }
  std::optional<value> fixed_value(const expr& e) const {
    using ir::builtin;
    switch (e.kind) {
      case kind_t::constant:
        return value{e.value, {}};
      case kind_t::string:
        return e.value == 1 ? value::null() : value{0, e.text};
      case kind_t::cast:
        if (const auto v = fixed(e.kids[0]); v && !e.kids[0].t.is_string()) return value{ir::fit(v->i, e.t), {}};
        return std::nullopt;
      case kind_t::builtin:
        switch (static_cast<builtin>(e.index)) {
          case builtin::execname:
            return value{0, st_.execname};
          case builtin::probeprov:
            return value{0, probe_.info.provider};
          case builtin::probemod:
            return value{0, probe_.info.module};
          case builtin::probefunc:
            return value{0, probe_.info.function};
          case builtin::probename:
            return value{0, probe_.info.name};
          case builtin::epid:  // the clause, as the firing's records name it
            return value{clause_id_, {}};
          case builtin::id:
            return value{probe_.info.id, {}};
          default:
            return std::nullopt;
        }
      default:
        return std::nullopt;
    }
  }

  compiled_step truth(const expr& e) {
    if (e.t.is_string())  // a string is true unless NULL, as a pointer is
      return [x = compile(e)](runner& r) { return !x(r).is_null(); };
    return [x = compile(e)](runner& r) { return x(r).i != 0; };
  }

  // Each expression compiled is an operation of the clause, numbered (pc_) before its operands.
  compiled_expr compile(const expr& e) {
    const auto pc = ++pc_;
    if (const auto v = fixed(e)) return [v = *v](runner&) { return v; };
    if (dtpp::engine::reads_table_memory(e)) throw kernel_only(e);
    switch (e.kind) {
      case kind_t::builtin:
        return builtin_value(e);
      case kind_t::variable: {
        if (&e == made_root_)
          return [](runner& r) { return value{static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(r.made_element)), {}}; };
        const auto v = variable(e);
        return [v](runner& r) { return v.load(r); };
      }
      case kind_t::unary: {
        auto x = compile(e.kids[0]);
        if (e.operation == ir::op::logical_not) {
          if (e.kids[0].t.is_string())
            return [x](runner& r) {
              (void)x(r);
              return value{0, {}};
            };
          return [x](runner& r) { return value{x(r).i == 0, {}}; };
        }
        // D computes in 64 bits; only stores, casts and records narrow a value to its type.
        if (e.operation == ir::op::negate)
          return [x](runner& r) {
            return value{static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(x(r).i)), {}};
          };
        if (e.operation == ir::op::complement) return [x](runner& r) { return value{~x(r).i, {}}; };
        return [x](runner& r) { return value{x(r).i, {}}; };
      }
      case kind_t::binary:
        return binary(e, pc);
      case kind_t::conditional:
        return [c = truth(e.kids[0]), a = compile(e.kids[1]), b = compile(e.kids[2])](runner& r) {
          return c(r) ? a(r) : b(r);
        };
      case kind_t::sequence: {
        std::vector<compiled_expr> steps;
        for (const auto& k : e.kids) steps.push_back(compile(k));
        return [steps = std::move(steps)](runner& r) {
          for (std::size_t i = 0; i + 1 < steps.size(); ++i) (void)steps[i](r);
          return steps.back()(r);
        };
      }
      case kind_t::assign: {
        if (e.t.is_object()) return naming_pc(pc, object_assign(e));
        if (e.kids[0].kind == kind_t::memory) return naming_pc(pc, memory_assign(e));
        const auto target = variable(e.kids[0]);
        auto x = compile(e.kids[1]);
        const auto t = e.t;
        if (e.operation == ir::op::assign)
          return [target, x, t](runner& r) {
            auto v = x(r);
            if (!t.is_string()) v.i = ir::fit(v.i, t);
            target.store(r, v);
            return v;
          };
        // x op= v reads x before it evaluates v, as DTrace's x = x op v does.
        return naming_pc(pc, [target, x, t, op = arithmetic_of(e.operation)](runner& r) {
          const auto k = target.place(r);
          const auto old = target.load(r, k).i;
          auto v = x(r);
          v.i = ir::fit(op(old, v.i, t.is_signed), t);
          target.store(r, k, v);
          return v;
        });
      }
      case kind_t::increment:
        if (e.kids[0].kind == kind_t::memory) return naming_pc(pc, memory_increment(e));
        return [target = variable(e.kids[0]), t = e.t, step = e.operation == ir::op::increment ? 1 : -1,
                prefix = e.value != 0](runner& r) {
          const auto k = target.place(r);
          const auto old = target.load(r, k);
          const auto updated = value{ir::fit(old.i + step, t), {}};
          target.store(r, k, updated);
          return prefix ? updated : old;
        };
      case kind_t::cast:
        if (e.kids[0].t.is_string())  // (char *)s: where the firing keeps the string's bytes
          return [x = compile(e.kids[0]), bytes = e.kids[0].t.size](runner& r) {
            auto s = x(r);
            if (s.is_null()) return value{};
            s.s.resize(std::max<std::size_t>(s.s.size(), bytes), '\0');  // zero to its last byte, as D's
            const auto& kept = r.addressed.emplace_back(std::move(s.s));
            return value{static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(kept.c_str())), {}};
          };
        return [x = compile(e.kids[0]), t = e.t](runner& r) {
          return value{ir::fit(x(r).i, t), {}};
        };
      case kind_t::stringof:
        if (e.kids[0].t.is_string())
          return [x = compile(e.kids[0])](runner& r) { return value{0, x(r).s}; };
        return [x = compile(e.kids[0])](runner& r) { return value{0, std::to_string(x(r).i)}; };
      case kind_t::call: {
        if (e.function == ir::subroutine::speculation) return speculation_call();
        if (e.function == ir::subroutine::strtok) return naming_pc(pc, strtok_call(e));
        if (e.function == ir::subroutine::copyin || e.function == ir::subroutine::alloca) return naming_pc(pc, scratch_call(e));
        if (e.function == ir::subroutine::bcopy || e.function == ir::subroutine::copyinto) return naming_pc(pc, copy_call(e));
        if (e.t.form != agg::symbol_form::none) return symbol_call(e);
        if (e.t.kind == ir::type::category::ustack)
          return [size = e.t.size](runner& r) { return value{0, user_stack(r.caller, size)}; };
        // The kernel's stack: there is none under a probe fired in user space.
        if (e.t.kind == ir::type::category::stack) return [size = e.t.size](runner&) { return value{0, std::string(size, '\0')}; };
        std::vector<compiled_expr> args;
        for (const auto& k : e.kids) args.push_back(compile(k));
        if (args.size() > 3)
          throw engine_error("subroutine " + std::string(ir::name(e.function)) + "() takes at most 3 arguments");
        const auto strsize = static_cast<std::size_t>(e.t.is_string() ? e.t.size : 256);
        std::vector<bool> strings;
        for (const auto& k : e.kids) strings.push_back(k.t.is_string());
        return naming_pc(pc, [args, strings, strsize, f = subroutine_of(e.function)](runner& r) {
          std::array<value, 3> a;
          for (std::size_t i = 0; i < args.size(); ++i) {
            a[i] = args[i](r);
            if (strings[i] && a[i].is_null()) bad_address(0);
          }
          return f(std::span<const value>(a.data(), args.size()), strsize);
        });
      }
      case kind_t::memory:
        return naming_pc(pc, memory_read(e));
      case kind_t::memory_string:
        return naming_pc(pc, memory_string(e));
      // s[i]: a string's characters, then NULs up to its last byte (strsize); past those, or
      // before the first, the index is out of bounds.
      case kind_t::string_character:
        return naming_pc(pc, [s = compile(e.kids[0]), i = compile(e.kids[1]), bytes = e.kids[0].t.size](runner& r) {
          const auto string = s(r);
          const auto& text = string.s;
          const auto index = i(r).i;
          if (string.is_null()) bad_address(index);  // NULL's characters are at 0 + index
          if (index < 0 || static_cast<std::uint64_t>(index) >= bytes) throw fault_signal{fault_kind::bad_index, index};
          const auto at = static_cast<std::size_t>(index);
          return value{at < text.size() ? static_cast<signed char>(text[at]) : 0, {}};
        });
      case kind_t::constant:
      case kind_t::string:
        break;  // fixed() took them
    }
    return [](runner&) { return value{}; };
  }

  // speculation(): the first of nspec buffers not in use, or 0, counted as a failed speculation.
  static compiled_expr speculation_call() {
    return [](runner& r) {
      auto& in_use = r.st.speculations;
      const auto free = std::find(in_use.begin(), in_use.end(), false);
      if (free == in_use.end()) {
        r.st.failed_speculations.fetch_add(1, std::memory_order_relaxed);
        return value{};
      }
      *free = true;
      return value{static_cast<std::int64_t>(free - in_use.begin()) + 1, {}};
    };
  }

  // strtok(s, delimiters): s's first token, from its first byte not a delimiter up to the next
  // delimiter, or NULL when none is left; strtok(NULL, delimiters) goes on from there with the
  // thread's string, as DTrace keeps it (a thread with none faults at 0). The rest starts at the
  // delimiter that ended the token, as in dtrace-utils (the next call's delimiters decide whether
  // it is one).
  compiled_expr strtok_call(const expr& e) {
    const bool fresh = e.kids.size() == 2;
    return [s = fresh ? compile(e.kids[0]) : compiled_expr{}, delimiters = compile(e.kids.back())](runner& r) {
      const auto text = s ? s(r) : value{};
      const auto d = delimiters(r);
      if (text.is_null() || d.is_null()) bad_address(0);
      const auto tid = ::gettid();
      if (!s && !r.st.strtok_rest.contains(tid)) bad_address(0);
      auto& rest = r.st.strtok_rest[tid];
      if (s) rest = text.s;
      const auto start = rest.find_first_not_of(d.s);
      if (start == std::string::npos) {
        rest.clear();
        return value::null();
      }
      const auto end = std::min(rest.find_first_of(d.s, start), rest.size());
      value token{0, rest.substr(start, end - start)};
      rest.erase(0, end);
      return token;
    };
  }

  // The buffer commit() and discard() name: 0 is none; one past nspec is an illegal operation, as
  // in DTrace.
  static std::size_t speculation_index(runner& r, std::int64_t id) {
    if (id < 0 || static_cast<std::uint64_t>(id) > r.st.speculations.size())
      throw fault_signal{fault_kind::illegal_operation, id};
    return static_cast<std::size_t>(id);
  }

  // What engine::kernel_engine_only() names: the process has no kernel memory to read.
  static engine_error kernel_only(const expr& e) {
    return engine_error("the kernel's types, memory and registers (curthread, struct members, uregs[]) are not "
                        "available to the in-process engine",
                        e.where);
  }

  // sym() ... umod(): the address, after this process's id for a user one, as the kernel
  // engine keeps it.
  compiled_expr symbol_call(const expr& e) {
    const bool user = e.t.kind == ir::type::category::ustack;
    return [x = compile(e.kids[0]), user](runner& r) {
      const std::uint64_t words[2] = {static_cast<std::uint64_t>(::getpid()), static_cast<std::uint64_t>(x(r).i)};
      return value{0, std::string(reinterpret_cast<const char*>(user ? words : words + 1), user ? 16 : 8)};
    };
  }

  compiled_expr builtin_value(const expr& e) {
    using ir::builtin;
    switch (static_cast<builtin>(e.index)) {
      case builtin::curthread:
      case builtin::probe_record:
      case builtin::uregs:
        throw kernel_only(e);
      case builtin::arg:
        return [n = static_cast<std::size_t>(e.value)](runner& r) {
          return value{n < r.args.size() ? r.args[n] : 0, {}};
        };
      case builtin::timestamp:
        return [](runner& r) { return value{r.timestamp(), {}}; };
      case builtin::vtimestamp:
        return [](runner& r) { return value{r.vtimestamp(), {}}; };
      case builtin::walltimestamp:
        return [](runner&) { return value{static_cast<std::int64_t>(now(CLOCK_REALTIME)), {}}; };
      case builtin::pid:
        return [](runner&) { return value{::getpid(), {}}; };
      case builtin::ppid:
        return [](runner&) { return value{::getppid(), {}}; };
      case builtin::tid:
        return [](runner&) { return value{::gettid(), {}}; };
      case builtin::uid:
        return [](runner&) { return value{::getuid(), {}}; };
      case builtin::gid:
        return [](runner&) { return value{::getgid(), {}}; };
      case builtin::cpu:
        return [](runner& r) { return value{r.cpu(), {}}; };
      // The user stack from the code that fired: ucaller is its second frame, ustackdepth counts
      // them (up to 127, the kernel's bound). There is no kernel stack here: caller and
      // stackdepth stay 0.
      case builtin::ucaller:
        return [](runner& r) {
          const auto bytes = user_stack(r.caller, 24);
          std::int64_t pc = 0;
          std::memcpy(&pc, bytes.data() + 16, 8);
          return value{pc, {}};
        };
      case builtin::ustackdepth:
        return [](runner& r) {
          const auto bytes = user_stack(r.caller, 8 * 128);
          std::int64_t frames = 0;
          for (std::size_t at = 8; at < bytes.size() && bytes.compare(at, 8, std::string(8, '\0')) != 0; at += 8) ++frames;
          return value{frames, {}};
        };
      default:
        return [](runner&) { return value{}; };
    }
  }

  compiled_expr binary(const expr& e, std::uint32_t pc) {
    const auto op = e.operation;
    if (op == ir::op::logical_and)
      return [a = truth(e.kids[0]), b = truth(e.kids[1])](runner& r) {
        return value{a(r) && b(r), {}};
      };
    if (op == ir::op::logical_or)
      return [a = truth(e.kids[0]), b = truth(e.kids[1])](runner& r) {
        return value{a(r) || b(r), {}};
      };
    if (op == ir::op::logical_xor)
      return [a = truth(e.kids[0]), b = truth(e.kids[1])](runner& r) {
        return value{a(r) != b(r), {}};
      };
    auto a = compile(e.kids[0]);
    auto b = compile(e.kids[1]);
    if (e.kids[0].t.is_string()) {
      const auto compared = with_comparison(op, [&](auto holds) -> compiled_expr {
        return [a, b, holds](runner& r) {
          const auto x = a(r);
          const auto y = b(r);
          // NULL orders before every string, "" too, as a null pointer before any other.
          const int order = x.is_null() || y.is_null() ? int{!x.is_null()} - int{!y.is_null()} : x.s.compare(y.s);
          return value{holds(order, 0), {}};
        };
      });
      // Strings only compare; the checker allows nothing else.
      return compared ? *compared : [](runner&) { return value{}; };
    }
    const bool is_signed = e.kids[0].t.is_signed;
    const auto compared = with_comparison(op, [&](auto holds) -> compiled_expr {
      return [a, b, holds, is_signed](runner& r) {
        const auto x = a(r).i;
        const auto y = b(r).i;
        return value{is_signed
                         ? holds(x, y)
                         : holds(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y)),
                     {}};
      };
    });
    if (compared) return *compared;
    if (op == ir::op::add && e.value != 0 && e.kids[0].t.kind == ir::type::category::array)
      return naming_pc(pc, [a, b, element = static_cast<std::uint64_t>(e.value),
                            last = static_cast<std::uint64_t>(e.kids[0].t.size) - static_cast<std::uint64_t>(e.value)](runner& r) {
        const auto base = static_cast<std::uint64_t>(a(r).i);
        const auto offset = static_cast<std::uint64_t>(b(r).i);
        // An element's offset past the last one (or negative) is DTrace's "index out of bounds",
        // with the index, as the kernel engine checks it.
        if (offset > last) throw fault_signal{fault_kind::bad_index, static_cast<std::int64_t>(offset / element)};
        return value{static_cast<std::int64_t>(base + offset), {}};
      });
    return naming_pc(pc, [a, b, op = arithmetic_of(op), is_signed = e.t.is_signed](runner& r) {
      const auto x = a(r).i;
      const auto y = b(r).i;
      return value{op(x, y, is_signed), {}};
    });
  }

  // A D variable, read and written where its scope keeps it.
  struct variable_ref {
    std::uint32_t index = 0;
    ir::scope where = ir::scope::global;
    bool is_string = false;
    bool keyed = false;  // an associative array
    std::vector<compiled_expr> keys;
    std::vector<bool> key_is_string;
    std::size_t object_size = 0;  // a struct or union variable's bytes, which it holds
    // What an element not made yet reads as: object_size zero bytes, never written.
    std::shared_ptr<const std::vector<std::byte>> zeros;

    // A thread-local or an associative array's element: kept in st.variables by element().
    bool dynamic() const { return where == ir::scope::thread || keyed; }
    // Where a compound update loads and stores: its keys evaluated once (`a[i++] += 1`).
    std::string place(runner& r) const { return dynamic() ? element(r) : std::string(); }

    value load(runner& r) const { return load(r, place(r)); }
    value load(runner& r, const std::string& k) const {
      if (object_size != 0)  // a struct or union stands for its address
        return value{static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(object(r, false))), {}};
      if (where == ir::scope::clause) return r.locals[index];
      if (!dynamic()) {
        if (r.st.globals.size() <= index) return {};
        return r.st.globals[index];
      }
      // A dynamic variable not made reads as 0: a string one as NULL.
      const auto it = r.st.variables.find(k);
      if (it == r.st.variables.end()) return is_string ? value::null() : value{};
      return it->second;
    }

    void store(runner& r, value x) const { store(r, place(r), std::move(x)); }
    void store(runner& r, const std::string& k, value x) const {
      if (where == ir::scope::clause) {
        r.locals[index] = std::move(x);
      } else if (!dynamic()) {
        if (r.st.globals.size() <= index) r.st.globals.resize(r.st.program.variables.size());
        r.st.globals[index] = std::move(x);
      } else {
        // Assigning 0 (NULL to a string) deletes an element, as in DTrace's dynamic variables.
        // Elements share dynvarsize bytes: one that does not fit is a dynamic variable drop.
        const auto it = r.st.variables.find(k);
        if (is_string ? x.is_null() : x.i == 0) {
          if (it != r.st.variables.end()) {
            r.st.variables.erase(it);
            r.st.variable_bytes -= r.st.element_bytes;
          }
          return;
        }
        if (it != r.st.variables.end()) {
          it->second = std::move(x);
        } else if (room(r)) {
          r.st.variables.emplace(k, std::move(x));
        }
      }
    }

    // A struct or union variable's bytes, zero at first: a global's and a clause-local's made at
    // their first use, a thread's and an associative array element's counted in dynvarsize and
    // kept, or none (a dynamic variable drop) when it finds no room. Reading (`create` false)
    // makes no element: one that does not exist reads as zeros, as in DTrace.
    std::byte* object(runner& r, bool create = true) const {
      value* v = nullptr;
      if (where == ir::scope::clause) {
        v = &r.locals[index];
      } else if (where == ir::scope::global && !keyed) {
        if (r.st.globals.size() <= index) r.st.globals.resize(r.st.program.variables.size());
        v = &r.st.globals[index];
      } else {
        const auto k = element(r);
        auto it = r.st.variables.find(k);
        // Only reads ask for no element, and they write nothing through it.
        if (it == r.st.variables.end() && !create) return const_cast<std::byte*>(zeros->data());
        if (it == r.st.variables.end()) {
          if (!room(r)) return nullptr;
          it = r.st.variables.emplace(k, value{0, std::string(object_size, '\0')}).first;
        }
        v = &it->second;
      }
      if (v->s.size() != object_size) v->s.assign(object_size, '\0');
      return reinterpret_cast<std::byte*>(v->s.data());
    }

    // Takes a new element's bytes, or counts a dynamic variable drop when they do not fit.
    static bool room(runner& r) {
      if (r.st.variable_bytes + r.st.element_bytes > r.st.options.dynvarsize) {
        r.st.dynamic_drops.fetch_add(1, std::memory_order_relaxed);
        return false;
      }
      r.st.variable_bytes += r.st.element_bytes;
      return true;
    }

    // Thread-locals are per thread; array elements per key.
    std::string element(runner& r) const {
      std::string k = std::to_string(index);
      if (where == ir::scope::thread) k += "@" + std::to_string(::gettid());
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto kv = keys[i](r);
        k += key_is_string[i] ? "|s" + kv.s : "|i" + std::to_string(kv.i);
        k.push_back('\0');
      }
      return k;
    }
  };

  variable_ref variable(const expr& e) {
    const auto& v = st_.program.variables[e.index];
    variable_ref out{e.index, v.where, v.value.is_string(), !v.keys.empty(), {}, {},
                     v.value.is_object() ? v.value.size : 0, nullptr};
    if (out.object_size != 0) out.zeros = std::make_shared<const std::vector<std::byte>>(out.object_size);
    for (const auto& k : e.kids) {
      out.keys.push_back(compile(k));
      out.key_is_string.push_back(k.t.is_string());
    }
    return out;
  }

  // ---- memory: the process's own, scratch, struct variables ----------------------------------

  // *p, p->m, p[i], s.m: an integer or pointer read from the process's memory (a bad address
  // faults, and one near scratch memory outside the bytes taken), a struct variable's member from
  // its bytes. A struct, union or array stands for its
  // address.
  compiled_expr memory_read(const expr& e) {
    if (const auto v = object_variable(e); v && !e.t.is_object())
      return [v = *v, offset = e.value, t = e.t](runner& r) {
        const auto* bytes = v.object(r, false);
        return value{bytes ? load_integer(bytes + offset, t) : 0, {}};
      };
    return [address = compile(e.kids[0]), offset = e.value, t = e.t, checked = ir::loads_through_pointer(e)](runner& r) {
      const auto base = address(r).i;
      const auto at = past(base, offset);
      if (t.is_object()) return value{at, {}};
      // A NULL pointer faults at 0, not at its member's offset: dtrace-utils checks the pointer first.
      if (base == 0) bad_address(0);
      std::array<std::byte, 8> bytes{};
      if (checked) scratch::mine().check_load(at, std::min<std::size_t>(t.size, 8));
      read_memory(bytes.data(), at, std::min<std::size_t>(t.size, 8));
      return value{load_integer(bytes.data(), t), {}};
    };
  }

  // stringof(p), (string)p, a char array member: the string in the process's memory there, at
  // most strsize characters (an array's own size); an address with nothing readable faults.
  // Through a pointer alloca() or copyin() gave, the string's bytes (its NUL's too, unless cut)
  // are checked against the bytes taken.
  compiled_expr memory_string(const expr& e) {
    const auto limit = ir::memory_string_bound(e, e.t.size) - 1;
    return [address = compile(e.kids[0]), limit, checked = e.value != 0](runner& r) {
      const auto at = address(r).i;
      auto s = read_string(static_cast<std::uint64_t>(at), limit);
      if (!s) bad_address(at);
      if (checked) scratch::mine().check_load(at, std::min<std::size_t>(s->size() + 1, limit));
      return value{0, std::move(*s)};
    };
  }

  // The struct or union variable whose member `e` is (rec.m), if it is one.
  std::optional<variable_ref> object_variable(const expr& e) {
    if (e.kids[0].kind != kind_t::variable || !e.kids[0].t.is_object()) return std::nullopt;
    return variable(e.kids[0]);
  }

  // The struct or union variable an address is computed from (`rec.a` of `rec.a[i]`), if any.
  static const expr* root_variable(const expr& e) {
    if (e.kind == kind_t::variable) return e.t.is_object() ? &e : nullptr;
    if (e.kind == kind_t::memory && e.t.is_object()) return root_variable(e.kids[0]);
    if (e.kind == kind_t::binary && e.operation == ir::op::add) return root_variable(e.kids[0]);
    return nullptr;
  }

  // Where a store through a pointer lands: a struct variable's member, in its bytes (none when a
  // thread's new variable found no room), at a computed place too if it stays within them; else
  // bytes this clause's alloca() or copyin() took, anything else being the invalid-address fault,
  // as in the kernel engine.
  using place_fn = std::function<std::byte*(runner&)>;
  // `size`: the bytes stored, an integer's (at most 8) or a whole struct's.
  place_fn place(const expr& target, std::size_t size) {
    if (const auto v = object_variable(target))
      return [v = *v, offset = target.value](runner& r) {
        auto* bytes = v.object(r);
        return bytes ? bytes + offset : nullptr;
      };
    if (const auto* root = root_variable(target.kids[0])) {
      // The element made first: the address is computed from its bytes, not a missing one's
      // zeros, and its keys are not evaluated again (made_root_ stands for it).
      const auto* outer = std::exchange(made_root_, root);
      auto address = compile(target.kids[0]);
      made_root_ = outer;
      return [v = variable(*root), address, offset = target.value, size](runner& r) -> std::byte* {
        auto* bytes = v.object(r);
        if (!bytes) return nullptr;
        r.made_element = bytes;
        const auto at = past(address(r).i, offset);
        const auto begin = reinterpret_cast<std::int64_t>(bytes);
        if (at < begin || at - begin + static_cast<std::int64_t>(size) > static_cast<std::int64_t>(v.object_size))
          bad_address(at);
        return bytes + (at - begin);
      };
    }
    return [address = compile(target.kids[0]), offset = target.value, size](runner& r) {
      return scratch::mine().writable(past(address(r).i, offset), size);
    };
  }
  place_fn place(const expr& target) { return place(target, std::min<std::size_t>(target.t.size, 8)); }

  // *p = v, p->m += v ...: the value first, then the place, as the kernel engine evaluates them.
  compiled_expr memory_assign(const expr& e) {
    const auto op = e.operation == ir::op::assign ? nullptr : arithmetic_of(e.operation);
    return [x = compile(e.kids[1]), at = place(e.kids[0]), op, t = e.t](runner& r) {
      auto v = x(r);
      auto* bytes = at(r);
      if (op) v.i = op(bytes ? load_integer(bytes, t) : 0, v.i, t.is_signed);
      v.i = ir::fit(v.i, t);
      if (bytes) store_integer(bytes, v.i, t);
      return v;
    };
  }

  compiled_expr memory_increment(const expr& e) {
    return [at = place(e.kids[0]), t = e.t, step = e.operation == ir::op::increment ? 1 : -1,
            prefix = e.value != 0](runner& r) {
      auto* bytes = at(r);
      const auto old = bytes ? load_integer(bytes, t) : 0;
      const auto updated = ir::fit(past(old, step), t);
      if (bytes) store_integer(bytes, updated, t);
      return value{prefix ? updated : old, {}};
    };
  }

  // rec = other: a whole struct or union variable's bytes copied from where the other is (a
  // variable's bytes, scratch, the process's memory); the variable stands for its address after.
  // *p = rec and rec.in = other.in: the bytes copied to where a store may go (place()), the
  // source's address first, as the kernel engine takes them.
  compiled_expr object_assign(const expr& e) {
    if (e.kids[0].kind == kind_t::memory)
      return [from = compile(e.kids[1]), at = place(e.kids[0], e.t.size), size = e.t.size](runner& r) {
        const auto source = from(r).i;
        auto* bytes = at(r);
        if (bytes && reinterpret_cast<std::int64_t>(bytes) != source) read_memory(bytes, source, size);
        return value{};
      };
    if (e.kids[1].t.is_integer())  // a[k] = 0, self->rec = 0: the element or variable deleted
      return [target = variable(e.kids[0])](runner& r) {
        target.store(r, {});
        return value{};
      };
    return [target = variable(e.kids[0]), from = compile(e.kids[1])](runner& r) {
      const auto at = from(r).i;
      auto* bytes = target.object(r);
      if (bytes && reinterpret_cast<std::int64_t>(bytes) != at) read_memory(bytes, at, target.object_size);
      // The variable's address, as a load gives it, without evaluating its keys again.
      const auto* stands = bytes ? bytes : target.zeros->data();
      return value{static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(stands)), {}};
    };
  }

  // alloca(size) and copyin(addr, size): bytes taken from the clause's scratch memory (copyin's
  // read from the process's memory at addr; an unreadable addr is an invalid address). The size
  // first, as the kernel engine takes it.
  compiled_expr scratch_call(const expr& e) {
    const bool copy = e.function == ir::subroutine::copyin;
    return [size = compile(e.kids.back()), from = copy ? compile(e.kids[0]) : compiled_expr{}](runner& r) {
      const auto n = size(r).i;
      const auto at = scratch::mine().take(n);
      if (from) read_memory(reinterpret_cast<void*>(at), from(r).i, static_cast<std::size_t>(n));
      return value{at, {}};
    };
  }

  // bcopy(src, dest, size) (src: the process's memory, or a string's bytes) and copyinto(uaddr,
  // size, dest): size bytes into what alloca() or copyin() took. A size over scratchsize is an
  // invalid size, a destination outside the bytes taken or an unreadable source an invalid
  // address; bcopy() from scratch reads only bytes taken.
  // The arguments are evaluated in their order before anything is checked, as in DTrace.
  compiled_expr copy_call(const expr& e) {
    const bool user = e.function == ir::subroutine::copyinto;
    return [first = compile(e.kids[0]), second = compile(e.kids[1]), third = compile(e.kids[2]),
            from_string = e.kids[0].t.is_string(), user](runner& r) {
      const auto src = first(r);
      if (from_string && src.is_null()) bad_address(0);
      const auto b = second(r).i;
      const auto c = third(r).i;
      auto& scratch = scratch::mine();
      const auto n = scratch.copy_size(user ? b : c);
      if (!user && !from_string) scratch.check_source(src.i, n);
      auto* dest = scratch.writable(user ? c : b, n);
      if (!from_string) {
        read_memory(dest, src.i, n);
      } else {  // the string's bytes, then the zeros that pad it
        const auto bytes = std::min(n, src.s.size());
        std::memcpy(dest, src.s.data(), bytes);
        std::memset(dest + bytes, 0, n - bytes);
      }
      return value{};
    };
  }

  // copyout(from, to, size) and copyoutstr(string, to, most): the bytes of D memory (a string's,
  // padded with zeros) written at the process's address; at most scratchsize of them, as bcopy().
  // copyoutstr() writes the string up to its NUL.
  compiled_step copy_out(const ir::statement& s) {
    return [from = compile(s.args[0]), to = compile(s.args[1]), size = compile(s.args[2]),
            from_string = s.args[0].t.is_string(), string = s.kind == ir::action::copyoutstr](runner& r) {
      const auto src = from(r);
      const auto address = to(r).i;
      auto n = scratch::mine().copy_size(size(r).i);
      if (string) n = std::min(n, std::min(src.s.find('\0'), src.s.size()) + 1);
      std::string bytes(n, '\0');
      if (from_string)
        src.s.copy(bytes.data(), n);
      else
        read_memory(bytes.data(), src.i, n);
      write_memory(address, bytes);
      return false;
    };
  }

  engine::state& st_;
  const expr* made_root_ = nullptr;  // compiled as runner::made_element: place()'s root
  const bound_probe& probe_;
  std::uint32_t pc_ = 0;  // operations of the clause compiled so far
  std::uint32_t clause_id_ = 0;  // the clause compiled: its epid
};

compiled_clause compile_clause(engine::state& st, const bound_probe& probe, const ir::clause& c,
                               std::uint32_t statement) {
  return compiler(st, probe).clause(c, statement);
}

}  // namespace dtpp::inproc::detail
