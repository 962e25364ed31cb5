#!/usr/bin/env bash
# Float or double (docs/measurements.md#float-or-double): builds the solver in single precision from a
# copy of this tree and runs the seed tables' tests and the sheet's hang in both precisions, side by
# side. Slow (two Release builds of the solver and validate suites and bench_solver): not part of CI.
# Usage:
#   scripts/float_solver.sh [scratch-dir]          default /tmp/weft-float
# Environment: DOUBLE_BUILD=<dir> a configured Release build of this tree to use as the double side
# (else one is made in scratch-dir/double); TESTS='Suite.*:...' the gtest filter (default below);
# SUITES='solver validate' (add pipeline for
# SheetTable.* and FastSheet.*: the whole pipeline then builds in float); JOBS=2; REWRITE_ONLY=1 stops after writing the float
# copy, BUILD_ONLY=1 after the builds.
#
# The float variant is a mechanical rewrite of the copy, never of this tree:
# - lib/geom/vec.h and vec.cpp: Vec3, Mat3, Quat and Mat4 hold and compute in float (a Vec3 is still
#   made from doubles, so the callers compile unchanged). The solver's state, its inertial targets and
#   every position the rows read are then floats.
# - lib/solver: every `double` becomes `float` and every floating literal a float literal, so the rows'
#   accumulation, the 3x3 LDLᵀ, the multipliers and penalties are float arithmetic.
# - the AVX2 lanes are compiled out (they load doubles); the scalar path, which the lanes match bit
#   for bit in double (docs/solver.md#lanes), is what runs.
# The proxy codec still writes and reads every value as an IEEE double (its f64 fields), so the file
# format does not change; the proxies the tests build are rounded to float where they enter a Vec3.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:-/tmp/weft-float}"
jobs="${JOBS:-2}"
suites="${SUITES:-solver validate}"
tests="${TESTS:-Measurements.*:Settle.*:M0Tables.*:Residual.*:Holds.*:Leash.*:Motion.*:Pose.*:Rows.*:Ldlt.*:Fork.*:Library.*:Colliders.*:SelfContact.*:Crossings.*:Lanes.*:ShortRows.*:MeshStretch.*:Gates.*:Scenario.*:Penetration.*:SelfIntersection.*:SheetTable.*:FastSheet.*}"
mkdir -p "$scratch"

# Copy this tree's tracked files into `dir`, touching only those whose bytes differ (an unchanged file
# keeps its time stamp, so a second run rebuilds only what changed).
files="$scratch/files"
(cd "$root" && git ls-files -z) >"$files"
sync_tree() {
    python3 - "$1" "$2" "$files" <<'PY'
import os, shutil, sys
src, dst, listing = sys.argv[1:]
for f in open(listing, 'rb').read().decode().split('\0'):
    a, b = os.path.join(src, f), os.path.join(dst, f)
    if not f or not os.path.isfile(a):
        continue
    data = open(a, 'rb').read()
    if os.path.isfile(b) and open(b, 'rb').read() == data:
        continue
    os.makedirs(os.path.dirname(b), exist_ok=True)
    shutil.copyfile(a, b)
PY
}

# The rewrite, on a staging copy; then synced into the float source tree.
stage="$scratch/stage"
rm -rf "$stage"
sync_tree "$root" "$stage"
floats='s/(?<![\w.])((?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.])/$1f/g'
perl -pi -e 's/\bdouble\b/float/g; s/constexpr Vec3\(float x_, float y_, float z_\)/constexpr Vec3(double x_, double y_, double z_)/' \
    "$stage/lib/geom/vec.h" "$stage/lib/geom/vec.cpp"
