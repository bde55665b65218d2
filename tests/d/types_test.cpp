// Kernel types in the checker, against a small type table of known layout: curthread, -> and .,
// casts, *, stringof, sizeof, what each lowers to, and DTrace's errors with their places; the
// library constants (NULL, errno and signal names).
#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <string>
#include <utility>
#include <vector>

#include "../fake_types.hpp"
#include "dtpp/d/check.hpp"

using namespace dtpp;
using dtpp::testing::fake_types;

namespace {

d::compile_result check(const std::string& text, ir::type_table* types) {
  d::compile_options options;
  options.types = types;
  return d::compile(d::source_file("t.d", text), options);
}

// The checked clause's statements as dump() shows them, without the program's other lines.
std::string lowered(const std::string& text) {
  fake_types types;
  const auto r = check(text, &types);
  INFO(text);
  REQUIRE(r.errors.empty());
  std::string out;
  const auto all = d::dump(r.program);
  for (std::size_t at = 0; at < all.size();) {
    const auto end = all.find('\n', at);
    const auto line = all.substr(at, end - at);
    if (line.rfind("  trace ", 0) == 0) out += line.substr(8, line.find("  records") - 8) + "\n";
    at = end + 1;
  }
  return out;
}

// The errors a program gets, one a line: "TAG: message @ the source it points at".
std::string error_of(const std::string& text, ir::type_table* types) {
  const auto r = check(text, types);
  INFO(text);
  REQUIRE(!r.errors.empty());
  std::string out;
  for (const auto& e : r.errors)
    out += (out.empty() ? "" : "\n") + e.tag + ": " + e.message + " @ " + text.substr(e.where.begin, e.where.end - e.where.begin);
  return out;
}

}  // namespace

TEST_CASE("member access through curthread lowers to reads at the members' offsets", "[d][types]") {
  CHECK(lowered("BEGIN { trace(curthread->pid); }") == "*(pid_t)(curthread + 8)\n");
  CHECK(lowered("BEGIN { trace(curthread->real_parent->pid); }") ==
        "*(pid_t)(*(struct task_struct *)(curthread + 16) + 8)\n");
  // A struct within a struct is one offset from the same address.
  CHECK(lowered("BEGIN { trace(curthread->se.sum_exec_runtime); }") == "*(u64)(curthread + 48)\n");
  CHECK(lowered("BEGIN { trace((*curthread).se.sum_exec_runtime); }") ==
        "*(u64)(curthread + 48)\n");
  CHECK(lowered("BEGIN { trace(curthread->anon_member); }") == "*(int)(curthread + 60)\n");
  CHECK(lowered("BEGIN { trace(*curthread->name); }") ==
        "*(char)(*(char *)(curthread + 56) + 0)\n");
}

TEST_CASE("a char array is its string, bit-fields are shifted out of the bytes that hold them",
          "[d][types]") {
  // (trace() of the array itself dumps its bytes, as tracemem() does.)
  CHECK(lowered("BEGIN { trace(stringof(curthread->comm)); trace(curthread->comm == \"x\"); }") ==
        "stringof(*(char [16])(curthread + 24))\n(stringof(*(char [16])(curthread + 24)) == "
        "\"x\")\n");
  // A signed field of one bit is 0 or -1: shifted up to bit 63, then down arithmetically.
  CHECK(lowered("BEGIN { trace(curthread->flag); }") ==
        "(int)(((int64_t)*(uint8_t)(curthread + 56) << 63) >> 63)\n");
  CHECK(lowered("BEGIN { trace(curthread->small); trace(curthread->across); }") ==
        "(((uint64_t)*(uint8_t)(curthread + 56) << 56) >> 61)\n(((uint64_t)*(uint16_t)(curthread + "
        "57) << 51) >> 55)\n");
}

TEST_CASE("casts to struct pointers, stringof and sizeof of the kernel's types", "[d][types]") {
  CHECK(lowered("syscall::read:entry { trace(((struct task_struct *)arg0)->pid); }") ==
        "*(pid_t)(arg0 + 8)\n");
  CHECK(lowered(
            "syscall::read:entry { trace(((struct  task_struct*)arg1)->real_parent != NULL); }") ==
        "(*(struct task_struct *)(arg1 + 16) != 0)\n");
  CHECK(lowered("BEGIN { trace(stringof(curthread->comm)); }") ==
        "stringof(*(char [16])(curthread + 24))\n");
  CHECK(lowered("BEGIN { trace(stringof(curthread->name)); }") ==
        "stringof(*(char *)(curthread + 56))\n");
  CHECK(lowered("BEGIN { trace(stringof(curthread->pid)); }") ==
        "stringof(*(pid_t)(curthread + 8))\n");
  CHECK(lowered("BEGIN { trace(sizeof(struct task_struct)); trace(sizeof(curthread->comm)); "
                "trace(sizeof(*curthread)); trace(sizeof(curthread)); trace(sizeof(pid_t)); }") ==
        "64\n16\n64\n8\n4\n");

  fake_types types;
  const auto r =
      check("BEGIN { self->p = curthread; } syscall::read:entry { trace(self->p->pid); }", &types);
  REQUIRE(r.errors.empty());
  CHECK(r.program.variables[0].value.name == "struct task_struct *");
  CHECK(r.program.clauses[1].statements[0].records[0].size == 4);
}

