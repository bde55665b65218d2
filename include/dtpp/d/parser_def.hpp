// The D grammar in Boost.Spirit X3, and parse(). Included by dtpp/src.hpp only: X3's templates
// are instantiated once, in the library, not in every file that parses D.
#pragma once

#include <algorithm>
#include <boost/fusion/include/at_c.hpp>
#include <boost/fusion/include/std_pair.hpp>
#include <boost/spirit/home/x3.hpp>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "dtpp/d/parser.hpp"
#include "dtpp/d/stability.hpp"

namespace dtpp::d {

namespace parser {

namespace x3 = boost::spirit::x3;
using iterator = std::string::const_iterator;

// The context gives semantic actions the start of the text (to turn iterators into offsets), the
// list errors are added to, and the names the program's typedefs declared so far (typedefs_tag),
// which DTrace's lexer knows as type names.
struct text_tag;
struct errors_tag;
struct typedefs_tag;

template <class Context>
std::uint32_t offset_of(const Context& ctx, iterator it) {
  const std::string& text = x3::get<text_tag>(ctx).get();
  return static_cast<std::uint32_t>(it - text.begin());
}

// Where the text a semantic action's parser matched ends (X3's _where starts there).
template <class Context>
std::uint32_t end_of(const Context& ctx) {
  return offset_of(ctx, x3::_where(ctx).begin());
}

// Thrown when an expression grows deeper than max_depth; parse() reports it.
struct too_deep {
  std::uint32_t at;
};

// bounded[p]: p, counted as one level of the grammar's recursion, which is refused beyond
// max_depth before it costs more stack. The count lives in the context (recursion_tag).
struct recursion_tag;
template <class Subject>
struct bounded_directive : x3::unary_parser<Subject, bounded_directive<Subject>> {
  using base_type = x3::unary_parser<Subject, bounded_directive<Subject>>;
  static bool const handles_container = Subject::handles_container;
  constexpr bounded_directive(const Subject& subject) : base_type(subject) {}

  template <class Iterator, class Context, class RContext, class Attribute>
  bool parse(Iterator& first, const Iterator& last, const Context& ctx, RContext& rctx, Attribute& attr) const {
    std::uint32_t& depth = x3::get<recursion_tag>(ctx).get();
    if (depth >= max_depth) {
      x3::skip_over(first, last, ctx);  // the error points at the token, not the blanks before it
      throw too_deep{offset_of(ctx, first)};
    }
    ++depth;
    struct leave {
      std::uint32_t& depth;
      ~leave() { --depth; }
    } on_return{depth};
    return this->subject.parse(first, last, ctx, rctx, attr);
  }
};
struct bounded_gen {
  template <class Subject>
  constexpr bounded_directive<typename x3::extension::as_parser<Subject>::value_type> operator[](
      const Subject& subject) const {
    return {x3::as_parser(subject)};
  }
};
inline constexpr bounded_gen bounded{};

inline std::uint32_t depth_of(const std::vector<ast::node_ptr>& kids) {
  std::uint32_t d = 0;
  for (const auto& k : kids) d = std::max(d, k ? k->depth : 0u);
  return d + 1;
}

inline ast::node_ptr make_node(ast::node_kind kind, std::string text, ast::span where,
                               std::vector<ast::node_ptr> kids = {}) {
  auto n = std::make_shared<ast::node>();
  n->kind = kind;
  n->text = std::move(text);
  n->depth = depth_of(kids);
  if (n->depth > max_depth) throw too_deep{where.begin};
  n->kids = std::move(kids);
  n->where = where;
  return n;
}

// The value of the text between quotes, as DTrace's lexer decodes it (libdtrace's stresc2chr):
// C's escapes but for \' and \?, which stay a backslash and the character, as does any escape
// C does not have (`\c`); `\x` takes every hex digit after it.
inline std::string decode_escapes(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\' || i + 1 == raw.size()) {
      out += raw[i];
      continue;
    }
    const char c = raw[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case '\\': case '"': out += c; break;
      case 'x': {
        unsigned value = 0;
        while (i + 1 < raw.size() && std::isxdigit(static_cast<unsigned char>(raw[i + 1]))) {
          const char h = raw[++i];
          value = value * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : std::tolower(h) - 'a' + 10);
        }
        out += static_cast<char>(value);
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          int value = c - '0', digits = 1;
          while (i + 1 < raw.size() && raw[i + 1] >= '0' && raw[i + 1] <= '7' && digits < 3) {
            value = value * 8 + (raw[++i] - '0');
            ++digits;
          }
          out += static_cast<char>(value);
        } else {
          out += '\\';
          out += c;
        }
    }
  }
  return out;
}

// ---- tokens --------------------------------------------------------------------------------

// ASCII character sets of our own: X3's char classes assert (and call <cctype> with negative
// values) on bytes above 127, which a script may contain anywhere.
const auto alpha = x3::char_("a-zA-Z");
const auto digit = x3::char_("0-9");
const auto xdigit = x3::char_("0-9a-fA-F");
const auto alnum = x3::char_("a-zA-Z0-9");
const auto space = x3::char_(" \t\n\r\f\v");

const auto word_end = !(alnum | '_');

struct keywords_type : x3::symbols<int> {
  keywords_type() {
    for (const char* k : {"auto", "break", "case", "char", "const", "continue", "counter",
                          "default", "do", "double", "else", "enum", "extern", "float", "for",
                          "goto", "if", "import", "inline", "int", "long", "offsetof", "probe",
                          "provider", "register", "restrict", "return", "short",
                          "signed", "sizeof", "static", "string", "stringof", "struct",
                          "switch", "translator", "typedef", "union", "unsigned",
                          "userland", "void", "volatile", "while", "xlate"})
      add(k, 0);
  }
};
const keywords_type keywords;

// Keywords are not identifiers; self and this are (self->x and this->x are member accesses).
const auto identifier_text =
    x3::rule<class identifier_text, std::string>{"identifier"} = x3::lexeme[
        x3::raw[(alpha | '_') >> *(alnum | '_')] - (keywords >> word_end)];

struct type_words_type : x3::symbols<int> {
  type_words_type() {
    for (const char* w : {"char", "short", "int", "long", "signed", "unsigned", "string", "void",
                          "float", "double",
                          "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
                          "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "size_t",
                          "ssize_t", "pid_t", "id_t", "uid_t", "gid_t", "processorid_t",
                          "zoneid_t", "boolean_t", "uchar_t", "ushort_t", "uint_t", "ulong_t",
                          "u_longlong_t", "longlong_t", "off_t", "caddr_t", "hrtime_t",
                          "ushort", "uint", "ulong"})
      add(w, 0);
  }
};
const type_words_type type_words;

// A type name as casts and sizeof take it: "unsigned long long", "uint64_t", "char *",
// "struct task_struct *", "union D`u" (a scope: D, the program's own, or a kernel module's).
const auto type_name = x3::rule<class type_name, std::string>{"type name"} =
    x3::raw[(x3::lexeme[(x3::lit("struct") | "union" | "enum") >> word_end] >>
                 x3::lexeme[-(identifier_text >> '`') >> identifier_text] |
             x3::lexeme[type_words >> word_end] >> *(x3::lexeme[type_words >> word_end])) >>
            *x3::lit('*')];

// A type name where nothing else may stand (declarations, translators, xlate): also a typedef's
// name, which casts and sizeof cannot tell from an expression in brackets.
const auto declared_type_name = x3::rule<class declared_type_name, std::string>{"type name"} =
    x3::raw[type_name | (identifier_text >> *x3::lit('*'))];

// A name a typedef before it declared, which a cast may name alone: `(foo)x`.
const auto declared_typedef_name = x3::rule<class declared_typedef_name, std::string>{"type name"} =
    identifier_text[([](auto& ctx) {
      x3::_val(ctx) = x3::_attr(ctx);
      x3::_pass(ctx) = x3::get<typedefs_tag>(ctx).get().contains(x3::_attr(ctx));
    })];

// offsetof's type: a struct or union by its tag, or a typedef's name for one.
const auto offsetof_type = x3::rule<class offsetof_type, std::string>{"type name"} = type_name | declared_typedef_name;

// `name *`: a pointer to a typedef's type, which a cast may name.
const auto typedef_pointer_name = x3::rule<class typedef_pointer_name, std::string>{"type name"} =
    x3::raw[identifier_text >> +x3::lit('*')];

// raw[] stands outermost (or alone in a rule): inside a sequence X3 would try to move its
// range into the string's characters one by one.
const auto integer_text = x3::rule<class integer_text, std::string>{"integer"} = x3::raw[
    x3::lexeme[((x3::lit("0x") | "0X") >> +xdigit | +digit) >> -x3::char_("uU") >>
               -x3::char_("lL") >> -x3::char_("lL") >> word_end]];

