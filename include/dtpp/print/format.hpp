// DTrace's printf(), printa() and trace() output as pure functions over traced values: a format
// is parsed once, then printed as often as records arrive.
#pragma once

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
#include "dtpp/print/histogram.hpp"
#include "dtpp/print/record.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::print {

/// One conversion of a format, `%[flags][width][.precision][size]letter`, with `@` among the
/// flags for printa()'s aggregation value.
struct conversion {
  enum class type : std::uint8_t {
    integer,            ///< d i u o x X p, with or without h hh l ll
    character,          ///< c
    wide_character,     ///< lc wc
    escaped_character,  ///< C
    string,             ///< s, ls, ws
    escaped_string,     ///< S
    address,            ///< a (kernel symbol: printed as 0x... in-process)
    user_address,       ///< A (user symbol: likewise)
    stack,              ///< k
    time,               ///< Y
    time_rfc822,        ///< T
    floating,           ///< e E f g G and their L forms: D has no floats, so printed as written
  };

  type kind = type::integer;
  std::string name;   ///< DTrace's name for it: "d", "llx", "hd", "S", ...
  char letter = 'd';  ///< integers: the C conversion (d i u o x X); %p prints as x
  int sign = 0;       ///< integers: +1 always signed, -1 always unsigned, 0 as the argument is
  bool alternate = false, zero_pad = false, left = false, plus = false, group = false,
       space = false;
  int width = 0;
  int precision = 0;  ///< 0 stands for none: DTrace passes on only positive precisions
  bool dynamic_width = false, dynamic_precision = false;
  bool aggregation = false;  ///< %@...: an aggregation's value (printa only)
  std::string text;          ///< the conversion as written, "%-*d"
};

/// A printf() or printa() format string, parsed once into literal text and conversions.
///
///     const auto f = dtpp::print::format::parse("%s has %d\n");
///     std::string out;
///     const dtpp::print::traced args[] = {traced::string("x"), traced::integer(3, 4, true)};
///     dtpp::print::print(out, f, args);  // "x has 3\n"
class format {
 public:
  /// Text to print, then (except perhaps in the last piece) a conversion.
  struct piece {
    std::string text;
    std::optional<conversion> conv;
  };

  /// Parses any string without failing: `%%` becomes text, and a conversion DTrace does not
  /// know (or a malformed one) is kept as literal text, consuming no argument.
  static format parse(std::string_view source);

  std::string_view source() const { return source_; }
  const std::vector<piece>& pieces() const { return pieces_; }

 private:
  std::string source_;
  std::vector<piece> pieces_;
};