for f in "$stage"/lib/solver/*.h "$stage"/lib/solver/*.cpp; do
    perl -pi -e "s/\bdouble\b/float/g; $floats" "$f"
done
perl -ni -e 'print unless /^#define WEFT_SOLVER_X86 1$/' "$stage/lib/solver/lanes.h"
# std::min/max/clamp of a float and a double (a Vec3's coordinate beside a double), wherever Vec3 is:
# the float one, as the solver's own arithmetic gives it.
cat >"$stage/lib/geom/float_mixed.h" <<'EOF'
// Written by scripts/float_solver.sh into its float copy only: std::min/max/clamp of a float and a double.
#pragma once
#include <algorithm>
namespace std {
inline float min(float a, double b) { return std::min<float>(a, static_cast<float>(b)); }
inline float min(double a, float b) { return std::min<float>(static_cast<float>(a), b); }
inline float max(float a, double b) { return std::max<float>(a, static_cast<float>(b)); }
inline float max(double a, float b) { return std::max<float>(static_cast<float>(a), b); }
inline float clamp(float v, double lo, double hi) { return std::clamp<float>(v, static_cast<float>(lo), static_cast<float>(hi)); }
inline float clamp(double v, float lo, float hi) { return std::clamp<float>(static_cast<float>(v), lo, hi); }
inline float clamp(float v, float lo, double hi) { return std::clamp<float>(v, lo, static_cast<float>(hi)); }
inline float clamp(float v, double lo, float hi) { return std::clamp<float>(v, static_cast<float>(lo), hi); }
}  // namespace std
EOF
perl -0pi -e 's/#pragma once\n/#pragma once\n#include "geom\/float_mixed.h"\n/' "$stage/lib/geom/vec.h"
# Where the solver takes the proxy's doubles (or geom's) by type: converted once, on entry. Each fix
# must match exactly once; one that no longer does is named, and the build says what is left.
fixes_applied=0
while IFS=$'\t' read -r file from to; do
    [ -z "$file" ] && continue
    count=$(grep -cF -- "$from" "$stage/$file" || true)
    if [ "$count" != 1 ]; then echo "float_solver: fix not applied ($count matches in $file): $from" >&2; continue; fi
    FROM="$from" TO="$to" perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$stage/$file"
    fixes_applied=$((fixes_applied + 1))
done <<'FIXES'
lib/geom/weld.cpp	sizeof(Vec3) == 3 * sizeof(double)	sizeof(Vec3) == 3 * sizeof(float)
lib/solver/model.cpp	const std::vector<float>* rest, const char* field	const std::vector<double>* rest, const char* field
lib/solver/model.cpp	                  p.collision_radius, constants.span_contacts	                  std::vector<float>(p.collision_radius.begin(), p.collision_radius.end()), constants.span_contacts
lib/solver/self_contact_rows.cpp	const std::array<float, 3>& w = near.weights;	const std::array<float, 3> w{static_cast<float>(near.weights[0]), static_cast<float>(near.weights[1]), static_cast<float>(near.weights[2])};
lib/scene/gltf_write.cpp	for (double* c : {&w.scale.x, &w.scale.y, &w.scale.z})	for (float* c : {&w.scale.x, &w.scale.y, &w.scale.z})
lib/solver/solver.cpp	s.cloth.inverse_mass = p.inverse_mass;	s.cloth.inverse_mass.assign(p.inverse_mass.begin(), p.inverse_mass.end());
lib/validate/measure.cpp	deepest_inside(probe, state.x, state.inverse_mass)	deepest_inside(probe, state.x, std::vector<double>(state.inverse_mass.begin(), state.inverse_mass.end()))
tests/validate/penetration_test.cpp	deepest_inside(in, state.x, state.inverse_mass)	deepest_inside(in, state.x, std::vector<double>(state.inverse_mass.begin(), state.inverse_mass.end()))
tests/solver/lanes_test.cpp	independent(std::vector<double>(sheet.inverse_mass.begin()	independent(std::vector<float>(sheet.inverse_mass.begin()
tests/solver/lanes_test.cpp	independent(std::vector<double>(sheet.particle_count(), 1.0)	independent(std::vector<float>(sheet.particle_count(), 1.0)
tests/CMakeLists.txt	add_dependencies(weft_test_support weft)	# (float copy: the solver and validate suites do not run the weft command)
tests/bench/CMakeLists.txt	target_link_libraries(${name} PRIVATE weft_pipeline weft_test_support	target_link_libraries(${name} PRIVATE $<IF:$<STREQUAL:${name},bench_solver>,weft_solver,weft_pipeline> weft_test_support
FIXES
sync_tree "$stage" "$scratch/float"
for f in lib/geom/float_mixed.h; do cmp -s "$stage/$f" "$scratch/float/$f" || cp "$stage/$f" "$scratch/float/$f"; done
[ "${REWRITE_ONLY:-0}" = 1 ] && exit 0

configure() {  # dir src
    [ -f "$1/build.ninja" ] || cmake -S "$2" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DWEFT_SHARED_MODELS="$root/../shared/models" -DWEFT_BUILD_BENCH=ON >"$1.configure.log"
}
targets=(bench_solver)
for s in $suites; do targets+=("weft_${s}_tests"); done
configure "$scratch/build-float" "$scratch/float"
cmake --build "$scratch/build-float" -j"$jobs" --target "${targets[@]}"
double="${DOUBLE_BUILD:-}"
if [ -z "$double" ]; then
    sync_tree "$root" "$scratch/double"
    double="$scratch/build-double"
    configure "$double" "$scratch/double"
fi
cmake --build "$double" -j"$jobs" --target "${targets[@]}"
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0

out="$scratch/results"
mkdir -p "$out"
for v in double float; do
    b="$double"; [ "$v" = float ] && b="$scratch/build-float"
    for s in $suites; do
        (cd "$b" && "./tests/weft_${s}_tests" --gtest_filter="$tests" --gtest_brief=1 \
            --gtest_output="json:$out/$v-$s.json" >"$out/$v-$s.log" 2>&1) || true
    done
    "$b/tests/bench/bench_solver" --benchmark_filter='BM_SheetHang' --benchmark_format=json \
        >"$out/$v-hang.json" 2>"$out/$v-hang.log" || true
done
# The frames alternate between the two builds (a loaded machine's speed drifts): one particle at a time
# in both, each run the best frames of bench_solver's 3 rounds.
for round in 1 2; do
    for v in double float; do
        b="$double"; [ "$v" = float ] && b="$scratch/build-float"
        "$b/tests/bench/bench_solver" --benchmark_filter='BM_SheetStep/2/' \
            --benchmark_format=json >"$out/$v-step$round.json" 2>"$out/$v-step$round.log" || true
    done
done
python3 "$root/scripts/float_solver_table.py" "$out"
