# What the install tests share: step(WHAT COMMAND...) runs one step and stops the test when it
# fails, and install_into(BUILD_DIR PREFIX CONFIG) installs a build tree into a clean prefix.
function(step what)
  list(JOIN ARGN " " command_line)
  message("-- ${what}: ${command_line}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "install test: ${what} failed (${result})")
  endif()
endfunction()

function(install_into build_dir prefix config)
  # Start clean: a stale prefix could hide a broken install.
  file(REMOVE_RECURSE "${prefix}")
  set(config_args "")
  if(config)
    set(config_args --config "${config}")
  endif()
  step("install" "${CMAKE_COMMAND}" --install "${build_dir}" --prefix "${prefix}" ${config_args})
endfunction()
