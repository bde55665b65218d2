// The one translation unit that compiles dtpp's out-of-line definitions.
#include "dtpp/src.hpp"
