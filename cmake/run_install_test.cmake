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

include("${CMAKE_CURRENT_LIST_DIR}/install_step.cmake")

file(REMOVE_RECURSE "${CONSUMER_BINARY_DIR}")
install_into("${BUILD_DIR}" "${PREFIX}" "${CONFIG}")
set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
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
