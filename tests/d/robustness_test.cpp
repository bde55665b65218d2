// Malformed input of every kind gives diagnostics, never a crash, a hang or unbounded memory.
#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "dtpp/d/check.hpp"

using namespace dtpp::d;

namespace {
compile_result compile_text(std::string text) {
  const source_file source("x.d", std::move(text));
  return compile(source);
}
}  // namespace

TEST_CASE("random bytes are rejected with diagnostics", "[d][robustness]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::string text(static_cast<std::size_t>(rng() % 2000), '\0');
    for (auto& c : text) c = static_cast<char>(rng());
    const auto r = compile_text(text);
    CHECK(!r.errors.empty());
  }
}

TEST_CASE("D-looking random tokens never crash the checker", "[d][robustness]") {
  const char* const tokens[] = {"BEGIN", "{", "}", "(", ")", "[", "]", "@a", "=", "count()", "x",
                                "self->", "this->", "+", "/", "?", ":", ";", ",", "\"s\"", "'c'",
                                "1", "0x10", "$1", "printf(", "printa(", "quantize(", "lquantize(",
                                "trunc(", "-", "!", "++", "sizeof", "(int)", "args[", "tick-1s"};
  std::mt19937 rng(11);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const auto n = rng() % 40;
    for (unsigned i = 0; i < n; ++i) text += std::string(tokens[rng() % std::size(tokens)]) + " ";
    (void)compile_text(text);  // any outcome but a crash
  }
  SUCCEED();
}

TEST_CASE("deep nesting is an error, not a stack overflow", "[d][robustness]") {
  for (const char* open : {"(", "[", "{", "x ? "}) {
    std::string text = "BEGIN { x = ";
    for (int i = 0; i < 100000; ++i) text += open;
    const auto r = compile_text(text);
    REQUIRE(!r.errors.empty());
    CHECK(r.errors[0].tag == "D_SYNTAX");
  }
  std::string prefixes = "BEGIN { x = ";
  for (int i = 0; i < 100000; ++i) prefixes += "-!~";
  prefixes += "1; }";
  const auto p = compile_text(prefixes);
  REQUIRE(p.errors.size() == 1);
  CHECK(p.errors[0].message == "expression nested too deeply (more than 1000 levels)");
}

TEST_CASE("chains of sizeof and stringof are an error, not a stack overflow", "[d][robustness]") {
  // They recurse in the grammar itself (no brackets): the recursion is bounded where it happens.
  for (const char* op : {"sizeof ", "stringof ", "sizeof -", "stringof (int) ! "}) {
    std::string text = "BEGIN { x = ";
    for (int i = 0; i < 100000; ++i) text += op;
    text += "1; }";
    const auto r = compile_text(text);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message == "expression nested too deeply (more than 1000 levels)");
  }
  // The error points at the operand that went too deep: the 1000th sizeof, after `x = `.
  std::string sizeofs = "BEGIN { x = ";
  for (int i = 0; i < 2000; ++i) sizeofs += "sizeof ";
  CHECK(compile_text(sizeofs + "1; }").errors.at(0).where.begin == 12 + 999 * 7);
  // The same in a declaration's initialiser, whose errors are reported apart from clauses'.
  std::string declaration = "int x = ";
  for (int i = 0; i < 100000; ++i) declaration += "sizeof ";
  const auto d = compile_text(declaration + "1; BEGIN { y = ");
  REQUIRE(d.errors.size() == 2);
  CHECK(d.errors[0].message == "expression nested too deeply (more than 1000 levels)");
  CHECK(d.errors[1].message == "syntax error near end of input");
  // Below the bound, a chain parses.
  std::string fine = "BEGIN { x = ";
  for (int i = 0; i < 500; ++i) fine += "sizeof ";
  CHECK(compile_text(fine + "1; }").errors.empty());
}

TEST_CASE("a 1 MB line and long strings compile", "[d][robustness]") {
  std::string text = "BEGIN { x = \"" + std::string(1 << 20, 'a') + "\"; trace(x); }";
  const auto r = compile_text(text);
  CHECK(r.errors.empty());
  std::string sum = "BEGIN { x = 0";
  for (int i = 0; i < 900; ++i) sum += " + 1";
  sum += "; trace(x); }";
  const auto s = compile_text(sum);
  REQUIRE(s.errors.empty());
  CHECK(s.program.clauses[0].statements[0].args[0].kids[1].value == 900);  // folded
  std::string longer = "BEGIN { x = 0";
  for (int i = 0; i < 100000; ++i) longer += " + 1";
  CHECK(compile_text(longer + "; }").errors.at(0).message ==
        "expression nested too deeply (more than 1000 levels)");
}

TEST_CASE("macro arguments with absurd numbers are undefined, not a crash", "[d][robustness]") {
  // Found by the fuzzer: $N with more digits than an unsigned long holds.
  CHECK(compile_text("BEGIN { trace($99999999999999999999999); }").errors.at(0).tag == "D_MACRO_UNDEF");
  CHECK(compile_text("pid$99999999999999999999999::main:entry {}").errors.at(0).tag == "D_PDESC_INVAL");
}

TEST_CASE("unterminated strings, comments and clauses are reported", "[d][robustness]") {
  CHECK(compile_text("BEGIN { x = \"abc").errors.at(0).message == "newline encountered in string literal");
  CHECK(compile_text("BEGIN { /* abc").errors.at(0).message == "end-of-file encountered before matching */");
  CHECK(compile_text("BEGIN { x = 1;").errors.at(0).message == "syntax error near end of input");
  CHECK(compile_text("").errors.at(0).tag == "D_EMPTY");
}

TEST_CASE("a script of 5000 clauses compiles", "[d][scale]") {
  std::string text;
  for (int i = 0; i < 5000; ++i)
    text += "syscall::read:entry /pid == " + std::to_string(i) + "/ { @c[probefunc] = count(); self->t" +
            std::to_string(i % 50) + " = timestamp; }\n";
  const auto r = compile_text(text);
  REQUIRE(r.errors.empty());
  CHECK(r.program.clauses.size() == 5000);
  CHECK(r.program.aggregations.size() == 1);
  CHECK(r.program.variables.size() == 50);
}
