# Fails when a co_await statement builds an aggregate temporary in its arguments.
#
#   cmake -DKUBESIM_SOURCE_DIR=<checkout> -P cmake/check_co_await_temporaries.cmake
#
# GCC 12 destroys an aggregate-initialised temporary twice when it is built inside a co_await
# expression (a double free under ASan, silent corruption without it). The options structs
# (api::ListOptions, informer::ReflectorOptions, ...) are aggregates so that they can be built
# with designated initialisers; inside a co_await statement they must be passed as a named
# variable or as `T()` (value-initialised, not aggregate-initialised). This check reports, in
# every .h/.cc of the components, tools/, examples/, tests/ and bench/, a co_await statement
# (from `co_await` to the next `;`) that has a braced argument (`f(x, {})`, `f({.limit = 1})`) or
# builds an `...Options` or `...Config` from braces or arguments (`ListOptions{...}`,
# `ResourceLockConfig("a")`). Prints FILE:LINE: the statement, for each, and fails if any.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/source_scan.cmake)  # sets `root`

set(scanned sim api fakeapi informer workqueue election controller cluster scenarios runner explore
            sweep live report tools testing examples tests bench)
set(braced_argument "[(,][ \t\n]*{")
set(built_options "[A-Za-z0-9_](Options|Config)[ \t\n]*({|[(][ \t\n]*[^) \t\n])")

set(offences 0)
kubesim_source_files("${root}" "${scanned}" files)
foreach(rel IN LISTS files)
  file(READ "${root}/${rel}" text)
  if(NOT text MATCHES "co_await")
    continue()
  endif()
  # Comments out (line numbers kept). Each piece after a `co_await` up to the next `;` is one
  # statement's awaited expression: a `;` starts a new element marked <end>.
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")
  kubesim_split_lines("${text}" "\n<end>" lines)
  set(number 0)
  set(statement "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^<end>")
      # A `;` was here: the statement in progress, if any, ends.
      if(statement)
        if(statement MATCHES "${braced_argument}" OR statement MATCHES "${built_options}")
          string(REGEX REPLACE "[ \t\n]+" " " shown "${statement}")
          string(REPLACE "<open>" "[" shown "${shown}")
          string(REPLACE "<close>" "]" shown "${shown}")
          string(REPLACE "<backslash>" "\\" shown "${shown}")
          message("${rel}:${statement_line}: ${shown}")
          math(EXPR offences "${offences} + 1")
        endif()
        set(statement "")
      endif()
      string(REGEX REPLACE "^<end>" "" line "${line}")
    else()
      math(EXPR number "${number} + 1")
    endif()
    if(statement)
      string(APPEND statement "\n${line}")
    elseif(line MATCHES "(^|[^A-Za-z0-9_])(co_await[^A-Za-z0-9_].*)$")
      set(statement "${CMAKE_MATCH_2}")
      set(statement_line ${number})
    endif()
  endforeach()
endforeach()

if(offences GREATER 0)
  message(FATAL_ERROR "${offences} co_await statement(s) build an aggregate temporary, which GCC 12 "
                      "destroys twice: build it in a named variable first (or pass T())")
endif()
message("no co_await statement builds an aggregate temporary")
