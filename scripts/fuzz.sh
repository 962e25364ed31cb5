#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp) with clang and
# -fsanitize=fuzzer,address,undefined, then runs each in turn.
#
#   scripts/fuzz.sh                 every harness, 60 s each (the short run)
#   scripts/fuzz.sh 1800            every harness, 30 min each (the long run)
#   scripts/fuzz.sh 600 fuzz_proxy_decode
#
# The seed corpus tests/fuzz/corpus/<harness>/ is read, never written; what the fuzzer finds grows
# in $WEFT_FUZZ_BUILD/corpus/<harness>/. A crash (or a broken invariant, or a single allocation over
# 64 MiB) stops the run with a non-zero exit and leaves $WEFT_FUZZ_BUILD/artifacts/<harness>/crash-*:
# copy that file into tests/fuzz/corpus/<harness>/ (the replay ctest then runs it in every build)
# and fix the bug.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
build="${WEFT_FUZZ_BUILD:-build-fuzz}"

if ! command -v clang++ >/dev/null || ! compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null; then
  WEFT_DEPS_EXTRAS=1 scripts/deps.sh
fi

CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_FUZZ=ON \
  -DWEFT_BUILD_BENCH=OFF >/dev/null
if (($#)); then
  harnesses=("$@")
else
  harnesses=()
  for src in tests/fuzz/fuzz_*.cpp; do harnesses+=("$(basename "$src" .cpp)"); done
fi
cmake --build "$build" --target "${harnesses[@]}" -j "$(nproc)"

status=0
for h in "${harnesses[@]}"; do
  mkdir -p "$build/corpus/$h" "$build/artifacts/$h"
  dict=()
  [[ -f "tests/fuzz/$h.dict" ]] && dict=("-dict=tests/fuzz/$h.dict")
  echo "== $h: ${seconds}s" >&2
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    "$build/tests/fuzz/$h" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -max_len=16384 \
      -malloc_limit_mb=64 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$h/" "$build/corpus/$h" "tests/fuzz/corpus/$h" || status=$?
  if ((status)); then
    echo "fuzz: $h failed (exit $status); reproducer in $build/artifacts/$h/" >&2
    break
  fi
done
exit "$status"
