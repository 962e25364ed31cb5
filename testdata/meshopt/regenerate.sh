#!/usr/bin/env bash
# Regenerates the EXT_meshopt_compression fixtures from the generator's models with Debian's
# gltfpack (0.18; apt-get install gltfpack). Run from the repository root after
# build/tools/testdata/weft_gen_testdata testdata; commit what changes. The tests
# (tests/scene/gltf_meshopt_test.cpp) read these files and never run gltfpack.
#   -c: EXT_meshopt_compression (-cc: with filters: octahedral normals)
#   -noq: no quantization, so positions must come back bit for bit
#   -kn -km: keep named nodes and materials, which the tests match the original by
set -euo pipefail
cd "$(dirname "$0")/../.."
out=testdata/meshopt
gltfpack -i testdata/flag.glb -o "$out/flag_meshopt.glb" -c -noq -kn -km
gltfpack -i testdata/flag.glb -o "$out/flag_meshopt_quantized.glb" -c -kn -km
gltfpack -i testdata/mannequin.glb -o "$out/mannequin_meshopt_quantized.glb" -cc -kn -km
