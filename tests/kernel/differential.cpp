// dtpp_differential DTPP: the two engines on the same generated D programs must print the same
// bytes. Programs are generated from a fixed seed (the same ones every run): integer expressions
// over edge values of every width and signedness (INT64_MIN, division and modulo by negative
// numbers and zero, shifts by 0 .. 65, signed/unsigned comparisons), string comparisons and
// formatting, the string subroutines both engines run (strjoin, toupper, tolower, lltostr,
// stringof, substr, strchr, strrchr), the byte-order and dev_t subroutines, and the aggregating
// functions over those values; then index, rindex, strstr, basename, dirname, cleanpath,
// strtok (with strtok(NULL, ...) going on) and strtoll at their edges. Each expression sits in a
// BEGIN clause of its own, so that a fault ends only its line.
// Each program runs as `DTPP -q -x engine=kernel -s FILE` and with engine=inproc; standard
// output, standard error and the exit status are compared, and every difference is printed with
// the program's clause.
// Exits 0 when they agree, 1 when not; prints dtpp-kernel-skip: where the kernel cannot be used.
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dtpp/kernel/driver.hpp"

namespace {

// A deterministic generator: std::mt19937_64's sequence is fixed by the standard, which the
// distributions' are not, so choices are taken from it by remainder.
class chooser {
 public:
  explicit chooser(std::uint64_t seed) : state_(seed) {}
  std::size_t below(std::size_t n) {
    state_ = state_ * 6364136223846793005u + 1442695040888963407u;  // Knuth's MMIX LCG
    return static_cast<std::size_t>((state_ >> 33) % n);
  }
  template <class T>
  const T& pick(const std::vector<T>& from) { return from[below(from.size())]; }

