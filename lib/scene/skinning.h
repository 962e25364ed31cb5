// Linear blend skinning, the one implementation every stage uses: a skinned vertex follows each
// bone that influences it, blended by weight (Magnenat-Thalmann, Laperrière, Thalmann, "Joint-
// dependent local deformations for hand animation and object grasping", 1988).
#pragma once
#include <cmath>

#include "geom/vec.h"
#include "scene/influences.h"

namespace weft {

/// Where a bind-pose point goes: Σ w·M(bone)·p / Σ w over the vertex's influences, where
/// `bone_transform(bone)` returns a pointer to the matrix that takes the bone from the bind pose to
/// the pose being skinned (its posed world times its inverse bind), or nullptr for a bone that stays
/// at bind (then it contributes w·p). An unweighted vertex stays at `p`.
template <typename BoneTransform>
Vec3 skin_point(const VertexInfluences& weights, const Vec3& p, BoneTransform&& bone_transform) {
    Vec3 sum{};
    double total = 0;
    for (const BoneWeight& bw : weights) {
        const Mat4* m = bone_transform(bw.bone);
        sum = sum + static_cast<double>(bw.weight) * (m ? m->transform_point(p) : p);
        total += bw.weight;
    }
    return total > 0 ? (1 / total) * sum : p;
}

/// Where a bind-pose normal goes: the same blend through each bone's linear part, renormalised.
/// Exact for rigid bones (rotations); under scale it is the usual LBS approximation. An unweighted
/// vertex, or a blend that cancels to zero, keeps `n`.
template <typename BoneTransform>
Vec3 skin_normal(const VertexInfluences& weights, const Vec3& n, BoneTransform&& bone_transform) {
    Vec3 sum{};
    for (const BoneWeight& bw : weights) {
        const Mat4* m = bone_transform(bw.bone);
        sum = sum + static_cast<double>(bw.weight) * (m ? m->transform_vector(n) : n);
    }
    const double len = length(sum);
    return len > 0 && std::isfinite(len) ? sum / len : n;
}

}  // namespace weft