TEST_CASE("member and pointer errors carry DTrace's tags and point at the expression",
          "[d][types]") {
  fake_types types;
  const std::pair<const char*, const char*> cases[] = {
      {"BEGIN { trace(curthread->nosuch); }",
       "D_TYPE_MEMBER: nosuch is not a member of struct task_struct @ curthread->nosuch"},
      {"BEGIN { trace(pid->x); }", "D_OP_PTR: operator -> must be applied to a pointer @ pid->x"},
      {"BEGIN { trace(curthread->pid->x); }",
       "D_OP_PTR: operator -> must be applied to a pointer @ curthread->pid->x"},
      {"BEGIN { trace(curthread.pid); }",
       "D_OP_SOU: operator . cannot be applied to type \"struct task_struct *\"; must be applied "
       "to a struct or union"
       " @ curthread.pid"},
      {"BEGIN { trace(pid.x); }",
       "D_OP_SOU: operator . cannot be applied to type \"pid_t\"; must be applied to a struct or "
       "union @ pid.x"},
      {"BEGIN { trace(curthread->name->x); }",
       "D_OP_SOU: operator -> cannot be applied to pointer to type \"char\"; must be applied to a "
       "struct or union pointer"
       " @ curthread->name->x"},
      {"BEGIN { trace(curthread->opaque->x); }",
       "D_OP_INCOMPLETE: operator -> cannot be applied to a forward declaration: no struct opaque "
       "definition is available"
       " @ curthread->opaque->x"},
      {"BEGIN { x = (uintptr_t)curthread; trace(x->pid); }",
       "D_OP_PTR: operator -> must be applied to a pointer @ x->pid"},
      {"BEGIN { trace(*pid); }", "D_DEREF_NONPTR: cannot dereference non-pointer type @ *pid"},
      {"BEGIN { curthread->pid = 1; }",
       "D_OP_WRITE: operator = can only be applied to a writable variable @ curthread->pid"},
      {"BEGIN { curthread->pid++; }",
       "D_OP_WRITE: operator ++ can only be applied to a writable variable @ curthread->pid"},
      {"BEGIN { *curthread->name = 1; }", "D_OP_WRITE: operator = can only be applied to a writable variable @ *curthread->name"},
      {"BEGIN { curthread->comm[0] = 1; }", "D_OP_WRITE: operator = can only be applied to a writable variable @ curthread->comm[0]"},
      {"BEGIN { p = curthread; p->comm = 1; }",
       "D_OP_ARRFUN: operator = may not be applied to operand of type \"char [16]\" @ p->comm"},
      {"BEGIN { p = curthread; p->se = 1; }",
       "D_OP_INCOMPAT: operands have incompatible types: \"struct sched_entity\" = \"int\" @ p->se = 1"},
      {"int *p; BEGIN { bcopy(alloca(4), p, 4); }",
       "D_PROTO_ARG: bcopy( ) argument #2 is incompatible with prototype:\n\tprototype: alloca pointer\n\t argument: "
       "non-alloca pointer @ p"},
      {"BEGIN { copyinto(1, 2, (void *)0); }",
       "D_PROTO_ARG: copyinto( ) argument #3 is incompatible with prototype:\n\tprototype: alloca pointer\n\t argument: "
       "non-alloca pointer @ (void *)0"},
      {"#pragma D option scratchsize=64\nBEGIN { alloca(65); }",
       "D_ALLOCA_SIZE: alloca(65) size larger than scratchsize 64 @ alloca(65)"},
      {"BEGIN { copyin(arg0, 257); }", "D_ALLOCA_SIZE: copyin(257) size larger than scratchsize 256 @ copyin(arg0, 257)"},
      // A cast to a struct no one defines makes a forward tag of it, as DTrace does.
      {"BEGIN { x = ((struct nosuch *)0)->m; }",
       "D_OP_INCOMPLETE: operator -> cannot be applied to a forward declaration: no struct nosuch definition is "
       "available @ (struct nosuch *)0)->m"},  // the span starts at the cast
      {"BEGIN { trace(stringof(curthread->se)); }",
       "D_STRINGOF_TYPE: cannot apply stringof to a value of type struct sched_entity @ "
       "stringof(curthread->se)"},
  };
  for (const auto& [program, error] : cases) CHECK(error_of(program, &types) == error);
}