// What DTrace's lexer reads as a floating-point constant (to refuse it): digits with a '.', an
// exponent or an f suffix, or a '.' and digits. Tried before integer_text, which it outlasts.
const auto floating_text = x3::rule<class floating_text, std::string>{"floating-point constant"} = x3::raw[
    x3::lexeme[(+digit >> '.' >> *digit | '.' >> +digit | +digit >> &x3::char_("eEfF")) >>
               -(x3::char_("eE") >> -x3::char_("+-") >> +digit) >> -x3::char_("fFlL") >> word_end]];

const auto string_body = x3::rule<class string_body, std::string>{"string"} =
    x3::raw[*(('\\' >> (x3::char_ - x3::eol)) | (x3::char_ - '"' - '\\' - x3::eol))];
const auto quoted_string = x3::rule<class quoted_string, std::string>{"string"} =
    x3::lexeme['"' >> string_body >> '"'];

const auto char_body = x3::rule<class char_body, std::string>{"character"} =
    x3::raw[*(('\\' >> (x3::char_ - x3::eol)) | (x3::char_ - '\'' - '\\' - x3::eol))];
const auto quoted_char = x3::rule<class quoted_char, std::string>{"character"} =
    x3::lexeme['\'' >> char_body >> '\''];

const auto macro_text = x3::rule<class macro_text, std::string>{"macro"} =
    x3::lexeme[x3::raw['$' >> -x3::lit('$') >> +(alnum | '_')]];

const auto aggregation_text = x3::rule<class aggregation_text, std::string>{"aggregation"} =
    x3::raw[x3::lexeme['@' >> *(alnum | '_')]];

struct binary_ops_type : x3::symbols<std::string> {
  binary_ops_type() {
    for (const char* op : {"||", "^^", "&&", "|", "^", "&", "==", "!=", "<", "<=", ">", ">=",
                           "<<", ">>", "+", "-", "*", "/", "%"})
      add(op, op);
  }
};
const binary_ops_type binary_ops;

struct assign_ops_type : x3::symbols<std::string> {
  assign_ops_type() {
    for (const char* op : {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})
      add(op, op);
  }
};
const assign_ops_type assign_ops;

// ---- expressions -----------------------------------------------------------------------------

using ast::node_kind;
using ast::node_ptr;

x3::rule<class expression, node_ptr> const expression = "expression";
x3::rule<class primary, node_ptr> const primary = "expression";
x3::rule<class postfix, node_ptr> const postfix = "expression";
x3::rule<class unary, node_ptr> const unary = "expression";
x3::rule<class prefix_item, node_ptr> const prefix_item = "operator";
x3::rule<class binary, node_ptr> const binary = "expression";
x3::rule<class binary_link, std::pair<std::string, node_ptr>> const binary_link = "operator";
x3::rule<class conditional, node_ptr> const conditional = "expression";
x3::rule<class argument_list, std::vector<node_ptr>> const argument_list = "arguments";

// The stars of `* *name`, as written, and as D writes them ("**").
const auto stars = x3::rule<class stars, std::string>{"'*'"} = x3::raw[*x3::lit('*')];
inline std::string stars_of(const std::string& text) {
  return std::string(static_cast<std::size_t>(std::count(text.begin(), text.end(), '*')), '*');
}

// `struct { members }`, `union { ... }` or `enum { A, B }` where a type name stands (a variable's,
// a member's, a typedef's, a cast's or sizeof's type): a type of its own without a tag. The rules
// are defined with the type declarations, further down.
x3::rule<class struct_members, std::vector<ast::declared_member>> const struct_members = "member";
x3::rule<class enumerator, ast::declared_member> const enumerator = "enumerator";
x3::rule<class anonymous_record, ast::type_declaration> const anonymous_record = "type name";

// A leaf starts as an empty node where its text starts (eps has skipped the blanks before it);
// the alternative that matches fills it in and sets its end.
const auto open_node = [](auto& ctx) {
  const auto at = end_of(ctx);
  x3::_val(ctx) = make_node(node_kind::integer, "", {at, at});
};
template <class Context>
void fill(Context& ctx, node_kind kind, std::string text, std::vector<node_ptr> kids = {}) {
  auto& n = *x3::_val(ctx);
  n.kind = kind;
  n.text = std::move(text);
  n.depth = depth_of(kids);
  if (n.depth > max_depth) throw too_deep{n.where.begin};
  n.kids = std::move(kids);
  n.where.end = end_of(ctx);
}
template <node_kind Kind>
struct leaf {
  template <class Context>
  void operator()(Context& ctx) const {
    fill(ctx, Kind, x3::_attr(ctx));
  }
};
struct text_leaf {
  node_kind kind;
  template <class Context>
  void operator()(Context& ctx) const {
    fill(ctx, kind, decode_escapes(x3::_attr(ctx)));
  }
};
const auto pass_through = [](auto& ctx) { x3::_val(ctx) = x3::_attr(ctx); };
const auto aggregation_leaf = [](auto& ctx) {
  fill(ctx, node_kind::aggregation, x3::_attr(ctx).substr(1));
};
const auto sizeof_type_action = [](auto& ctx) {
  fill(ctx, node_kind::sizeof_type, x3::_attr(ctx));
};
// sizeof(struct { ... } *) and (union { ... } *)p: the type declared, and its stars.
const auto with_record = [](node_kind kind) {
  return [kind](auto& ctx) {
    auto& attr = x3::_attr(ctx);
    fill(ctx, kind, stars_of(boost::fusion::at_c<1>(attr)));
    x3::_val(ctx)->record = std::make_shared<const ast::type_declaration>(std::move(boost::fusion::at_c<0>(attr)));
  };
};
const auto sizeof_expr_action = [](auto& ctx) {
  fill(ctx, node_kind::sizeof_expr, "", {x3::_attr(ctx)});
};
const auto offsetof_action = [](auto& ctx) {
  fill(ctx, node_kind::offsetof, boost::fusion::at_c<0>(x3::_attr(ctx)));
  x3::_val(ctx)->name = boost::fusion::at_c<1>(x3::_attr(ctx));
};
const auto stringof_action = [](auto& ctx) {
  fill(ctx, node_kind::stringof, "", {x3::_attr(ctx)});
};
const auto xlate_action = [](auto& ctx) {
  auto& attr = x3::_attr(ctx);
  fill(ctx, node_kind::xlate, boost::fusion::at_c<0>(attr), {boost::fusion::at_c<1>(attr)});
};

const auto primary_def = x3::eps[open_node] >> (
    floating_text[leaf<node_kind::floating>{}] |
    integer_text[leaf<node_kind::integer>{}] |
    quoted_char[text_leaf{node_kind::character}] |
    quoted_string[text_leaf{node_kind::string}] |
    macro_text[leaf<node_kind::macro>{}] |
    aggregation_text[aggregation_leaf] |
    (x3::lexeme["sizeof" >> word_end] >> '(' >> type_name >> ')')[sizeof_type_action] |
    (x3::lexeme["sizeof" >> word_end] >> '(' >> (anonymous_record > stars > ')'))[with_record(node_kind::sizeof_type)] |
    (x3::lexeme["sizeof" >> word_end] >> '(' >> declared_typedef_name >> ')')[sizeof_type_action] |
    (x3::lexeme["sizeof" >> word_end] > unary)[sizeof_expr_action] |
    (x3::lexeme["stringof" >> word_end] > unary)[stringof_action] |
    (x3::lexeme["xlate" >> word_end] > '<' > declared_type_name > '>' > '(' > expression > ')')[xlate_action] |
    (x3::lexeme["offsetof" >> word_end] > '(' > offsetof_type > ',' > identifier_text > ')')[offsetof_action] |
    identifier_text[leaf<node_kind::identifier>{}] |
    ('(' > expression > ')')[pass_through]);

// Postfix operators wrap what stands before them (the rule's value so far).
template <class Context>
void wrap(Context& ctx, node_kind kind, std::string text, std::vector<node_ptr> extra = {}) {
  auto& value = x3::_val(ctx);
  std::vector<node_ptr> kids{value};
  for (auto& e : extra) kids.push_back(std::move(e));
  const ast::span where{value->where.begin, end_of(ctx)};
  value = make_node(kind, std::move(text), where, std::move(kids));
}
const auto index_action = [](auto& ctx) { wrap(ctx, node_kind::index, "", x3::_attr(ctx)); };
const auto call_action = [](auto& ctx) {
  auto& arguments = x3::_attr(ctx);
  wrap(ctx, node_kind::call, "", arguments ? *arguments : std::vector<node_ptr>{});
};
const auto member_action = [](const char* op) {
  return [op](auto& ctx) {
    wrap(ctx, node_kind::member, op);
    x3::_val(ctx)->name = x3::_attr(ctx);
  };
};
const auto postfix_action = [](const char* op) {
  return [op](auto& ctx) { wrap(ctx, node_kind::postfix, op); };
};

