// printf() and printa() formats as DTrace reads them: its table of conversions (what each
// accepts, how it prints), and the parse of a format into text and conversions, done once. The D
// checker validates arguments against this table and keeps the parsed format; the formatter
// (print/format.hpp) prints from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtpp::print {

/// How a conversion prints its argument.
enum class conversion_kind : std::uint8_t {
  integer,            ///< d i u o x X p, with or without h l ll
  character,          ///< c
  wide_character,     ///< lc wc
  escaped_character,  ///< C
  string,             ///< s ls ws
  escaped_string,     ///< S
  address,            ///< a (a kernel symbol, from kallsyms; 0x... where none holds it)
  user_address,       ///< A (a user symbol: printed as 0x...)
  stack,              ///< k
  time,               ///< Y
  time_rfc822,        ///< T
  floating,           ///< e E f g G and their L forms: a float's or double's bits as a number
};

/// What argument a conversion takes, as far as D's types tell them apart.
enum class conversion_argument : std::uint8_t {
  integer,        ///< any integer
  small_integer,  ///< an integer of at most 4 bytes (char, short, int)
  time,           ///< an 8-byte integer (nanoseconds since the epoch)
  string,
  wide_string,  ///< a wchar_t array, which D cannot make
  stack,        ///< stack() or ustack()
  floating,     ///< a float or a double
  long_double,  ///< a long double, which dtpp's D has not
};

/// One entry of DTrace's conversion table (libdtrace's dt_printf.c dictionary, the same names):
/// the name after '%' and the flags, how it prints, and what it accepts.
struct conversion_info {
  std::string_view name;          ///< size prefix and letter: "d", "lld", "hx", "S"
  conversion_kind kind;
  char letter;                    ///< integers: the C conversion printed (%p prints as x)
  int sign;                       ///< integers: +1 signed, -1 unsigned, 0 as the argument is
  conversion_argument accepts;
  std::string_view prototype;     ///< what DTrace's type error names as expected
};

namespace detail {
inline constexpr std::string_view any_integer = "char, short, int, long, or long long";
inline constexpr std::string_view small_integer = "char, short, or int";
inline constexpr std::string_view floating = "float, double, or long double";
inline constexpr std::string_view pointer = "pointer or integer";
inline constexpr std::string_view c_string = "char [] or string (or use stringof)";
inline constexpr std::string_view wide_string = "wchar_t []";
}  // namespace detail