TEST_CASE("what is not supported yet says so, never a syntax error", "[d][types]") {
  fake_types types;
  const std::pair<const char*, const char*> cases[] = {
      {"BEGIN { trace(*curthread + 1); }",
       "D_UNKNOWN: a value of type \"struct task_struct\" is not supported yet @ *curthread"},
      {"BEGIN { trace(curthread->se + 1); }",
       "D_UNKNOWN: a value of type \"struct sched_entity\" is not supported yet @ curthread->se"},
      {"BEGIN { trace(curthread->wide); }",
       "D_UNKNOWN: bit-field member wide of 60 bits is not supported yet @ curthread->wide"},
      {"struct s { int a; } v; BEGIN { trace(v + 1); }", "D_UNKNOWN: a value of type \"struct s\" is not supported yet @ v"},
      {"BEGIN { trace(copyin(arg0, 4) + 1); }", "D_OP_INCOMPAT: operands have incompatible types: \"void *\" + \"int\" @ copyin(arg0, 4) + 1"},
      {"BEGIN { trace(&pid); }", "D_ADDROF_VAR: cannot take address of dynamic variable @ &pid"},
      {"BEGIN { @a = count(); trace(&@a); }", "D_ADDROF_VAR: cannot take address of dynamic variable @ &@a"},
      {"BEGIN { trace(&self->x); }", "D_ADDROF_VAR: cannot take address of dynamic variable @ &self->x"},
      {"BEGIN { trace(&1); }", "D_ADDROF_LVAL: unacceptable operand for unary & operator @ &1"},
      {"BEGIN { trace(curthread->pid[0]); }",
       "D_UNKNOWN: indexing this expression is not supported yet @ curthread->pid[0]"},
      {"BEGIN { trace(curthread->opaque[1]); }", "D_DEREF_VOID: cannot dereference pointer to void @ curthread->opaque[1]"},
      {"BEGIN { trace(curthread->comm[\"a\"]); }",
       "D_OP_INT: operator [ ] requires an operand of integral type @ \"a\""},
      {"BEGIN { trace(offsetof(int, a)); }", "D_OFFSETOF_TYPE: offsetof operand must be a struct or union type @ offsetof(int, a)"},
      {"BEGIN { trace(offsetof(struct task_struct, flag)); }",
       "D_OFFSETOF_BITFIELD: cannot take offset of a bit-field: flag @ offsetof(struct task_struct, flag)"},
      {"BEGIN { trace(offsetof(struct task_struct, nosuch)); }",
       "D_UNKNOWN: failed to determine offset of nosuch: Member name not found @ offsetof(struct task_struct, nosuch)"},
      {"BEGIN { trace(`max_pfn); }", "D_UNKNOWN: kernel symbols (`name) are not supported yet @ `"},
  };
  for (const auto& [program, error] : cases) CHECK(error_of(program, &types) == error);
}

TEST_CASE("& takes a member's address, [] indexes arrays and pointers by the element's size, offsetof is constant",
          "[d][types]") {
  CHECK(lowered("BEGIN { trace(&curthread->comm); }") == "(curthread + 24)\n");
  CHECK(lowered("BEGIN { trace(&curthread->se.sum_exec_runtime); }") == "(curthread + 48)\n");
  CHECK(lowered("BEGIN { trace(&curthread->real_parent->pid); }") == "(*(struct task_struct *)(curthread + 16) + 8)\n");
  // A constant index into a member array is one offset; a variable one is scaled at run time.
  CHECK(lowered("BEGIN { trace(curthread->comm[3]); }") == "*(char)(curthread + 27)\n");
  CHECK(lowered("BEGIN { i = 2; trace(curthread->comm[i]); }") == "*(char)((*(char [16])(curthread + 24) + (long)i) + 0)\n");
  CHECK(lowered("BEGIN { trace(curthread->real_parent[1].pid); }") ==
        "*(pid_t)((*(struct task_struct *)(curthread + 16) + 64) + 8)\n");
  CHECK(lowered("BEGIN { trace(curthread->name[0]); }") == "*(char)((*(char *)(curthread + 56) + 0) + 0)\n");
  CHECK(lowered("BEGIN { trace(offsetof(struct task_struct, pid)); trace(offsetof(struct task_struct, comm)); "
                "trace(offsetof(struct task_struct, anon_member)); }") == "8\n24\n60\n");
}

TEST_CASE("pointer arithmetic scales by the size of what the pointer points to", "[d][types]") {
  CHECK(lowered("BEGIN { trace(curthread + 2); }") == "(curthread + 128)\n");
  CHECK(lowered("BEGIN { trace(curthread - 1); }") == "(curthread - 64)\n");
  CHECK(lowered("BEGIN { i = 3; trace(i + curthread->real_parent); }") ==
        "(*(struct task_struct *)(curthread + 16) + ((long)i * 64))\n");
  CHECK(lowered("BEGIN { trace(curthread->real_parent - curthread); }") ==
        "(((ptrdiff_t)*(struct task_struct *)(curthread + 16) - (ptrdiff_t)curthread) / 64)\n");
  CHECK(lowered("BEGIN { trace(&curthread->comm[3] - &curthread->comm[0]); }") ==
        "((ptrdiff_t)(curthread + 27) - (ptrdiff_t)(curthread + 24))\n");
  CHECK(lowered("BEGIN { trace((curthread->real_parent + 1)->pid); }") ==
        "*(pid_t)((*(struct task_struct *)(curthread + 16) + 64) + 8)\n");
}

