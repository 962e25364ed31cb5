#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs what is missing, builds, runs every test under
# AddressSanitizer + UndefinedBehaviorSanitizer, then the Release build's suite. Ends with ctest's
# summary. WEFT_SKIP_ASAN=1 skips the sanitizer pass (quick local loops only; CI always runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
(cd tests/js && npm ci --no-audit --no-fund --loglevel=error)

jobs=$(nproc)
if [[ "${WEFT_SKIP_ASAN:-0}" != 1 ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_SANITIZE=ON \
        -DWEFT_BUILD_BENCH=OFF >/dev/null
  cmake --build build-asan -j "$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 900
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs" --timeout 900
