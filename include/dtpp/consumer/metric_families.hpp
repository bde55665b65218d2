// How a program's aggregations show as OpenMetrics families: names, types and label names, from
// the program's text and the metrics_labels option.
#pragma once

#include <string_view>
#include <vector>

#include "dtpp/ir/program.hpp"
#include "dtpp/print/openmetrics.hpp"

namespace dtpp::consumer {

/// The metric family of each aggregation of `program` (by varid - 1):
///
/// - named `dtpp_` and the aggregation's name; the anonymous `@` is `dtpp_anonymous`;
/// - count() and sum() are counters while they can only grow: no clear(), trunc(), normalize()
///   or denormalize() names them, and every sum() adds an unsigned value or a constant >= 0;
///   otherwise gauges. min(), max(), avg() and stddev() are gauges; quantize(), lquantize() and
///   llquantize() histograms (clear() and trunc() reset their buckets, which PromQL's rate()
///   takes for a counter reset, as when a process restarts);
/// - keys are labelled key0, key1 ... unless `labels_option` names them:
///   `@name:label,label;@other:label` (`@:label` for the anonymous aggregation), one name per key.
///
/// Throws error EINVAL for a labels_option that names an aggregation the program lacks, gives the
/// wrong number of labels, an invalid or repeated label name, or `le` for a histogram; and when
/// two aggregations would give clashing metric names (`@a` a counter and `@a_total` a gauge).
std::vector<print::metric_family> metric_families(const ir::program& program,
                                                  std::string_view labels_option = {});

}  // namespace dtpp::consumer
