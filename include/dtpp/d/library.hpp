// D's library files: the .d files in a directory whose declarations every program may use (the
// types, translators and inlines of DTrace's psinfo_t, curpsinfo, bufinfo_t, B_READ ...).
#pragma once

#include <string>
#include <vector>

#include "dtpp/d/source.hpp"

namespace dtpp::d {

/// D's library as library_files() finds it.
struct library {
  std::vector<source_file> files;  ///< in the order they are read
  std::string error;  ///< why they cannot be ordered, in dtrace-utils' words; then files is empty
};

/// The library files of `dirs`, in order: each directory's *.d files by name, a file after those
/// it names in `#pragma D depends_on library name.d`. A directory that does not exist holds none.
/// A dependency on a file that is in none of them, or a circular one, is an error.
library library_files(const std::vector<std::string>& dirs);

/// dtpp's own library directory: where dtpp is installed, or, for a dtpp that is not (run from
/// its build tree), the source tree's.
std::string default_library_dir();

}  // namespace dtpp::d