TEST_CASE("args[N] and args->name take the types the clause's probes declare alike", "[d][types]") {
  fake_types types;
  const auto types_of = [&](const std::string& text) {
    const auto r = check(text, &types);
    INFO(text);
    REQUIRE(r.errors.empty());
    std::vector<std::string> names;
    for (const auto& st : r.program.clauses[0].statements) names.push_back(st.args[0].t.name);
    return names;
  };
  CHECK(types_of("test:::a { trace(args[0]); trace(args->s); trace(args[2]->pid); trace(args->task); trace(args[3]); "
                 "trace(arg0); }") ==
        std::vector<std::string>{"int", "string", "pid_t", "struct task_struct *", "int64_t", "int64_t"});
  // b declares y where a declares s: only x is declared alike.
  CHECK(types_of("test:::a, test:::b { trace(args[0]); trace(args[1]); }") == std::vector<std::string>{"int", "int64_t"});
  CHECK(error_of("test:::a, test:::b { trace(args->s); }", &types) ==
        "D_TYPE_MEMBER: s is not a member of the probe's arguments @ args->s");
  CHECK(types_of("test:::c { trace(args[0]); }") == std::vector<std::string>{"int64_t"});
}

TEST_CASE("without a type table, kernel types are an error that says where they come from",
          "[d][types]") {
  CHECK(error_of("BEGIN { trace(curthread->pid); }", nullptr) ==
        "D_TYPE_ERR: curthread needs the kernel's types (BTF), which only the kernel engine has @ "
        "curthread");
  CHECK(error_of("BEGIN { trace(sizeof(struct task_struct)); }", nullptr) ==
        "D_UNKNOWN: failed to resolve type struct task_struct @ sizeof(struct task_struct)");
}

TEST_CASE("a program that names no kernel type never asks the type table", "[d][types]") {
  fake_types types;
  const auto r = check(
      "syscall::read:entry { @[execname] = count(); trace((char *)arg0); x = (uint64_t)arg1; } "
      "BEGIN { trace(sizeof(int)); trace(EIO); }",
      &types);
  REQUIRE(r.errors.empty());
  CHECK(types.lookups == 0);
}

TEST_CASE("NULL, the errno names and the signal names are D's library constants", "[d][types]") {
  CHECK(lowered("BEGIN { trace(NULL); trace(EPERM); trace(EIO); trace(ENOTSUP); trace(EHWPOISON); "
                "trace(SIGINT); trace(SIGKILL); trace(SIGIOT); trace(SIGSYS); }") ==
        "0\n1\n5\n95\n133\n2\n9\n6\n31\n");
  fake_types types;
  const auto r = check("BEGIN { trace(NULL); trace(EAGAIN); trace(SIGCHLD); }", &types);
  REQUIRE(r.errors.empty());
  const auto& records = r.program.clauses[0].statements;
  CHECK(records[0].args[0].t.name == "int");  // the size of an int, as DTrace's NULL
  CHECK(records[0].records[0].size == 4);
  CHECK(records[1].args[0].t.name == "int");
  CHECK(records[1].args[0].value == EAGAIN);
  CHECK(records[2].args[0].value == SIGCHLD);
  CHECK(error_of("BEGIN { trace(EIOX); }", nullptr) ==
        "D_IDENT_UNDEF: failed to resolve EIOX: Unknown variable name @ EIOX");
  CHECK(error_of("BEGIN { trace(cwd); }", nullptr) ==
        "D_UNKNOWN: cwd is not supported yet: it is the path of the task's fs->pwd, which only fentry and LSM "
        "programs can build (bpf_d_path), and dtpp does not build it itself yet @ cwd");
  CHECK(error_of("BEGIN { trace(root); }", nullptr) ==
        "D_UNKNOWN: root is not supported yet: it is the path of the task's fs->root, which only fentry and LSM "
        "programs can build (bpf_d_path), and dtpp does not build it itself yet @ root");
}