namespace detail {

struct conversion_name {
  conversion::type kind;
  char letter;
  int sign;
};

// DTrace's conversion dictionary (dt_printf.c), plus the hh forms C has.
inline std::optional<conversion_name> find_conversion(std::string_view name) {
  using t = conversion::type;
  if (name.empty()) return std::nullopt;
  const char letter = name.back();
  const std::string_view size = name.substr(0, name.size() - 1);
  // d i u o x X after no size, h, hh, l or ll: a plain %d or %i follows the argument's
  // signedness, a sized one is signed.
  if (std::string_view("diuoxX").find(letter) != std::string_view::npos &&
      (size.empty() || size == "h" || size == "hh" || size == "l" || size == "ll")) {
    const bool signed_letter = letter == 'd' || letter == 'i';
    return conversion_name{t::integer, letter, signed_letter ? (size.empty() ? 0 : 1) : -1};
  }
  if (std::string_view("eEfgG").find(letter) != std::string_view::npos &&
      (size.empty() || size == "L"))
    return conversion_name{t::floating, letter, 0};
  static constexpr struct {
    std::string_view name;
    conversion_name conv;
  } others[] = {
      {"p", {t::integer, 'x', -1}},
      {"c", {t::character, 'c', 1}},
      {"lc", {t::wide_character, 'c', 1}},
      {"wc", {t::wide_character, 'c', 1}},
      {"C", {t::escaped_character, 's', 0}},
      {"s", {t::string, 's', 0}},
      {"ls", {t::string, 's', 0}},
      {"ws", {t::string, 's', 0}},
      {"S", {t::escaped_string, 's', 0}},
      {"a", {t::address, 's', 0}},
      {"A", {t::user_address, 's', 0}},
      {"k", {t::stack, 's', 0}},
      {"Y", {t::time, 's', 0}},
      {"T", {t::time_rfc822, 's', 0}},
  };
  for (const auto& other : others)
    if (other.name == name) return other.conv;
  return std::nullopt;
}

// Parses the conversion starting at source[at] == '%'. Sets `end` past what it read; returns
// nothing for %% (text "%") and for what DTrace would reject (the text it read stays literal).
inline std::optional<conversion> parse_conversion(std::string_view source, std::size_t at,
                                                  std::size_t& end) {
  conversion c;
  std::size_t i = at + 1;
  bool dot = false;
  int digits = 0;
  const auto fail = [&](std::size_t stop) {
    end = stop;
    return std::nullopt;
  };
  for (;; ++i) {
    if (i == source.size()) return fail(i);
    const char ch = source[i];
    if (ch >= '0' && ch <= '9') {
      if (!dot && digits == 0 && ch == '0') {  // '0' before any width digit: zero padding
        c.zero_pad = true;
        c.left = false;
        continue;
      }
      long long n = 0;
      for (; i < source.size() && source[i] >= '0' && source[i] <= '9'; ++i)
        if (n < 0x7fffffff) n = n * 10 + (source[i] - '0');
      (dot ? c.precision : c.width) = static_cast<int>(n < 0x7fffffff ? n : 0x7fffffff);
      --i;
      ++digits;
      continue;
    }
    switch (ch) {
      case '#':
        c.alternate = true;
        continue;
      case '+':
        c.plus = true;
        continue;
      case '\'':
        c.group = true;
        continue;
      case ' ':
        c.space = true;
        continue;
      case '@':
        c.aggregation = true;
        continue;
      case '?':  // a pointer's width on LP64
        c.width = 16;
        continue;
      case '-':
        c.left = true;
        c.zero_pad = false;
        continue;
      case '*': {
        bool& dynamic = dot ? c.dynamic_precision : c.dynamic_width;
        if (dynamic) return fail(i + 1);
        dynamic = true;
        continue;
      }
      case '.':
        if (dot) return fail(i + 1);
        dot = true;
        digits = 0;
        continue;
      case 'h':
      case 'l':
      case 'L':
      case 'w':
        if (c.name.size() < 6) c.name += ch;
        continue;
      case '%':
        if (i == at + 1) {
          end = i + 1;
          return std::nullopt;
        }
        return fail(i + 1);
      case '$':  // positional arguments: rejected by DTrace
        return fail(i + 1);
      default:
        break;
    }
    c.name += ch;
    end = i + 1;
    c.text = std::string(source.substr(at, end - at));
    const auto known = find_conversion(c.name);
    if (!known) return std::nullopt;
    c.kind = known->kind;
    c.letter = known->letter;
    c.sign = known->sign;
    return c;
  }
}

}  // namespace detail

inline format format::parse(std::string_view source) {
  format f;
  f.source_ = std::string(source);
  piece current;
  std::size_t i = 0;
  while (i < source.size()) {
    const auto percent = source.find('%', i);
    if (percent == std::string_view::npos) {
      current.text += source.substr(i);
      break;
    }
    current.text += source.substr(i, percent - i);
    std::size_t end = percent + 1;
    auto conv = detail::parse_conversion(source, percent, end);
    if (conv) {
      current.conv = std::move(conv);
      f.pieces_.push_back(std::move(current));
      current = {};
    } else if (source.substr(percent, end - percent) == "%%") {
      current.text += '%';
    } else {
      current.text += source.substr(percent, end - percent);
    }
    i = end;
  }
  if (!current.text.empty() || f.pieces_.empty()) f.pieces_.push_back(std::move(current));
  return f;
}

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

// The text a conversion that wants a string prints for an argument of another kind (which the
// D checker rejects): integers in decimal, stacks as their addresses.
inline std::string text_of(const traced& v) {
  switch (v.type) {
    case traced::kind::string:
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
  using t = conversion::type;
  const bool integer = v.type == traced::kind::integer;
  const auto as_string = [&](const std::string& text) {
    append_spec(out, spec(c, width, precision, "", 's'), text.c_str());
  };
  switch (c.kind) {
    case t::integer: {
      if (!integer) return as_string(text_of(v));
      const bool is_signed = c.sign != 0 ? c.sign > 0 : v.is_signed;
      if (is_signed) {
        append_spec(out, spec(c, width, precision, "ll", c.letter),
                    static_cast<long long>(v.as_signed()));
      } else {
        // %d of an unsigned value prints unsigned, as DTrace switches it to %u.
        const char letter = c.letter == 'd' || c.letter == 'i' ? 'u' : c.letter;
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
    case t::floating:
      out += c.text;
      return;
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