const auto argument_list_def = expression % ',';

const auto postfix_def =
    primary[pass_through] >>
    *(('[' > argument_list > ']')[index_action] |
      ('(' > -argument_list > ')')[call_action] |
      (x3::lit("->") > identifier_text)[member_action("->")] |
      ('.' > identifier_text)[member_action(".")] |
      x3::lit("++")[postfix_action("++")] |
      x3::lit("--")[postfix_action("--")]);

const auto prefix_op_action = [](auto& ctx) {
  const auto& range = x3::_attr(ctx);
  fill(ctx, node_kind::prefix, std::string(range.begin(), range.end()));
};
const auto cast_action = [](auto& ctx) { fill(ctx, node_kind::cast, x3::_attr(ctx)); };
const auto prefix_item_def = x3::eps[open_node] >> (
    x3::raw[x3::lit("++") | "--" | (x3::lit('-') >> !x3::lit('>')) | '+' | '!' | '~' | '*' |
            '&'][prefix_op_action] |
    ('(' >> type_name >> ')')[cast_action] |
    ('(' >> (anonymous_record > stars > ')'))[with_record(node_kind::cast)] |
    // (name *): a pointer to a typedef's type; (name) of a name no typedef declared yet is an
    // expression in brackets.
    ('(' >> typedef_pointer_name >> ')')[cast_action] |
    ('(' >> declared_typedef_name >> ')')[cast_action]);

// Prefix operators apply right to left: -!x is -(!x). Iterating keeps the C++ stack flat, but
// sizeof and stringof recurse (and brackets, through expression): every path by which the
// grammar recurses passes through unary or expression, which are bounded.
const auto unary_action = [](auto& ctx) {
  auto& prefixes = boost::fusion::at_c<0>(x3::_attr(ctx));
  node_ptr value = boost::fusion::at_c<1>(x3::_attr(ctx));
  for (auto it = prefixes.rbegin(); it != prefixes.rend(); ++it) {
    (*it)->depth = value->depth + 1;
    if ((*it)->depth > max_depth) throw too_deep{(*it)->where.begin};
    (*it)->kids.push_back(value);
    (*it)->where.end = value->where.end;
    value = *it;
  }
  x3::_val(ctx) = value;
};
const auto unary_def = bounded[(*prefix_item >> postfix)[unary_action]];

// Binary operators are read as a flat chain and ordered by C's precedence here.
inline int precedence(const std::string& op) {
  static const std::pair<const char*, int> table[] = {
      {"||", 1}, {"^^", 2}, {"&&", 3}, {"|", 4}, {"^", 5}, {"&", 6}, {"==", 7}, {"!=", 7},
      {"<", 8}, {"<=", 8}, {">", 8}, {">=", 8}, {"<<", 9}, {">>", 9}, {"+", 10}, {"-", 10},
      {"*", 11}, {"/", 11}, {"%", 11}};
  for (const auto& [name, level] : table)
    if (op == name) return level;
  return 0;
}

const auto binary_action = [](auto& ctx) {
  auto& attr = x3::_attr(ctx);
  std::vector<node_ptr> operands{boost::fusion::at_c<0>(attr)};
  std::vector<std::string> operators;
  const auto reduce = [&] {
    auto right = operands.back();
    operands.pop_back();
    auto left = operands.back();
    operands.pop_back();
    operands.push_back(make_node(node_kind::binary, operators.back(),
                                 {left->where.begin, right->where.end}, {left, right}));
    operators.pop_back();
  };
  for (auto& link : boost::fusion::at_c<1>(attr)) {
    const std::string& op = boost::fusion::at_c<0>(link);
    while (!operators.empty() && precedence(operators.back()) >= precedence(op)) reduce();
    operators.push_back(op);
    operands.push_back(boost::fusion::at_c<1>(link));
  }
  while (!operators.empty()) reduce();
  x3::_val(ctx) = operands.back();
};
// An operator commits to its operand, so that a missing one is reported where DTrace's parser
// reports it (`i < != 10`: near "!="). Not a '/', which may close a predicate instead, nor an
// operator that starts an assignment's (`-=`).
const auto binary_link_def = (!x3::lit('/') >> binary_ops >> !x3::lit('=') > unary) | (binary_ops >> unary);
const auto binary_def = (unary >> *binary_link)[binary_action];

// Groups a chain `first (link)*` to the right: the last link binds first. make(left, link, right)
// builds one node, `left` being what stands before the link (the first operand, or the previous
// link's last operand).
template <class Attribute, class Make>
node_ptr fold_right(Attribute& attr, Make make) {
  auto& links = boost::fusion::at_c<1>(attr);
  if (links.empty()) return boost::fusion::at_c<0>(attr);
  node_ptr value = boost::fusion::at_c<1>(links.back());
  for (std::size_t i = links.size(); i-- > 0;) {
    node_ptr left = i == 0 ? boost::fusion::at_c<0>(attr) : boost::fusion::at_c<1>(links[i - 1]);
    value = make(left, links[i], value);
  }
  return value;
}

// a ? b : c ? d : e groups to the right.
const auto conditional_action = [](auto& ctx) {
  x3::_val(ctx) = fold_right(x3::_attr(ctx), [](node_ptr condition, auto& arm, node_ptr otherwise) {
    return make_node(node_kind::conditional, "", {condition->where.begin, otherwise->where.end},
                     {condition, boost::fusion::at_c<0>(arm), otherwise});
  });
};
const auto conditional_def = (binary >> *('?' > expression > ':' > binary))[conditional_action];

// a = b += c groups to the right; the checker wants lvalues on the left.
const auto assignment_action = [](auto& ctx) {
  x3::_val(ctx) = fold_right(x3::_attr(ctx), [](node_ptr target, auto& link, node_ptr value) {
    return make_node(node_kind::assign, boost::fusion::at_c<0>(link),
                     {target->where.begin, value->where.end}, {target, value});
  });
};
const auto expression_def = bounded[(conditional >> *(assign_ops > conditional))[assignment_action]];

BOOST_SPIRIT_DEFINE(expression, primary, postfix, unary, prefix_item, binary, binary_link, conditional,
                    argument_list)

// ---- clauses ---------------------------------------------------------------------------------

const auto probe_char = alnum | x3::char_("-_.*?[]!$:`+~");

// The keywords that may start a declaration at the top of a program are that, never a probe
// description of one word: `int { }` is a broken declaration, as in DTrace's lexer.
struct top_level_keywords_type : x3::symbols<int> {
  top_level_keywords_type() {
    for (const char* k : {"auto", "char", "const", "counter", "double", "enum", "extern", "float",
                          "import", "inline", "int", "long", "provider", "register", "restrict",
                          "self", "short", "signed", "static", "string", "struct", "this",
                          "translator", "typedef", "union", "unsigned", "void", "volatile"})
      add(k, 0);
  }
};
const top_level_keywords_type top_level_keywords;

const auto probe_text = x3::rule<class probe_text, std::string>{"probe description"} =
    x3::lexeme[x3::raw[+probe_char] - (top_level_keywords >> !probe_char)];

const auto probe_action = [](auto& ctx) {
  const std::string& text = x3::_attr(ctx);
  const auto end = end_of(ctx);
  x3::_val(ctx).probes.push_back({text, {static_cast<std::uint32_t>(end - text.size()), end}});
};
const auto predicate_action = [](auto& ctx) { x3::_val(ctx).predicate = x3::_attr(ctx); };
const auto statement_action = [](auto& ctx) { x3::_val(ctx).statements.push_back(x3::_attr(ctx)); };
const auto body_action = [](auto& ctx) { x3::_val(ctx).has_body = true; };

x3::rule<class clause, ast::clause> const clause = "clause";
// The actions fill the clause; omit keeps X3 from also moving attributes into it. A statement's
// comma operator (`a = 1, b = 2;`) evaluates its operands in order and drops their values: each
// is a statement of its own.
const auto clause_def = x3::omit[
    probe_text[probe_action] % ',' >>
    -('/' > expression[predicate_action] > '/') >>
    -(x3::lit('{')[body_action] >
      *(x3::lit(';') | ((expression[statement_action] % ',') > (x3::lit(';') | &x3::lit('}')))) > '}')];
BOOST_SPIRIT_DEFINE(clause)