TEST_CASE("structs, unions, enums and typedefs declared in D, laid out as DTrace's libctf lays them out",
          "[d][types][declarations]") {
  const std::string s = "struct s { char c; int i; long l; char name[5]; };\n";
  CHECK(lowered(s + "BEGIN { trace(sizeof(struct s)); trace(((struct s *)arg0)->l); trace(((struct s *)arg0)->i); }") ==
        "21\n*(long)(arg0 + 8)\n*(int)(arg0 + 4)\n");  // no padding after the last member: C says 24
  // A char array is its string; a struct within a D struct, one offset.
  CHECK(lowered(s + "struct t { short a; struct s in; };\nBEGIN { trace(stringof(((struct t *)arg0)->in.name)); "
                    "trace(sizeof(struct t)); }") ==
        "stringof(*(char [5])(arg0 + 24))\n29\n");
  CHECK(lowered("union u { char c; long l; int a[3]; };\nBEGIN { trace(sizeof(union u)); trace(((union u *)arg0)->l); }") ==
        "12\n*(long)(arg0 + 0)\n");
  CHECK(lowered("enum e { A, B = 10, C, D = -1, E };\nBEGIN { trace(A); trace(C); trace(E); trace(sizeof(enum e)); }") ==
        "0\n11\n0\n4\n");
  CHECK(lowered("enum { X = 2147483647 };\nBEGIN { trace(X); }") == "2147483647\n");
  CHECK(lowered(s + "typedef struct s s_t;\ntypedef s_t *s_p;\ntypedef unsigned char byte;\n"
                    "BEGIN { trace(sizeof(byte)); trace(sizeof(s_t)); trace(((s_t *)arg0)->i); }") ==
        "1\n21\n*(int)(arg0 + 4)\n");
  // A typedef of a struct of the kernel's, and a pointer to it declared with the struct.
  CHECK(lowered("typedef struct task_struct task_t;\nstruct holder { task_t *task; int n; } *h;\n"
                "BEGIN { h = (struct holder *)arg0; trace(h->task->pid); trace(sizeof(task_t)); }") ==
        "*(pid_t)(*(struct task_struct *)(h + 0) + 8)\n64\n");
}

TEST_CASE("declaration errors carry DTrace's tags", "[d][types][declarations]") {
  fake_types types;
  const std::pair<const char*, const char*> cases[] = {
      {"typedef int new_int;\ntypedef char new_int;", "D_DECL_IDRED: typedef redeclared: new_int @ typedef char new_int;"},
      {"enum colors { RED, GREEN };\nenum shades { WHITE, RED };", "D_DECL_IDRED: identifier redeclared: RED @ }"},  // at the token after it, as DTrace
      {"enum e { A = pid };", "D_DECL_ENCONST: enumerator 'A' must be assigned to an integral constant expression @ }"},
      {"enum e { A = 2147483648 };", "D_DECL_ENOFLOW: enumerator 'A' value overflows INT_MAX (2147483647) @ }"},
      {"struct s { int a; };\nstruct s { int b; };", "D_DECL_TYPERED: type redeclared: struct s @ struct s { int b; };"},
      {"struct record { struct pirate p; };", "D_DECL_INCOMPLETE: incomplete struct/union/enum struct pirate: p @ p"},
      {"struct s { void v; };", "D_DECL_VOIDOBJ: cannot have void object: v @ v"},
      {"struct s { int a; char a; };", "D_UNKNOWN: failed to define member 'a': Duplicate member or variable name @ a"},
      {"enum e { A, B, A = 2 };", "D_UNKNOWN: failed to define enumerator 'A': Duplicate member or variable name @ }"},
      {"struct s { int a[0]; };", "D_DECL_ARRSUB: array dimension must be a positive integral constant: a @ a"},
      {"struct s { string a; };", "D_UNKNOWN: a member of type string is not supported yet: a @ a"},
      {"typedef nosuch_t t;", "D_UNKNOWN: failed to resolve type nosuch_t of typedef t @ typedef nosuch_t t;"},
      {"typedef int;", "D_SYNTAX: syntax error near \";\" @ ;"},
      {"struct s { int a }; BEGIN { }", "D_SYNTAX: syntax error near \"}\" @ }"},
  };
  for (const auto& [program, error] : cases) CHECK(error_of(program, &types) == error);
}

