// What the consumer's operations throw: dtrace_errno() and dtrace_errmsg() as exceptions.
#pragma once

#include <cerrno>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dtpp/d/diagnostic.hpp"

namespace dtpp::consumer {

/// dtpp's own error numbers for error::code(), above errno's as libdtrace's EDT_* are.
enum class errc : int {
  compile_failed = 1000,  ///< the D program has errors (EDT_COMPILER)
  bad_option_name,        ///< setopt/getopt of a name DTrace does not know (EDT_BADOPTNAME)
  bad_option_value,       ///< a value the option refuses (EDT_BADOPTVAL)
  tracing_active,         ///< a run-time option set once go() has run (EDT_ACTIVE)
  aborted,                ///< a callback returned consume::abort (EDT_DIRABORT)
  callback_error,         ///< a callback returned consume::error or no consume value (EDT_BADRVAL)
  probe_fault,            ///< a clause faulted and no fault handler is installed (EDT_ERRABORT)
  drop_abort,             ///< data was dropped and no drop handler is installed (EDT_DROPABORT)
};

/// What the consumer's operations throw: the modern form of dtrace_errno() (code(): an errno
/// value such as EINVAL or ENOENT, or an errc) and dtrace_errmsg() (what()).
class error : public std::runtime_error {
 public:
  error(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
  error(errc code, const std::string& what) : error(static_cast<int>(code), what) {}
  int code() const { return code_; }

 private:
  int code_;
};

/// An output stream that refused what was written (code(): its errno), from work() and
/// aggregate_print(). dtrace(1) reports it as "failed to write to FILE: ...".
class write_error : public error {
 public:
  using error::error;
};

/// A D program that did not compile: what() is the rendered diagnostics, as dtpp prints them.
class compile_error : public error {
 public:
  compile_error(const std::string& what, std::vector<d::diagnostic> diagnostics)
      : error(errc::compile_failed, what), diagnostics_(std::move(diagnostics)) {}
  const std::vector<d::diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<d::diagnostic> diagnostics_;
};

/// An engine's refusal (engine::error) to enable a program's probes (code() ENOENT, from exec())
/// or to start (EBUSY, from go()), with the engine's own words and the place in the program.
class engine_error : public error {
 public:
  engine_error(int code, const std::string& operation, const std::string& cause, d::ast::span where,
               std::string tag)
      : error(code, operation + ": " + cause), cause(cause), where(where), tag(std::move(tag)) {}
  std::string cause;   ///< the engine's words, without the operation
  d::ast::span where;  ///< d::diagnostic::nowhere when no one place is the cause
  std::string tag;     ///< the D compiler's tag when DTrace reports it as a compile error
};

}  // namespace dtpp::consumer