// `[N]` (N as written; empty for `[]`) of an array's declaration.
const auto array_dimension = '[' >> x3::raw[-(-x3::lit('-') >> integer_text)] >> ']';
// Adds a dimension to the one a declaration names last: dimensions_of(_val) says where it goes.
const auto push_dimension_to = [](auto dimensions_of) {
  return [dimensions_of](auto& ctx) {
    const auto& range = x3::_attr(ctx);
    dimensions_of(x3::_val(ctx)).emplace_back(range.begin(), range.end());
  };
};

// A later declarator of a declaration (`q` or `*q` in `char *p, q, *r;`) takes the type the
// declaration names without the first declarator's stars, and its own, as C binds them.
template <class Item>
Item next_declarator(const Item& first, const std::string& stars) {
  Item next;
  next.type = first.type.substr(0, first.type.find_last_not_of(" \t\r\n*") + 1);
  if (!stars.empty()) next.type += " " + stars;
  next.record = first.record;
  if constexpr (std::is_same_v<Item, ast::declaration>) next.scope = first.scope;
  return next;
}
// `, *name` after a declarator: the next one, on the list the rule builds (a member's span is
// its name, as member_name gives it).
const auto push_next_declarator = [](auto& ctx) {
  auto& list = x3::_val(ctx);
  auto next = next_declarator(list.front(), stars_of(boost::fusion::at_c<0>(x3::_attr(ctx))));
  next.name = boost::fusion::at_c<1>(x3::_attr(ctx));
  if constexpr (std::is_same_v<decltype(next), ast::declared_member>) {
    const auto end = end_of(ctx);
    next.where = {static_cast<std::uint32_t>(end - next.name.size()), end};
  }
  list.push_back(std::move(next));
};

// The item a part of a declaration fills: the last of a list (the declarator being read), or
// the rule's own.
template <class Item>
Item& last_of(Item& item) { return item; }
template <class Item>
Item& last_of(std::vector<Item>& items) { return items.back(); }

// A declaration's, member's or typedef's type: a struct or union written out and the stars after
// it (`struct { int a; } *p;`), or a type name.
const auto declared_type =
    (anonymous_record[([](auto& ctx) {
       last_of(x3::_val(ctx)).record = std::make_shared<const ast::type_declaration>(std::move(x3::_attr(ctx)));
     })] >>
     stars[([](auto& ctx) { last_of(x3::_val(ctx)).type = stars_of(x3::_attr(ctx)); })]) |
    declared_type_name[([](auto& ctx) { last_of(x3::_val(ctx)).type = x3::_attr(ctx); })];

// `[inline] [self|this] type declarator, ... ;`, each declarator `name`, `*name`,
// `name[N]...`, `name[type, ...]` or a function's `name(parameters)`, with `= expression` for an
// inline (the checker refuses it elsewhere). An inline declares one name: a ',' after it is a syntax error, as in DTrace.
x3::rule<class declaration, std::vector<ast::declaration>> const declaration = "declaration";
// D's variable scopes and C's storage classes, which D refuses by name.
const auto storage_class =
    x3::raw[x3::lexeme[(x3::lit("self") | "this" | "extern" | "register" | "static" | "auto") >> word_end]];
// A second storage class (`self this int x;`) is kept, "self this", for the checker to refuse.
const auto add_scope = [](auto& ctx) {
  const std::string scope(x3::_attr(ctx).begin(), x3::_attr(ctx).end());
  auto& kept = x3::_val(ctx).back().scope;
  kept = kept.empty() ? scope : kept + " " + scope;
};
// An associative array's key types, `[int, string]`, each with a name for an inline array's
// (`[int x, int y]`), or `[...]` for the checker to refuse.
const auto key_type = type_name[([](auto& ctx) {
  x3::_val(ctx).back().keys.push_back(x3::_attr(ctx));
  x3::_val(ctx).back().key_names.emplace_back();
})] >> -identifier_text[([](auto& ctx) { x3::_val(ctx).back().key_names.back() = x3::_attr(ctx); })];
const auto declarator_dimension =
    array_dimension[push_dimension_to([](auto& list) -> auto& { return list.back().dimensions; })];
const auto declarator_tail =
    -(+declarator_dimension |
      ('[' > (x3::lit("...")[([](auto& ctx) { x3::_val(ctx).back().variadic_keys = true; })] | (key_type % ',')) > ']')) >>
    -('=' > expression[([](auto& ctx) { x3::_val(ctx).back().value = x3::_attr(ctx); })]);
// A name with D's scoping operator (`int `x;`) is taken for the checker to refuse.
const auto declarator_name = x3::rule<class declarator_name, std::string>{"identifier"} =
    identifier_text | x3::raw[x3::lexeme[-identifier_text >> '`' >> identifier_text]];
const auto declared_name = declarator_name[([](auto& ctx) { x3::_val(ctx).back().name = x3::_attr(ctx); })];
// A function's parameters where only their place matters: a function pointer's.
const auto skipped_parameters = x3::omit['(' >> *(x3::char_ - ')') >> ')'];
// `(*name)(parameters)` or `(*name[2])(...)`, a declaration's or a member's: a pointer to a
// function (or an array of them), an address as D holds one, whatever the function returns.
template <class Name, class Dimensions>
auto function_pointer(Name name, Dimensions dimensions) {
  return x3::lit('(') >> +x3::lit('*') >> name >> dimensions >> ')' >> skipped_parameters >>
         x3::eps[([](auto& ctx) {
           auto& declared = last_of(x3::_val(ctx));
           declared.type = "void *";
           declared.record = nullptr;
         })];
}
// `(type [name], ...)`, `(void)`, `()` or with `...` last: a function's prototype, as C headers
// declare them (`void f(int, char *);`).
// Backtracking, not expecting, after the '(': `BEGIN exit(0); }` is a clause broken off.
template <class Set>
auto on_parameter(Set set) {
  return [set](auto& ctx) { set(x3::_val(ctx).back().parameters.back(), ctx); };
}
const auto parameter_storage = x3::raw[storage_class | x3::lexeme[x3::lit("typedef") >> word_end]];
const auto parameter = x3::eps[([](auto& ctx) { x3::_val(ctx).back().parameters.emplace_back(); })] >>
    (x3::lit("...")[on_parameter([](auto& p, auto&) { p.type = "..."; })] |
     (-parameter_storage[on_parameter([](auto& p, auto& ctx) { p.storage.assign(x3::_attr(ctx).begin(), x3::_attr(ctx).end()); })] >>
      declared_type_name[on_parameter([](auto& p, auto& ctx) { p.type = x3::_attr(ctx); })] >>
      -identifier_text[on_parameter([](auto& p, auto& ctx) { p.name = x3::_attr(ctx); })] >>
      -x3::omit['[' >> *(x3::char_ - ']') >> ']'][on_parameter([](auto& p, auto&) { p.dynamic = true; })]));
const auto parameter_list = x3::omit[
    x3::eps[([](auto& ctx) { x3::_val(ctx).back().parameters.clear(); })] >> '(' >> -(parameter % ',') >> ')'];
const auto mark_function = [](auto& ctx) { x3::_val(ctx).back().is_function = true; };
// `self x;`, `this x;` and `extern x;`: a storage class without a type declares an int, as in C.
const auto scope_without_type = [](auto& ctx) {
  auto& d = x3::_val(ctx).back();
  x3::_pass(ctx) = !d.scope.empty();
  d.type = "int";
  d.record = nullptr;
};
const auto declaration_def = x3::omit[
    x3::eps[([](auto& ctx) { x3::_val(ctx).emplace_back(); })] >>
    -x3::lexeme[x3::lit("inline") >> word_end][([](auto& ctx) { x3::_val(ctx).back().is_inline = true; })] >>
    *storage_class[add_scope] >>
    // `int;` declares nothing: kept, nameless, for the checker to call useless.
    ((+x3::lexeme[type_words >> word_end] >> &x3::lit(';'))[([](auto& ctx) { x3::_val(ctx).back().type = "int"; })] |
     (declared_type >> (declared_name | function_pointer(declared_name, *declarator_dimension))) |
     (x3::eps[scope_without_type] >> declared_name)) >>
    -parameter_list[mark_function] >> declarator_tail >>
    ((x3::eps[([](auto& ctx) { x3::_pass(ctx) = x3::_val(ctx).front().is_inline; })] > ';') |
     (+((',' > stars > identifier_text)[push_next_declarator] > -parameter_list[mark_function] > declarator_tail) > ';') |
     ';')];
BOOST_SPIRIT_DEFINE(declaration)

