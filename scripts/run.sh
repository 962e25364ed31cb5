#!/usr/bin/env bash
# The main job on the bundled test data: installs and builds what is missing (the `weft` program
# only), then bakes the good models at the top of testdata/ into out/ (scripts/main_job.sh: growing
# bone chains for hair and skirts, and simulating every proxy written) and prints where the page
# showing them is.
# testdata/bad/ holds inputs refused on purpose; `scripts/refused.sh` bakes those. Extra arguments
# go to `weft bake`.
set -euo pipefail
cd "$(dirname "$0")/.."
weft=$(scripts/build.sh)
status=0
scripts/main_job.sh "$weft" out "$@" || status=$?
if [[ -f out/index.html ]]; then
  echo "weft: open $PWD/out/index.html in a browser (every model, its proxies and their scenarios)" >&2
fi
echo "weft: the report is $PWD/out/bake-report.json" >&2
exit "$status"