/// Every conversion DTrace knows; any other name is refused ("format conversion #1 is undefined:
/// %I"). Sized integer conversions (%hd, %ld, %llx ...) take any D integer here: D's types carry
/// no C type identity to hold them to DTrace's exact-type check.
inline constexpr conversion_info conversion_table[] = {
    // clang-format off
    {"a", conversion_kind::address, 's', 0, conversion_argument::integer, detail::pointer},
    {"A", conversion_kind::user_address, 's', 0, conversion_argument::integer, detail::pointer},
    {"c", conversion_kind::character, 'c', 1, conversion_argument::small_integer, detail::small_integer},
    {"C", conversion_kind::escaped_character, 's', 0, conversion_argument::small_integer, detail::small_integer},
    {"d", conversion_kind::integer, 'd', 0, conversion_argument::integer, detail::any_integer},
    {"e", conversion_kind::floating, 'e', 0, conversion_argument::floating, detail::floating},
    {"E", conversion_kind::floating, 'E', 0, conversion_argument::floating, detail::floating},
    {"f", conversion_kind::floating, 'f', 0, conversion_argument::floating, detail::floating},
    {"g", conversion_kind::floating, 'g', 0, conversion_argument::floating, detail::floating},
    {"G", conversion_kind::floating, 'G', 0, conversion_argument::floating, detail::floating},
    {"hd", conversion_kind::integer, 'd', 1, conversion_argument::integer, "short"},
    {"hi", conversion_kind::integer, 'i', 1, conversion_argument::integer, "short"},
    {"ho", conversion_kind::integer, 'o', -1, conversion_argument::integer, "unsigned short"},
    {"hu", conversion_kind::integer, 'u', -1, conversion_argument::integer, "unsigned short"},
    {"hx", conversion_kind::integer, 'x', -1, conversion_argument::integer, "short"},
    {"hX", conversion_kind::integer, 'X', -1, conversion_argument::integer, "short"},
    {"i", conversion_kind::integer, 'i', 0, conversion_argument::integer, detail::any_integer},
    {"k", conversion_kind::stack, 's', 0, conversion_argument::stack, "stack"},
    {"lc", conversion_kind::wide_character, 'c', 1, conversion_argument::integer, "int"},
    {"ld", conversion_kind::integer, 'd', 1, conversion_argument::integer, "long"},
    {"li", conversion_kind::integer, 'i', 1, conversion_argument::integer, "long"},
    {"lo", conversion_kind::integer, 'o', -1, conversion_argument::integer, "unsigned long"},
    {"lu", conversion_kind::integer, 'u', -1, conversion_argument::integer, "unsigned long"},
    {"ls", conversion_kind::string, 's', 0, conversion_argument::wide_string, detail::wide_string},
    {"lx", conversion_kind::integer, 'x', -1, conversion_argument::integer, "long"},
    {"lX", conversion_kind::integer, 'X', -1, conversion_argument::integer, "long"},
    {"lld", conversion_kind::integer, 'd', 1, conversion_argument::integer, "long long"},
    {"lli", conversion_kind::integer, 'i', 1, conversion_argument::integer, "long long"},
    {"llo", conversion_kind::integer, 'o', -1, conversion_argument::integer, "unsigned long long"},
    {"llu", conversion_kind::integer, 'u', -1, conversion_argument::integer, "unsigned long long"},
    {"llx", conversion_kind::integer, 'x', -1, conversion_argument::integer, "long long"},
    {"llX", conversion_kind::integer, 'X', -1, conversion_argument::integer, "long long"},
    {"Le", conversion_kind::floating, 'e', 0, conversion_argument::long_double, "long double"},
    {"LE", conversion_kind::floating, 'E', 0, conversion_argument::long_double, "long double"},
    {"Lf", conversion_kind::floating, 'f', 0, conversion_argument::long_double, "long double"},
    {"Lg", conversion_kind::floating, 'g', 0, conversion_argument::long_double, "long double"},
    {"LG", conversion_kind::floating, 'G', 0, conversion_argument::long_double, "long double"},
    {"o", conversion_kind::integer, 'o', -1, conversion_argument::integer, detail::any_integer},
    {"p", conversion_kind::integer, 'x', -1, conversion_argument::integer, detail::pointer},
    {"s", conversion_kind::string, 's', 0, conversion_argument::string, detail::c_string},
    {"S", conversion_kind::escaped_string, 's', 0, conversion_argument::string, detail::c_string},
    {"T", conversion_kind::time_rfc822, 's', 0, conversion_argument::time, "int64_t"},
    {"u", conversion_kind::integer, 'u', -1, conversion_argument::integer, detail::any_integer},
    {"wc", conversion_kind::wide_character, 'c', 1, conversion_argument::integer, "int"},
    {"ws", conversion_kind::string, 's', 0, conversion_argument::wide_string, detail::wide_string},
    {"x", conversion_kind::integer, 'x', -1, conversion_argument::integer, detail::any_integer},
    {"X", conversion_kind::integer, 'X', -1, conversion_argument::integer, detail::any_integer},
    {"Y", conversion_kind::time, 's', 0, conversion_argument::time, "int64_t"},
    // clang-format on
};

/// The table's entry for a name, or null when DTrace has no such conversion.
inline const conversion_info* find_conversion(std::string_view name) {
  for (const auto& c : conversion_table)
    if (c.name == name) return &c;
  return nullptr;
}