TEST_CASE("arrays declared in D: elements at constant offsets, computed ones bounds-checked by the engine",
          "[d][types][arrays]") {
  CHECK(lowered("int a[5];\nBEGIN { trace(a[0]); trace(a[4]); trace(sizeof(a)); trace(sizeof(a[1])); }") ==
        "*(int)(a + 0)\n*(int)(a + 16)\n20\n4\n");
  CHECK(lowered("int a[5];\nBEGIN { i = 2; trace(a[i]); trace(&a[3]); }") ==
        "*(int)((a + ((long)i * 4)) + 0)\n(a + 12)\n");
  // Two dimensions: an array of arrays, C's name and layout.
  CHECK(lowered("short m[2][3];\nBEGIN { trace(m[1][2]); trace(sizeof(m)); trace(sizeof(m[1])); }") ==
        "*(short)(m + 10)\n12\n6\n");
  CHECK(lowered("self char b[16];\nthis long c[3];\nBEGIN { trace(stringof(self->b)); trace(this->c[2]); trace(sizeof(self->b)); }") ==
        "stringof(self->b)\n*(long)(this->c + 16)\n16\n");
  CHECK(lowered("struct s { int i; long l; };\nstruct s r[2];\nint *p[3];\nBEGIN { trace(r[1].l); trace(sizeof(r)); trace(sizeof(p)); }") ==
        "*(long)(r + 24)\n32\n24\n");
  CHECK(lowered("union u { char c; int i; } us[3];\nBEGIN { trace(us[2].i); trace(sizeof(us)); }") == "*(int)(us + 8)\n12\n");
  // An array converts to a pointer to its first element by a cast or an assignment, as in C.
  CHECK(lowered("int a[5];\nint *p;\nBEGIN { trace(((int *)a)[10]); p = a; trace(p[1]); }") ==
        "*(int)((a + 40) + 0)\n*(int)((p + 4) + 0)\n");
}

TEST_CASE("array declarations and constant indexes get DTrace's errors", "[d][types][arrays]") {
  fake_types types;
  const std::pair<const char*, const char*> cases[] = {
      {"int a[5];\nBEGIN { trace(a[5]); }", "D_ARR_BOUNDS: index outside array bounds: 5, max is 5 @ a[5]"},
      {"int a[5];\nBEGIN { a[5] = 0; }", "D_ARR_BOUNDS: index outside array bounds: 5, max is 5 @ a[5]"},
      {"int a[5];\nBEGIN { trace(a[-1]); }",
       "D_ARR_BOUNDS: index outside array bounds: 18446744073709551615, max is 5 @ a[-1]"},
      {"int a[5];\nBEGIN { trace(a[9223372036854775807]); }",
       "D_ARR_BOUNDS: index outside array bounds: 9223372036854775807, max is 5 @ a[9223372036854775807]"},
      {"short m[2][3];\nBEGIN { trace(m[1][3]); }", "D_ARR_BOUNDS: index outside array bounds: 3, max is 3 @ m[1][3]"},
      {"BEGIN { trace(curthread->comm[16]); }",
       "D_ARR_BOUNDS: index outside array bounds: 16, max is 16 @ curthread->comm[16]"},
      {"int x[5];\nBEGIN { x[1, 2] = 1; }", "D_ARR_BADREF: cannot access scalar x as an associative array @ x[1, 2]"},
      {"int a[-7];", "D_DECL_ARRSUB: positive integral constant expression or tuple signature expected as array declaration "
                     "subscript @ int a[-7];"},
      {"int a[0];", "D_DECL_ARRSUB: positive integral constant expression or tuple signature expected as array declaration "
                    "subscript @ int a[0];"},
      {"int a[];", "D_DECL_ARRNULL: array declaration requires array dimension or tuple signature: a @ int a[];"},
      {"int x[88294967295];", "D_DECL_ARRBIG: array dimension too big @ int x[88294967295];"},
      {"long x[1073741824];", "D_DECL_ARRBIG: array dimension too big @ long x[1073741824];"},
      {"void v[2];", "D_DECL_VOIDOBJ: cannot declare array of void @ void v[2];"},
      {"string s[2];", "D_UNKNOWN: arrays of string are not supported yet: s @ string s[2];"},
      {"int a[5]; int a[2];", "D_DECL_IDRED: identifier redeclared: a @ int a[2];"},
      {"int a[5];\nBEGIN { trace(&a); }", "D_ADDROF_VAR: cannot take address of dynamic variable @ &a"},
      {"int a[5];\nBEGIN { a = 1; }", "D_OP_ARRFUN: operator = may not be applied to operand of type \"int [5]\" @ a = 1"},
      {"int a[5];\nBEGIN { trace(a + 1); }", "D_UNKNOWN: a value of type \"int [5]\" is not supported yet @ a"},
      {"int a[5]; long *p;\nBEGIN { p = a; }", "D_OP_INCOMPAT: operands have incompatible types: \"long *\" = \"int [5]\" @ p = a"},
      {"int a[5]; int b[5];\nBEGIN { a = b; }", "D_OP_ARRFUN: operator = may not be applied to operand of type \"int [5]\" @ a = b"},
  };
  for (const auto& [program, error] : cases) CHECK(error_of(program, &types) == error);
}

