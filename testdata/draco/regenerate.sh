#!/usr/bin/env bash
# Regenerates the KHR_draco_mesh_compression fixtures from the generator's models with glTF-Transform
# (the exporter behind the Draco files found in the wild; npm: @gltf-transform/cli 4.5.1 and
# draco3dgltf 1.5.7, installed into a scratch folder by this script). Run from the repository root
# after build/tools/testdata/weft_gen_testdata testdata; commit what changes. The tests
# (tests/scene/gltf_draco_test.cpp, tests/cli/rig_test.cpp) read these files and never run it.
#   default: edgebreaker coder (vertices reordered), 14-bit positions, 12-bit weights
#   --method sequential: the vertices keep their order
set -euo pipefail
cd "$(dirname "$0")/../.."
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
npm install --prefix "$tools" --no-audit --no-fund @gltf-transform/cli@4.5.1 draco3dgltf@1.5.7 >/dev/null
gt="$tools/node_modules/.bin/gltf-transform"
out=testdata/draco
"$gt" draco testdata/flag.glb "$out/flag_draco.glb"
"$gt" draco testdata/flag.glb "$out/flag_draco_sequential.glb" --method sequential
"$gt" draco testdata/mannequin.glb "$out/mannequin_draco.glb"
