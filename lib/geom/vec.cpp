#include "geom/vec.h"

namespace weft {

Quat Quat::between(const Vec3& from, const Vec3& to) {
    Vec3 f = normalize(from), t = normalize(to);
    double d = dot(f, t);
    if (d < -1 + 1e-12) {
        // Opposite: any axis perpendicular to `from` turns it by half a turn.
        Vec3 axis = cross(Vec3{1, 0, 0}, f);
        if (length_squared(axis) < 1e-12) axis = cross(Vec3{0, 1, 0}, f);
        return from_axis_angle(axis, M_PI);
    }
    Vec3 c = cross(f, t);
    Quat q{c.x, c.y, c.z, 1 + d};
    double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x / n, q.y / n, q.z / n, q.w / n};
}

Mat3 Quat::to_mat3() const {
    Mat3 r;
    double xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x,
           wy = w * y, wz = w * z;
    r.m[0] = {1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)};
    r.m[1] = {2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)};
    r.m[2] = {2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)};
    return r;
}

Quat Quat::from_mat3(const Mat3& a) {
    // Shepperd's method: pivot on the largest diagonal term for accuracy.
    const auto& m = a.m;
    double tr = m[0][0] + m[1][1] + m[2][2];
    Quat q;
    if (tr > 0) {
        double s = std::sqrt(tr + 1.0) * 2;
        q = {(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s};
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        double s = std::sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]) * 2;
        q = {0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s};
    } else if (m[1][1] > m[2][2]) {
        double s = std::sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]) * 2;
        q = {(m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s};
    } else {
        double s = std::sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]) * 2;
        q = {(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s, (m[1][0] - m[0][1]) / s};
    }
    double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x / n, q.y / n, q.z / n, q.w / n};
}

Mat4 Mat4::from_trs(const Vec3& t, const Quat& r, const Vec3& s) {
    Mat3 rm = r.to_mat3();
    Mat4 out;
    for (int row = 0; row < 3; ++row) {
        out.at(row, 0) = rm.m[row][0] * s.x;
        out.at(row, 1) = rm.m[row][1] * s.y;
        out.at(row, 2) = rm.m[row][2] * s.z;
        out.at(row, 3) = t[row];
    }
    out.at(3, 0) = out.at(3, 1) = out.at(3, 2) = 0;
    out.at(3, 3) = 1;
    return out;
}

bool Mat4::inverse(Mat4& out) const {
    // Cofactor expansion of the 4x4 (Mesa's gluInvertMatrix layout, column-major).
    const auto& a = m;
    std::array<double, 16> inv{};
    inv[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15] + a[9] * a[7] * a[14] + a[13] * a[6] * a[11] - a[13] * a[7] * a[10];
    inv[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15] - a[8] * a[7] * a[14] - a[12] * a[6] * a[11] + a[12] * a[7] * a[10];
    inv[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15] + a[8] * a[7] * a[13] + a[12] * a[5] * a[11] - a[12] * a[7] * a[9];
    inv[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14] - a[8] * a[6] * a[13] - a[12] * a[5] * a[10] + a[12] * a[6] * a[9];
    inv[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15] - a[9] * a[3] * a[14] - a[13] * a[2] * a[11] + a[13] * a[3] * a[10];
    inv[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15] + a[8] * a[3] * a[14] + a[12] * a[2] * a[11] - a[12] * a[3] * a[10];
    inv[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15] - a[8] * a[3] * a[13] - a[12] * a[1] * a[11] + a[12] * a[3] * a[9];
    inv[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14] + a[8] * a[2] * a[13] + a[12] * a[1] * a[10] - a[12] * a[2] * a[9];
    inv[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15] + a[5] * a[3] * a[14] + a[13] * a[2] * a[7] - a[13] * a[3] * a[6];
    inv[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15] - a[4] * a[3] * a[14] - a[12] * a[2] * a[7] + a[12] * a[3] * a[6];
    inv[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15] + a[4] * a[3] * a[13] + a[12] * a[1] * a[7] - a[12] * a[3] * a[5];
    inv[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14] - a[4] * a[2] * a[13] - a[12] * a[1] * a[6] + a[12] * a[2] * a[5];
    inv[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11] - a[5] * a[3] * a[10] - a[9] * a[2] * a[7] + a[9] * a[3] * a[6];
    inv[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11] + a[4] * a[3] * a[10] + a[8] * a[2] * a[7] - a[8] * a[3] * a[6];
    inv[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11] - a[4] * a[3] * a[9] - a[8] * a[1] * a[7] + a[8] * a[3] * a[5];
    inv[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10] + a[4] * a[2] * a[9] + a[8] * a[1] * a[6] - a[8] * a[2] * a[5];
    double det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12];
    if (det == 0 || !std::isfinite(det)) return false;
    for (int i = 0; i < 16; ++i) out.m[i] = inv[i] / det;
    return true;
}

void Mat4::decompose(Vec3& t, Quat& r, Vec3& s) const {
    t = translation_part();
    Vec3 c0{at(0, 0), at(1, 0), at(2, 0)}, c1{at(0, 1), at(1, 1), at(2, 1)}, c2{at(0, 2), at(1, 2), at(2, 2)};
    s = {length(c0), length(c1), length(c2)};
    if (dot(cross(c0, c1), c2) < 0) s.x = -s.x;
    Mat3 rm;
    for (int i = 0; i < 3; ++i) {
        rm.m[i][0] = s.x != 0 ? c0[i] / s.x : 0;
        rm.m[i][1] = s.y != 0 ? c1[i] / s.y : 0;
        rm.m[i][2] = s.z != 0 ? c2[i] / s.z : 0;
    }
    r = Quat::from_mat3(rm);
}

}  // namespace weft
