#!/usr/bin/env bash
# What `weft bake` costs beyond importing: bakes the third-party models (the build's
# WEFT_SHARED_MODELS) and reports, from one process (tests/bench/bench_bake.cpp), Assimp's import of
# each file alone against bake_model of it, and the work beyond importing as a share of the import;
# then the `weft bake --grow-cloth` command over the whole folder at -j 1 and -j 2, without and with
# --validate (--force, so every run does the work): wall time, CPU seconds of the bake's processes
# and the critical path (the longest model's wall time, from bake-report.json), which a loaded
# machine moves less than the wall; and the bake's time split summed over the models (import,
# validation, build: every other stage) from the report's timings. Medians of REPS runs (default 5). Targets: beyond-import under
# 30% of import; -j 2 at least 1.8x -j 1 with and without --validate (a worker with no model left
# lends its slot to the validations still running: docs/commands.md, `weft bake`). Timings on a shared
# machine move: quote the machine and its load.
#   scripts/bench_bake.sh [build folder, default build]
#   BASELINE=/path/to/other/weft  also times that binary, run for run interleaved (before/after)
#   CLI_ONLY=1                    skips the in-process benchmark
#   MODELS=DIR                    bakes DIR instead (the in-process part still reads the build's folder)
#   COPIES=N                      bakes N copies of the folder, each in a folder of its own
#                                 (BUILD/bench-scratch/models-xN/copyK/..., made once): N times the work
#                                 under different names, to see -j scale beyond one folder's models
#   RT=1                          runs each bake under `chrt -f 10` (root): on a loaded shared machine
#                                 the other processes cannot preempt it, so -j 2 gets both cores (it
#                                 holds them for the whole bake: use it for short runs)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${REPS:-5}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j 2 --target weft $([ -n "${CLI_ONLY:-}" ] || echo bench_bake) >&2
models=${MODELS:-$(sed -n 's/^WEFT_SHARED_MODELS:PATH=//p' "$build/CMakeCache.txt")}
scratch="$build/bench-scratch"
mkdir -p "$scratch"
if [ -n "${COPIES:-}" ]; then
  copies="$scratch/models-x$COPIES"
  if [ ! -d "$copies" ]; then
    for k in $(seq 1 "$COPIES"); do mkdir -p "$copies/copy$k" && cp -rL "$models/." "$copies/copy$k/"; done
    chmod -R u+w "$copies"
  fi
  models=$copies
fi

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "models: $models"
if [ -z "${CLI_ONLY:-}" ]; then
  "$build/tests/bench/bench_bake" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_format=json --benchmark_out="$scratch/bench_bake.json" --benchmark_out_format=json >/dev/null
fi

python3 - "$scratch/bench_bake.json" "$build/tools/weft/weft" "$models" "$scratch" "$reps" "${BASELINE:-}" "${CLI_ONLY:-}" "${RT:-}" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
report, weft, models, scratch, reps, baseline, cli_only, rt = sys.argv[1:9]
reps = int(reps)
if not cli_only:
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

binaries = [("this", weft)] + ([("baseline", baseline)] if baseline else [])
def once(binary, jobs, validate):
    out = f"{scratch}/cli_{binary[0]}_j{jobs}{'_v' if validate else ''}"
    args = (["chrt", "-f", "10"] if rt else []) + [binary[1], "bake", models, "-o", out, "-j", str(jobs), "--force", "-q", "--grow-cloth"] + (["--validate"] if validate else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    r = subprocess.run(args, stderr=subprocess.DEVNULL)  # -q still prints the refused models' errors
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode == 2:
        sys.exit(f"{binary[1]} bake -j {jobs}: bad command line")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    models_t = json.load(open(f"{out}/bake-report.json"))["timings"]["models"]
    longest = max(m["seconds"] for m in models_t)
    # The time split, summed over the models: import, validation, and build (every other stage).
    imp = sum(m["stages"].get("import", 0) for m in models_t)
    val = sum(m["stages"].get("validate", 0) for m in models_t)
    build = sum(sum(m["stages"].values()) for m in models_t) - imp - val
    return wall, cpu, longest, imp, build, val
for validate in (False, True):
    runs = {(b[0], j): [] for b in binaries for j in (1, 2)}
    for _ in range(reps):  # interleaved, so a change in the machine's load falls on every configuration alike
        for b in binaries:
            for jobs in (1, 2):
                runs[(b[0], jobs)].append(once(b, jobs, validate))
    print(f"load now {os.getloadavg()[0]:.2f}; weft bake --grow-cloth{' --validate' if validate else ''} (CLI, --force"
          f"{', SCHED_FIFO' if rt else ''}), medians of {reps}:")
    for b in binaries:
        med = {j: [statistics.median(x[i] for x in runs[(b[0], j)]) for i in range(6)] for j in (1, 2)}
        for j in (1, 2):
            walls = [x[0] for x in runs[(b[0], j)]]
            print(f"  {b[0]:8} -j {j}: wall {med[j][0]:6.2f} s (min {min(walls):.2f}, max {max(walls):.2f}), "
                  f"CPU {med[j][1]:6.2f} s, longest model {med[j][2]:6.2f} s; "
                  f"summed over models: import {med[j][3]:.3f} s, build {med[j][4]:.3f} s, validation {med[j][5]:.3f} s")
        print(f"  {b[0]:8} speed-up -j1/-j2: wall {med[1][0] / med[2][0]:.2f}x, longest model {med[1][2] / med[2][2]:.2f}x")
PY
