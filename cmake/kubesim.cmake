# Helpers that give every component the same shape.
#
# kubesim_add_component(NAME DEPS ...) builds <NAME>/*.cc and <NAME>/internal/*.cc into the
# library kubesim::<NAME>. Its public headers sit in <NAME>/include/kubesim/<NAME>/ and are
# included as "kubesim/<NAME>/header.h"; they are installed under include/ and the target is
# exported for find_package(kubesim). Private headers sit in <NAME>/internal/ beside the sources
# ("<NAME>/internal/x.h", from the source root) and are not installed; a detail/ folder under
# include/kubesim/<NAME>/ holds only what public headers need inline.
function(kubesim_add_component name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/${name}/*.cc ${PROJECT_SOURCE_DIR}/${name}/internal/*.cc)
  if(NOT srcs)
    message(FATAL_ERROR "component ${name} has no sources")
  endif()
  add_library(kubesim_${name} STATIC ${srcs})
  add_library(kubesim::${name} ALIAS kubesim_${name})
  target_link_libraries(kubesim_${name} PUBLIC ${ARG_DEPS})
  target_compile_options(kubesim_${name} PRIVATE ${KUBESIM_WARNINGS})
  kubesim_export_library(kubesim_${name} ${name} ${PROJECT_SOURCE_DIR}/${name}/include)
endfunction()

# kubesim_export_library(TARGET EXPORT_NAME INCLUDE_DIR) gives TARGET its public include
# directory (INCLUDE_DIR in the build tree, include/ once installed), names it
# kubesim::EXPORT_NAME in the exported package, and installs it with its headers.
function(kubesim_export_library target export_name include_dir)
  target_include_directories(${target} PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # A library may have no public headers of its own (it implements another's).
  if(EXISTS ${include_dir})
    target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${include_dir}>)
    install(DIRECTORY ${include_dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
  # A component's private headers sit beside its sources ("fakeapi/internal/x.h") and are never
  # installed.
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
  install(TARGETS ${target} EXPORT kubesimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  set_property(GLOBAL APPEND PROPERTY KUBESIM_LIBRARIES kubesim::${export_name})
  kubesim_unity_build(${target} ${KUBESIM_UNITY_LIBS})
endfunction()

# kubesim_unity_build(TARGET ENABLED): when ENABLED, TARGET's sources are compiled
# KUBESIM_UNITY_BATCH at a time as one translation unit each (the test programs with
# KUBESIM_UNITY_TESTS, every library with KUBESIM_UNITY_LIBS). Files of one target must then not
# share a name in the same namespace (anonymous namespaces, file-local constants, `using`s and
# macros included); a file that cannot follow this has SKIP_UNITY_BUILD_INCLUSION.
function(kubesim_unity_build target enabled)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ${enabled}
                                             UNITY_BUILD_BATCH_SIZE ${KUBESIM_UNITY_BATCH})
  if(enabled AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC takes an included source file for a header and warns when a coroutine frame there holds
    # a type of the file's anonymous namespace; in a unity build that is no header.
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()

# kubesim_add_tests(NAME [DIR dir] DEPS ...) builds tests/<NAME>/*_test.cc (or tests/<dir>/) into
# one GoogleTest program, registered with CTest as <NAME>. With KUBESIM_UNITY_TESTS (the default)
# it is a unity build (kubesim_unity_build), so the GoogleTest, rapidcheck and JSON templates its
# test files share are instantiated once per batch.
function(kubesim_add_tests name)
  cmake_parse_arguments(ARG "" "DIR" "DEPS" ${ARGN})
  if(NOT ARG_DIR)
    set(ARG_DIR ${name})
  endif()
  file(GLOB srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/${ARG_DIR}/*_test.cc)
  if(NOT srcs)
    return()
  endif()
  add_executable(${name}_tests ${srcs})
  # Test helpers are included from the repository root ("tests/<name>/fixtures.h").
  target_include_directories(${name}_tests PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name}_tests PRIVATE ${ARG_DEPS} rapidcheck rapidcheck_gtest
                        GTest::gtest GTest::gmock GTest::gtest_main)
  target_compile_options(${name}_tests PRIVATE ${KUBESIM_WARNINGS})
  kubesim_unity_build(${name}_tests ${KUBESIM_UNITY_TESTS})
  add_test(NAME ${name} COMMAND ${name}_tests)
endfunction()
