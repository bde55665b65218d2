// Metric families from a program: names, counter or gauge, label names.
#include "dtpp/consumer/metric_families.hpp"

#include <cerrno>
#include <map>
#include <set>
#include <string>

#include "dtpp/consumer/error.hpp"

namespace dtpp::consumer {
namespace {

[[noreturn]] void refuse(const std::string& why) { throw error(EINVAL, "invalid metrics: " + why); }

std::string at(const agg::descriptor& d) { return "@" + d.name; }

// What OpenMetrics allows as a label name, without the names it reserves (a leading "__").
bool valid_label(std::string_view name) {
  if (name.empty() || name.starts_with("__")) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

// A value that is never negative: of an unsigned type, or a constant >= 0.
bool never_negative(const ir::expr& e) {
  if (e.kind == ir::expr::kind_t::constant) return e.value >= 0;
  return e.t.is_integer() && !e.t.is_signed;
}

// The varids of counts and sums whose values can fall: named by clear(), trunc(), normalize()
// or denormalize(), or (sums) given a value that may be negative.
std::set<std::uint32_t> falling(const ir::program& program) {
  std::set<std::uint32_t> varids;
  for (const auto& c : program.clauses)
    for (const auto& s : c.statements) {
      switch (s.kind) {
        case ir::action::clear:
        case ir::action::trunc:
        case ir::action::normalize:
        case ir::action::denormalize:
          varids.insert(s.aggregation);
          break;
        case ir::action::aggregate: {
          const auto kind = program.aggregations[s.aggregation - 1].fn.kind;
          if (kind == agg::kind::sum && !never_negative(s.args[0])) varids.insert(s.aggregation);
          break;
        }
        default:
          break;
      }
    }
  return varids;
}

print::metric_type type_of(agg::kind k, bool can_fall) {
  switch (k) {
    case agg::kind::count:
    case agg::kind::sum: return can_fall ? print::metric_type::gauge : print::metric_type::counter;
    case agg::kind::quantize:
    case agg::kind::lquantize:
    case agg::kind::llquantize: return print::metric_type::histogram;
    default: return print::metric_type::gauge;
  }
}

// The sample names a family writes or OpenMetrics reserves for it.
std::vector<std::string> sample_names(const print::metric_family& f) {
  switch (f.type) {
    case print::metric_type::counter: return {f.name, f.name + "_total", f.name + "_created"};
    case print::metric_type::gauge: return {f.name};
    case print::metric_type::histogram:
      return {f.name, f.name + "_bucket", f.name + "_count", f.name + "_sum", f.name + "_created"};
  }
  return {f.name};
}

// labels_option's names, by aggregation name.
std::map<std::string, std::vector<std::string>, std::less<>> read_labels(std::string_view option) {
  std::map<std::string, std::vector<std::string>, std::less<>> named;
  while (!option.empty()) {
    const auto end = option.find(';');
    const auto entry = option.substr(0, end);
    option = end == std::string_view::npos ? std::string_view{} : option.substr(end + 1);
    const auto colon = entry.find(':');
    if (!entry.starts_with('@') || colon == std::string_view::npos)
      refuse("metrics_labels entry '" + std::string(entry) + "' is not @aggregation:label,...");
    const std::string name(entry.substr(1, colon - 1));
    auto& labels = named[name];
    if (!labels.empty()) refuse("metrics_labels names @" + name + " twice");
    for (auto rest = entry.substr(colon + 1);;) {
      const auto comma = rest.find(',');
      labels.emplace_back(rest.substr(0, comma));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
  return named;
}

}  // namespace

std::vector<print::metric_family> metric_families(const ir::program& program, std::string_view labels_option) {
  auto named = read_labels(labels_option);
  const auto can_fall = falling(program);
  std::vector<print::metric_family> families;
  std::map<std::string, std::string> owner;  // sample name -> the aggregation giving it
  for (const auto& d : program.aggregations) {
    print::metric_family f;
    f.name = "dtpp_" + (d.name.empty() ? std::string("anonymous") : d.name);
    for (auto& c : f.name)
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
    f.type = type_of(d.fn.kind, can_fall.count(d.varid) > 0);
    f.help = at(d) + ", " + std::string(agg::name(d.fn.kind)) + "()";
    if (const auto it = named.find(d.name); it != named.end()) {
      f.labels = std::move(it->second);
      named.erase(it);
      if (f.labels.size() != d.keys.size())
        refuse("metrics_labels gives " + std::to_string(f.labels.size()) + (f.labels.size() == 1 ? " label" : " labels") +
               " to " + at(d) + ", which has " +
               std::to_string(d.keys.size()) + (d.keys.size() == 1 ? " key" : " keys"));
      std::set<std::string_view> seen;
      for (const auto& l : f.labels) {
        if (!valid_label(l))
          refuse("metrics_labels: '" + l + "' is not a label name ([a-zA-Z_][a-zA-Z0-9_]*, not starting with __)");
        if (l == "le" && agg::is_histogram(d.fn.kind))
          refuse("metrics_labels: " + at(d) + " is a histogram, whose buckets are labelled le already");
        if (!seen.insert(l).second) refuse("metrics_labels gives " + at(d) + " the label '" + l + "' twice");
      }
    } else {
      for (std::size_t k = 0; k < d.keys.size(); ++k) f.labels.push_back("key" + std::to_string(k));
    }
    for (const auto& sample : sample_names(f)) {
      const auto [it, fresh] = owner.emplace(sample, at(d));
      if (!fresh)
        refuse("aggregations " + it->second + " and " + at(d) + " would both give the metric name " + sample +
               "; rename one of them");
    }
    families.push_back(std::move(f));
  }
  if (!named.empty()) refuse("metrics_labels names @" + named.begin()->first + ", which the program does not have");
  return families;
}

}  // namespace dtpp::consumer
