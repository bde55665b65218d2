# cmake -DPROGRAM=... -DACTUAL=file [-DEXPECTED=file | -DEXPECTED_REGEX=file] [-DARGS=a;b] -P this
#
# Runs PROGRAM (with the arguments ARGS) with its standard output in ACTUAL; fails if it exits non-zero, and, when
# EXPECTED is given, fails with a unified diff unless ACTUAL and EXPECTED are byte for byte equal; when
# EXPECTED_REGEX is given, fails unless the whole of ACTUAL matches the CMake regular expression in that file
# (for output whose shape is known but not every line, such as one line per CPU of the machine).
foreach(var IN ITEMS PROGRAM ACTUAL)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "compare_output.cmake: -D${var}=... is required")
  endif()
endforeach()

# A kernel test: KERNEL_CHECK names a program that says why this machine cannot trace the kernel
# (and exits 77); the test is then skipped with that reason (SKIP_REGULAR_EXPRESSION).
if(DEFINED KERNEL_CHECK)
  execute_process(COMMAND "${KERNEL_CHECK}" RESULT_VARIABLE check OUTPUT_VARIABLE why)
  if(check EQUAL 77)
    message("dtpp-kernel-skip: ${why}")
    return()
  endif()
endif()

# OUTPUT_FILE keeps the bytes exactly as written (a CMake variable would not keep NULs).
execute_process(COMMAND "${PROGRAM}" ${ARGS} RESULT_VARIABLE result OUTPUT_FILE "${ACTUAL}"
                ERROR_VARIABLE errors)
if(errors)
  message("standard error of ${PROGRAM}:\n${errors}")
endif()
if(NOT result EQUAL 0)
  file(READ "${ACTUAL}" output)
  message("standard output of ${PROGRAM}:\n${output}")
  message(FATAL_ERROR "${PROGRAM} exited with ${result}")
endif()
if(EXPECTED_REGEX)
  file(READ "${EXPECTED_REGEX}" regex)
  file(READ "${ACTUAL}" output)
  if(NOT output MATCHES "^${regex}$")
    message("standard output of ${PROGRAM}:\n${output}")
    message(FATAL_ERROR "the output of ${PROGRAM} does not match ${EXPECTED_REGEX}")
  endif()
  return()
endif()
if(NOT EXPECTED)
  return()
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${EXPECTED}" "${ACTUAL}"
                RESULT_VARIABLE differ)
if(differ)
  # Printed as it is: FATAL_ERROR's formatting would space the diff's lines apart.
  execute_process(COMMAND diff -u "${EXPECTED}" "${ACTUAL}" OUTPUT_VARIABLE diff)
  message("${diff}")
  message(FATAL_ERROR "the output of ${PROGRAM} differs from ${EXPECTED} (diff above)")
endif()
