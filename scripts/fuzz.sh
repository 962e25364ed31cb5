#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp) with clang and
# -fsanitize=fuzzer,address,undefined, then runs them, as many at once as there are cores
# (WEFT_FUZZ_JOBS), each for SECONDS.
#
#   scripts/fuzz.sh                 the short run (scripts/test.sh and CI): every harness at once for
#                                   20 s of wall time, sharing the cores (5 harnesses on 2 cores:
#                                   about 8 s of a core each): each replays its whole seed corpus,
#                                   then mutates for the rest of its time
#   scripts/fuzz.sh 1800            every harness, 30 min each (the long run)
#   scripts/fuzz.sh 600 fuzz_proxy_decode
#   scripts/fuzz.sh 600             every harness 10 min, the run a change to a parser must pass clean
#   WEFT_FUZZ_KEEP=1 scripts/fuzz.sh 600 fuzz_gltf_structure
#                                   ... and, when clean, keep in the seed corpus the few inputs it
#                                   found that add the most coverage (at most WEFT_FUZZ_KEEP_MAX)
#
# The seed corpus tests/fuzz/corpus/<harness>/ is read, never written; what the fuzzer finds grows
# in $WEFT_FUZZ_BUILD/corpus/<harness>/. Each harness's output goes to
# $WEFT_FUZZ_BUILD/logs/<harness>.log; its last lines (libFuzzer's final stats) are printed. A crash
# (or a broken invariant, a timeout, or a single allocation over 64 MiB) makes the script exit
# non-zero after printing that harness's log and the reproducer,
# $WEFT_FUZZ_BUILD/artifacts/<harness>/crash-* (or leak-, timeout-, oom-): copy that file into
# tests/fuzz/corpus/<harness>/ (the replay ctest then runs it in every build) and fix the bug.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-}"
shift || true
# The short run builds at -O0 in its own tree: its 20 s mostly replay the seed corpus, and -O0 halves
# the harnesses' build (a scene batch 33-39 -> 14-19 s of CPU), the larger part of the run's cost,
# for 12 to 50 times fewer executions (docs/bad-inputs.md#fuzzing). A timed run is a search:
# -O1 -gline-tables-only, the flags libFuzzer's documentation and OSS-Fuzz use (fast enough to fuzz,
# file:line in every stack trace), at about half the build time of -O2 -g.
if [[ -z "$seconds" ]]; then
  build="${WEFT_FUZZ_BUILD:-build-fuzz-short}" opt="-O0"
else
  build="${WEFT_FUZZ_BUILD:-build-fuzz}" opt="-O1"
fi
parallel="${WEFT_FUZZ_JOBS:-$(nproc)}"

if ! command -v clang++ >/dev/null || ! compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null; then
  WEFT_DEPS_EXTRAS=1 scripts/deps.sh
fi

CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$opt -gline-tables-only" -DWEFT_FUZZ=ON -DWEFT_BUILD_BENCH=OFF >/dev/null
if (($#)); then
  harnesses=("$@")
else
  harnesses=()
  for src in tests/fuzz/fuzz_*.cpp; do harnesses+=("$(basename "$src" .cpp)"); done
fi
cmake --build "$build" --target "${harnesses[@]}" -j "$(nproc)"
if [[ -z "$seconds" ]]; then
  # All at once rather than in rounds of one per core: rounds leave cores idle (the third round of
  # five harnesses on two cores runs one), while all at once keeps every core fuzzing for the whole
  # run. 20 s: the seed corpora are replayed by ctest in every build already (fuzz_*_replay); what
  # this run adds is clang's sanitizers on them and a first round of mutation (at -O0: 55 to 6,553
  # executions per harness) within CI's time; the long run does the searching. libFuzzer's
  # -timeout is wall time: sharing the cores, -timeout=10 flags an input that takes about 4 s of CPU,
  # still far above the slowest input seen (under a second).
  seconds=20
  parallel=${WEFT_FUZZ_JOBS:-${#harnesses[@]}}
fi

run_harness() {  # run_harness NAME: one harness for $seconds, its output to $build/logs/NAME.log
  local h="$1" dict=()
  mkdir -p "$build/corpus/$h" "$build/artifacts/$h" "$build/logs"
  [[ -f "tests/fuzz/$h.dict" ]] && dict=("-dict=tests/fuzz/$h.dict")
  # Assimp's own few-byte leaks on files it refuses are suppressed as in the test suite (lsan.supp).
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
  LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp" \
    "$build/tests/fuzz/$h" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -max_len=16384 \
      -malloc_limit_mb=64 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$h/" "$build/corpus/$h" "tests/fuzz/corpus/$h" \
      >"$build/logs/$h.log" 2>&1
}

# Artifacts of an earlier run would be taken for this run's.
for h in "${harnesses[@]}"; do rm -rf "${build:?}/artifacts/$h"; done
echo "fuzz: ${harnesses[*]}: ${seconds} s each, $parallel at a time" >&2
declare -A pid_of=()
status=0
failed=()
finish() {  # finish NAME: waits for a harness and reports it
  local h="$1" s=0
  wait "${pid_of[$h]}" || s=$?
  unset "pid_of[$h]"
  if ((s == 0)); then
    echo "== $h: no crash in ${seconds} s" >&2
    grep -E '^(stat::|Done )' "$build/logs/$h.log" >&2 || tail -n 5 "$build/logs/$h.log" >&2
    return
  fi
  echo "== $h: FAILED (exit $s); its log, $build/logs/$h.log:" >&2
  cat "$build/logs/$h.log" >&2
  status=$s
  failed+=("$h")
}
for h in "${harnesses[@]}"; do
  while ((${#pid_of[@]} >= parallel)); do
    sleep 1
    for running in "${!pid_of[@]}"; do
      kill -0 "${pid_of[$running]}" 2>/dev/null || finish "$running"
    done
  done
  run_harness "$h" &
  pid_of[$h]=$!
done
for running in "${!pid_of[@]}"; do finish "$running"; done

if ((status == 0)) && [[ "${WEFT_FUZZ_KEEP:-0}" == 1 ]]; then
  # libFuzzer's merge records every input's features (-merge_control_file); a greedy set cover
  # then keeps, beside the seeds, the few inputs that add the most features the seeds lack, at
  # most WEFT_FUZZ_KEEP_MAX (25) of them, each under 16 KiB: the committed corpus stays small.
  for h in "${harnesses[@]}"; do
    control="$build/logs/$h.merge-control" scratch="$build/merge-scratch/$h"
    rm -rf "$scratch" "$control" && mkdir -p "$scratch"
    LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp" \
      "$build/tests/fuzz/$h" -merge=1 -merge_control_file="$control" -max_len=16384 -timeout=10 \
      "$scratch" "tests/fuzz/corpus/$h" "$build/corpus/$h" >"$build/logs/$h.merge.log" 2>&1 ||
      { echo "fuzz: merging $h's corpus failed: $build/logs/$h.merge.log" >&2; status=1; continue; }
    python3 - "$control" "tests/fuzz/corpus/$h" "${WEFT_FUZZ_KEEP_MAX:-25}" <<'PY'
import os, shutil, sys
control, seeds, budget = sys.argv[1], os.path.abspath(sys.argv[2]), int(sys.argv[3])
lines = open(control).read().split("\n")
count = int(lines[0])
files = lines[2:2 + count]
features = {}
for line in lines[2 + count:]:
    parts = line.split()
    if len(parts) >= 2 and parts[0] == "FT":
        features[int(parts[1])] = set(parts[2:])
covered = set()
for i, f in enumerate(files):
    if os.path.abspath(f).startswith(seeds + os.sep):
        covered |= features.get(i, set())
kept = 0
while kept < budget:
    best, gain = None, 0
    for i, f in enumerate(files):
        new = len(features.get(i, set()) - covered)
        if new > gain and not os.path.abspath(f).startswith(seeds + os.sep):
            best, gain = i, new
    if best is None:
        break
    covered |= features[best]
    shutil.copy(files[best], os.path.join(seeds, "found-" + os.path.basename(files[best])))
    kept += 1
print(f"kept {kept} inputs")
PY
    echo "== $h: tests/fuzz/corpus/$h now $(find "tests/fuzz/corpus/$h" -type f | wc -l) files, $(du -sh "tests/fuzz/corpus/$h" | cut -f1)" >&2
  done
fi

if ((status)); then
  for h in "${failed[@]}"; do
    reproducers=$(find "$build/artifacts/$h" -type f | sort)
    echo "fuzz: $h failed; reproducer: ${reproducers:-none written (see its log above)}" >&2
    echo "      replay it: $build/tests/fuzz/$h ${reproducers%%$'\n'*}" >&2
  done
fi
exit "$status"
