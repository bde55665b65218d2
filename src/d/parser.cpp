// The one translation unit that instantiates the D grammar (X3's templates are heavy: once only).
#include "dtpp/src.hpp"