// The parts of type declarations and translators, each a declared_member (the last of a list).
const auto member_name = [](auto& ctx) {
  auto& m = last_of(x3::_val(ctx));
  m.name = x3::_attr(ctx);
  const auto end = end_of(ctx);
  m.where = {static_cast<std::uint32_t>(end - m.name.size()), end};
};
const auto member_value = [](auto& ctx) { x3::_val(ctx).value = x3::_attr(ctx); };
const auto push_member = [](auto& ctx) { x3::_val(ctx).members.push_back(x3::_attr(ctx)); };

// `type name;`, `type name[count];` or `type a, *p, b[2];` in a struct or union. A member
// names itself: an anonymous struct without a name (C11's) is a syntax error, as in DTrace.
// A bit-field's width follows its name: `int a : 3;`.
const auto member_count = -('[' > integer_text[([](auto& ctx) { x3::_val(ctx).back().count = x3::_attr(ctx); })] > ']') >>
                          -(':' > conditional[([](auto& ctx) { x3::_val(ctx).back().bits = x3::_attr(ctx); })]);
// A bit-field without a name (`int : 3;`) is padding, as in C.
const auto unnamed_bit_field = x3::lit(':')[([](auto& ctx) {
  const auto end = end_of(ctx);
  last_of(x3::_val(ctx)).where = {end - 1, end};
})] > conditional[([](auto& ctx) { x3::_val(ctx).back().bits = x3::_attr(ctx); })];
const auto struct_members_def = x3::omit[
    x3::eps[([](auto& ctx) { x3::_val(ctx).emplace_back(); })] >> declared_type >
    ((identifier_text[member_name] >>
      -skipped_parameters[([](auto& ctx) { x3::_val(ctx).back().is_function = true; })] >> member_count) |
     unnamed_bit_field | function_pointer(identifier_text[member_name], member_count)) >>
    *((',' > stars > identifier_text)[push_next_declarator] > member_count) > ';'];

// An enumerator's or a translator member's errors are DTrace's at the token after it, which
// DTrace's parser reads before it defines one.
const auto where_next_token = -x3::raw[&x3::char_][([](auto& ctx) {
  const auto next = offset_of(ctx, x3::_attr(ctx).begin());  // past the blanks
  x3::_val(ctx).where = {next, next + 1};
})];

// `NAME` or `NAME = value` in an enum.
const auto enumerator_def =
    x3::omit[identifier_text[member_name] >> -('=' > conditional[member_value]) >> where_next_token];

// `member = expression;` in a translator.
x3::rule<class translator_member, ast::declared_member> const translator_member = "translator member";
const auto translator_member_def =
    x3::omit[identifier_text[member_name] > '=' > expression[member_value] > ';' >> where_next_token];

// `struct s { members };`, `union u { ... };`, `enum [e] { A, B = 2 };` (each optionally declaring
// a variable of the type before the ';'), or `typedef type name;`.
x3::rule<class type_declaration, ast::type_declaration> const type_declaration = "type declaration";
const auto keyword_of = [](auto& ctx) {
  const auto& range = x3::_attr(ctx);
  x3::_val(ctx).keyword.assign(range.begin(), range.end());
};
const auto tag_of = [](auto& ctx) { x3::_val(ctx).name = x3::_attr(ctx); };
const auto append_members = [](auto& ctx) {
  auto& members = x3::_val(ctx).members;
  members.insert(members.end(), x3::_attr(ctx).begin(), x3::_attr(ctx).end());
};
// DTrace's grammar wants one member at least: `struct { }` is a syntax error near '}'. A tag
// declares the type by that name too (`typedef struct rec { ... } rec_t;`).
const auto anonymous_record_def = x3::omit[
    ((x3::raw[x3::lexeme[(x3::lit("struct") | "union") >> word_end]][keyword_of] >> -identifier_text[tag_of] >> '{') >
     +struct_members[append_members] > '}') |
    ((x3::raw[x3::lexeme[x3::lit("enum") >> word_end]][keyword_of] >> -identifier_text[tag_of] >> '{') >
     (enumerator[push_member] % ',') > -x3::lit(',') > '}')];
const auto declared_variables =
    -(((stars >> identifier_text)[([](auto& ctx) {
         const auto& attr = x3::_attr(ctx);
         x3::_val(ctx).variables.push_back({stars_of(boost::fusion::at_c<0>(attr)), boost::fusion::at_c<1>(attr), {}});
       })] >>
       *array_dimension[push_dimension_to([](auto& d) -> auto& { return d.variables.back().dimensions; })]) % ',') > ';';
const auto type_declaration_def = x3::omit[
    (x3::raw[x3::lexeme[(x3::lit("struct") | "union") >> word_end]][keyword_of] >> identifier_text[tag_of] >>
     '{' > *struct_members[append_members] > '}' > declared_variables) |
    // `struct { ... };`: a type no name will use, whose members are still checked, as in DTrace.
    (x3::raw[x3::lexeme[(x3::lit("struct") | "union") >> word_end]][keyword_of] >> '{' >>
     *struct_members[append_members] >> '}' >> ';') |
    (x3::raw[x3::lexeme[x3::lit("enum") >> word_end]][keyword_of] >> -identifier_text[tag_of] >>
     '{' > (enumerator[push_member] % ',') > -x3::lit(',') > '}' > declared_variables) |
    (x3::raw[x3::lexeme[x3::lit("typedef") >> word_end]][keyword_of] > declared_type > identifier_text[tag_of] > ';')];

// `translator output < input parameter > { member = expression; ... };`
x3::rule<class translator, ast::translator> const translator = "translator";
const auto translator_def = x3::omit[
    x3::lexeme[x3::lit("translator") >> word_end] >
    declared_type_name[([](auto& ctx) { x3::_val(ctx).output = x3::_attr(ctx); })] > '<' >
    declared_type_name[([](auto& ctx) { x3::_val(ctx).input = x3::_attr(ctx); })] >
    identifier_text[([](auto& ctx) { x3::_val(ctx).parameter = x3::_attr(ctx); })] > '>' > '{' >
    *translator_member[push_member] > '}' > ';'];
BOOST_SPIRIT_DEFINE(struct_members, anonymous_record, enumerator, translator_member, type_declaration, translator)

const auto comment = x3::lexeme["/*" >> *(x3::char_ - "*/") >> "*/"] |
                     x3::lexeme["//" >> *(x3::char_ - x3::eol)];
const auto skipper = space | comment;

}  // namespace parser

