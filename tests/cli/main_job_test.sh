#!/usr/bin/env bash
# ctest main_job: the README's main job (scripts/main_job.sh, what scripts/run.sh runs) on the bundled
# test data succeeds, and its summary line is the one README.md shows.
#   main_job_test.sh WEFT SCRATCH
set -euo pipefail
weft=$1 scratch=$2
root="$(cd "$(dirname "$0")/../.." && pwd)"
rm -rf "$scratch"
mkdir -p "$(dirname "$scratch")"  # the log is written beside it: a fresh build tree has no test-scratch yet
status=0
"$root/scripts/main_job.sh" "$weft" "$scratch" -j 1 2>"$scratch.log" || status=$?
cat "$scratch.log" >&2
if [[ $status -ne 0 ]]; then echo "main_job: exit $status (README says 0)"; exit 1; fi
said=$(grep -E '^weft bake: [0-9]+ models:' "$root/README.md" | head -n 1 | sed 's/ -> .*//')
got=$(grep -E '^weft bake: [0-9]+ models:' "$scratch.log" | tail -n 1 | sed 's/ -> .*//')
if [[ -z "$said" || "$said" != "$got" ]]; then
    echo "main_job: the summary line is '$got'; README.md shows '$said'"
    exit 1
fi
echo "main_job: $got, as README.md shows"
