#include "dtpp/consumer/record_printer.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "dtpp/agg/dynamic.hpp"
#include "dtpp/agg/joined.hpp"
#include "dtpp/engine/probe_ids.hpp"
#include "dtpp/print/append.hpp"
#include "dtpp/print/format.hpp"
#include "dtpp/print/frames.hpp"
#include "dtpp/print/json.hpp"
#include "dtpp/print/typed.hpp"

namespace dtpp::consumer {
namespace {

void print_folded(std::string& out, const agg::dynamic_table& t) {
  print::folded_stacks stacks;
  print::fold(stacks, t);
  print::print_folded(out, stacks);
}

// {"key": value}, the value moved in (a braced list would copy it).
print::json member(const char* key, print::json value) {
  print::json object = print::json::object();
  object.emplace(key, std::move(value));
  return object;
}

std::vector<const agg::dynamic_table*> pointers(const std::vector<agg::dynamic_table>& v) {
  std::vector<const agg::dynamic_table*> p;
  for (const auto& t : v) p.push_back(&t);
  return p;
}

print::traced traced_key(const agg::record& r) {
  if (r.type.kind == agg::key_type::category::string) return print::traced::string(r.string);
  const bool user = r.type.kind == agg::key_type::category::ustack;
  if (r.type.form != agg::symbol_form::none) return print::traced::symbol(print::symbol_name(r.type.form, user, r.string));
  if (r.type.is_stack()) return print::traced::stack(print::stack_frames(user, r.string));
  return print::traced::integer(static_cast<std::int64_t>(r.integer), r.type.size,
                              r.type.is_signed);
}

}  // namespace

printer_options printing(const options::option_set& o, bool testing) {
  printer_options p;
  p.quiet = o.number("quiet").has_value();
  p.flowindent = o.number("flowindent").has_value();
  p.testing = testing;
  const auto format = o.text("oformat").value_or("text");
  p.format = format == "json" ? output_format::json : format == "folded" ? output_format::folded : output_format::text;
  p.print.sort.sortkey = o.number("aggsortkey").has_value();
  p.print.sort.sortrev = o.number("aggsortrev").has_value();
  p.print.sort.keypos = o.size("aggsortkeypos", 0);
  p.print.sort.pos = o.size("aggsortpos", 0);
  p.print.percpu = o.on("aggpercpu");
  p.print.strsize = o.size("strsize", 256) + 1;  // a string's record: strsize characters and a NUL
  p.print.rawbytes = o.number("rawbytes").has_value();
  p.printsize = print::printed_size(o.number("printsize").value_or(0));
  return p;
}

print::traced read_record(const ir::record& r, std::span<const std::byte> data) {
  if (r.offset >= data.size()) return print::traced::integer(0, 8, true);
  const auto* at = data.data() + r.offset;
  const std::size_t size = std::min<std::size_t>(r.size, data.size() - r.offset);
  if (r.t.is_string()) {
    const auto* text = reinterpret_cast<const char*>(at);
    return print::traced::string(std::string(text, ::strnlen(text, size)));
  }
  const std::string_view bytes(reinterpret_cast<const char*>(at), size);
  if (r.t.form != agg::symbol_form::none)
    return print::traced::symbol(print::symbol_name(r.t.form, r.t.kind == ir::type::category::ustack, bytes));
  if (r.t.is_stack()) return print::traced::stack(print::stack_frames(r.t.kind == ir::type::category::ustack, bytes));
  std::uint64_t bits = 0;
  std::memcpy(&bits, at, std::min<std::size_t>(size, 8));  // little-endian: low bytes first
  return print::traced::integer(static_cast<std::int64_t>(bits), r.size, r.t.is_signed);
}

record_printer::record_printer(engine::source& engine, printer_options options)
    : engine_(engine), options_(std::move(options)), printed_(engine.program().aggregations.size(), false) {}

void record_printer::open(const engine::firing& f, std::string& out) {
  if (options_.format == output_format::json) {
    firing_line_ = firing_prefix(f);
    firing_records_ = false;
    return;
  }
  if (options_.flowindent) return open_flow(f, out);
  if (options_.quiet) return;
  if (!heading_) {
    if (options_.testing)
      print::detail::append(out, "%32s\n", "FUNCTION:NAME");
    else
      print::detail::append(out, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
    heading_ = true;
  }
  const auto& probe = engine::probe_with_id(engine_.probes(), f.probe);
  const auto name = probe.function + ":" + probe.name;
  if (options_.testing)
    print::detail::append(out, "%32s ", name.c_str());
  else
    print::detail::append(out, "%3u %6u %32s ", f.cpu, f.probe, name.c_str());
}

void record_printer::open_flow(const engine::firing& f, std::string& out) {
  if (!heading_) {
    if (options_.testing)
      print::detail::append(out, "%-41s\n", "FUNCTION");
    else
      print::detail::append(out, "%3s %-41s\n", "CPU", "FUNCTION");
    heading_ = true;
  }
  const auto column = flow_.function_column(engine::probe_with_id(engine_.probes(), f.probe), f);
  if (options_.testing)
    print::detail::append(out, "%-41s ", column.c_str());
  else
    print::detail::append(out, "%3u %-41s ", f.cpu, column.c_str());
}

void record_printer::close(std::string& out) const {
  if (options_.format == output_format::json) {
    if (options_.quiet && !firing_records_) return;
    out += firing_line_;
    out += "]}\n";
    return;
  }
  if (!options_.quiet) out += '\n';
}

void record_printer::print(const ir::statement& s, const engine::firing& f, std::string& out) {
  const std::span<const std::byte> data(f.data);
  if (options_.format == output_format::json) {
    if (s.kind == ir::action::printa) mark_printed(s);
    if (const auto record = json_record(s, data); !record.is_null()) {
      if (firing_records_) firing_line_ += ',';
      firing_line_ += print::json_text(record);
      firing_records_ = true;
    }
    return;
  }
  switch (s.kind) {
    case ir::action::trace:
      if (options_.print.rawbytes) return print_raw_record(s.records[0], data, out);
      [[fallthrough]];
    case ir::action::stack:
    case ir::action::ustack:
      print::print_trace(out, read_record(s.records[0], data), options_.quiet);
      return;
    case ir::action::printf:
    case ir::action::system:     // the command's text, for the session to run
    case ir::action::freopen: {  // the file's name, for the session to open
      std::vector<print::traced> args;
      for (const auto& r : s.records) args.push_back(read_record(r, data));
      print::print(out, s.parsed_format, args);
      return;
    }
    case ir::action::printa:
      printa(s, out);
      return;
    case ir::action::print:
      print_typed(s, data, out);
      return;
    case ir::action::tracemem:
      print::print_raw_bytes(out, traced_memory(s, data));
      return;
    default:
      return;
  }
}

void record_printer::print_raw_record(const ir::record& r, std::span<const std::byte> data, std::string& out) const {
  const auto value = read_record(r, data);
  switch (value.type) {
    case print::traced::kind::integer: {
      const auto at = std::min<std::size_t>(r.offset, data.size());
      const auto bytes = data.subspan(at, std::min<std::size_t>(r.size, data.size() - at));
      return print::print_raw_bytes(out, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    }
    case print::traced::kind::string:
      return print::print_raw_bytes(out, print::string_record_bytes(value.text, r.size));
    case print::traced::kind::stack:
    case print::traced::kind::symbol:
      return print::print_trace(out, value, options_.quiet);
  }
}

void record_printer::print_typed(const ir::statement& s, std::span<const std::byte> data, std::string& out) const {
  const auto& object = s.records[1];
  const auto bytes = object.offset < data.size() ? data.subspan(object.offset) : data.subspan(data.size());
  print::print_typed(out, read_record(s.records[0], data).as_unsigned(), s.printed,
                     bytes.first(std::min<std::size_t>(object.size, bytes.size())), options_.printsize);
}

std::string_view record_printer::traced_memory(const ir::statement& s, std::span<const std::byte> data) {
  const auto& bytes = s.records[0];
  std::uint64_t size = bytes.size;
  if (s.records.size() > 1) size = std::min<std::uint64_t>(size, read_record(s.records[1], data).as_unsigned());
  const auto at = std::min<std::size_t>(bytes.offset, data.size());
  size = std::min<std::uint64_t>(size, data.size() - at);
  return {reinterpret_cast<const char*>(data.data()) + at, static_cast<std::size_t>(size)};
}

print::json record_printer::json_record(const ir::statement& s, std::span<const std::byte> data) const {
  switch (s.kind) {
    case ir::action::trace:
      return member("value", print::json_value(read_record(s.records[0], data)));
    case ir::action::stack:
      return member("stack", print::json_value(read_record(s.records[0], data)));
    case ir::action::ustack:
      return member("ustack", print::json_value(read_record(s.records[0], data)));
    case ir::action::printf: {
      std::vector<print::traced> args;
      for (const auto& r : s.records) args.push_back(read_record(r, data));
      std::string text;
      print::print(text, s.parsed_format, args);
      return member("message", std::move(text));
    }
    case ir::action::printa: {
      print::json tables = print::json::array();
      for (const auto id : s.aggregations) tables.push_back(aggregation_json(id));
      return member("printa", std::move(tables));
    }
    case ir::action::print: {
      std::string text;
      print_typed(s, data, text);
      return member("print", std::move(text));
    }
    case ir::action::tracemem: {  // the bytes shown, in hex
      std::string hex;
      for (const char c : traced_memory(s, data)) print::detail::append(hex, "%02x", static_cast<unsigned char>(c));
      return member("tracemem", std::move(hex));
    }
    case ir::action::exit:
      return member("exit", read_record(s.records[0], data).as_signed());
    default:
      return nullptr;
  }
}

print::json record_printer::aggregation_json(std::uint32_t id, order o) const {
  return print::json_aggregation(engine_.aggregation(id).snapshot(), o, options_.print.sort);
}

print::folded_stacks record_printer::folded_stack_aggregations() const {
  print::folded_stacks stacks;
  for (std::uint32_t id = 1; id <= printed_.size(); ++id)
    if (print::has_stack_key(engine_.program().aggregations[id - 1]))
      print::fold(stacks, engine_.aggregation(id).snapshot());
  return stacks;
}

void record_printer::unprinted_aggregations(std::string& out, order o) const {
  std::vector<agg::dynamic_table> snapshots;
  for (std::uint32_t id = 1; id <= printed_.size(); ++id) {
    if (printed_[id - 1]) continue;
    if (options_.format == output_format::json)
      print::append_json_line(out, aggregation_json(id, o));
    else
      snapshots.push_back(engine_.aggregation(id).snapshot());
  }
  if (options_.format == output_format::folded)
    for (const auto& t : snapshots) print_folded(out, t);
  else
    print::print_aggregations<agg::dynamic_key>(out, pointers(snapshots), o, options_.print);
}

const std::string& record_printer::firing_prefix(const engine::firing& f) {
  auto& prefix = firing_prefixes_[{f.probe, f.epid, f.cpu}];
  if (prefix.empty()) {
    prefix = print::json_text(print::json_firing(f, engine::probe_with_id(engine_.probes(), f.probe)));
    prefix.resize(prefix.size() - 3);
    prefix += '[';
  }
  return prefix;
}

void record_printer::mark_printed(const ir::statement& s) {
  for (const auto id : s.aggregations)
    if (!engine_.aggregation(id).snapshot().empty()) printed_[id - 1] = true;
}

void record_printer::printa(const ir::statement& s, std::string& out) {
  std::vector<agg::dynamic_table> snapshots;
  for (const auto id : s.aggregations) snapshots.push_back(engine_.aggregation(id).snapshot());
  const auto tables = pointers(snapshots);
  for (std::size_t i = 0; i < tables.size(); ++i)
    if (!tables[i]->empty()) printed_[s.aggregations[i] - 1] = true;
  if (options_.format == output_format::folded) {
    for (const auto* t : tables) print_folded(out, *t);
    return;
  }
  if (!s.has_format) {
    out += '\n';
    if (tables.size() == 1)
      print::print_aggregations<agg::dynamic_key>(out, tables, order::sorted, options_.print);
    else
      print::print_joined<agg::dynamic_key>(out, tables, options_.print);
    return;
  }
  const auto& format = s.parsed_format;
  std::vector<std::vector<std::uint64_t>> zero;
  for (const auto* t : tables) zero.push_back(agg::zero_words(t->desc()));
  for (const auto& b : agg::joined_bundles<agg::dynamic_key>(tables, options_.print.sort)) {
    std::vector<print::traced> keys;
    for (const auto& r : tables[b.key.table]->key(b.key.row).records)
      keys.push_back(traced_key(r));
    std::vector<print::aggregated> values;
    for (std::size_t p = 0; p < tables.size(); ++p) {
      const auto& member = b.members[p];
      const auto words =
          member ? tables[p]->words(*member) : std::span<const std::uint64_t>(zero[p]);
      values.push_back({tables[p]->desc().fn, words, tables[p]->normal()});
    }
    print::print_printa(out, format, keys, values);
  }
}

}  // namespace dtpp::consumer