TEST_CASE("a whole struct or union is assigned to a variable of its type, and to no other", "[d][types][declarations]") {
  fake_types types;
  const std::string s = "struct s { int i; long l; } a;\nstruct s b;\nstruct t { int i; long l; } c;\n";
  CHECK(check(s + "BEGIN { a = b; self->x = a; this->y = self->x; z = this->y; }", &types).errors.empty());
  const std::pair<std::string, const char*> cases[] = {
      {s + "BEGIN { a = c; }", "D_OP_INCOMPAT: operands have incompatible types: \"struct s\" = \"struct t\" @ a = c"},
      {s + "BEGIN { a = 1; }", "D_OP_INCOMPAT: operands have incompatible types: \"struct s\" = \"int\" @ a = 1"},
      {s + "BEGIN { i = 1; i = a; }", "D_OP_INCOMPAT: operands have incompatible types: \"int\" = \"struct s\" @ i = a"},
      {s + "BEGIN { a += b; }", "D_OP_ARITH: operator += requires operands of arithmetic type @ a += b"},
  };
  for (const auto& [program, error] : cases) CHECK(error_of(program, &types) == error);
}

namespace {

const std::string in_out =
    "struct in { int a; char name[8]; };\n"
    "struct out { int x; char n[8]; long k; char *p; };\n";

}  // namespace

TEST_CASE("translators: xlate's members are the translator's expressions on xlate's operand",
          "[d][types][translators]") {
  const auto translator =
      in_out + "translator struct out < struct in *i > { x = i->a + 1; n = i->name; k = -5; };\n";
  CHECK(lowered(translator + "BEGIN { trace(xlate<struct out *>((struct in *)arg0)->x); "
                             "trace(xlate<struct out>((struct in *)arg1).n); trace(xlate<struct out *>((struct in *)arg0)->k); }") ==
        "(*(int)(arg0 + 0) + 1)\nstringof(*(char [8])(arg1 + 4))\n-5\n");
  // An inline of an xlate, as D's library declares curpsinfo; a translator from the kernel's type.
  CHECK(lowered(translator + "inline struct out *o = xlate<struct out *>((struct in *)arg2);\n"
                             "BEGIN { trace(o->x); }") == "(*(int)(arg2 + 0) + 1)\n");
  CHECK(lowered(in_out + "translator struct out < struct task_struct *t > { x = t->pid; n = t->comm; };\n"
                         "inline struct out *cur = xlate<struct out *>(curthread);\n"
                         "BEGIN { trace(cur->x); trace(cur->n); }") ==
        "*(int)(curthread + 8)\nstringof(*(char [16])(curthread + 24))\n");
  // From an integer, of any integer type.
  CHECK(lowered(in_out + "translator struct out < int v > { x = v * 2; };\nBEGIN { trace(xlate<struct out *>(pid)->x); }") ==
        "(pid * 2)\n");
  // Two translators to one type, chosen by the input's type.
  CHECK(lowered(translator + "translator struct out < int v > { x = v; };\n"
                             "BEGIN { trace(xlate<struct out *>(7)->x); trace(xlate<struct out *>((struct in *)0)->x); }") ==
        "7\n(*(int)(0 + 0) + 1)\n");
  // A whole translation: the input evaluated once, each member the translator defines stored into
  // scratch memory (a string's bytes copied, as many as the member holds), then the address, or
  // the struct there.
  CHECK(lowered(translator + "BEGIN { trace(xlate<struct out *>((struct in *)arg0)); trace(xlate<struct out>((struct in *)arg1).k); }") ==
        "((xlate 0 = arg0), (xlate 1 = alloca(32)), (*(int)(xlate 1 + 0) = (*(int)(xlate 0 + 0) + 1)), "
        "bcopy(stringof(*(char [8])(xlate 0 + 4)), (xlate 1 + 4), 8), (*(long)(xlate 1 + 16) = -5), xlate 1)\n-5\n");
}

TEST_CASE("a stable provider's translated args[N] is translated, before -> or whole", "[d][types][translators]") {
  fake_types types;
  const auto translator = in_out + "translator struct out < struct task_struct *t > { x = t->pid; n = t->comm; };\n";
  CHECK(lowered(translator + "test:::t { trace(args[0]->x); trace(args[0]->n); trace(args[1]); }") ==
        "*(int)(arg0 + 8)\nstringof(*(char [16])(arg0 + 24))\n(int)arg1\n");
  // Probes whose argument lies in different places: each probe's own is read (argN).
  CHECK(lowered(translator + "test:::t, test:::u { trace(args[0]->x); }") == "*(int)(arg0 + 8)\n");
  CHECK(error_of(translator + "test:::a, test:::u { trace(args->s); }", &types) ==
        "D_TYPE_MEMBER: s is not a member of the probe's arguments @ args->s");
  // A computed argument: the inline's value, as an int.
  CHECK(lowered(translator + "inline long computed = arg0 + arg2;\ntest:::t { trace(args[2]); }") ==
        "(int)(arg0 + arg2)\n");
  CHECK(error_of(translator + "test:::t { trace(args[2]); }", &types) ==
        "D_UNKNOWN: args[2] is computed by D's library (computed), which is not loaded @ args[2]");
  // A whole translated argument: each member the translator defines stored into scratch memory,
  // then its address; the raw argument read once.
  CHECK(lowered(translator + "test:::t { trace(args[0]); }") ==
        "((xlate 0 = arg0), (xlate 1 = alloca(32)), (*(int)(xlate 1 + 0) = *(int)(xlate 0 + 8)), "
        "bcopy(stringof(*(char [16])(xlate 0 + 24)), (xlate 1 + 4), 8), xlate 1)\n");
  CHECK(error_of(translator + "test:::t { trace(args[0].x); }", &types) ==
        "D_OP_SOU: operator . cannot be applied to type \"struct out *\"; must be applied to a struct or union @ args[0].x");
  CHECK(error_of(translator + "test:::t { trace(args[0]->k); }", &types) ==
        "D_XLATE_NOCONV: translator does not define conversion for member: k @ args[0]->k");
  CHECK(error_of(in_out + "test:::t { trace(args[0]->x); }", &types) ==
        "D_XLATE_NONE: cannot translate from \"struct task_struct *\" to \"struct out\" @ args[0]");
}

