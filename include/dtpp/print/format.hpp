// DTrace's printf(), printa() and trace() output as pure functions over traced values: a format
// is parsed once (print/conversion.hpp), then printed as often as records arrive.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <cwchar>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dtpp/agg/kind.hpp"
#include "dtpp/print/append.hpp"
#include "dtpp/print/conversion.hpp"
#include "dtpp/print/frames.hpp"
#include "dtpp/print/histogram.hpp"
#include "dtpp/print/record.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::print {

/// The largest width or precision a conversion is given (larger ones are clamped to it): room
/// for dtrace-utils' widths of ten million, not for the 2 GiB an int allows.
inline constexpr int max_width = 1 << 24;

namespace detail {

// snprintf with a format built at run time from a parsed conversion; the argument's type always
// matches the conversion letter the builder chose.
template <class T>
void append_spec(std::string& out, const std::string& spec, T value) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
  append(out, spec.c_str(), value);
#pragma GCC diagnostic pop
}

// "%<flags><width>.<precision><length><letter>" as DTrace builds it: '-' also for a negative
// (dynamic) width, the precision only when positive.
inline std::string spec(const conversion& c, long long width, int precision,
                        std::string_view length, char letter) {
  std::string s = "%";
  if (c.alternate) s += '#';
  if (c.zero_pad) s += '0';
  if (width < 0 || c.left) s += '-';
  if (c.plus) s += '+';
  if (c.group) s += '\'';
  if (c.space) s += ' ';
  if (width != 0) s += std::to_string(width < 0 ? -width : width);
  if (precision > 0) s += '.' + std::to_string(precision);
  s += length;
  s += letter;
  return s;
}

// A string escaped as %S and %C print it: C escapes, other bytes outside '!'..'~' (but space)
// as three octal digits.
inline std::string escape(std::string_view text) {
  std::string s;
  for (const char ch : text) {
    switch (ch) {
      case '\0':
        s += "\\0";
        break;
      case '\a':
        s += "\\a";
        break;
      case '\b':
        s += "\\b";
        break;
      case '\f':
        s += "\\f";
        break;
      case '\n':
        s += "\\n";
        break;
      case '\r':
        s += "\\r";
        break;
      case '\t':
        s += "\\t";
        break;
      case '\v':
        s += "\\v";
        break;
      case '"':
        s += "\\\"";
        break;
      case '\\':
        s += "\\\\";
        break;
      default:
        if (ch == ' ' || (ch >= '!' && ch <= '~'))
          s += ch;
        else
          append(s, "\\%03o", static_cast<unsigned>(static_cast<unsigned char>(ch)));
    }
  }
  return s;
}

inline std::string_view until_nul(std::string_view text) { return text.substr(0, text.find('\0')); }

// A time in ns since the epoch, split in local time (DTrace truncates to whole seconds).
inline std::optional<std::tm> local_time(std::uint64_t bits) {
  const std::time_t seconds = static_cast<std::int64_t>(bits) / 1000000000;
  std::tm tm{};
  if (localtime_r(&seconds, &tm) == nullptr) return std::nullopt;
  return tm;
}

