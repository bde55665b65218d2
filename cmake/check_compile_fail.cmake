# cmake -DCOMPILER=... -DSOURCE=file.cpp -DINCLUDE_PATH=dir[:dir...] -DMODE=fail|ok -P this
#
# MODE=fail: compiling SOURCE with -DDTPP_COMPILE_FAIL must fail, and the compiler's output must
# match the regex on SOURCE's first line (`// expect: <regex>`).
# MODE=ok: compiling SOURCE without it must succeed, so the failure above is the one meant.
foreach(var IN ITEMS COMPILER SOURCE INCLUDE_PATH MODE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_compile_fail.cmake: -D${var}=... is required")
  endif()
endforeach()

file(STRINGS "${SOURCE}" first_line LIMIT_COUNT 1)
if(NOT first_line MATCHES "^// expect: (.+)$")
  message(FATAL_ERROR "${SOURCE}: the first line must be `// expect: <regex>`")
endif()
set(expect "${CMAKE_MATCH_1}")

set(command "${COMPILER}" -std=c++20 -fsyntax-only -fdiagnostics-color=never)
string(REPLACE ":" ";" include_dirs "${INCLUDE_PATH}")
foreach(dir IN LISTS include_dirs)
  list(APPEND command "-I${dir}")
endforeach()
if(MODE STREQUAL "fail")
  list(APPEND command -DDTPP_COMPILE_FAIL)
elseif(NOT MODE STREQUAL "ok")
  message(FATAL_ERROR "check_compile_fail.cmake: MODE must be fail or ok, not '${MODE}'")
endif()
list(APPEND command "${SOURCE}")

# Plain ASCII quotes in diagnostics, whatever the caller's locale.
set(ENV{LC_ALL} C)
execute_process(COMMAND ${command} RESULT_VARIABLE result OUTPUT_VARIABLE output
                ERROR_VARIABLE output)
list(JOIN command " " command_line)
message("${command_line}\n${output}")

if(MODE STREQUAL "ok")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${SOURCE} must compile without -DDTPP_COMPILE_FAIL, but did not")
  endif()
  return()
endif()
if(result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled with -DDTPP_COMPILE_FAIL; it must not")
endif()
if(NOT output MATCHES "${expect}")
  message(FATAL_ERROR "${SOURCE} failed to compile, but no message matches: ${expect}")
endif()
message("compile failed as expected, with a message matching: ${expect}")
