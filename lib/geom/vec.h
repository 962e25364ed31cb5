// Vectors, 3x3 and 4x4 matrices and quaternions in double precision: metres, Y up, right-handed.
#pragma once
#include <array>
#include <cmath>

namespace weft {

struct Vec2 {
    double x = 0, y = 0;
};

struct Vec3 {
    double x = 0, y = 0, z = 0;

    constexpr Vec3() = default;
    constexpr Vec3(double x_, double y_, double z_) : x(x_), y(y_), z(z_) {}

    constexpr double& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
    constexpr double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
    constexpr Vec3 operator+(const Vec3& o) const { return {x + o.x, y + o.y, z + o.z}; }
    constexpr Vec3 operator-(const Vec3& o) const { return {x - o.x, y - o.y, z - o.z}; }
    constexpr Vec3 operator-() const { return {-x, -y, -z}; }
    constexpr Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
    constexpr Vec3 operator/(double s) const { return {x / s, y / s, z / s}; }
    constexpr Vec3& operator+=(const Vec3& o) { x += o.x; y += o.y; z += o.z; return *this; }
    constexpr Vec3& operator-=(const Vec3& o) { x -= o.x; y -= o.y; z -= o.z; return *this; }
    constexpr Vec3& operator*=(double s) { x *= s; y *= s; z *= s; return *this; }
    constexpr bool operator==(const Vec3&) const = default;
};

constexpr Vec3 operator*(double s, const Vec3& v) { return v * s; }
constexpr double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double length(const Vec3& v) { return std::sqrt(dot(v, v)); }
constexpr double length_squared(const Vec3& v) { return dot(v, v); }
inline double distance(const Vec3& a, const Vec3& b) { return length(a - b); }
/// v / |v|, or the zero vector when |v| is zero.
inline Vec3 normalize(const Vec3& v) {
    double l = length(v);
    return l > 0 ? v / l : Vec3{};
}
inline bool is_finite(const Vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
inline Vec3 min(const Vec3& a, const Vec3& b) {
    return {std::fmin(a.x, b.x), std::fmin(a.y, b.y), std::fmin(a.z, b.z)};
}
inline Vec3 max(const Vec3& a, const Vec3& b) {
    return {std::fmax(a.x, b.x), std::fmax(a.y, b.y), std::fmax(a.z, b.z)};
}

/// Row-major 3x3 matrix.
struct Mat3 {
    std::array<std::array<double, 3>, 3> m{};

    static constexpr Mat3 identity() {
        Mat3 r;
        r.m[0][0] = r.m[1][1] = r.m[2][2] = 1;
        return r;
    }
    static constexpr Mat3 scale(double s) {
        Mat3 r;
        r.m[0][0] = r.m[1][1] = r.m[2][2] = s;
        return r;
    }
    /// a·bᵀ
    static constexpr Mat3 outer(const Vec3& a, const Vec3& b) {
        Mat3 r;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) r.m[i][j] = a[i] * b[j];
        return r;
    }
    constexpr Vec3 operator*(const Vec3& v) const {
        return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z,
                m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
    }
    constexpr Mat3 operator*(const Mat3& o) const {
        Mat3 r;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                r.m[i][j] = m[i][0] * o.m[0][j] + m[i][1] * o.m[1][j] + m[i][2] * o.m[2][j];
        return r;
    }
    constexpr Mat3 operator+(const Mat3& o) const {
        Mat3 r;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) r.m[i][j] = m[i][j] + o.m[i][j];
        return r;
    }
    constexpr Mat3 operator*(double s) const {
        Mat3 r;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) r.m[i][j] = m[i][j] * s;
        return r;
    }
    constexpr Mat3 transposed() const {
        Mat3 r;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) r.m[i][j] = m[j][i];
        return r;
    }
};

/// Unit quaternion (x, y, z, w) for rotations.
struct Quat {
    double x = 0, y = 0, z = 0, w = 1;

    static Quat from_axis_angle(const Vec3& axis, double angle) {
        Vec3 a = normalize(axis);
        double s = std::sin(angle / 2);
        return {a.x * s, a.y * s, a.z * s, std::cos(angle / 2)};
    }
    /// The shortest rotation carrying unit vector `from` onto unit vector `to`.
    static Quat between(const Vec3& from, const Vec3& to);
    constexpr Quat operator*(const Quat& q) const {
        return {w * q.x + x * q.w + y * q.z - z * q.y, w * q.y - x * q.z + y * q.w + z * q.x,
                w * q.z + x * q.y - y * q.x + z * q.w, w * q.w - x * q.x - y * q.y - z * q.z};
    }
    constexpr Quat conjugate() const { return {-x, -y, -z, w}; }
    Vec3 rotate(const Vec3& v) const {
        Vec3 u{x, y, z};
        Vec3 t = 2.0 * cross(u, v);
        return v + w * t + cross(u, t);
    }
    Mat3 to_mat3() const;
    static Quat from_mat3(const Mat3& r);
};

/// Column-major 4x4 affine matrix, as glTF stores it: element (row r, column c) is m[c*4 + r].
struct Mat4 {
    std::array<double, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

    static constexpr Mat4 identity() { return Mat4{}; }
    static Mat4 from_trs(const Vec3& t, const Quat& r, const Vec3& s);
    static constexpr Mat4 translation(const Vec3& t) {
        Mat4 r;
        r.m[12] = t.x; r.m[13] = t.y; r.m[14] = t.z;
        return r;
    }
    static constexpr Mat4 uniform_scale(double s) {
        Mat4 r;
        r.m[0] = r.m[5] = r.m[10] = s;
        return r;
    }
    constexpr double& at(int row, int col) { return m[col * 4 + row]; }
    constexpr double at(int row, int col) const { return m[col * 4 + row]; }
    constexpr Mat4 operator*(const Mat4& o) const {
        Mat4 r;
        for (int c = 0; c < 4; ++c)
            for (int row = 0; row < 4; ++row) {
                double s = 0;
                for (int k = 0; k < 4; ++k) s += at(row, k) * o.at(k, c);
                r.at(row, c) = s;
            }
        return r;
    }
    constexpr Vec3 transform_point(const Vec3& p) const {
        return {at(0, 0) * p.x + at(0, 1) * p.y + at(0, 2) * p.z + at(0, 3),
                at(1, 0) * p.x + at(1, 1) * p.y + at(1, 2) * p.z + at(1, 3),
                at(2, 0) * p.x + at(2, 1) * p.y + at(2, 2) * p.z + at(2, 3)};
    }
    constexpr Vec3 transform_vector(const Vec3& v) const {
        return {at(0, 0) * v.x + at(0, 1) * v.y + at(0, 2) * v.z,
                at(1, 0) * v.x + at(1, 1) * v.y + at(1, 2) * v.z,
                at(2, 0) * v.x + at(2, 1) * v.y + at(2, 2) * v.z};
    }
    constexpr Vec3 translation_part() const { return {m[12], m[13], m[14]}; }
    constexpr Mat3 linear_part() const {
        Mat3 r;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) r.m[i][j] = at(i, j);
        return r;
    }
    /// General inverse; returns false (and leaves `out` unchanged) when the matrix is singular.
    bool inverse(Mat4& out) const;
    Mat4 inverted() const {
        Mat4 r;
        inverse(r);
        return r;
    }
    /// Splits into translation, rotation and scale (assumes no shear; a negative determinant puts
    /// the reflection into scale.x).
    void decompose(Vec3& t, Quat& r, Vec3& s) const;
    bool is_finite() const {
        for (double v : m)
            if (!std::isfinite(v)) return false;
        return true;
    }
};

}  // namespace weft
