# The warning flags every target of ours builds with: GCC 12 and Clang 14 must stay warning-clean.
# PRIVATE, so that projects using dtpp never inherit them.
function(dtpp_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  # GCC 12 at -O3 (Release) warns of overlapping copies inside std::string's operator+ that
  # cannot happen (GCC bug 105329, fixed in GCC 13); the warning would fail Release builds.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
