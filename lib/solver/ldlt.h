// The 3x3 symmetric solve of a vertex update: LDLᵀ, never a cofactor inverse (docs/solver.md#ldlt).
// The cofactor determinant of an SPD matrix with condition 4.5e9 can come out with the wrong sign;
// the factorisation never forms the triple products that have to cancel.
#pragma once
#include "geom/vec.h"

namespace weft {

/// A symmetric 3x3 matrix by its upper triangle.
struct SymMat3 {
    double xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;

    static constexpr SymMat3 diagonal(double s) { return {s, 0, 0, s, 0, s}; }
    constexpr Vec3 operator*(const Vec3& v) const {
        return {xx * v.x + xy * v.y + xz * v.z, xy * v.x + yy * v.y + yz * v.z,
                xz * v.x + yz * v.y + zz * v.z};
    }
    /// this += s·g·gᵀ
    constexpr void add_outer(const Vec3& g, double s) {
        xx += s * g.x * g.x; xy += s * g.x * g.y; xz += s * g.x * g.z;
        yy += s * g.y * g.y; yz += s * g.y * g.z; zz += s * g.z * g.z;
    }
    constexpr void add_diagonal(double s) { xx += s; yy += s; zz += s; }
};

/// H = L·D·Lᵀ with L unit lower triangular.
struct Ldlt3 {
    double d0 = 0, d1 = 0, d2 = 0;     ///< the pivots; all > 0 exactly when H is positive definite
    double l10 = 0, l20 = 0, l21 = 0;  ///< L below the diagonal
    double inv_d0 = 0, inv_d1 = 0, inv_d2 = 0;  ///< 1/pivot: three divisions per solve, not six

    bool positive_definite() const { return d0 > 0 && d1 > 0 && d2 > 0; }
};

/// Factorises without pivoting (H is SPD by construction in the vertex update, docs/solver.md#geometric-stiffness).
constexpr Ldlt3 ldlt_factor(const SymMat3& h) {
    Ldlt3 f;
    f.d0 = h.xx;
    f.inv_d0 = 1 / f.d0;
    f.l10 = h.xy * f.inv_d0;
    f.l20 = h.xz * f.inv_d0;
    f.d1 = h.yy - f.l10 * f.l10 * f.d0;
    f.inv_d1 = 1 / f.d1;
    f.l21 = (h.yz - f.l20 * f.l10 * f.d0) * f.inv_d1;
    f.d2 = h.zz - f.l20 * f.l20 * f.d0 - f.l21 * f.l21 * f.d1;
    f.inv_d2 = 1 / f.d2;
    return f;
}

/// Solves L·D·Lᵀ·x = b: forward, diagonal, back substitution.
constexpr Vec3 ldlt_solve(const Ldlt3& f, const Vec3& b) {
    const double z0 = b.x * f.inv_d0;
    const double y1 = b.y - f.l10 * b.x;
    const double z1 = y1 * f.inv_d1;
    const double z2 = (b.z - f.l20 * b.x - f.l21 * y1) * f.inv_d2;
    const double x2 = z2;
    const double x1 = z1 - f.l21 * x2;
    const double x0 = z0 - f.l10 * x1 - f.l20 * x2;
    return {x0, x1, x2};
}

}  // namespace weft
