// The D checker: printf() and printa() formats against their arguments, by DTrace's rules.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker.hpp"

namespace dtpp::d::detail {

// Parses a printf / printa format once into the statement, refusing what DTrace refuses.
void checker::parse_format(ir::statement& st, const std::string& fn, ast::span where) {
  st.parsed_format = print::format::parse(st.format);
  if (const auto& e = st.parsed_format.error())
    fail("D_SYNTAX", "format conversion #" + std::to_string(e->number) + " " + e->why, where);
  if (fn != "printa")
    for (const auto& piece : st.parsed_format.pieces())
      if (piece.conv && piece.conv->aggregation)
        fail("D_PRINTF_AGG_CONV", "%@ conversion requires an aggregation and is not for use with " + fn + "( )", where);
}

// Whether a value of type t fits a conversion, by DTrace's table.
bool checker::accepts(const print::conversion& c, const type& t) {
  switch (c.info->accepts) {
    case print::conversion_argument::integer: return t.is_integer();
    case print::conversion_argument::small_integer: return t.is_integer() && t.size <= 4;
    case print::conversion_argument::time: return t.is_integer() && t.size == 8;
    case print::conversion_argument::string: return t.is_string();
    case print::conversion_argument::stack: return t.is_stack();
    case print::conversion_argument::floating: return t.is_floating();
    case print::conversion_argument::wide_string:
    case print::conversion_argument::long_double: return false;  // dtpp's D makes neither
  }
  return false;
}

void checker::format(const std::string& fn, const std::vector<ast::node_ptr>& args, std::size_t first,
                     ir::statement& st) {
  // DTrace cooks a call's arguments before it reads the format: their errors come first. An
  // aggregation has no value; the conversion it meets refuses it.
  std::vector<std::optional<expr>> values(args.size());
  for (std::size_t i = first + 1; i < args.size(); ++i)
    if (args[i]->kind != ast::node_kind::aggregation) values[i] = value_or_stack(args[i]);
  if (args[first]->kind != ast::node_kind::string) {
    // A string that is not a constant has its own tag.
    const auto t = value(args[first]).t;
    fail(t.is_string() ? "D_PRINTF_ARG_FMT" : "D_PROTO_ARG",
         fn + "( ) argument #1 is incompatible with prototype:\n\tprototype: " +
             (t.is_string() ? "string constant" : "string") + "\n\t argument: " + t.name,
         args[first]->where);
  }
  st.format = args[first]->text;
  st.has_format = true;
  if (st.format.empty())
    fail("D_PRINTF_FMT_EMPTY", fn + "( ) format string is empty", args[first]->where);
  parse_format(st, fn, args[first]->where);
  std::size_t next = first + 1;
  for (const auto& piece : st.parsed_format.pieces()) {
    if (!piece.conv) continue;
    const auto& c = *piece.conv;
    const auto number = std::to_string(c.number);
    const auto take = [&](const std::string& what) -> expr {
      if (next >= args.size())
        fail(what == "value " ? "D_PRINTF_ARG_PROTO" : "D_PRINTF_DYN_PROTO",
             fn + "( ) prototype mismatch: conversion #" + number + " (%" + c.name +
                 ") is missing a corresponding " + what + "argument",
             st.where);
      if (!values[next])
        fail("D_PRINTF_ARG_TYPE", fn + "( ) argument #" + std::to_string(next + 1) +
                                      " is incompatible with conversion #" + number +
                                      " prototype:\n\tconversion: %" + c.name + "\n\t prototype: " +
                                      std::string(c.info->prototype) + "\n\t  argument: aggregation",
             args[next]->where);
      return std::move(*values[next++]);
    };
    for (int star = 0; star < int(c.dynamic_width) + int(c.dynamic_precision); ++star) {
      const std::string which = star == 0 && c.dynamic_width ? "*" : ".*";
      auto w = take("\"" + which + "\" ");
      if (!w.t.is_integer())
        fail("D_PRINTF_DYN_TYPE", fn + "( ) argument #" + std::to_string(next) +
                                      " is incompatible with conversion #" + number +
                                      " prototype:\n\tconversion: % " + which + " " + c.name +
                                      "\n\t prototype: int\n\t  argument: " + w.t.name,
             args[next - 1]->where);
      st.records.push_back({w.t, 0, w.t.size});
      st.args.push_back(std::move(w));
    }
    auto v = take("value ");
    if (!accepts(c, v.t))
      fail("D_PRINTF_ARG_TYPE", fn + "( ) argument #" + std::to_string(next) +
                                    " is incompatible with conversion #" + number +
                                    " prototype:\n\tconversion: %" + c.name + "\n\t prototype: " +
                                    std::string(c.info->prototype) + "\n\t  argument: " + v.t.name,
           args[next - 1]->where);
    st.records.push_back({v.t, 0, v.t.is_string() ? options_.string_bytes() : v.t.size});
    st.args.push_back(std::move(v));
  }
  if (next < args.size())
    fail("D_PRINTF_ARG_EXTRA", fn + "( ) prototype mismatch: only " + std::to_string(next - first - 1) +
                                   " arguments required by this format string",
         args[next]->where);
}

// printa's format: key conversions take the keys in order, %@ the aggregations.
void checker::validate_printa_format(ir::statement& st, const ast::node_ptr& n) {
  parse_format(st, "printa", n->kids[1]->where);
  const auto& keys = aggregation_key_types_[st.aggregations[0] - 1];
  std::size_t key = 0;
  for (const auto& piece : st.parsed_format.pieces()) {
    if (!piece.conv) continue;
    const auto& c = *piece.conv;
    const auto number = std::to_string(c.number);
    if (c.aggregation) {
      // An aggregation's value is an int64_t (count()'s a uint64_t), as dtrace-utils checks %@
      // against it: no float conversion takes one.
      if (c.info->kind == print::conversion_kind::floating)
        fail("D_PRINTF_ARG_TYPE", "printa( ) aggregating action is incompatible with conversion #" + number +
                                      " prototype:\n\tconversion: %" + c.name + "\n\t prototype: " +
                                      std::string(c.info->prototype) + "\n\t  argument: " +
                                      (result_.program.aggregations[st.aggregations[0] - 1].fn.kind == agg::kind::count
                                           ? "uint64_t" : "int64_t"),
             n->kids[1]->where);
      continue;
    }
    for (int star = 0; star < int(c.dynamic_width) + int(c.dynamic_precision) + 1; ++star) {
      if (key >= keys.size())
        fail("D_PRINTF_ARG_PROTO", "printa( ) prototype mismatch: conversion #" + number +
                                       " (%" + c.name + ") is missing a corresponding value argument",
             n->kids[1]->where);
      const auto& t = keys[key++];
      const bool is_value = star == int(c.dynamic_width) + int(c.dynamic_precision);
      if (is_value ? !accepts(c, t) : !t.is_integer())
        fail("D_PRINTF_ARG_TYPE", "printa( ) argument #" + std::to_string(key + 1) +
                                      " is incompatible with conversion #" + number +
                                      " prototype:\n\tconversion: %" + c.name + "\n\t prototype: " +
                                      std::string(c.info->prototype) + "\n\t  argument: " + t.name,
             n->kids[1]->where);
    }
  }
}

}  // namespace dtpp::d::detail
