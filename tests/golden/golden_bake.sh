#!/usr/bin/env bash
# ctest golden_bake: `weft bake MODELS -o out --grow-cloth --validate --config tests/golden/weft.json`
# must write exactly what
# tests/golden/golden_bake.manifest records: one sha256 per output file (a stamp's without the id of
# the sources weft was built from, index.html without the times it shows), and one of the run's
# report with its "timings" (the only machine-dependent part) removed. A change that alters an output on
# purpose regenerates the manifest and says why in its commit.
#
# It also checks the verdicts alone against tests/golden/golden_verdicts.txt: each model's status, and
# each validated proxy's verdict and every gate's, per scenario. A change meant to make the bake faster
# or its bytes different, not its judgement (a solver's rounding, a cheaper measurement), regenerates
# the manifest and leaves that file as it is: `--regenerate` refuses to run when the verdicts moved, and
# only `--regenerate-verdicts` rewrites them.
#
#   golden_bake.sh WEFT MODELS SCRATCH                 bake and check (exit 77, a ctest skip, without MODELS)
#   golden_bake.sh --regenerate WEFT MODELS SCRATCH    bake and rewrite the manifest from this run
#   golden_bake.sh --regenerate-verdicts WEFT MODELS SCRATCH   and the verdicts too
#   golden_bake.sh --bake WEFT MODELS SCRATCH          bake only (ctest golden_bake_run, a fixture the
#   golden_bake.sh --check WEFT MODELS SCRATCH         check only  page test reuses: one bake, two tests)
#
# The config (tests/golden/weft.json) names the Casual man's short hair, which lies on his head and is
# grown only where a user names it (docs/garments-by-geometry.md#hair-lying-on-the-head): the golden
# bake keeps a grown cap.
#
# The bake runs from SCRATCH/run with the models reached as ../models (a symlink), so messages that
# name a model's path read the same wherever the models live. It runs with -j 2: outputs and
# report do not depend on the order workers finish in.
set -euo pipefail
regenerate=0 verdicts_too=0 bake=1 check=1
case ${1:-} in
    --regenerate) regenerate=1; shift ;;
    --regenerate-verdicts) regenerate=1 verdicts_too=1; shift ;;
    --bake) check=0; shift ;;
    --check) bake=0; shift ;;
esac
if [[ $# -ne 3 ]]; then echo "usage: golden_bake.sh [--regenerate|--bake|--check] WEFT MODELS SCRATCH" >&2; exit 2; fi
weft=$(realpath "$1") models=$2 scratch=$3
manifest="$(cd "$(dirname "$0")" && pwd)/golden_bake.manifest"
config="$(dirname "$manifest")/weft.json"
verdicts="$(dirname "$manifest")/golden_verdicts.txt"
if [[ ! -d "$models" ]]; then echo "golden_bake: no models at $models: skipped"; exit 77; fi
models=$(realpath "$models")
if [[ $bake == 1 ]]; then
    rm -rf "$scratch"
    mkdir -p "$scratch/run"
    ln -s "$models" "$scratch/models"
    status=0
    (cd "$scratch/run" && "$weft" bake ../models -o out --grow-cloth --validate --config "$config" --report report.json -j 2 -q \
        >stdout.txt 2>stderr.txt) || status=$?
    echo "$status" >"$scratch/run/status"
    # Exit 1 (a model refused) is not a failure of the run: the manifest records the exit status and
    # which models were refused, so a model refused or accepted anew shows there.
    if [[ $status -gt 1 ]]; then echo "golden_bake: weft bake exited $status"; cat "$scratch/run/stderr.txt"; exit 1; fi
    if [[ $check == 0 ]]; then echo "golden_bake: baked into $scratch/run/out (exit $status)"; exit 0; fi
fi
cd "$scratch/run" 2>/dev/null || { echo "golden_bake: no bake in $scratch/run (golden_bake_run did not run)"; exit 1; }
status=$(cat status)
{
    echo "exit $status"
    echo "$(jq -S 'del(.timings)' report.json | sha256sum | cut -d' ' -f1)  report.json without timings"
    # A stamp names the sources weft was built from (weft_source), which every commit moves: it is
    # hashed without that field.
    (cd out && find . -type f ! -name bake-report.json -print0 | LC_ALL=C sort -z | while IFS= read -r -d '' f; do
        if [[ ${f##*/} == bake-stamp.json ]]; then
            echo "$(jq -cS 'del(.weft_source)' "$f" | sha256sum | cut -d' ' -f1)  $f without weft_source"
        elif [[ $f == ./index.html ]]; then
            # The index shows the run's times (its cells and spans of class "time"), as the report's timings.
            echo "$(sed -E 's#<(td|span) class="time"[^>]*>[^<]*</(td|span)>##g' "$f" | sha256sum | cut -d' ' -f1)  $f without times"
        else
            sha256sum "$f"
        fi
    done)
} >actual.manifest
{
    echo "exit $status"
    jq -r '.models[] | "\(.input) \(.status)"' report.json
    (cd out && find . -name validation.json -print0 | LC_ALL=C sort -z | while IFS= read -r -d '' f; do
        jq -r --arg m "${f%/validation.json}" '"\($m) passed=\(.passed)",
            (.proxies[] | . as $p | "\($m) \($p.file) passed=\($p.passed) refused=\($p.refused)",
             ($p.gates[]? | "\($m) \($p.file) \(.gate) \(.scenario // "-") passed=\(.passed)"))' "$f"
    done)
} >actual.verdicts
verdicts_moved=0
diff -q "$verdicts" actual.verdicts >/dev/null 2>&1 || verdicts_moved=1
if [[ $regenerate == 1 ]]; then
    if [[ $verdicts_moved == 1 && $verdicts_too == 0 ]]; then
        diff -u "$verdicts" actual.verdicts || true
        echo "golden_bake: the verdicts moved (above); --regenerate-verdicts rewrites them too"
        exit 1
    fi
    cp actual.manifest "$manifest"
    cp actual.verdicts "$verdicts"
    echo "golden_bake: wrote $manifest ($(wc -l <"$manifest") lines) and $verdicts ($(wc -l <"$verdicts") lines)"
    exit 0
fi
failed=0
if [[ $verdicts_moved == 1 ]]; then
    diff -u "$verdicts" actual.verdicts || true
    echo "golden_bake: verdicts differ from $verdicts (above: - expected, + this run)"
    failed=1
fi
if ! diff -u "$manifest" actual.manifest; then
    echo "golden_bake: outputs differ from $manifest (above: - expected, + this run; outputs in $scratch/run/out)"
    failed=1
fi
if [[ $failed == 1 ]]; then exit 1; fi
echo "golden_bake: $(wc -l <actual.manifest) lines and $(wc -l <actual.verdicts) verdicts match"