inline constexpr const char* month_names[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
inline constexpr const char* day_names[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

// %Y: "1973 Dec  3 17:20:00", ctime()'s fields with the year first.
inline std::string time_text(std::uint64_t bits) {
  const auto tm = local_time(bits);
  if (!tm) return std::to_string(static_cast<std::int64_t>(bits));
  std::string s;
  append(s, "%d %s %2d %02d:%02d:%02d", tm->tm_year + 1900, month_names[tm->tm_mon % 12],
         tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec);
  return s;
}

// %T: RFC 822 as DTrace writes it, "Wed, 03 Sep 2003 10:23:41 PDT". DTrace's year is the ISO
// 8601 week-based one (strftime's %G), so 1969-12-31 prints 1970, as its tests expect.
inline std::string time_rfc822_text(std::uint64_t bits) {
  const auto tm = local_time(bits);
  if (!tm) return std::to_string(static_cast<std::int64_t>(bits));
  char year[16] = "", zone[64] = "";
  std::strftime(year, sizeof year, "%G", &*tm);
  std::strftime(zone, sizeof zone, "%Z", &*tm);
  std::string s;
  append(s, "%s, %02d %s %s %02d:%02d:%02d %s", day_names[tm->tm_wday % 7], tm->tm_mday,
         month_names[tm->tm_mon % 12], year, tm->tm_hour, tm->tm_min, tm->tm_sec, zone);
  return s;
}

// A stack as DTrace prints one: a newline, then per frame the indent, the frame's name through
// `spec` and a newline.
inline void print_stack(std::string& out, std::span<const std::string> frames, int indent,
                        const std::string& spec) {
  out += '\n';
  for (const auto& frame : frames) {
    out.append(static_cast<std::size_t>(indent > 0 ? indent : 0), ' ');
    append_spec(out, spec, frame.c_str());
    out += '\n';
  }
}

// A symbol as DTrace prints one traced or as a key: "  %-50s", quiet or not.
inline void print_symbol(std::string& out, std::string_view name) {
  append(out, "  %-50.*s", static_cast<int>(name.size()), name.data());
}

// The text a conversion that wants a string prints for an argument of another kind (which the
// D checker rejects): integers in decimal, stacks as their addresses.
inline std::string text_of(const traced& v) {
  switch (v.type) {
    case traced::kind::string:
    case traced::kind::symbol:
      return std::string(until_nul(v.text));
    case traced::kind::integer:
      return v.is_signed ? std::to_string(v.as_signed()) : std::to_string(v.as_unsigned());
    default: {
      std::string s;
      for (const auto& frame : v.frames) s += (s.empty() ? "" : " ") + frame;
      return s;
    }
  }
}

// One conversion of value v, its width and precision already resolved.
inline void print_conversion(std::string& out, const conversion& c, long long width, int precision,
                             const traced& v) {
  using t = conversion_kind;
  const conversion_info& info = *c.info;
  const bool integer = v.type == traced::kind::integer;
  const auto as_string = [&](const std::string& text) {
    append_spec(out, spec(c, width, precision, "", 's'), text.c_str());
  };
  switch (info.kind) {
    case t::integer: {
      if (!integer) return as_string(text_of(v));
      const bool is_signed = info.sign != 0 ? info.sign > 0 : v.is_signed;
      if (is_signed) {
        append_spec(out, spec(c, width, precision, "ll", info.letter),
                    static_cast<long long>(v.as_signed()));
      } else {
        // %d of an unsigned value prints unsigned, as DTrace switches it to %u.
        const char letter = info.letter == 'd' || info.letter == 'i' ? 'u' : info.letter;
        append_spec(out, spec(c, width, precision, "ll", letter),
                    static_cast<unsigned long long>(v.as_unsigned()));
      }
      return;
    }
    case t::character:
      if (!integer) return as_string(text_of(v));
      return append_spec(out, spec(c, width, precision, "", 'c'),
                         static_cast<int>(static_cast<std::int32_t>(v.as_signed())));
    case t::wide_character:
      if (!integer) return as_string(text_of(v));
      return append_spec(out, spec(c, width, precision, "l", 'c'),
                         static_cast<std::wint_t>(static_cast<std::int32_t>(v.as_signed())));
    case t::escaped_character:
      if (!integer) return as_string(escape(until_nul(v.text)));
      return as_string(escape(std::string(1, static_cast<char>(v.bits))));
    case t::string:
      return as_string(text_of(v));
    case t::escaped_string:
      // DTrace escapes the whole string record, which always holds a NUL after the string (its
      // records are strsize + 1 bytes): the escapes end with that NUL's "\0".
      if (v.type != traced::kind::string) return as_string(text_of(v));
      return as_string(escape(until_nul(v.text)) + "\\0");
    case t::address:
      // A kernel address by its symbol, as DTrace prints it (vmlinux`ksys_write+0x5); anything
      // kallsyms does not name (an in-process address, no privilege) stays hexadecimal.
      if (!integer) return as_string(text_of(v));
      return as_string(kernel_frame(v.as_unsigned()));
    case t::user_address: {
      if (!integer) return as_string(text_of(v));
      char address[32];
      std::snprintf(address, sizeof address, "0x%llx",
                    static_cast<unsigned long long>(v.as_unsigned()));
      return as_string(address);
    }
    case t::stack: {
      if (v.type != traced::kind::stack) return as_string(text_of(v));
      // %-Nk sets the indent to N instead of a width; a plain %k indents by 0.
      const long long indent = width < 0 ? -width : c.left ? width : 0;
      const long long shown_width = c.left ? 0 : width;
      return print_stack(out, v.frames, static_cast<int>(indent),
                         spec(c, shown_width, precision, "", 's'));
    }
    case t::time:
      if (!integer) return as_string(text_of(v));
      return as_string(time_text(v.bits));
    case t::time_rfc822:
      if (!integer) return as_string(text_of(v));
      return as_string(time_rfc822_text(v.bits));
    case t::floating: {
      // The bits of a float (4 bytes) or a double (8), read as dtrace-utils' pfprint_fp reads
      // them, by their size; the D checker lets only floats reach a floating conversion.
      if (!integer || (v.size != 4 && v.size != 8)) return as_string(text_of(v));
      const auto number = v.size == 4 ? static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(v.bits)))
                                      : std::bit_cast<double>(v.bits);
      return append_spec(out, spec(c, width, precision, "", info.letter), number);
    }
  }
}