 private:
  std::uint64_t state_;
};

struct variable {
  std::string type, name, value;
};

// Globals of every integer width, set in the first clause: being variables, expressions over them
// are computed by the engines rather than folded by the compiler.
const std::vector<variable> integers = {
    {"int64_t", "i_min", "-9223372036854775807 - 1"}, {"int64_t", "i_max", "9223372036854775807"},
    {"int64_t", "i_m1", "-1"}, {"int64_t", "i_0", "0"}, {"int64_t", "i_1", "1"}, {"int64_t", "i_2", "2"},
    {"int64_t", "i_m7", "-7"}, {"int64_t", "i_7", "7"}, {"int64_t", "i_63", "63"}, {"int64_t", "i_64", "64"},
    {"int64_t", "i_65", "65"}, {"int64_t", "i_2p32", "4294967296"}, {"int64_t", "i_m2p32", "-4294967297"},
    {"uint64_t", "u_max", "0xffffffffffffffff"}, {"uint64_t", "u_top", "0x8000000000000000"},
    {"uint64_t", "u_0", "0"}, {"uint64_t", "u_3", "3"}, {"uint64_t", "u_1000", "1000"},
    {"int32_t", "i32_min", "-2147483647 - 1"}, {"int32_t", "i32_max", "2147483647"}, {"int32_t", "i32_m5", "-5"},
    {"uint32_t", "u32_max", "0xffffffff"}, {"uint32_t", "u32_top", "0x80000000"},
    {"int16_t", "i16_min", "-32768"}, {"uint16_t", "u16_max", "65535"},
    {"int8_t", "i8_min", "-128"}, {"uint8_t", "u8_max", "255"}, {"char", "c_z", "'z'"},
};

const std::vector<variable> strings = {
    {"string", "s_empty", "\"\""}, {"string", "s_a", "\"a\""}, {"string", "s_ab", "\"ab\""},
    {"string", "s_b", "\"b\""}, {"string", "s_path", "\"/usr//lib/\""}, {"string", "s_upper", "\"ZZ top\""},
    {"string", "s_long", "\"" + std::string(300, 'x') + "\""},  // past strsize: truncated to 255
    {"string", "s_tab", "\"a\\tb\""},
};

std::string integer_expression(chooser& c, int depth) {
  if (depth == 0 || c.below(4) == 0) {
    if (c.below(6) == 0) return c.pick(std::vector<std::string>{"0", "1", "-1", "3", "64", "0xffffffff", "'a'"});
    return c.pick(integers).name;
  }
  const auto sub = [&] { return integer_expression(c, depth - 1); };
  switch (c.below(11)) {
    case 0: return "(" + c.pick(std::vector<std::string>{"-", "~", "!"}) + " " + sub() + ")";  // not --1
    case 10:
      return c.pick(std::vector<std::string>{"htons(", "htonl(", "htonll(", "ntohs(", "ntohl(", "ntohll(", "getmajor(",
                                             "getminor("}) +
             sub() + ")";
    case 1:
      return "((" +
             c.pick(std::vector<std::string>{"int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t",
                                             "int64_t", "uint64_t", "char"}) +
             ")" + sub() + ")";
    case 2: return "(" + sub() + " ? " + sub() + " : " + sub() + ")";
    case 3:  // by a variable: a constant divisor of 0 is a compile error, not a fault
      return "(" + sub() + " " + c.pick(std::vector<std::string>{"/", "%"}) + " " + c.pick(integers).name + ")";
    case 4: return "(" + sub() + " " + c.pick(std::vector<std::string>{"<<", ">>"}) + " " + sub() + ")";
    case 5:
      return "(" + sub() + " " + c.pick(std::vector<std::string>{"<", "<=", ">", ">=", "==", "!="}) + " " + sub() + ")";
    case 6: return "(" + sub() + " " + c.pick(std::vector<std::string>{"&&", "||", "^^"}) + " " + sub() + ")";
    default: return "(" + sub() + " " + c.pick(std::vector<std::string>{"+", "-", "*", "&", "|", "^"}) + " " + sub() + ")";
  }
}

std::string string_expression(chooser& c, int depth) {
  if (depth == 0 || c.below(3) != 0) {
    if (c.below(5) == 0) return c.pick(std::vector<std::string>{"\"\"", "\"a\"", "\"zz\""});
    return c.pick(strings).name;
  }
  const auto sub = [&] { return string_expression(c, depth - 1); };
  switch (c.below(7)) {
    case 0: return "strjoin(" + sub() + ", " + sub() + ")";
    case 1: return c.pick(std::vector<std::string>{"toupper(", "tolower("}) + sub() + ")";
    case 2: return c.pick(std::vector<std::string>{"lltostr(", "stringof("}) + integer_expression(c, 1) + ")";
    case 3:
      return "substr(" + sub() + ", " + integer_expression(c, 1) +
             (c.below(2) ? ")" : ", " + integer_expression(c, 1) + ")");
    case 4: return c.pick(std::vector<std::string>{"strchr(", "strrchr("}) + sub() + ", " + integer_expression(c, 1) + ")";
    default: return "(" + integer_expression(c, 1) + " ? " + sub() + " : " + sub() + ")";
  }
}

std::string declarations(const std::vector<variable>& vars) {
  std::string out;
  for (const auto& v : vars) out += v.type + " " + v.name + ";\n";
  out += "BEGIN\n{\n";
  for (const auto& v : vars) out += "\t" + v.name + " = " + v.value + ";\n";
  return out + "}\n";
}

// Integer expressions, one clause each, printed in a few formats.
std::string integer_program(chooser& c, int clauses) {
  auto out = declarations(integers);
  for (int i = 0; i < clauses; ++i) {
    const auto format = c.pick(std::vector<std::string>{"%d", "%u", "%x", "%i"});
    out += "BEGIN { printf(\"" + std::to_string(i) + " " + format + "\\n\", " + integer_expression(c, 3) + "); }\n";
  }
  return out + "BEGIN { exit(0); }\n";
}

// String comparisons, choices and widths, and strlen.
std::string string_program(chooser& c, int clauses) {
  auto vars = integers;
  vars.insert(vars.end(), strings.begin(), strings.end());
  auto out = declarations(vars);
  for (int i = 0; i < clauses; ++i) {
    const auto n = std::to_string(i);
    switch (c.below(3)) {
      case 0:
        out += "BEGIN { printf(\"" + n + " [" +
               c.pick(std::vector<std::string>{"%s", "%5s", "%-5s", "%.1s", "%10.3s"}) + "]\\n\", " +
               string_expression(c, 2) + "); }\n";
        break;
      case 1:
        out += "BEGIN { printf(\"" + n + " %d\\n\", " + string_expression(c, 2) + " " +
               c.pick(std::vector<std::string>{"<", "<=", ">", ">=", "==", "!="}) + " " + string_expression(c, 2) +
               "); }\n";
        break;
      default: out += "BEGIN { printf(\"" + n + " %d\\n\", strlen(" + string_expression(c, 2) + ")); }\n";
    }
  }
  return out + "BEGIN { exit(0); }\n";
}

// Every aggregating function over generated values, keyed by small integers and by strings,
// printed by dtrace(1)'s automatic printing at the end.
std::string aggregation_program(chooser& c, int clauses) {
  auto vars = integers;
  vars.insert(vars.end(), strings.begin(), strings.end());
  auto out = declarations(vars);
  for (int i = 0; i < clauses; ++i) {
    const auto key = "(" + integer_expression(c, 1) + ") & 3";
    const auto value = integer_expression(c, 2);
    out += "BEGIN { this->k = " + key + "; this->v = (int64_t)" + value + "; this->s = " + string_expression(c, 1) +
           ";\n"
           "\t@count[this->k] = count(); @sum[this->k] = sum(this->v); @min[this->k] = min(this->v);\n"
           "\t@max[this->k] = max(this->v); @avg[this->k] = avg(this->v); @stddev[this->k] = stddev(this->v);\n"
           "\t@quantize[this->k] = quantize(this->v); @lquantize = lquantize(this->v, -100, 100, 25);\n"
           "\t@llquantize = llquantize(this->v, 10, 0, 3, 10); @strings[this->s, this->k] = sum(this->v); }\n";
  }
  return out + "BEGIN { exit(0); }\n";
}

// The searching, path and parsing subroutines at their edges: not found, "" on either side,
// starts before, at and past the ends, paths of slashes only, signs, prefixes, bases and
// overflow. Each costs the verifier some 60,000 to 100,000 instructions, so a program holds a
// handful.
const std::vector<std::string> edge_cases = {
    "index(\"abc\", \"b\")", "index(\"abc\", \"\")", "index(\"\", \"\")", "index(\"\", \"a\")",
    "index(\"abcabc\", \"bc\", 2)", "index(\"abc\", \"c\", -5)", "index(\"abc\", \"\", 5)",
    "index(\"abc\", \"abcd\")", "index(\"abc\", \"a\", 3)", "index(s_long, \"xx\", 250)",
    "rindex(\"abcabc\", \"bc\")", "rindex(\"abc\", \"\", -1)", "rindex(\"abc\", \"a\", -1)",
    "rindex(\"abcabc\", \"bc\", 3)", "rindex(\"abcabc\", \"bc\", 100)", "rindex(\"abc\", \"\")",
    "rindex(\"\", \"\")", "rindex(s_long, \"xx\")", "rindex(\"aaa\", \"aa\", 0)",
    "strstr(\"abcabc\", \"ca\")", "strstr(\"abc\", \"\")", "strstr(\"abc\", \"x\")", "strstr(\"\", \"\")",
    "strstr(s_path, \"/\")",
    "basename(\"/\")", "basename(\"\")", "basename(\"a//b/\")", "basename(\"a\")", "basename(s_path)",
    "basename(\"///\")", "basename(\"/a\")", "basename(\"a/\")",
    "dirname(\"/\")", "dirname(\"\")", "dirname(\"a//b/\")", "dirname(\"a\")", "dirname(s_path)",
    "dirname(\"///\")", "dirname(\"/a\")", "dirname(\"//a//b\")",
    "strtoll(\"  -42x\")", "strtoll(\"0x1F\", 16)", "strtoll(\"+7\")", "strtoll(\"\")", "strtoll(\"zZ\", 36)",
    "strtoll(\"9223372036854775807\")", "strtoll(\"-9223372036854775808\")", "strtoll(\"18446744073709551617\")",
    "strtoll(s_tab)", "strtoll(\"0x\", 16)", "strtoll(\"778\", 8)", "strtoll(\"- 1\")", "strtoll(\"\\t 12\")",
    "strtoll(\"0xg\", 16)", "strtoll(\"12\", 2)",
    "strtok(\"  ab cd\", \" \")", "strtok(\"abc\", \"\")", "strtok(\"\", \"a\")", "strtok(\",,,\", \",\")",
    "strtok(s_path, \"/\")", "strtok(\"xx;yy\", \";x\")", "strtok(s_long, \"y\")", "strtok(s_tab, s_tab)",
    "cleanpath(\"..\")",
    // strtok(NULL, ...) goes on with the thread's string from clause to clause: these eight make
    // one program of their own (cases 64 to 71), the last ones past an offset of 128.
    "strtok(\"a,b;;c\", \",\")", "strtok(NULL, \";\")", "strtok(NULL, \",;\")", "strtok(0, \",\")",
    "strtok(strjoin(substr(s_long, 10), \",yz\"), \",\")", "strtok(NULL, \"y\")", "strtok(NULL, \"\")",
    "strtok(NULL, \"\")",
    "cleanpath(\"/./a/../b\")", "cleanpath(\"\")", "cleanpath(\"/\")", "cleanpath(\"a/..\")",
    "cleanpath(\"../a/../../b\")", "cleanpath(\"/../x//y/./\")", "cleanpath(\"a/b/c/../../d\")",
    "cleanpath(\"...\")", "cleanpath(s_path)", "cleanpath(\"/a/b/..\")", "cleanpath(\"./.\")",
    "cleanpath(\"a/../../..\")", "cleanpath(\"/..\")", "cleanpath(\"a//b//\")", "cleanpath(s_long)",
    "strtoll(\"1\", 37)",  // last: the fault ends its program
};

// The edge cases from `first` on, `count` of them, one clause each.
std::string edge_program(std::size_t first, std::size_t count) {
  auto out = declarations(strings);
  for (auto i = first; i < std::min(first + count, edge_cases.size()); ++i) {
    const auto& e = edge_cases[i];
    const bool integer = e.rfind("index", 0) == 0 || e.rfind("rindex", 0) == 0 || e.rfind("strtoll", 0) == 0;
    out += "BEGIN { printf(\"" + std::to_string(i) + (integer ? " %d\\n\", " : " [%s]\\n\", ") + e + "); }\n";
  }
  return out + "BEGIN { exit(0); }\n";
}

struct outcome {
  std::string out, err;
  int status = -1;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// A fault's pc is each engine's own (docs/kernel.md, docs/inproc.md): a non-zero one is masked,
// as dtrace-utils' runtest.sh masks it; 0 is no pc and stays, to differ.
std::string without_pcs(std::string err) {
  static const std::regex pc("at BPF pc [1-9][0-9]*");
  return std::regex_replace(err, pc, "at BPF pc NNN");
}

outcome run(const std::string& dtpp, const std::string& script, const std::string& engine) {
  const auto out = script + "." + engine + ".out", err = script + "." + engine + ".err";
  const auto command = quoted(dtpp) + " -q -x engine=" + engine + " -s " + quoted(script) + " > " + quoted(out) +
                       " 2> " + quoted(err);
  const int status = std::system(command.c_str());
  return {slurp(out), without_pcs(slurp(err)), WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)};
}

// The first differing lines of two outputs, each with its line number.
void show_difference(const std::string& what, const std::string& kernel, const std::string& inproc) {
  std::istringstream k(kernel), p(inproc);
  std::string a, b;
  int line = 0, shown = 0;
  while (shown < 10) {
    const bool more_k = static_cast<bool>(std::getline(k, a)), more_p = static_cast<bool>(std::getline(p, b));
    if (!more_k && !more_p) break;
    ++line;
    if (more_k && more_p && a == b) continue;
    std::cout << what << " line " << line << ":\n  kernel: " << (more_k ? a : "(none)")
              << "\n  inproc: " << (more_p ? b : "(none)") << "\n";
    ++shown;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: dtpp_differential DTPP WORKDIR\n";
    return 2;
  }
  if (const auto why = dtpp::kernel::unavailable()) {
    std::cout << "dtpp-kernel-skip: " << *why << "\n";
    return 0;
  }
  const std::string dtpp = argv[1], dir = argv[2];
  // Batches the kernel engine loads: about 150 clauses of string operations exceed the
  // verifier's 8,192 pending branches, and string temporaries fill the 32 KiB of scratch
  // (docs/fuzzing.md).
  chooser c(20261125);
  std::vector<std::pair<std::string, std::string>> programs = {
      {"integers_1", integer_program(c, 200)}, {"integers_2", integer_program(c, 200)},
      {"strings_1", string_program(c, 30)}, {"strings_2", string_program(c, 30)},
      {"strings_3", string_program(c, 30)}, {"strings_4", string_program(c, 30)},
      {"strings_5", string_program(c, 30)},
      {"aggregations_1", aggregation_program(c, 30)}, {"aggregations_2", aggregation_program(c, 30)},
  };
  // Four edges a program: a cleanpath() costs the verifier some 110,000 of its 1,000,000
  // instructions, and a BEGIN program holds every clause.
  for (std::size_t first = 0; first < edge_cases.size(); first += 4)
    programs.push_back({"edges_" + std::to_string(first / 4 + 1), edge_program(first, 4)});
  // Two runs at a time: most of a kernel run is the verifier's, and the machine has two CPUs.
  const std::vector<std::string> engines = {"kernel", "inproc"};
  std::vector<outcome> outcomes(programs.size() * engines.size());
  std::atomic<std::size_t> next_run = 0;
  const auto worker = [&] {
    for (std::size_t i; (i = next_run++) < outcomes.size();)
      outcomes[i] = run(dtpp, dir + "/" + programs[i / engines.size()].first + ".d", engines[i % engines.size()]);
  };
  for (const auto& [name, text] : programs) std::ofstream(dir + "/" + name + ".d", std::ios::binary) << text;
  std::thread second(worker);
  worker();
  second.join();

  int differences = 0;
  for (std::size_t p = 0; p < programs.size(); ++p) {
    const auto script = dir + "/" + programs[p].first + ".d";
    const auto& kernel = outcomes[2 * p];
    const auto& inproc = outcomes[2 * p + 1];
    // Every program prints: two empty outputs would agree and prove nothing (a wrong DTPP path).
    const bool same = !kernel.out.empty() && kernel.out == inproc.out && kernel.err == inproc.err &&
                      kernel.status == inproc.status;
    std::cout << programs[p].first << ": " << std::count(kernel.out.begin(), kernel.out.end(), '\n')
              << " lines, " << (same ? "the same" : kernel.out.empty() ? "NOTHING PRINTED" : "DIFFERENT") << " ("
              << script << ")\n";
    if (same) continue;
    ++differences;
    if (kernel.status != inproc.status)
      std::cout << "exit status: kernel " << kernel.status << ", inproc " << inproc.status << "\n";
    show_difference("stdout", kernel.out, inproc.out);
    show_difference("stderr", kernel.err, inproc.err);
  }
  return differences == 0 ? 0 : 1;
}
