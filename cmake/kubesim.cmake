# Helpers that give every component the same shape.
#
# kubesim_add_component(NAME DEPS ...) builds <NAME>/*.cc and <NAME>/internal/*.cc into the
# library kubesim::<NAME>. Public headers sit directly in the folder and are included as
# "<NAME>/header.h" from the repository root.
function(kubesim_add_component name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/${name}/*.cc ${PROJECT_SOURCE_DIR}/${name}/internal/*.cc)
  if(NOT srcs)
    message(FATAL_ERROR "component ${name} has no sources")
  endif()
  add_library(kubesim_${name} STATIC ${srcs})
  add_library(kubesim::${name} ALIAS kubesim_${name})
  target_include_directories(kubesim_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(kubesim_${name} PUBLIC ${ARG_DEPS})
  target_compile_options(kubesim_${name} PRIVATE ${KUBESIM_WARNINGS})
endfunction()

# kubesim_add_tests(NAME DEPS ...) builds tests/<NAME>/*_test.cc into one GoogleTest program,
# registered with CTest as <NAME>.
function(kubesim_add_tests name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/${name}/*_test.cc)
  if(NOT srcs)
    return()
  endif()
  add_executable(${name}_tests ${srcs})
  target_link_libraries(${name}_tests PRIVATE ${ARG_DEPS} rapidcheck rapidcheck_gtest
                        GTest::gtest GTest::gmock GTest::gtest_main)
  target_compile_options(${name}_tests PRIVATE ${KUBESIM_WARNINGS})
  add_test(NAME ${name} COMMAND ${name}_tests)
endfunction()
