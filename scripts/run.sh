#!/usr/bin/env bash
# The main job on the bundled test data: installs and builds what is missing, then inspects every
# model under testdata/ (bake replaces this once it lands). Extra arguments go to weft.
set -euo pipefail
cd "$(dirname "$0")/.."
weft=$(scripts/build.sh)
mapfile -t models < <(find testdata -maxdepth 1 -type f \( -name '*.glb' -o -name '*.gltf' -o -name '*.fbx' -o -name '*.vrm' \) | sort)
exec "$weft" inspect "${models[@]}" "$@"
