// The name of dtpp's JSON document type, for headers that pass documents around without building
// them: nlohmann's whole header costs each file that includes it some 2.5 s of compile time.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace dtpp::print {

/// A JSON document whose objects keep their members in the order written (cpu, id, probe, output
/// ... as docs/command.md lists them).
using json = nlohmann::ordered_json;

}  // namespace dtpp::print
