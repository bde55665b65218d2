// DTrace's stability levels and dependency classes by name, in its order (Internal and Unknown
// first): the words of `#pragma D attributes` and of dtrace -v's reports.
#pragma once

#include <array>
#include <string_view>

namespace dtpp::d {

inline constexpr std::array<std::string_view, 8> stability_names{
    "Internal", "Private", "Obsolete", "External", "Unstable", "Evolving", "Stable", "Standard"};

inline constexpr std::array<std::string_view, 6> dependency_class_names{
    "Unknown", "CPU", "Platform", "Group", "ISA", "Common"};

}  // namespace dtpp::d
