#!/usr/bin/env bash
# What `weft bake` costs beyond importing: bakes the third-party models (the build's
# WEFT_SHARED_MODELS) and reports, from one process (tests/bench/bench_bake.cpp), Assimp's import of
# each file alone against bake_model of it, and the work beyond importing as a share of the import;
# then the `weft bake` command's wall time over the whole folder at -j 1 and -j 2 (--force, so
# every run does the work). Medians of REPS runs (default 5). Target: beyond-import under 30% of
# import; -j 2 close to 2x -j 1. Timings on a shared machine move: quote the machine and its load.
#   scripts/bench_bake.sh [build folder, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${REPS:-5}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j 2 --target weft bench_bake >&2
models=$(sed -n 's/^WEFT_SHARED_MODELS:PATH=//p' "$build/CMakeCache.txt")
scratch="$build/bench-scratch"
mkdir -p "$scratch"

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "models: $models"
"$build/tests/bench/bench_bake" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$scratch/bench_bake.json" --benchmark_out_format=json >/dev/null

python3 - "$scratch/bench_bake.json" "$build/tools/weft/weft" "$models" "$scratch" "$reps" <<'PY'
import json, statistics, subprocess, sys, time
report, weft, models, scratch, reps = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
medians = {b["run_name"]: b["real_time"] for b in json.load(open(report))["benchmarks"]
           if b.get("aggregate_name") == "median"}
print(f"{'model':44} {'assimp ms':>10} {'bake ms':>10} {'beyond %':>9}")
total_a = total_b = 0.0
for name in sorted(n for n in medians if n.startswith("BM_Assimp/")):
    model = name.split("/", 1)[1]
    a, b = medians[name], medians.get("BM_Bake/" + model, float("nan"))
    total_a += a
    total_b += b
    print(f"{model:44} {a:10.1f} {b:10.1f} {100 * (b - a) / a:9.0f}")
print(f"{'sum of per-model medians':44} {total_a:10.1f} {total_b:10.1f} {100 * (total_b - total_a) / total_a:9.0f}")
def whole(prefix):  # run names carry "/iterations:1/real_time"
    return next(v for k, v in medians.items() if k.startswith(prefix + "/"))
a_all, j1, j2 = whole("BM_AssimpAll"), whole("BM_BakeAll/1"), whole("BM_BakeAll/2")
print(f"folder in-process: Assimp {a_all:.0f} ms, bake -j1 {j1:.0f} ms ({100 * (j1 - a_all) / a_all:.0f}% beyond import),"
      f" bake -j2 {j2:.0f} ms (speed-up {j1 / j2:.2f}x)")

def wall(jobs):
    times = []
    for _ in range(reps):
        start = time.monotonic()
        r = subprocess.run([weft, "bake", models, "-o", f"{scratch}/cli_j{jobs}", "-j", str(jobs), "--force", "-q"])
        times.append(time.monotonic() - start)
        if r.returncode == 2:
            sys.exit(f"weft bake -j {jobs}: bad command line")
    return statistics.median(times), min(times), max(times)
w1, w2 = wall(1), wall(2)
print(f"weft bake (CLI, --force): -j 1 median {w1[0]:.2f} s (min {w1[1]:.2f}, max {w1[2]:.2f}); "
      f"-j 2 median {w2[0]:.2f} s (min {w2[1]:.2f}, max {w2[2]:.2f}); speed-up {w1[0] / w2[0]:.2f}x")
PY
