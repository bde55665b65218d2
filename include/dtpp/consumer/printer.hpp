// What dtrace(1) prints while a program runs: probe lines, trace(), printf() and printa()
// records in firing order, and the aggregations never printed, at the end.
#pragma once

#include <string>
#include <vector>

#include "dtpp/consumer/record_printer.hpp"
#include "dtpp/consumer/source.hpp"

namespace dtpp::consumer {

/// Formats an engine's records as dtrace(1) does, whole firings at a time, acting on printa(),
/// clear(), trunc(), normalize() and denormalize() records in order with the others.
class printer {
 public:
  printer(source& engine, printer_options options)
      : engine_(engine), records_(engine, std::move(options)) {}

  void consume(const std::vector<firing>& firings, std::string& out) {
    for (const auto& f : firings) {
      records_.open(f, out);
      for (const auto& s : engine_.program().clauses[f.epid - 1].statements) records_.print(s, f, out);
      records_.close(out);
    }
  }

  /// The end of a run: one newline, then every aggregation printa() never printed.
  void finish(std::string& out) {
    out += '\n';
    records_.unprinted_aggregations(out);
  }

 private:
  source& engine_;
  record_printer records_;
};

}  // namespace dtpp::consumer
