#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs what is missing, builds with AddressSanitizer +
# UndefinedBehaviorSanitizer and runs every test there. Ends with ctest's summary.
#   WEFT_TEST_RELEASE=1  also build Release (build/, with the benchmarks) and run the suite there
#   WEFT_SKIP_ASAN=1     skip the sanitizer pass (quick local loops only; implies the Release pass)
# CI (.ci/run) runs the sanitizer pass only: one build on a 2-core machine keeps it well under
# 15 minutes, and the sanitizers check strictly more than the Release run does.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
(cd tests/js && npm ci --no-audit --no-fund --loglevel=error)

jobs=$(nproc)
if [[ "${WEFT_SKIP_ASAN:-0}" != 1 ]]; then
  # -O1 -g1: line tables for the sanitizers' stack traces at a fraction of -O2 -g's build time.
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" \
        -DWEFT_SANITIZE=ON -DWEFT_BUILD_BENCH=OFF >/dev/null
  cmake --build build-asan -j "$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp" \
    ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 900
fi

if [[ "${WEFT_TEST_RELEASE:-0}" == 1 || "${WEFT_SKIP_ASAN:-0}" == 1 ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j "$jobs"
  ctest --test-dir build --output-on-failure -j "$jobs" --timeout 900
fi
