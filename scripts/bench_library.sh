#!/usr/bin/env bash
# The cost curve: `weft bake` of a synthetic library of N models (the test data's characters:
# mannequin.glb, mannequin_chains.glb, mannequin_shared_skirt.glb and flag.glb, hard-linked round
# robin under distinct names into BUILD/bench-scratch/library-N/, made once), for N in SIZES
# (default 10 100 1000) at -j 1 and -j 2, --grow-cloth (and --validate with VALIDATE=1), --force.
# Per run: the wall and CPU seconds per model, and the peak resident memory of the driver (the `weft`
# process itself) and of the largest worker (its children), from VmHWM in /proc sampled every 20 ms
# (VmHWM only grows, so the last sample is the peak up to 20 ms before the process ended).
# Flat per model as N grows, and the driver's peak independent of N, is what is asked.
#   scripts/bench_library.sh [build folder, default build]
# Timings on a shared machine move: quote the machine and its load.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" -j 2 --target weft >&2
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
python3 - "$build/tools/weft/weft" "$build/bench-scratch" "${SIZES:-10 100 1000}" "${VALIDATE:-}" <<'PY'
import os, resource, subprocess, sys, time
weft, scratch, sizes, validate = sys.argv[1], sys.argv[2], [int(n) for n in sys.argv[3].split()], sys.argv[4]
characters = ["mannequin.glb", "mannequin_chains.glb", "mannequin_shared_skirt.glb", "flag.glb"]

def library(n):
    folder = f"{scratch}/library-{n}"
    if not os.path.isdir(folder):
        os.makedirs(folder)
        for k in range(n):
            name = characters[k % len(characters)]
            os.link(f"testdata/{name}", f"{folder}/m{k:04d}_{name}")
    return folder

def hwm_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None

def children(pid):
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out

def bake(n, jobs):
    out = f"{scratch}/library-{n}-out-j{jobs}"
    args = [weft, "bake", library(n), "-o", out, "-j", str(jobs), "-q", "--force", "--grow-cloth"] + (["--validate"] if validate else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    p = subprocess.Popen(args, stderr=subprocess.DEVNULL)
    driver = worker = 0
    while p.poll() is None:
        driver = max(driver, hwm_kib(p.pid) or 0)
        for c in children(p.pid):
            worker = max(worker, hwm_kib(c) or 0)
        time.sleep(0.02)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode > 1:
        sys.exit(f"weft bake exited {p.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, driver / 1024, worker / 1024

print(f"weft bake --grow-cloth{' --validate' if validate else ''} --force of N test-data characters")
print(f"{'N':>6} {'-j':>3} {'wall s':>8} {'ms/model':>9} {'CPU ms/model':>13} {'driver MiB':>11} {'worker MiB':>11}")
for n in sizes:
    for jobs in (1, 2):
        wall, cpu, driver, worker = bake(n, jobs)
        print(f"{n:>6} {jobs:>3} {wall:8.2f} {1000 * wall / n:9.1f} {1000 * cpu / n:13.1f} {driver:11.1f} {worker:11.1f}")
    print(f"       load now {os.getloadavg()[0]:.2f}")
PY
