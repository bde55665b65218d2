# cmake -DBUILD_DIR=... -DPREFIX=... -DCONSUMER_SOURCE_DIR=... -DCONSUMER_BINARY_DIR=...
#       -DCXX_COMPILER=... [-DCONFIG=...] -P this
#
# Installs the build tree BUILD_DIR into PREFIX, then configures, builds and runs the consumer
# project at CONSUMER_SOURCE_DIR against it with find_package(dtpp). Each step must succeed.
foreach(var IN ITEMS BUILD_DIR PREFIX CONSUMER_SOURCE_DIR CONSUMER_BINARY_DIR CXX_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_install_test.cmake: -D${var}=... is required")
  endif()
endforeach()

function(step what)
  list(JOIN ARGN " " command_line)
  message("-- ${what}: ${command_line}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "install test: ${what} failed (${result})")
  endif()
endfunction()

# Start clean: a stale prefix or consumer cache could hide a broken install.
file(REMOVE_RECURSE "${PREFIX}" "${CONSUMER_BINARY_DIR}")

set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args})
step("configure the consumer" "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}"
     -B "${CONSUMER_BINARY_DIR}" "-DCMAKE_PREFIX_PATH=${PREFIX}"
     "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
step("build the consumer" "${CMAKE_COMMAND}" --build "${CONSUMER_BINARY_DIR}" ${config_args})

# Single-config generators put the program at the top; multi-config ones in a folder per config.
set(program "${CONSUMER_BINARY_DIR}/dtpp_consumer")
if(NOT EXISTS "${program}" AND CONFIG)
  set(program "${CONSUMER_BINARY_DIR}/${CONFIG}/dtpp_consumer")
endif()
step("run the consumer" "${program}")
message("install test passed: find_package(dtpp) found ${PREFIX}, the consumer built and ran")
