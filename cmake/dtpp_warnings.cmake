# The warning flags every target of ours builds with: GCC 12 and Clang 14 must stay warning-clean.
# PRIVATE, so that projects using dtpp never inherit them.
function(dtpp_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
endfunction()
