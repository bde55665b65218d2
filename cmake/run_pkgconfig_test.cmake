# cmake -DBUILD_DIR=... -DPREFIX=... -DC_COMPILER=... -DSOURCE=file.c -DOUTPUT_DIR=...
#       -DEXPECTED=file [-DARGS=a;b] [-DCONFIG=...] -P this
#
# Installs the build tree BUILD_DIR into PREFIX, then builds SOURCE as a user would against the
# installed package, `cc SOURCE $(pkg-config --cflags --libs dtrace)` with PKG_CONFIG_PATH at
# PREFIX, runs it with ARGS and requires its standard output to equal EXPECTED.
foreach(var IN ITEMS BUILD_DIR PREFIX C_COMPILER SOURCE OUTPUT_DIR EXPECTED)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_pkgconfig_test.cmake: -D${var}=... is required")
  endif()
endforeach()

function(step what)
  list(JOIN ARGN " " command_line)
  message("-- ${what}: ${command_line}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "pkg-config install test: ${what} failed (${result})")
  endif()
endfunction()

file(REMOVE_RECURSE "${PREFIX}" "${OUTPUT_DIR}")
file(MAKE_DIRECTORY "${OUTPUT_DIR}")
set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args})
set(program "${OUTPUT_DIR}/consumer")
step("build against pkg-config's dtrace" "${CMAKE_COMMAND}" -E env
     "PKG_CONFIG_PATH=${PREFIX}/lib/pkgconfig" sh -c
     "\"$0\" \"$1\" -o \"$2\" $(pkg-config --cflags --libs dtrace)" "${C_COMPILER}" "${SOURCE}"
     "${program}")
execute_process(COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=${program}" "-DARGS=${ARGS}"
                        "-DEXPECTED=${EXPECTED}" "-DACTUAL=${OUTPUT_DIR}/consumer.actual"
                        -P "${CMAKE_CURRENT_LIST_DIR}/compare_output.cmake"
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "pkg-config install test: the consumer's output is wrong (above)")
endif()
message("pkg-config install test passed: ${SOURCE} built with pkg-config's dtrace from ${PREFIX}")
