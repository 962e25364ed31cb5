# Read by ctest (each suite's TEST_INCLUDE_FILES script sets weft_target, weft_exe, weft_list,
# weft_label, weft_workdir and weft_costs, then includes this): the ctests of one GoogleTest
# executable, from the list of its tests its build wrote (tests/gtest_list.cmake).
#
# A sanitizer process costs ~0.2 s of CPU to start and end (LeakSanitizer's check at exit is half of
# it), more than most of our tests take, so by default each GoogleTest suite's tests run in one
# process, as the ctest `Suite.*`; a test that tests/ctest_costs.txt names runs alone, as the ctest
# `Suite.Test`: the slow ones, so `ctest -j` can start them first and run them beside the rest, and
# those that skip in CI, so ctest's summary lists them as not run. A failing `Suite.*` prints
# GoogleTest's output (--output-on-failure), which names the test that failed.
# WEFT_CTEST_EACH=1 in the environment makes one ctest per test instead, named `Suite.Test`, so
# `WEFT_CTEST_EACH=1 ctest -R Suite.Test` runs that test alone.
cmake_policy(VERSION 3.20)  # IN_LIST (ctest reads its files with no policies set; include scopes this)
if(NOT EXISTS "${weft_list}")
  add_test("${weft_target}_NOT_BUILT" "${weft_target}_NOT_BUILT")
  return()
endif()
file(STRINGS "${weft_list}" weft_names)
if(NOT DEFINED weft_alone)
  set(weft_alone "")
  if(EXISTS "${weft_costs}")
    file(STRINGS "${weft_costs}" weft_cost_lines)
    foreach(weft_line IN LISTS weft_cost_lines)
      if(weft_line MATCHES "^([^ ]+) ")
        list(APPEND weft_alone "${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endif()
endif()

# Tests that read what another ctest wrote, instead of making it again, and the ctest fixture that
# writes it (FIXTURES_SETUP in tests/CMakeLists.txt): the ctest that runs such a test requires it, so
# `ctest -R` of that test alone runs its setup first. Each test still makes the outputs itself when
# they are absent (its executable run outside ctest).
set(weft_fixture_of_test
  "Readme.EveryExampleRunsAndExitsZero=main_job_out"                 # the main job's bake of testdata/
  "OnePass.EveryCommandGivesAProxyTheSameVerdict=golden_bake_out")   # the golden run's bake of the shared models

# GoogleTest's summary when every test it ran skipped: none passed, all listed as skipped (so none
# failed: a skip never hides a failure, which ctest would otherwise report as skipped).
function(weft_gtest_ctest name filter count)
  if(count EQUAL 1)
    set(tests "1 test")
  else()
    set(tests "${count} tests")
  endif()
  add_test("${name}" "${weft_exe}" "--gtest_filter=${filter}")
  set_tests_properties("${name}" PROPERTIES WORKING_DIRECTORY "${weft_workdir}" LABELS "${weft_label}"
    SKIP_REGULAR_EXPRESSION "\\[  PASSED  \\] 0 tests\\.\n\\[  SKIPPED \\] ${tests}, listed below:")
  string(REPLACE ":" ";" members "${filter}")
  set(fixtures "")
  foreach(pair IN LISTS weft_fixture_of_test)
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 test)
    list(GET pair 1 fixture)
    if(test IN_LIST members)
      list(APPEND fixtures "${fixture}")
    endif()
  endforeach()
  if(fixtures)
    set_tests_properties("${name}" PROPERTIES FIXTURES_REQUIRED "${fixtures}")
  endif()
endfunction()

if("$ENV{WEFT_CTEST_EACH}" STREQUAL "1")
  foreach(weft_name IN LISTS weft_names)
    weft_gtest_ctest("${weft_name}" "${weft_name}" 1)
  endforeach()
  return()
endif()

# GoogleTest lists a suite's tests together: one group per run of names with the same suite.
set(weft_suite "")
set(weft_group "")
set(weft_group_count 0)
macro(weft_flush_group)
  if(weft_group_count GREATER 0)
    weft_gtest_ctest("${weft_suite}.*" "${weft_group}" ${weft_group_count})
  endif()
  set(weft_group "")
  set(weft_group_count 0)
endmacro()
foreach(weft_name IN LISTS weft_names)
  string(REGEX REPLACE "\\.[^.]*$" "" weft_name_suite "${weft_name}")
  if(NOT weft_name_suite STREQUAL weft_suite)
    weft_flush_group()
    set(weft_suite "${weft_name_suite}")
  endif()
  if(weft_name IN_LIST weft_alone)
    weft_gtest_ctest("${weft_name}" "${weft_name}" 1)
  else()
    if(weft_group_count GREATER 0)
      string(APPEND weft_group ":")
    endif()
    string(APPEND weft_group "${weft_name}")
    math(EXPR weft_group_count "${weft_group_count} + 1")
  endif()
endforeach()
weft_flush_group()