/// One conversion of a format, `%[flags][width][.precision][size]letter`, with `@` among the
/// flags for printa()'s aggregation value.
struct conversion {
  const conversion_info* info = nullptr;  ///< its table entry: how it prints, what it takes
  std::string name;   ///< the table's name for it: "d", "llx", "hd", "S", ...
  std::uint32_t number = 0;  ///< 1-based among the format's '%'s (%% included), as DTrace counts
  bool alternate = false, zero_pad = false, left = false, plus = false, group = false,
       space = false;
  int width = 0;
  int precision = 0;  ///< 0 stands for none: DTrace passes on only positive precisions
  bool dynamic_width = false, dynamic_precision = false;
  bool aggregation = false;  ///< %@...: an aggregation's value (printa only)
  std::string text;          ///< the conversion as written, "%-*d"
};

/// A conversion DTrace's compiler refuses, in its words: "format conversion #<number> <why>".
struct format_error {
  std::uint32_t number = 0;
  std::string why;  ///< "is undefined: %I", "has more than one '.' specified", ...
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

  /// Parses any string without failing: `%%` becomes text, and a conversion DTrace refuses is
  /// kept as literal text, consuming no argument; error() tells the first such.
  static format parse(std::string_view source);

  std::string_view source() const { return source_; }
  const std::vector<piece>& pieces() const { return pieces_; }
  /// The first conversion DTrace's compiler would refuse, if any.
  const std::optional<format_error>& error() const { return error_; }

 private:
  std::string source_;
  std::vector<piece> pieces_;
  std::optional<format_error> error_;
};

namespace detail {

// Reads the conversion at source[at] == '%' as libdtrace's dt_printf_create() does, setting
// `end` past what it read. Returns nothing for %% (`why` left empty) and for what DTrace refuses
// (`why` says why).
inline std::optional<conversion> parse_conversion(std::string_view source, std::size_t at,
                                                  std::size_t& end, std::string& why) {
  conversion c;
  std::size_t i = at + 1;
  bool dot = false;
  int digits = 0;
  const auto refuse = [&](std::size_t stop, std::string reason) {
    end = stop;
    why = std::move(reason);
    return std::nullopt;
  };
  for (;; ++i) {
    if (i == source.size()) return refuse(i, "name expected before end of format string");
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
        if (dynamic)
          return refuse(i + 1, std::string("has more than one '*' specified for the output ") +
                                   (dot ? "precision" : "width"));
        dynamic = true;
        continue;
      }
      case '.':
        if (dot) return refuse(i + 1, "has more than one '.' specified");
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
        return refuse(i + 1, "cannot be combined with other format flags: %%");
      case '$':
        return refuse(i + 1, "uses unsupported positional format (%n$)");
      default:
        break;
    }
    c.name += ch;
    end = i + 1;
    c.text = std::string(source.substr(at, end - at));
    c.info = find_conversion(c.name);
    if (c.info == nullptr) return refuse(end, "is undefined: %" + c.name);
    return c;
  }
}

}  // namespace detail

inline format format::parse(std::string_view source) {
  format f;
  f.source_ = std::string(source);
  piece current;
  std::uint32_t number = 0;
  std::size_t i = 0;
  while (i < source.size()) {
    const auto percent = source.find('%', i);
    if (percent == std::string_view::npos) {
      current.text += source.substr(i);
      break;
    }
    current.text += source.substr(i, percent - i);
    ++number;
    std::size_t end = percent + 1;
    std::string why;
    auto conv = detail::parse_conversion(source, percent, end, why);
    if (conv) {
      conv->number = number;
      current.conv = std::move(conv);
      f.pieces_.push_back(std::move(current));
      current = {};
    } else if (why.empty()) {
      current.text += '%';
    } else {
      if (!f.error_) f.error_ = format_error{number, std::move(why)};
      current.text += source.substr(percent, end - percent);
    }
    i = end;
  }
  if (!current.text.empty() || f.pieces_.empty()) f.pieces_.push_back(std::move(current));
  return f;
}

}  // namespace dtpp::print
