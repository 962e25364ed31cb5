#!/usr/bin/env bash
# The main job's bake, given the `weft` program: bakes the good models at the top of testdata/ into
# OUT, growing bone chains for hair and skirts and simulating every proxy written. scripts/run.sh
# runs it after building weft; ctest `main_job` runs it on the test build, so a bundled model the
# main job would refuse fails the suite. Extra arguments go to `weft bake`.
#   scripts/main_job.sh WEFT OUT [ARGS...]
# The flag hangs from its top edge (examples/first_run/weft.json): as modelled nothing holds it.
set -euo pipefail
weft=$1 out=$2
shift 2
cd "$(dirname "$0")/.."
exec "$weft" bake testdata/*.glb testdata/*.fbx -o "$out" --validate \
  --config examples/first_run/weft.json "$@"
