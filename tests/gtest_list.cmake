# Run after a GoogleTest executable links (tests/CMakeLists.txt): writes the names of its tests, one
# `Suite.Test` a line, for gtest_ctests.cmake to make ctests of. Called as
#   cmake -DEXE=... -DOUT=... -DWORKDIR=... -P gtest_list.cmake
execute_process(COMMAND "${EXE}" --gtest_list_tests WORKING_DIRECTORY "${WORKDIR}" TIMEOUT 120
                OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${EXE} --gtest_list_tests failed (${status}):\n${listing}")
endif()
# The listing: a `Suite.` line, then each of its tests indented two spaces; a parameterised test
# carries a `  # GetParam() = ...` comment, which is not part of its name.
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" listing "${listing}")
set(names "")
set(suite "")
foreach(line IN LISTS listing)
  string(REGEX REPLACE " +#.*" "" line "${line}")
  if(line MATCHES "^([^ ].*)\\.$")
    set(suite "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^  ([^ ]+)$" AND suite)
    string(APPEND names "${suite}.${CMAKE_MATCH_1}\n")
  endif()
endforeach()
file(WRITE "${OUT}.new" "${names}")
file(RENAME "${OUT}.new" "${OUT}")
