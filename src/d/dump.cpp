// The checked program as text, for `dtpp -S`: options, variables, aggregations, clauses and the
// records each statement writes.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "dtpp/d/check.hpp"

namespace dtpp::d {
namespace {

using ir::expr;
using ir::type;
using kind_t = ir::expr::kind_t;

std::string show(const expr& e);
std::string show_list(const std::vector<expr>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + show(v[i]);
  return out;
}
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '"' || c == '\\') out += std::string("\\") + c;
    else out += c;
  }
  return out + "\"";
}
std::string show(const expr& e) {
  switch (e.kind) {
    case kind_t::constant: return std::to_string(e.value);
    case kind_t::string: return e.value == 1 ? "NULL" : quote(e.text);
    case kind_t::builtin:
      return e.index == static_cast<std::uint32_t>(ir::builtin::arg) ? "arg" + std::to_string(e.value) : e.text;
    case kind_t::variable: return e.kids.empty() ? e.text : e.text + "[" + show_list(e.kids) + "]";
    case kind_t::unary: return "(" + std::string(ir::spelling(e.operation)) + show(e.kids[0]) + ")";
    case kind_t::binary: return "(" + show(e.kids[0]) + " " + std::string(ir::spelling(e.operation)) + " " + show(e.kids[1]) + ")";
    case kind_t::conditional: return "(" + show(e.kids[0]) + " ? " + show(e.kids[1]) + " : " + show(e.kids[2]) + ")";
    case kind_t::sequence: {
      std::string text = "(";
      for (const auto& k : e.kids) text += (text.size() > 1 ? ", " : "") + show(k);
      return text + ")";
    }
    case kind_t::assign: {
      // `=`, or a compound assignment spelled from its arithmetic: "+" and "=".
      const auto spelled = e.operation == ir::op::assign ? std::string("=") : std::string(ir::spelling(e.operation)) + "=";
      return "(" + show(e.kids[0]) + " " + spelled + " " + show(e.kids[1]) + ")";
    }
    case kind_t::increment: {
      const std::string spelled(ir::spelling(e.operation));
      return e.value ? "(" + spelled + show(e.kids[0]) + ")" : "(" + show(e.kids[0]) + spelled + ")";
    }
    case kind_t::cast: return "(" + e.t.name + ")" + show(e.kids[0]);
    case kind_t::call:
      if (e.t.is_stack())  // the frames it keeps
        return std::string(ir::name(e.function)) + "(" + std::to_string(e.t.size / 8 - (e.t.kind == type::category::ustack ? 1 : 0)) + ")";
      return std::string(ir::name(e.function)) + "(" + show_list(e.kids) + ")";
    case kind_t::stringof: return "stringof(" + show(e.kids[0]) + ")";
    // *(type)(address + offset): what a member access or `*` reads.
    case kind_t::memory: return "*(" + e.t.name + ")(" + show(e.kids[0]) + " + " + std::to_string(e.value) + ")";
    case kind_t::memory_string: return "stringof(" + show(e.kids[0]) + ")";
    case kind_t::string_character: return show(e.kids[0]) + "[" + show(e.kids[1]) + "]";
  }
  return "?";
}

}  // namespace

std::string dump(const ir::program& program) {

  std::string out;
  for (const auto& o : program.options) out += "option " + o.name + (o.value.empty() ? "" : "=" + o.value) + "\n";
  for (const auto& v : program.variables) {
    static const char* const scopes[] = {"global", "thread", "clause"};
    out += "variable " + std::to_string(v.id) + ": " + scopes[static_cast<int>(v.where)] + " " + v.value.name + " " + v.name;
    if (!v.keys.empty()) {
      out += "[";
      for (std::size_t i = 0; i < v.keys.size(); ++i) out += (i ? ", " : "") + v.keys[i].name;
      out += "]";
    }
    out += "\n";
  }
  for (const auto& a : program.aggregations) {
    out += "aggregation " + std::to_string(a.varid) + ": @" + a.name + " " + std::string(agg::name(a.fn.kind));
    if (a.fn.param) {
      char hex[32];
      std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(a.fn.param));
      out += std::string(" param ") + hex;
    }
    out += " keys (";
    for (std::size_t i = 0; i < a.keys.size(); ++i) {
      const auto& k = a.keys[i];
      out += i ? ", " : "";
      switch (k.kind) {
        case agg::key_type::category::string: out += "string[" + std::to_string(k.size) + "]"; break;
        case agg::key_type::category::stack: out += "stack[" + std::to_string(k.size) + "]"; break;
        case agg::key_type::category::ustack: out += "ustack[" + std::to_string(k.size) + "]"; break;
        case agg::key_type::category::integer: out += std::string(k.is_signed ? "int" : "uint") + std::to_string(k.size * 8);
      }
    }
    out += ")\n";
  }
  static const char* const actions[] = {"eval", "aggregate", "trace", "printf", "printa", "exit", "clear", "trunc", "normalize", "denormalize", "setopt", "stack", "ustack",
                                        "print", "speculate", "commit", "discard", "ftruncate", "tracemem", "system", "freopen", "raise", "stop",
                                        "chill", "copyout", "copyoutstr", "breakpoint", "panic"};
  static_assert(std::size(actions) == static_cast<std::size_t>(ir::action::panic) + 1, "one name for each action");
  for (const auto& c : program.clauses) {
    out += "clause " + std::to_string(c.id) + ":";
    for (const auto& p : c.probes) out += " " + p.text();
    out += "\n";
    if (c.predicate) out += "  predicate " + show(*c.predicate) + "\n";
    if (c.default_action) out += "  default action\n";
    for (const auto& s : c.statements) {
      out += "  " + std::string(actions[static_cast<int>(s.kind)]);
      if (s.kind == ir::action::aggregate) {
        const auto& a = program.aggregations[s.aggregation - 1];
        out += " @" + a.name;
        if (!s.keys.empty()) out += "[" + show_list(s.keys) + "]";
        out += " = " + std::string(agg::name(a.fn.kind)) + "(" + show_list(s.args) + ")";
      } else {
        if (s.has_format || s.kind == ir::action::setopt) out += " " + quote(s.format);
        for (const auto id : s.aggregations) out += " @" + program.aggregations[id - 1].name;
        if (s.aggregation) out += " @" + program.aggregations[s.aggregation - 1].name;
        if (!s.args.empty()) out += " " + show_list(s.args);
      }
      if (!s.records.empty()) {
        out += "  records";
        for (const auto& r : s.records) out += " " + r.t.name + "@" + std::to_string(r.offset) + ":" + std::to_string(r.size);
      }
      out += "\n";
    }
    out += "  data " + std::to_string(c.data_size) + " bytes\n";
  }
  return out;
}

}  // namespace dtpp::d