// Walks a format's pieces for printf() and printa(): `next` yields the next argument (or key),
// `aggregation` prints a %@ conversion.
template <class Next, class Aggregation>
void print_pieces(std::string& out, const format& f, Next next, Aggregation aggregation) {
  for (const auto& piece : f.pieces()) {
    out += piece.text;
    if (!piece.conv) continue;
    const conversion& c = *piece.conv;
    long long width = c.width;
    int precision = c.precision;
    // Dynamic widths and precisions come from integer arguments, read as DTrace reads them:
    // sign-extended from their size, then taken as an int.
    const auto dynamic = [&](auto& into) {
      const traced* v = next();
      if (v == nullptr) return false;
      into = static_cast<std::int32_t>(v->type == traced::kind::integer ? v->as_signed() : 0);
      return true;
    };
    if (c.dynamic_width && !dynamic(width)) {
      out += c.text;
      continue;
    }
    if (c.dynamic_precision && !dynamic(precision)) {
      out += c.text;
      continue;
    }
    // DTrace pads to any width an int holds. dtpp holds a printf's text whole before writing it,
    // so widths and precisions are bounded rather than let %2147483647d hold 2 GiB.
    width = std::clamp<long long>(width, -max_width, max_width);
    precision = std::min(precision, max_width);
    if (c.aggregation) {
      aggregation(c, width, precision);
      continue;
    }
    const traced* v = next();
    if (v == nullptr)
      out += c.text;  // missing argument: the D checker prevents it
    else
      print_conversion(out, c, width, precision, *v);
  }
}

}  // namespace detail

/// printf(): the format's text and conversions of `args`, in order, as DTrace prints them.
/// `*` widths and precisions take the next argument; a conversion without its argument prints
/// as written.
inline void print(std::string& out, const format& f, std::span<const traced> args) {
  std::size_t next = 0;
  detail::print_pieces(
      out, f, [&]() -> const traced* { return next < args.size() ? &args[next++] : nullptr; },
      [&](const conversion& c, long long, int) { out += c.text; });
}

/// printa() with a format, for one tuple (or one bundle of a joined walk): key conversions (and
/// `*`s) take the keys in order; each %@ takes the next aggregation's value, those beyond the
/// last repeat the last one; quantize/lquantize/llquantize values print their whole histogram
/// whatever the conversion.
///
///     // printa("%-10s %@8d\n", @a) for the tuple ["read"] = 42:
///     print_printa(out, format::parse("%-10s %@8d\n"), keys, values);  // "read             42\n"
inline void print_printa(std::string& out, const format& f, std::span<const traced> keys,
                         std::span<const aggregated> values) {
  std::size_t next_key = 0, next_value = 0;
  detail::print_pieces(
      out, f,
      [&]() -> const traced* { return next_key < keys.size() ? &keys[next_key++] : nullptr; },
      [&](const conversion& c, long long width, int precision) {
        if (values.empty()) {
          out += c.text;
          return;
        }
        const aggregated& a = values[next_value < values.size() ? next_value : values.size() - 1];
        ++next_value;
        if (!agg::is_histogram(a.fn.kind)) {
          detail::print_conversion(out, c, width, precision, scalar_value(a));
          return;
        }
        print_histogram(out, a);
      });
}

/// trace(): one record as Linux DTrace prints it. Integers by size and signedness, " %3d",
/// " %5d", " %10d", " %19d" signed or " %20u" unsigned 64-bit (no width when quiet); strings as
/// "  %-33s" (raw when quiet); stacks one frame a line.
inline void print_trace(std::string& out, const traced& v, bool quiet) {
  switch (v.type) {
    case traced::kind::string: {
      const auto text = detail::until_nul(v.text);
      if (quiet)
        out += text;
      else
        detail::append(out, "  %-33.*s", static_cast<int>(text.size()), text.data());
      return;
    }
    case traced::kind::stack:
      detail::print_stack(out, v.frames, 14, "%s");
      return;
    case traced::kind::symbol:
      detail::print_symbol(out, v.text);
      return;
    case traced::kind::integer:
      break;
  }
  int width = 0;
  switch (v.size) {
    case 1:
      width = 3;
      break;
    case 2:
      width = 5;
      break;
    case 4:
      width = 10;
      break;
    case 8:
      width = v.is_signed ? 19 : 20;
      break;
    default: {  // no such integer: its bytes, as DTrace dumps a record it cannot print
      std::string bytes;
      for (std::uint32_t i = 0; i < v.size && i < 8; ++i)
        bytes += static_cast<char>(v.bits >> (8 * i));
      print_raw_bytes(out, bytes);
      return;
    }
  }
  if (quiet)
    width = 0;
  else
    out += ' ';
  if (v.is_signed)
    detail::append(out, "%*lld", width, static_cast<long long>(v.as_signed()));
  else
    detail::append(out, "%*llu", width, static_cast<unsigned long long>(v.as_unsigned()));
}

}  // namespace dtpp::print