namespace detail {

// The token at an offset, as DTrace quotes it in "syntax error near ...".
inline std::string token_at(const std::string& text, std::size_t at) {
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  if (at >= text.size()) return "";
  const auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::size_t end = at + 1;
  if (is_word(text[at]) || text[at] == '$' || text[at] == '@') {
    while (end < text.size() && is_word(text[end])) ++end;
  } else if (text[at] == '"') {
    while (end < text.size() && text[end] != '"' && text[end] != '\n') end += text[end] == '\\' ? 2 : 1;
    end = std::min(end + 1, text.size());
  } else {
    static const char* const operators[] = {"<<=", ">>=", "->", "++", "--", "<<", ">>", "<=",
                                            ">=", "==", "!=", "&&", "||", "^^", "+=", "-=",
                                            "*=", "/=", "%=", "&=", "|=", "^="};
    for (const char* op : operators)
      if (text.compare(at, std::strlen(op), op) == 0) {
        end = at + std::strlen(op);
        break;
      }
  }
  return text.substr(at, end - at);
}

// D's constructs the grammar does not take yet, by the token where parsing stops at one: said so
// rather than called a syntax error.
inline const char* not_supported_yet(const std::string& token) {
  if (token == "`") return "kernel symbols (`name) are not supported yet";
  return nullptr;
}

// Whether DTrace's parser takes `op` where it stands and stops at the token after it: an operator
// that may start or continue an operand, followed by one that can neither follow it nor start one
// (`i +- ;` stops at ";", `i /-= i` at "-="), or by what its lexer cannot read.
inline bool stops_after(const std::string& op, const std::string& next) {
  static const std::set<std::string> operand_operators = {"-", "+", "!", "~", "*", "&", "/", "%"};
  static const std::set<std::string> enders = {";", ")", "}", "]", ",", "=", "+=", "-=", "*=", "/=",
                                               "%=", "&=", "|=", "^=", "<<=", ">>="};
  // A '$' that starts no macro (`$-1`) is no token to DTrace's lexer: where an operand may
  // follow, its parser asks for one and the lexer stops there.
  if (next == "$" && (op == "," || op == "(" || op == "=" || operand_operators.contains(op))) return true;
  return operand_operators.contains(op) && enders.contains(next);
}

inline diagnostic syntax_error(const std::string& text, std::size_t at) {
  std::size_t begin = at;
  while (begin < text.size() && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  auto token = token_at(text, begin);
  // DTrace's lexer reads a number's digits (and u/l suffixes) as a token of their own: in `10ms`
  // its parser stops at `ms`.
  if (!token.empty() && std::isdigit(static_cast<unsigned char>(token[0]))) {
    const bool hex = token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X');
    std::size_t digits = hex ? 2 : 0;
    while (digits < token.size() && (hex ? std::isxdigit(static_cast<unsigned char>(token[digits]))
                                         : std::isdigit(static_cast<unsigned char>(token[digits]))))
      ++digits;
    while (digits < token.size() && std::strchr("uUlL", token[digits])) ++digits;
    if (digits < token.size()) {
      begin += digits;
      token = token.substr(digits);
    }
  }
  if (!token.empty() && stops_after(token, token_at(text, begin + token.size()))) {
    begin += token.size();
    while (begin < text.size() && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
    token = token_at(text, begin);
  }
  // At the end DTrace names no token, and its line is the one after the last newline.
  if (token.empty())
    return {"D_SYNTAX", "syntax error near end of input",
            {static_cast<std::uint32_t>(text.size()), static_cast<std::uint32_t>(text.size())}};
  const ast::span where{static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(begin + token.size())};
  if (const char* why = not_supported_yet(token)) return {"D_UNKNOWN", why, where};
  // `struct a { ... } struct b ...`: a ';' forgotten makes one declaration of two types.
  if (token == "struct" || token == "union" || token == "enum") {
    auto before = begin;
    while (before > 0 && std::isspace(static_cast<unsigned char>(text[before - 1]))) --before;
    if (before > 0 && text[before - 1] == '}') return {"D_DECL_COMBO", "invalid type combination", where};
  }
  return {"D_SYNTAX", "syntax error near \"" + token + "\"", where};
}

// Finds what the grammar cannot say well or safely: unterminated comments and strings, empty or
// long character constants, and nesting deeper than max_nesting (which would otherwise cost
// stack in proportion to the input).
inline std::vector<diagnostic> scan(const std::string& text) {
  std::vector<diagnostic> errors;
  std::vector<std::size_t> open;  // offsets of ( [ { and ?
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto here = [&](std::size_t n) {
      return ast::span{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + n)};
    };
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const auto end = text.find("*/", i + 2);
      if (end == std::string::npos) {  // where the lexer meets the end, untagged, as DTrace's lexer says it
        const auto eof = static_cast<std::uint32_t>(text.size());
        errors.push_back({"", "end-of-file encountered before matching */", {eof, eof}});
        return errors;
      }
      i = end + 1;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
      if (j >= text.size() || text[j] != c) {
        // DTrace's lexer has read the newline when it notices: the error is on the next line.
        // It stops there; going on would take the literal's rest for another one's start.
        const auto next = static_cast<std::uint32_t>(std::min(j + 1, text.size()));
        errors.push_back({c == '"' ? "D_STR_NL" : "D_CHR_NL",
                          c == '"' ? "newline encountered in string literal"
                                   : "newline encountered in character constant",
                          {next, next}});
        return errors;
      }
      // A character constant holds one to eight bytes, DTrace's lexer says before anything else.
      if (c == '\'') {
        const auto bytes = parser::decode_escapes(std::string_view(text).substr(i + 1, j - i - 1)).size();
        const ast::span where{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j + 1)};
        if (bytes == 0) errors.push_back({"D_CHR_NULL", "empty character constant", where});
        if (bytes > 8) errors.push_back({"D_CHR_OFLOW", "character constant is too long", where});
        if (!errors.empty()) return errors;
      }
      i = j;
    } else if (c == '(' || c == '[' || c == '{' || (c == '?' && !open.empty())) {
      // A '?' outside brackets is a glob in a probe description, not a conditional.
      open.push_back(i);
      if (open.size() > static_cast<std::size_t>(max_nesting)) {
        errors.push_back({"D_SYNTAX",
                          "expression nested too deeply (more than " +
                              std::to_string(max_nesting) + " levels)",
                          here(1)});
        return errors;
      }
    } else if (c == ')' || c == ']' || c == '}' || c == ':') {
      if (c == ':' && (open.empty() || text[open.back()] != '?')) continue;
      // Close up to the matching opener; a stray closer is the parser's to report.
      while (!open.empty()) {
        const char o = text[open.back()];
        open.pop_back();
        if ((o == '(' && c == ')') || (o == '[' && c == ']') || (o == '{' && c == '}') ||
            (o == '?' && c == ':'))
          break;
      }
    }
  }
  return errors;
}

// The end of the clause starting at `from`: after the brace matching its first '{'.
inline std::size_t clause_end(const std::string& text, std::size_t from) {
  std::size_t i = text.find('{', from);
  if (i == std::string::npos) return text.size();
  int depth = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; i += text[i] == '\\' ? 2 : 1) {}
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const auto end = text.find("*/", i + 2);
      i = end == std::string::npos ? text.size() : end + 1;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i + 1;
    }
  }
  return text.size();
}

// Where a declaration the grammar does not take yet ends (`typedef int t;`, `struct s { ... };`):
// past its ';', after its braces if it has any.
inline std::size_t declaration_end(const std::string& text, std::size_t from) {
  const auto semicolon = text.find(';', from);
  if (semicolon < text.find('{', from)) return semicolon + 1;
  // After the braces, the variables it declares (`} a, *p;`) up to its ';'.
  const auto end = clause_end(text, from);
  const auto next = text.find(';', end);
  return next < text.find('{', end) ? next + 1 : end;
}

inline bool starts_with_word(const std::string& text, std::size_t at, std::string_view word) {
  return text.compare(at, word.size(), word) == 0 &&
         (at + word.size() >= text.size() ||
          !(std::isalnum(static_cast<unsigned char>(text[at + word.size()])) || text[at + word.size()] == '_'));
}

// What DTrace's lexer refuses by counting brackets: a ')' or ']' with no opener left before it, a
// predicate's closing '/' (one followed by ';', '{', '/' or the end) while a '(' or '[' is
// open. The counts are the whole program's, outside comments, literals and control lines. (A
// '}' too many ends the clauses, where DTrace reads probe descriptions: the parser reports it.)
// scan() has found the text's comments and literals closed.
inline std::optional<diagnostic> bracket_error(const std::string& text) {
  long parens = 0, brackets = 0;
  bool control_line = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto here = [&](std::size_t n) {
      return ast::span{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + n)};
    };
    if (i == 0 || text[i - 1] == '\n') {
      const auto first = text.find_first_not_of(" \t\f\v", i);
      control_line = first < text.size() && text[first] == '#';
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      // A comment a control line inside braces closed, blanked since, runs to the end.
      const auto close = text.find("*/", i + 2);
      if (close == std::string::npos) break;
      i = close + 1;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = std::min(text.find('\n', i), text.size()) - 1;
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != c) j += text[j] == '\\' ? 2 : 1;
      i = j;
    } else if (control_line) {
      continue;
    } else if (c == '(' || c == '[') {
      ++(c == '(' ? parens : brackets);
    } else if (c == ')' || c == ']') {
      if (--(c == ')' ? parens : brackets) < 0)
        return diagnostic{"D_SYNTAX", std::string("extra ") + c + " in input stream", here(1)};
    } else if (c == '/' && (parens != 0 || brackets != 0)) {
      const auto next = text.find_first_not_of(" \t\n\r\f\v", i + 1);
      if (next == std::string::npos || text[next] == ';' || text[next] == '{' || text[next] == '/') {
        // DTrace's lexer has read up to that character when it notices: its line is the error's.
        const auto at = static_cast<std::uint32_t>(std::min(next, text.size()));
        return diagnostic{"D_SYNTAX",
                          std::string("closing ") + (parens != 0 ? ')' : ']') + " expected in predicate before /",
                          {at, at}};
      }
    }
  }
  return std::nullopt;
}

// A control line's tokens as DTrace's lexer takes them: a quoted string (its text without the
// quotes), an integer, or a word (any other run up to a blank or a quote).
struct directive_token {
  enum class kind { word, string, integer } k;
  std::string text;
};

inline bool is_integer_token(const std::string& word) {
  std::size_t i = 0;
  const bool hex = word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X');
  if (hex) i = 2;
  const std::size_t digits = i;
  while (i < word.size() && (hex ? std::isxdigit(static_cast<unsigned char>(word[i]))
                                 : std::isdigit(static_cast<unsigned char>(word[i]))))
    ++i;
  if (i == digits) return false;
  if (i < word.size() && (word[i] == 'u' || word[i] == 'U')) ++i;
  for (int l = 0; l < 2 && i < word.size() && (word[i] == 'l' || word[i] == 'L'); ++l) ++i;
  return i == word.size();
}

