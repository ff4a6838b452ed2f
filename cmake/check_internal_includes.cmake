# Fails when a header under one component's internal/ is included from outside that component.
#
#   cmake -DKUBESIM_SOURCE_DIR=<checkout> -P cmake/check_internal_includes.cmake
#
# Scans every .h/.cc under the components (sim api fakeapi informer workqueue election controller
# cluster scenarios runner explore sweep live report tools testing) and examples/. An include
# names an internal header when its path has an `internal/` folder; the header belongs to the
# component whose top-level folder holds it: "kubesim/<component>/..." and "<component>/..." name
# it directly, a relative path ("internal/x.h", "../internal/x.h") is resolved from the including
# file's folder. examples/ owns no internal headers. Tests and benchmarks (tests/, bench/) may
# include the internals of what they test and are not scanned. Prints FILE:LINE: includes "PATH", the
# internal header of COMPONENT for each offence and fails if there is any.
#
# One exception, printed on every run so that it is not forgotten: api's object-representation
# seam (api/internal/json_text.h and object_access.h), which the fake API server's storage
# and write fast paths read Objects' texts through (the layout stays out of the public headers).
# It is allowed from fakeapi/ only; every other include of it fails.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/source_scan.cmake)  # sets `root`

set(components sim api fakeapi informer workqueue election controller cluster scenarios runner
               explore sweep live report tools testing)
set(scanned ${components} examples)
# "<including component>:<included header>" pairs allowed across components (see above).
set(allowed "fakeapi:api/internal/json_text.h" "fakeapi:api/internal/object_access.h")

# The component whose top-level folder holds `path` (absolute), or "" when none does.
function(owner_of path out)
  file(RELATIVE_PATH rel "${root}" "${path}")
  string(REGEX MATCH "^[^/]+" top "${rel}")
  if(top IN_LIST components)
    set(${out} "${top}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# The component that owns the internal header `included` (as written) from `file`; "" if unknown.
function(internal_owner file included out)
  set(result "")
  get_filename_component(dir "${file}" DIRECTORY)
  if(included MATCHES "^kubesim/([^/]+)/")
    set(result "${CMAKE_MATCH_1}")
  elseif(EXISTS "${dir}/${included}")
    get_filename_component(target "${dir}/${included}" ABSOLUTE)
    owner_of("${target}" result)
  elseif(included MATCHES "^([^/]+)/")
    if(CMAKE_MATCH_1 IN_LIST components)
      set(result "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

set(offences 0)
kubesim_source_files("${root}" "${scanned}" files)
foreach(rel IN LISTS files)
  string(REGEX MATCH "^[^/]+" from "${rel}")
  file(READ "${root}/${rel}" text)
  if(NOT text MATCHES "internal/")
    continue()
  endif()
  kubesim_split_lines("${text}" "<semicolon>" lines)
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]*internal/[^>\"]*)[>\"]")
      continue()
    endif()
    set(included "${CMAKE_MATCH_1}")
    internal_owner("${root}/${rel}" "${included}" owner)
    if(NOT owner OR owner STREQUAL from)
      continue()
    elseif("${from}:${included}" IN_LIST allowed)
      message("${rel}:${number}: includes \"${included}\" (allowed: api's object seam)")
    else()
      message("${rel}:${number}: includes \"${included}\", the internal header of ${owner}")
      math(EXPR offences "${offences} + 1")
    endif()
  endforeach()
endforeach()

if(offences GREATER 0)
  message(FATAL_ERROR "${offences} include(s) of another component's internal/ header; make the "
                      "piece public (<component>/include/kubesim/<component>/) or move it")
endif()
message("no component includes another component's internal/ headers")
