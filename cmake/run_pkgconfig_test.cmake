# cmake -DBUILD_DIR=... -DPREFIX=... -DC_COMPILER=... -DSOURCES=a.c|b.c... -DOUTPUT_DIR=...
#       -DEXPECTED=file [-DARGS=a;b] [-DCONFIG=...] -P this
#
# Installs the build tree BUILD_DIR into PREFIX, then builds each of SOURCES as a user would
# against the installed package, `cc SOURCE $(pkg-config --cflags --libs dtrace)` with
# PKG_CONFIG_PATH at PREFIX; runs the first with ARGS and requires its standard output to equal
# EXPECTED.
foreach(var IN ITEMS BUILD_DIR PREFIX C_COMPILER SOURCES OUTPUT_DIR EXPECTED)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_pkgconfig_test.cmake: -D${var}=... is required")
  endif()
endforeach()
include("${CMAKE_CURRENT_LIST_DIR}/install_step.cmake")
string(REPLACE "|" ";" SOURCES "${SOURCES}")

file(REMOVE_RECURSE "${OUTPUT_DIR}")
file(MAKE_DIRECTORY "${OUTPUT_DIR}")
install_into("${BUILD_DIR}" "${PREFIX}" "${CONFIG}")
foreach(source IN LISTS SOURCES)
  get_filename_component(name "${source}" NAME_WE)
  step("build ${name} against pkg-config's dtrace" "${CMAKE_COMMAND}" -E env
       "PKG_CONFIG_PATH=${PREFIX}/lib/pkgconfig" sh -c
       "\"$0\" \"$1\" -o \"$2\" $(pkg-config --cflags --libs dtrace)" "${C_COMPILER}" "${source}"
       "${OUTPUT_DIR}/${name}")
endforeach()
list(GET SOURCES 0 first)
get_filename_component(name "${first}" NAME_WE)
execute_process(COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=${OUTPUT_DIR}/${name}" "-DARGS=${ARGS}"
                        "-DEXPECTED=${EXPECTED}" "-DACTUAL=${OUTPUT_DIR}/${name}.actual"
                        -P "${CMAKE_CURRENT_LIST_DIR}/compare_output.cmake"
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "pkg-config install test: ${name}'s output is wrong (above)")
endif()
message("pkg-config install test passed: ${SOURCES} built with pkg-config's dtrace from ${PREFIX}")