// Whether `text` is an attribute triple as `#pragma D attributes` takes one:
// name-stability/data-stability/class, each part optional from the end, any case.
inline bool is_attribute_triple(const std::string& text) {
  const auto named = [](std::string_view part, const auto& names) {
    return std::any_of(names.begin(), names.end(), [&](std::string_view n) {
      return n.size() == part.size() &&
             std::equal(n.begin(), n.end(), part.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
             });
    });
  };
  std::vector<std::string_view> parts;
  for (std::size_t from = 0;;) {
    const auto slash = text.find('/', from);
    parts.push_back(std::string_view(text).substr(from, slash - from));
    if (slash == std::string::npos) break;
    from = slash + 1;
  }
  if (parts.size() > 3) return false;
  for (std::size_t p = 0; p < parts.size(); ++p)
    if (!(p < 2 ? named(parts[p], stability_names) : named(parts[p], dependency_class_names))) return false;
  return true;
}

// Whether `text` is a version as `#pragma D binding` takes one: major[.minor[.micro]], each
// within DTrace's bounds (255, 4095, 4095).
inline bool is_version(const std::string& text) {
  unsigned n[3] = {0, 0, 0};
  std::size_t part = 0;
  for (const char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      n[part] = std::min(n[part] * 10 + static_cast<unsigned>(c - '0'), 1u << 20);
    } else if (c != '.' || ++part > 2) {
      return false;
    }
  }
  return n[0] <= 255 && n[1] <= 4095 && n[2] <= 4095;
}

// A control line, as DTrace's lexer takes one: cpp's line markers, `#line` and `#ident` are
// passed over; `#error` stops the compile; `#pragma D option name[=value]` sets an option;
// `#pragma D attributes`, `binding` and `depends_on` are checked for their form (a library
// dependency is kept for the checker, which knows which text is a library); other pragmas are
// ignored, as C does; any other directive (`#include` without -C) is an error.
inline void read_directive(const std::string& line, std::uint32_t at, ast::program& program,
                           std::vector<diagnostic>& errors) {
  const ast::span where{at, static_cast<std::uint32_t>(at + line.size())};
  using kind = directive_token::kind;
  std::vector<directive_token> tokens;
  for (std::size_t i = 1; i < line.size();) {
    if (std::isspace(static_cast<unsigned char>(line[i]))) {
      ++i;
    } else if (line[i] == '"') {
      // scan() has refused a string the line does not close.
      std::size_t j = i + 1;
      while (j < line.size() && line[j] != '"') j += line[j] == '\\' ? 2 : 1;
      j = std::min(j, line.size());
      tokens.push_back({kind::string, line.substr(i + 1, j - i - 1)});
      i = j + 1;
    } else {
      std::size_t j = i;
      while (j < line.size() && line[j] != '"' && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
      auto word = line.substr(i, j - i);
      tokens.push_back({is_integer_token(word) ? kind::integer : kind::word, std::move(word)});
      i = j;
    }
  }
  // `#`, `#pragma` and `#pragma D` open a directive, a pragma and one of D's own; each name
  // may follow the openings its table row allows.
  enum class level { directive, pragma, d_pragma };
  struct known {
    std::string_view name;
    level least;
  };
  static constexpr known names[] = {{"attributes", level::d_pragma}, {"binding", level::d_pragma},
                                    {"depends_on", level::d_pragma}, {"error", level::directive},
                                    {"ident", level::directive},      {"line", level::directive},
                                    {"option", level::d_pragma}};
  level opened = level::directive;
  std::size_t n = 0;
  for (; n < tokens.size(); ++n) {
    if (tokens[n].k == kind::integer) return;  // a line marker
    if (tokens[n].k != kind::word) {
      errors.push_back({"D_PRAGCTL_INVAL", "invalid control directive", where});
      return;
    }
    if (opened == level::directive && tokens[n].text == "pragma") {
      opened = level::pragma;
    } else if (opened == level::pragma && tokens[n].text == "D") {
      opened = level::d_pragma;
    } else {
      break;
    }
  }
  if (n == tokens.size()) return;
  const std::string& name = tokens[n].text;
  const auto* found = std::find_if(std::begin(names), std::end(names), [&](const known& k) {
    return k.name == name && k.least <= opened;
  });
  if (found == std::end(names)) {
    if (opened == level::directive)
      errors.push_back({"D_PRAGCTL_INVAL", "invalid control directive: #" + name, where});
    else if (opened == level::d_pragma)
      errors.push_back({"D_PRAGMA_INVAL", "invalid D pragma: " + name, where});
    return;
  }
  const std::vector<directive_token> args(tokens.begin() + static_cast<std::ptrdiff_t>(n) + 1, tokens.end());
  const auto is = [&](std::size_t i, kind k) { return i < args.size() && args[i].k == k; };
  const auto malformed = [&](const std::string& form) {
    errors.push_back({"D_PRAGMA_MALFORM", "malformed #pragma " + name + " " + form, where});
  };
  if (name == "line" || name == "ident") return;
  if (name == "error") {
    // The words and strings, each followed by a blank; integers are not part of the message.
    std::string message;
    for (const auto& t : args)
      if (t.k != kind::integer) message += t.text + " ";
    errors.push_back({"D_PRAGERR", "#error: " + message, where});
  } else if (name == "attributes") {
    if (!is(0, kind::word) || !is(1, kind::word))
      malformed("<attributes> <ident>");
    else if (!is_attribute_triple(args[0].text))
      errors.push_back({"D_PRAGMA_INVAL", "invalid attributes specified by #pragma attributes", where});
    else if (args[1].text != "provider")  // a provider's are its own, which dtpp keeps in C++
      program.attributes_pragmas.push_back({args[1].text, where});
  } else if (name == "binding") {
    if (!is(0, kind::string) || !is(1, kind::word))
      malformed("\"version\" <ident>");
    else if (!is_version(args[0].text))
      errors.push_back({"D_PRAGMA_INVAL", "invalid version string specified by #pragma binding", where});
  } else if (name == "depends_on") {
    if (!is(0, kind::word) || !is(1, kind::word))
      malformed("<class> <name>");
    else if (args[0].text == "library")
      program.items.emplace_back(ast::library_dependency{args[1].text, where});
    else if (args[0].text != "provider" && args[0].text != "module")
      errors.push_back({"D_PRAGMA_INVAL",
                        "invalid class " + args[0].text + " specified by #pragma depends_on", where});
  } else if (!is(0, kind::word)) {
    malformed("<option>=<val>");
  } else if (args.size() > 1) {
    errors.push_back({"D_PRAGMA_MALFORM", "superfluous arguments specified for #pragma option", where});
  } else {
    ast::pragma p;
    const auto eq = args[0].text.find('=');
    p.name = args[0].text.substr(0, eq);
    if (eq != std::string::npos) {
      p.value = args[0].text.substr(eq + 1);
      p.has_value = true;
    }
    p.where = where;
    program.items.emplace_back(std::move(p));
  }
}

}  // namespace detail

namespace detail {

// The text with each control line inside braces (`#pragma D option quiet` in a clause's body)
// read and blanked: DTrace's lexer takes a control line wherever a line starts with '#'. Blanks
// keep every position, which the diagnostics name.
inline std::string with_body_directives_read(const std::string& text, ast::program& program,
                                             std::vector<diagnostic>& errors) {
  std::string out = text;
  int depth = 0;
  bool line_start = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      line_start = true;
      continue;
    }
    if (line_start && (c == ' ' || c == '\t')) continue;
    const bool first = line_start;
    line_start = false;
    if (first && c == '#') {  // a control line's text is not D's: its braces do not count
      const auto eol = text.find('\n', i);
      if (eol == std::string::npos) break;  // the parser reports a control line the text ends in
      if (depth > 0) {
        read_directive(text.substr(i, eol - i), static_cast<std::uint32_t>(i), program, errors);
        std::fill(out.begin() + static_cast<std::ptrdiff_t>(i), out.begin() + static_cast<std::ptrdiff_t>(eol), ' ');
      }
      i = eol - 1;
    } else if (c == '/' && i + 1 < text.size() && (text[i + 1] == '*' || text[i + 1] == '/')) {
      const auto end = text[i + 1] == '*' ? text.find("*/", i + 2) : text.find('\n', i);
      if (end == std::string::npos) break;
      i = text[i + 1] == '*' ? end + 1 : end - 1;
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && depth > 0) {
      --depth;
    }
  }
  return out;
}

}  // namespace detail

