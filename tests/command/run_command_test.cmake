# cmake -DCOMMAND=dtpp -DNAME=case -DSOURCE_DIR=tests/command -DBINARY_DIR=dir -P this
#
# Runs the command in SOURCE_DIR (so that scripts are named as the test names them) with the
# arguments in NAME.args, one a line, where @SCRIPT@ stands for NAME.d. NAME.argv0, when present,
# holds the name to invoke the command by (a symbolic link made in BINARY_DIR). Then requires:
#   - standard output, followed when standard error is not empty by a line `--- stderr` and
#     standard error, to equal NAME.out byte for byte (no NAME.out: no output at all);
#   - the exit status to equal NAME.status (no NAME.status: 0).
# The locale is C, so that getopt's and cpp's messages are the same everywhere.
# Optional: -DEXTRA_ARGS=a;b (arguments before NAME.args'), -DKERNEL_CHECK=program (see below),
# -DWORKLOAD=path (what @WORKLOAD@ stands for), -DPID_TARGET=path (@PID_TARGET@). NAME.env, when
# present, holds VARIABLE=value lines added to the command's environment.
cmake_minimum_required(VERSION 3.25)  # new policies: "@WORKLOAD@" is text, not a variable

foreach(var IN ITEMS COMMAND NAME SOURCE_DIR BINARY_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_command_test.cmake: -D${var}=... is required")
  endif()
endforeach()

# One argument a line, kept whole: semicolons are escaped so that the list does not split them,
# and an empty line is an empty argument.
file(READ "${SOURCE_DIR}/${NAME}.args" text)
string(REGEX REPLACE "\n$" "" text "${text}")
string(REPLACE ";" "\\;" text "${text}")
string(REPLACE "@SCRIPT@" "${NAME}.d" text "${text}")
if(DEFINED WORKLOAD)
  string(REPLACE "@WORKLOAD@" "${WORKLOAD}" text "${text}")
endif()
if(DEFINED PID_TARGET)
  string(REPLACE "@PID_TARGET@" "${PID_TARGET}" text "${text}")
endif()
set(args "")
if(NOT text STREQUAL "")
  string(REPLACE "\n" ";" args "${text}")
endif()

set(program "${COMMAND}")
if(EXISTS "${SOURCE_DIR}/${NAME}.argv0")
  file(STRINGS "${SOURCE_DIR}/${NAME}.argv0" argv0 LIMIT_COUNT 1)
  set(program "${BINARY_DIR}/${NAME}.bin/${argv0}")
  file(MAKE_DIRECTORY "${BINARY_DIR}/${NAME}.bin")
  file(CREATE_LINK "${COMMAND}" "${program}" SYMBOLIC)
endif()

# Kernel tests: KERNEL_CHECK names a program that says why this machine cannot trace the kernel
# (and exits 77); the test is then skipped with that reason (SKIP_REGULAR_EXPRESSION).
if(DEFINED KERNEL_CHECK)
  execute_process(COMMAND "${KERNEL_CHECK}" RESULT_VARIABLE check OUTPUT_VARIABLE why)
  if(check EQUAL 77)
    message("dtpp-kernel-skip: ${why}")
    return()
  endif()
endif()
# EXTRA_ARGS come first: the kernel runs of the conformance scripts add -xengine=kernel.
if(DEFINED EXTRA_ARGS)
  list(PREPEND args ${EXTRA_ARGS})
endif()

# Output is bytes: standard output goes to a file and is compared as a file, since a CMake
# string ends at a NUL byte (printf("%c", 0) prints one, as dtrace(1) does).
set(stdout_file "${BINARY_DIR}/${NAME}.stdout")
set(stderr_file "${BINARY_DIR}/${NAME}.stderr")
# NAME.env, when present: VARIABLE=value lines for the command's environment.
set(environment "")
if(EXISTS "${SOURCE_DIR}/${NAME}.env")
  file(STRINGS "${SOURCE_DIR}/${NAME}.env" environment)
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env LC_ALL=C ${environment} "${program}" ${args}
                WORKING_DIRECTORY "${SOURCE_DIR}"
                RESULT_VARIABLE status OUTPUT_FILE "${stdout_file}" ERROR_FILE "${stderr_file}")
# A -c command's pid differs from run to run.
file(READ "${stderr_file}" err)
string(REGEX REPLACE "pid [0-9]+ (has exited|exited with|terminated by)" "pid PID \\1" err "${err}")
string(REGEX REPLACE "pid[0-9]+:" "pidPID:" err "${err}")  # a pid provider of a -c command
# A fault's pc differs from engine to engine (and from one code generator to the next); as
# dtrace-utils' runtest.sh does, a non-zero one is masked (0 is no pc, and stays to fail).
string(REGEX REPLACE "at BPF pc [1-9][0-9]*" "at BPF pc NNN" err "${err}")
# The verifier's statistics: its time, and the states it kept, vary from run to run.
string(REGEX REPLACE "verification time [0-9]+ usec" "verification time N usec" err "${err}")
string(REGEX REPLACE "(processed [0-9]+ insns \\(limit [0-9]+\\)) [^\n]*" "\\1 ..." err "${err}")
# A kernel probe's id is its place among the machine's system calls and tracepoints (dtrace -l's
# order): it becomes NNN in fault lines and in a listing (whose text holds no NUL byte to lose).
set(kernel_providers "syscall|tracepoint|sched|proc|io")
string(REGEX REPLACE "for probe ID [0-9]+ \\((${kernel_providers}):" "for probe ID NNN (\\1:" err "${err}")
file(READ "${stdout_file}" listing LIMIT 32)
if(listing MATCHES "^   ID   PROVIDER ")
  file(READ "${stdout_file}" listing)
  string(REGEX REPLACE "(^|\n) *[0-9]+( +(${kernel_providers}) )" "\\1  NNN\\2" listing "${listing}")
  file(WRITE "${stdout_file}" "${listing}")
endif()
set(parts "${stdout_file}")
if(NOT err STREQUAL "")
  file(WRITE "${stderr_file}" "--- stderr\n${err}")
  list(APPEND parts "${stderr_file}")
endif()
set(actual_file "${BINARY_DIR}/${NAME}.actual")
execute_process(COMMAND "${CMAKE_COMMAND}" -E cat ${parts} OUTPUT_FILE "${actual_file}")

set(expected_status 0)
if(EXISTS "${SOURCE_DIR}/${NAME}.status")
  file(STRINGS "${SOURCE_DIR}/${NAME}.status" expected_status LIMIT_COUNT 1)
endif()
set(expected_file "${SOURCE_DIR}/${NAME}.out")
if(NOT EXISTS "${expected_file}")
  set(expected_file "${BINARY_DIR}/${NAME}.expected")
  file(WRITE "${expected_file}" "")
endif()

set(failed FALSE)
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${expected_file}" "${actual_file}"
                RESULT_VARIABLE differ)
if(differ)
  # cat -v shows a NUL as ^@, which a CMake string could not hold.
  execute_process(COMMAND diff -u --text "${expected_file}" "${actual_file}" COMMAND cat -v
                  OUTPUT_VARIABLE diff)
  message("${diff}")  # printed as it is: FATAL_ERROR's formatting would space the lines apart
  message("the output differs from ${NAME}.out (diff above)")
  set(failed TRUE)
endif()
if(NOT status STREQUAL expected_status)
  message("the exit status is ${status}, not ${expected_status}")
  set(failed TRUE)
endif()
if(failed)
  message(FATAL_ERROR "command: ${NAME} failed")
endif()