TEST_CASE("probe descriptions are matched before the clause is checked", "[d][types]") {
  fake_types types;
  // The refusal, not the body's error; and checking stops there.
  CHECK(error_of("fbt::f:entry { trace(*nosuch); } BEGIN { trace(*other); }", &types) ==
        "D_PDESC_ZERO: fbt is not served here @ fbt::f:entry");
  CHECK(error_of("BEGIN { trace(*other); } BEGIN, fbt::f:entry { trace(*nosuch); }", &types) ==
        "D_IDENT_UNDEF: failed to resolve other: Unknown variable name @ other\n"
        "D_PDESC_ZERO: fbt is not served here @ fbt::f:entry");
  // -Z: a description may match nothing, and the body is checked.
  d::compile_options options;
  options.types = &types;
  options.zdefs = true;
  const auto r = d::compile(d::source_file("t.d", "fbt::f:entry { trace(*nosuch); }"), options);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].tag == "D_IDENT_UNDEF");
}

TEST_CASE("translator errors carry DTrace's tags", "[d][types][translators]") {
  fake_types types;
  const auto translator = in_out + "translator struct out < struct in *i > { x = i->a; };\n";
  const std::pair<std::string, const char*> cases[] = {
      // A member's own errors at the token after it, as DTrace's parser reports them.
      {in_out + "translator struct out < struct in *i > { yourc = i->a; };",
       "D_XLATE_MEMB: translator member yourc is not a member of struct out @ }"},
      {in_out + "translator struct out < struct in *i > { p = i->a; };",
       "D_XLATE_INCOMPAT: translator member p definition uses incompatible types: \"char *\" = \"int\" @ }"},
      {in_out + "translator struct out < struct in *i > { x = i->name; };",
       "D_XLATE_INCOMPAT: translator member x definition uses incompatible types: \"int\" = \"string\" @ }"},
      {in_out + "translator struct out < struct in *i > { x = i->nosuch; };",
       "D_TYPE_MEMBER: nosuch is not a member of struct in @ i->nosuch"},
      {"translator int < int i > { x = i; };", "D_XLATE_SOU: translator output type must be a struct or union @ ;"},
      {"translator struct nosuch < int i > { x = i; };",
       "D_XLATE_SOU: incomplete struct/union/enum struct nosuch @ ;"},
      {translator + "translator struct out < struct in * j > { };",
       "D_XLATE_REDECL: translator from struct in * to struct out has already been declared @ ;"},
      {translator + "BEGIN { trace(xlate<struct out *>(\"s\")->x); }",
       "D_XLATE_NONE: cannot translate from \"string\" to \"struct out\" @ xlate<struct out *>(\"s\")"},
      {translator + "BEGIN { trace(xlate<struct out *>((struct in *)0)->k); }",
       "D_XLATE_NOCONV: translator does not define conversion for member: k @ xlate<struct out *>((struct in *)0)->k"},
      {translator + "BEGIN { trace(xlate<struct out *>((struct in *)0)->nosuch); }",
       "D_TYPE_MEMBER: nosuch is not a member of struct out @ xlate<struct out *>((struct in *)0)->nosuch"},
      {translator + "BEGIN { trace(xlate<struct out *>((struct in *)0).x); }",
       "D_OP_SOU: operator . cannot be applied to type \"struct out *\"; must be applied to a struct or union @ "
       "xlate<struct out *>((struct in *)0).x"},
      {translator + "BEGIN { trace(xlate<struct out>((struct in *)0)->x); }",
       "D_OP_PTR: operator -> must be applied to a pointer @ xlate<struct out>((struct in *)0)->x"},
      {translator + "BEGIN { trace(xlate<int>(0).x); }",
       "D_XLATE_SOU: translator output type must be a struct or union @ xlate<int>(0)"},
      {"translator struct out < int i > { x = i }", "D_SYNTAX: syntax error near \"}\" @ }"},
  };
  for (const auto& [program, error] : cases) CHECK(error_of(program, &types) == error);
}