parse_result parse(const source_file& source, bool script_file, bool pspec) {
  namespace x3 = boost::spirit::x3;
  parse_result result;
  result.errors = detail::scan(source.text());
  if (!result.errors.empty()) return result;
  const auto text = detail::with_body_directives_read(source.text(), result.program, result.errors);
  // DTrace stops at the first error: one its lexer finds by counting brackets replaces those the
  // parser reports from the item (clause, declaration, control line) it is in onwards.
  const auto lexical = detail::bracket_error(text);
  std::size_t lexical_item = text.size();
  const auto report_lexical = [&] {
    if (!lexical) return;
    std::erase_if(result.errors, [&](const diagnostic& e) { return e.where.begin >= lexical_item; });
    result.errors.push_back(*lexical);
  };

  // DTrace's lexer reads a control line where it reaches it, before its parser sees what follows:
  // where an item breaks off at one (`inline int foo` then `#pragma D attributes ...`), a line it
  // refuses is the error, and the reading ends there.
  // The control line from `begin` to `eol`: true when it is refused.
  const auto read_control_line = [&](std::size_t begin, std::size_t eol) {
    const auto reported = result.errors.size();
    detail::read_directive(text.substr(begin, eol - begin), static_cast<std::uint32_t>(begin), result.program,
                           result.errors);
    return result.errors.size() > reported;
  };
  bool stopped = false;
  const auto report_syntax_error = [&](std::size_t where) {
    const auto begin = std::min(text.find_first_not_of(" \t\r\n", where), text.size());
    if (begin < text.size() && text[begin] == '#' && (begin == 0 || text[begin - 1] == '\n') &&
        (stopped = read_control_line(begin, std::min(text.find('\n', begin), text.size()))))
      return;
    result.errors.push_back(detail::syntax_error(text, where));
  };
  std::set<std::string, std::less<>> typedefs;  // parser::typedefs_tag
  std::size_t at = 0;
  if (text.compare(0, 2, "#!") == 0) at = text.find('\n') == std::string::npos ? text.size() : text.find('\n');
  while (!stopped) {
    // Blank space and comments between clauses.
    auto it = text.cbegin() + static_cast<std::ptrdiff_t>(at);
    x3::parse(it, text.cend(), *parser::skipper);
    at = static_cast<std::size_t>(it - text.cbegin());
    if (at >= text.size()) break;
    if (lexical && at <= lexical->where.begin) lexical_item = at;
    if (text[at] == '#' && (at == 0 || text[at - 1] == '\n' || text[at - 1] == ' ' || text[at - 1] == '\t')) {
      const auto eol = std::min(text.find('\n', at), text.size());
      if (eol == text.size()) {  // DTrace's lexer ends a control line at its newline only
        result.errors.push_back({"", "end-of-file encountered before end of control line",
                                 {static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(eol)}});
        break;
      }
      // A directive D does not know stops the reading, as it stops DTrace's lexer: a header's
      // hundreds of #define lines without -C are one mistake, reported once.
      if (read_control_line(at, eol) && result.errors.back().tag == "D_PRAGCTL_INVAL") break;
      at = eol;
      continue;
    }
    const auto start = at;
    const auto report_too_deep = [&](const parser::too_deep& deep) {
      result.errors.push_back({"D_SYNTAX",
                               "expression nested too deeply (more than " + std::to_string(max_depth) + " levels)",
                               {deep.at, deep.at + 1}});
    };
    std::uint32_t depth = 0;  // the grammar's recursion (parser::bounded)
    // A type declaration, a translator or a declaration, when the text is one; a clause otherwise.
    // A broken one is reported and skipped through its end.
    enum class attempt { no, parsed, broken };
    const auto try_parse = [&](const auto& rule, auto item) {
      auto dit = it;
      const auto item_parser = x3::with<parser::text_tag>(std::cref(text))[
          x3::with<parser::errors_tag>(std::ref(result.errors))[
              x3::with<parser::typedefs_tag>(std::cref(typedefs))[
                  x3::with<parser::recursion_tag>(std::ref(depth))[rule]]]];
      try {
        if (!x3::phrase_parse(dit, text.cend(), item_parser, parser::skipper, item)) return attempt::no;
        at = static_cast<std::size_t>(dit - text.cbegin());
        // A type or translator ends at its ';', before the blanks phrase_parse skipped after it
        // (its errors are reported on that line, as DTrace's); a variable's span keeps them.
        auto end = at;
        const ast::span where{static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(end)};
        if constexpr (std::is_same_v<decltype(item), std::vector<ast::declaration>>) {
          // Each variable of `int a, b;` spans the whole declaration.
          for (auto& variable : item) {
            variable.where = where;
            result.program.items.emplace_back(std::move(variable));
          }
        } else {
          if constexpr (std::is_same_v<decltype(item), ast::type_declaration>)
            if (item.keyword == "typedef") typedefs.insert(item.name);
          while (end > start && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
          item.where = {where.begin, static_cast<std::uint32_t>(end)};
          result.program.items.emplace_back(std::move(item));
        }
        return attempt::parsed;
      } catch (const x3::expectation_failure<parser::iterator>& failure) {
        const auto where = static_cast<std::size_t>(failure.where() - text.cbegin());
        report_syntax_error(where);
        // A second type in one declaration: its own declaration is this one's too.
        const auto from = detail::syntax_error(text, where).tag == "D_DECL_COMBO" ? where : start;
        const auto end = detail::declaration_end(text, from);
        // The broken declaration is skipped through its ';' or braces. Not a translator: its body
        // (`member = expression;`) reads as clauses, and its `};` may be what is missing, so
        // reading on would report errors that are not there; nothing after it is read, as DTrace
        // reads nothing after its first error.
        if (std::is_same_v<decltype(item), ast::translator>) stopped = true;
        at = std::min(std::max(end, where + 1), text.size());
      } catch (const parser::too_deep& deep) {
        report_too_deep(deep);
        at = std::min(text.find(';', deep.at), text.size() - 1) + 1;
      }
      return attempt::broken;
    };
    if (try_parse(parser::type_declaration, ast::type_declaration{}) != attempt::no ||
        try_parse(parser::translator, ast::translator{}) != attempt::no ||
        try_parse(parser::declaration, std::vector<ast::declaration>{}) != attempt::no)
      continue;
    ast::clause c;
    try {
      const auto parser = x3::with<parser::text_tag>(std::cref(text))[
          x3::with<parser::errors_tag>(std::ref(result.errors))[
              x3::with<parser::typedefs_tag>(std::cref(typedefs))[
                  x3::with<parser::recursion_tag>(std::ref(depth))[parser::clause]]]];
      if (x3::phrase_parse(it, text.cend(), parser, parser::skipper, c)) {
        c.where = {static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(it - text.cbegin())};
        at = static_cast<std::size_t>(it - text.cbegin());
        // In a file, what follows a bare description is a mistake (`BEGIN exit(0); }`), not the
        // next clause; only a command line's `-n BEGIN` stands alone. Skipped as a broken clause.
        if (script_file && !c.predicate && !c.has_body) {
          // At the end of the file DTrace's lexer, still reading descriptions, reaches its end;
          // unless pspec (here or in `#pragma D option pspec`) told it the text is one.
          const bool pspec_pragma = std::any_of(result.program.items.begin(), result.program.items.end(), [](const auto& item) {
            const auto* p = std::get_if<ast::pragma>(&item);
            return p && p->name == "pspec";
          });
          auto rest = it;
          x3::parse(rest, text.cend(), *parser::skipper);
          if (rest == text.cend() && !pspec && !pspec_pragma) {
            const auto end = static_cast<std::uint32_t>(text.size());
            result.errors.push_back({"D_SYNTAX", "syntax error near end-of-input", {end, end}});
            break;
          }
          result.errors.push_back({"D_SYNTAX", "expected predicate and/or actions following probe description", c.probes.front().where});
          at = std::max(detail::clause_end(text, start), at);
          continue;
        }
        result.program.items.emplace_back(std::move(c));
        continue;
      }
      report_syntax_error(static_cast<std::size_t>(it - text.cbegin()));
    } catch (const x3::expectation_failure<parser::iterator>& failure) {
      report_syntax_error(static_cast<std::size_t>(failure.where() - text.cbegin()));
    } catch (const parser::too_deep& deep) {
      report_too_deep(deep);
    }
    // Skip the broken clause, so that errors further on are found too; a declaration not
    // supported yet (its first word is the error) through its end.
    const auto& last = result.errors.back();
    const bool unsupported = last.tag == "D_UNKNOWN" && last.where.begin == text.find_first_not_of(" \t\r\n", start);
    at = unsupported ? detail::declaration_end(text, start) : std::max(detail::clause_end(text, start), start + 1);
  }
  report_lexical();
  return result;
}

}  // namespace dtpp::d
