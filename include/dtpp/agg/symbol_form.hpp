// How a one-address record (sym(), usym(), uaddr(), mod() ...) is named when printed and keyed.
#pragma once

#include <cstdint>

namespace dtpp::agg {

/// A stack record of one program counter that D's symbol functions make: sym() and func() (and
/// usym(), ufunc()) print "module`function" and key by the function's start; uaddr() prints
/// "module`function+0x1c" and keys by the address; mod() and umod() print "module" and key by
/// the module. `none` is a stack() or ustack() record.
enum class symbol_form : std::uint8_t { none, function, address, module };

}  // namespace dtpp::agg
