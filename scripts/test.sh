#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs what is missing, builds with AddressSanitizer +
# UndefinedBehaviorSanitizer, runs each libFuzzer harness for 20 s, and runs every test in the
# sanitizer build. Ends with ctest's summary.
#   WEFT_SKIP_FUZZ=1     skip the fuzz run (and clang): local loops; CI always runs it
#   WEFT_FUZZ_SECONDS=N  seconds per harness in the fuzz run (default: the harnesses share 20 s)
#   WEFT_TEST_RELEASE=1  also build Release (build/, with the benchmarks) and run the suite there
#   WEFT_SKIP_ASAN=1     skip the sanitizer pass (quick local loops only; implies the Release pass)
# CI (.ci/run) runs the sanitizer pass and the fuzz run, which check strictly more than the Release
# run does; on a 2-core machine it must stay well under 15 minutes (its last fresh-clone run, 2026-12-07,
# took 17:09, over the rule: docs/measurements.md#the-test-suites-cost says where the time goes). Each
# phase's wall time is printed (`weft-test: ...`) before ctest starts, so ctest's summary still ends
# the run.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
fuzz=1
[[ "${WEFT_SKIP_FUZZ:-0}" == 1 || "${WEFT_SKIP_ASAN:-0}" == 1 ]] && fuzz=0
times=()
phase_start=$SECONDS
phase_done() {  # phase_done NAME: records the wall time since the previous phase ended
  times+=("$1 $((SECONDS - phase_start)) s")
  echo "weft-test: $1 took $((SECONDS - phase_start)) s" >&2
  phase_start=$SECONDS
}

# clang and its libFuzzer runtime come with the extras (scripts/deps.sh); nothing else needs them here.
# Chromium for the page tests (ctest view_pages) comes with WEFT_DEPS_BROWSER.
if ((fuzz)); then WEFT_DEPS_EXTRAS=1 WEFT_DEPS_BROWSER=1 scripts/deps.sh; else WEFT_DEPS_BROWSER=1 scripts/deps.sh; fi
phase_done deps

# npm fetches the Node tools the tests call while the compilers run (it is mostly waiting on the
# network); ctest waits for it.
npm_log=$(mktemp)
npm_start=$SECONDS
(cd tests/js && npm ci --no-audit --no-fund --loglevel=error && echo "weft-test: npm ci took $((SECONDS - npm_start)) s") \
  >"$npm_log" 2>&1 &
npm_pid=$!
npm_wait() {
  local status=0
  wait "$npm_pid" || status=$?
  cat "$npm_log" >&2
  rm -f "$npm_log"
  npm_pid=""
  if ((status)); then echo "weft-test: npm ci failed (exit $status)" >&2; exit "$status"; fi
  phase_done "npm (what was left after the builds)"
}

if [[ "${WEFT_SKIP_ASAN:-0}" != 1 ]]; then
  # -O1 -g1: line tables for the sanitizers' stack traces at a fraction of -O2 -g's build time.
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" \
        -DWEFT_SANITIZE=ON -DWEFT_BUILD_BENCH=OFF >/dev/null
  phase_done configure
  cmake --build build-asan -j "$jobs"
  phase_done build
  if ((fuzz)); then
    # The short run: builds the harnesses with clang at -O0 (build-fuzz-short) and runs them all at once, one per
    # core, from the seed corpus; a crash fails here, naming its reproducer.
    scripts/fuzz.sh ${WEFT_FUZZ_SECONDS:+"$WEFT_FUZZ_SECONDS"}
    phase_done "fuzz (build and run)"
  fi
  npm_wait
  echo "weft-test: ${times[*]/%/;} ctest follows" >&2
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp" \
    ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 900
fi

if [[ "${WEFT_TEST_RELEASE:-0}" == 1 || "${WEFT_SKIP_ASAN:-0}" == 1 ]]; then
  if [[ -n "$npm_pid" ]]; then npm_wait; fi
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j "$jobs"
  ctest --test-dir build --output-on-failure -j "$jobs" --timeout 900
fi
