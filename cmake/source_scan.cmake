# Helpers of the source checks (cmake/check_*.cmake), run in script mode (cmake -P) with
# -DKUBESIM_SOURCE_DIR=<checkout>; `root` is that checkout's absolute path.
if(NOT KUBESIM_SOURCE_DIR)
  message(FATAL_ERROR "${CMAKE_SCRIPT_MODE_FILE}: set -DKUBESIM_SOURCE_DIR=<checkout>")
endif()
get_filename_component(root "${KUBESIM_SOURCE_DIR}" ABSOLUTE)

# kubesim_source_files(ROOT DIRS OUT): the .h and .cc files under ROOT/<dir> for each of DIRS, in
# sorted order, as paths relative to ROOT; node_modules/ folders and tests/layout/ (the checks'
# own fixtures) are left out.
function(kubesim_source_files root dirs out)
  set(result "")
  foreach(dir IN LISTS dirs)
    file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${root}" "${root}/${dir}/*.h"
         "${root}/${dir}/*.cc")
    list(SORT files)
    foreach(file IN LISTS files)
      if(NOT file MATCHES "/node_modules/|^tests/layout/")
        list(APPEND result "${file}")
      endif()
    endforeach()
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# kubesim_split_lines(TEXT SEMICOLON OUT): TEXT as a list with one element per line. The
# characters CMake lists treat specially are replaced first: `[` and `]` by <open> and <close>,
# `\` by <backslash>, and `;` by SEMICOLON (which may itself hold a newline).
function(kubesim_split_lines text semicolon out)
  string(REPLACE "[" "<open>" text "${text}")
  string(REPLACE "]" "<close>" text "${text}")
  string(REPLACE "\\" "<backslash>" text "${text}")
  string(REPLACE ";" "${semicolon}" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()
