#include "validate/model/joint_terms.h"

namespace weft {

void JointTerms::add(uint32_t joint, double weight, const Vec3& bind) {
    joint_.push_back(joint);
    weight_.push_back(weight);
    x_.push_back(bind.x);
    y_.push_back(bind.y);
    z_.push_back(bind.z);
}

void JointTerms::build(size_t joints) {
    // Counting sort of the slots by joint (CSR: count, prefix sum, fill), slots ascending within a joint.
    first_.assign(joints + 1, 0);
    for (uint32_t j : joint_) ++first_[j + 1];
    for (size_t j = 0; j < joints; ++j) first_[j + 1] += first_[j];
    const size_t n = joint_.size();
    std::vector<uint32_t> next(first_.begin(), first_.end() - 1);
    std::vector<double> weight(n), x(n), y(n), z(n);
    entry_.assign(n, 0);
    for (size_t slot = 0; slot < n; ++slot) {
        const uint32_t e = next[joint_[slot]]++;
        entry_[slot] = e;
        weight[e] = weight_[slot];
        x[e] = x_[slot];
        y[e] = y_[slot];
        z[e] = z_[slot];
    }
    weight_.swap(weight);
    x_.swap(x);
    y_.swap(y);
    z_.swap(z);
    joint_ = {};
    tx_.assign(n, 0.0);
    ty_.assign(n, 0.0);
    tz_.assign(n, 0.0);
}

namespace {

/// One joint's terms over entries [begin, end): transform_point's sums, left to right, then the weight,
/// w · (M·p), as the vertex's own loop had it. The arrays are distinct, said so (GCC honours restrict on
/// parameters), or the compiler checks every pair of them before it vectorises. Four lanes where the
/// machine has AVX2 (no fused multiply-add: that is FMA's flag, not AVX2's), two elsewhere.
__attribute__((target_clones("avx2", "default"))) void joint_terms(const Mat4& m, size_t begin, size_t end, const double* __restrict x, const double* __restrict y,
                 const double* __restrict z, const double* __restrict w, double* __restrict tx, double* __restrict ty,
                 double* __restrict tz) {
    const double m00 = m.at(0, 0), m01 = m.at(0, 1), m02 = m.at(0, 2), m03 = m.at(0, 3);
    const double m10 = m.at(1, 0), m11 = m.at(1, 1), m12 = m.at(1, 2), m13 = m.at(1, 3);
    const double m20 = m.at(2, 0), m21 = m.at(2, 1), m22 = m.at(2, 2), m23 = m.at(2, 3);
    for (size_t e = begin; e < end; ++e) {
        tx[e] = w[e] * (m00 * x[e] + m01 * y[e] + m02 * z[e] + m03);
        ty[e] = w[e] * (m10 * x[e] + m11 * y[e] + m12 * z[e] + m13);
        tz[e] = w[e] * (m20 * x[e] + m21 * y[e] + m22 * z[e] + m23);
    }
}

}  // namespace

void JointTerms::apply(const std::vector<Mat4>& skinning) {
    for (size_t j = 0; j + 1 < first_.size() && j < skinning.size(); ++j)
        joint_terms(skinning[j], first_[j], first_[j + 1], x_.data(), y_.data(), z_.data(), weight_.data(), tx_.data(),
                    ty_.data(), tz_.data());
}

}  // namespace weft
