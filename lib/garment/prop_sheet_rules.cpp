// The rules of docs/garments-by-geometry.md#cloth-on-props, each a few comparisons of the measures
// below; the thresholds and what they were measured on are on that page.
#include "garment/prop_sheet_rules.h"

#include "geom/nearest_on_triangle.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace weft::prop_detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMostHeld = 0.7;       ///< at most this share of a hanging piece's points held
constexpr double kBedTopHeight = 0.45;  ///< a bed's top over the model's shorter side, at most; a table's is higher
constexpr double kGatheredFolds = 1.15; ///< a curtain's face over its flat outline, at least
constexpr double kMostFolds = 2.0;      ///< a hanging sheet's face over its outline, at most
constexpr size_t kFewestFree = 4;       ///< free points a hanging piece needs to move at all

double round3(double v) { return std::round(v * 1000) / 1000; }

/// The measures every rule reads, in scene space (Y up).
struct Measures {
    double top = -kInf, bottom = kInf, h = 0;  ///< the piece's highest and lowest point, its height
    Vec3 across;                               ///< unit horizontal direction the piece spreads along most
    double w = 0, depth = 0;                   ///< its horizontal extent along `across` and across that
    double held_top = -kInf, held_bottom = kInf, held_across = 0;  ///< the hold's heights; its extent along `across`, share of w
    double held_bottom_refined = kInf;  ///< the lowest point held once a piece held whole is refined (PieceFacts::held_refined)
    double held_head_across = 0, held_foot_across = 0;  ///< the extent along `across` of the hold in the top and bottom quarter of h, share of w
    size_t held = 0;
    double held_share = 0;   ///< share of the points held
    double level = 0;        ///< |normal_axis.y|: 1 a level sheet, 0 an upright one
    double folds = 0;        ///< one face's area over its outline (w x h, or w x depth when level)
    // Shares of the area by how its triangles face: level (|n.y| >= 0.9), sloping or level (>= 0.5), upright (<= 0.35).
    double level_share = 0, roof_share = 0, upright_share = 0;
    double roof_height = 0;  ///< the area-weighted mean height of the sloping or level triangles
    double support = 0;      ///< share of the area lying on rigid geometry just below it
    double support_top = 0;  ///< the highest point of that support
    double clear_below = 0;  ///< of the sloping or level area: the area-weighted median drop to rigid geometry (or the floor) below it
};

/// The horizontal direction of widest spread: the leading eigenvector of the points' x-z covariance.
Vec3 widest_horizontal(const std::vector<Vec3>& points) {
    double mx = 0, mz = 0;
    for (const Vec3& p : points) mx += p.x, mz += p.z;
    mx /= double(points.size()), mz /= double(points.size());
    double xx = 0, xz = 0, zz = 0;
    for (const Vec3& p : points) {
        xx += (p.x - mx) * (p.x - mx), xz += (p.x - mx) * (p.z - mz), zz += (p.z - mz) * (p.z - mz);
    }
    const double angle = 0.5 * std::atan2(2 * xz, xx - zz);
    return {std::cos(angle), 0, std::sin(angle)};
}

/// The ray from `from` straight down: the distance to the first of `triangles` it meets, or +inf.
double down_hit(const Vec3& from, const std::vector<std::array<Vec3, 3>>& triangles) {
    double best = kInf;
    for (const auto& [a, b, c] : triangles) {
        // Barycentric test in the x-z plane, then the height of the plane there.
        const double d = (b.x - a.x) * (c.z - a.z) - (c.x - a.x) * (b.z - a.z);
        if (!(std::fabs(d) > 1e-300)) continue;
        const double u = ((from.x - a.x) * (c.z - a.z) - (c.x - a.x) * (from.z - a.z)) / d;
        const double v = ((b.x - a.x) * (from.z - a.z) - (from.x - a.x) * (b.z - a.z)) / d;
        if (u < 0 || v < 0 || u + v > 1) continue;
        const double y = a.y + u * (b.y - a.y) + v * (c.y - a.y);
        if (y <= from.y) best = std::min(best, from.y - y);
    }
    return best;
}

double normal_y(const std::array<Vec3, 3>& t) {
    const Vec3 n = cross(t[1] - t[0], t[2] - t[0]);
    const double l = length(n);
    return l > 0 ? std::fabs(n.y) / l : 0;
}

/// Per triangle of the piece: whether it lies flush in a rigid top whose own face under it is not
/// modelled (a prop pack leaves out the faces its cloth hides: Kenney's table keeps two strips of
/// its top either side of the runner, and the runner closes the top between them). Such a triangle
/// is level, rigid geometry lies under it within `near` (the body of the top, its underside), and
/// either a level rigid triangle at its height (within `band`) touches one of its corners, or it
/// shares a corner with such a triangle at the same height.
std::vector<char> lying_flush(const PieceFacts& p, double near, double band) {
    const size_t n = p.triangles.size();
    std::vector<char> flush(n, 0), candidate(n, 0);
    std::vector<std::array<Vec3, 3>> tops;
    for (const auto& r : p.rigid)
        if (normal_y(r) >= 0.9) tops.push_back(r);
    std::map<std::array<double, 3>, std::vector<size_t>> at_corner;
    std::vector<size_t> stack;
    for (size_t t = 0; t < n; ++t) {
        const auto& tri = p.triangles[t];
        const Vec3 centre = (tri[0] + tri[1] + tri[2]) / 3.0;
        if (normal_y(tri) < 0.9 || !(down_hit(centre, p.rigid) <= near)) continue;
        candidate[t] = 1;
        for (const Vec3& c : tri) at_corner[{c.x, c.y, c.z}].push_back(t);
        for (const auto& r : tops) {
            const double ry = (r[0].y + r[1].y + r[2].y) / 3.0;
            if (std::fabs(ry - centre.y) > band) continue;
            bool touches = false;
            for (const Vec3& c : tri) touches = touches || distance(c, nearest_on_triangle(c, r[0], r[1], r[2]).point) <= band;
            if (touches) {
                flush[t] = 1, stack.push_back(t);
                break;
            }
        }
    }
    while (!stack.empty()) {  // through shared corners, at the same height
        const size_t t = stack.back();
        stack.pop_back();
        const double y = (p.triangles[t][0].y + p.triangles[t][1].y + p.triangles[t][2].y) / 3.0;
        for (const Vec3& c : p.triangles[t])
            for (size_t u : at_corner[{c.x, c.y, c.z}]) {
                const double uy = (p.triangles[u][0].y + p.triangles[u][1].y + p.triangles[u][2].y) / 3.0;
                if (!flush[u] && std::fabs(uy - y) <= band) flush[u] = 1, stack.push_back(u);
            }
    }
    return flush;
}

/// Per triangle: its area, |n.y| and the drop straight below its centre to rigid geometry (or the floor).
void measure_faces(const PieceFacts& p, Measures& m) {
    const double gap = 0.05 * std::max(m.w, m.depth);
    double total = 0, supported = 0, level = 0, roof = 0, upright = 0, roof_area = 0;
    std::vector<std::pair<double, double>> drops;  // (drop, area) of the sloping or level triangles
    m.support_top = -kInf;
    const std::vector<char> flush = lying_flush(p, 2 * gap, 0.5 * gap);
    for (size_t t = 0; t < p.triangles.size(); ++t) {
        const auto& [a, b, c] = p.triangles[t];
        const Vec3 n = cross(b - a, c - a);
        const double area = 0.5 * length(n);
        if (!(area > 0)) continue;
        const double ny = std::fabs(n.y) / (2 * area);
        const Vec3 centre = (a + b + c) / 3.0;
        total += area;
        level += ny >= 0.9 ? area : 0, upright += ny <= 0.35 ? area : 0;
        const double d = down_hit(centre + Vec3{0, gap, 0}, p.rigid);
        if (d <= 2 * gap) supported += area, m.support_top = std::max(m.support_top, centre.y + gap - d);
        else if (flush[t]) supported += area, m.support_top = std::max(m.support_top, centre.y);
        if (ny < 0.5) continue;
        roof += area, roof_area += area;
        m.roof_height += area * centre.y;
        drops.push_back({std::isfinite(d) ? d - gap : centre.y - p.floor, area});
    }
    if (!(total > 0)) return;
    if (roof_area > 0) m.roof_height /= roof_area;
    m.support = supported / total, m.level_share = level / total, m.roof_share = roof / total;
    m.upright_share = upright / total;
    std::sort(drops.begin(), drops.end());
    double accumulated = 0;
    for (const auto& [d, area] : drops)
        if ((accumulated += area) >= 0.5 * roof_area) {
            m.clear_below = d;
            break;
        }
}

Measures measure(const PieceFacts& p) {
    Measures m;
    for (const Vec3& x : p.points) m.top = std::max(m.top, x.y), m.bottom = std::min(m.bottom, x.y);
    m.h = m.top - m.bottom;
    m.across = widest_horizontal(p.points);
    const Vec3 side{-m.across.z, 0, m.across.x};
    double lo = kInf, hi = -kInf, slo = kInf, shi = -kInf, hlo = kInf, hhi = -kInf;
    for (size_t i = 0; i < p.points.size(); ++i) {
        if (i < p.held_refined.size() ? p.held_refined[i] : p.held[i])
            m.held_bottom_refined = std::min(m.held_bottom_refined, p.points[i].y);
        const double s = dot(p.points[i], m.across), t = dot(p.points[i], side);
        lo = std::min(lo, s), hi = std::max(hi, s), slo = std::min(slo, t), shi = std::max(shi, t);
        if (!p.held[i]) continue;
        ++m.held;
        m.held_top = std::max(m.held_top, p.points[i].y), m.held_bottom = std::min(m.held_bottom, p.points[i].y);
        hlo = std::min(hlo, s), hhi = std::max(hhi, s);
    }
    m.w = hi - lo, m.depth = shi - slo;
    m.held_across = m.held && m.w > 0 ? (hhi - hlo) / m.w : 0;
    double head_lo = kInf, head_hi = -kInf, foot_lo = kInf, foot_hi = -kInf;
    for (size_t i = 0; i < p.points.size(); ++i) {
        if (!p.held[i]) continue;
        const double s = dot(p.points[i], m.across);
        if (p.points[i].y >= m.top - 0.25 * m.h) head_lo = std::min(head_lo, s), head_hi = std::max(head_hi, s);
        if (p.points[i].y <= m.bottom + 0.25 * m.h) foot_lo = std::min(foot_lo, s), foot_hi = std::max(foot_hi, s);
    }
    if (m.w > 0 && head_hi >= head_lo) m.held_head_across = (head_hi - head_lo) / m.w;
    if (m.w > 0 && foot_hi >= foot_lo) m.held_foot_across = (foot_hi - foot_lo) / m.w;
    m.held_share = double(m.held) / double(p.points.size());
    m.level = std::fabs(p.shape.normal_axis.y);
    // A slab's two faces both count in its area: one face is half.
    const double face = p.shape.faced_share >= 0.5 ? 0.5 * p.shape.area : p.shape.area;
    const double outline = m.level >= 0.5 ? m.w * m.depth : m.w * m.h;
    m.folds = outline > 0 ? face / outline : 0;
    measure_faces(p, m);
    return m;
}

PropClass take(const char* cls, const char* rule, std::vector<std::pair<std::string, double>> measurements) {
    for (auto& [name, value] : measurements) value = round3(value);
    return {cls, rule, std::move(measurements)};
}

bool wants(const std::vector<std::string>& wanted, const char* cls) {
    return wanted.empty() || std::find(wanted.begin(), wanted.end(), cls) != wanted.end();
}

}  // namespace

PropClass classify_prop_piece(const PieceFacts& p, const std::vector<std::string>& wanted) {
    if (p.points.empty() || !(p.height > 0)) return {};
    const Measures m = measure(p);
    if (m.held == 0 || !(m.h >= 0) || !(m.w > 0)) return {};
    const double above_floor = (m.bottom - p.floor) / p.height, reach = (m.top - p.floor) / p.height;
    const double size = std::max(m.w, m.depth);

    // Lying on a top, it is held where it lies and hangs free over the edge.
    if (m.support >= 0.3 && m.level_share >= 0.3 && m.upright_share >= 0.1 && m.support_top > m.bottom) {
        const double drop = (m.support_top - m.bottom) / size;
        const double top_height = p.footprint_short > 0 ? (m.support_top - p.floor) / p.footprint_short : 0;
        const bool bed = top_height <= kBedTopHeight;
        const char* cls = bed ? "blanket" : "tablecloth";
        // Its hem hangs free: nothing holds the lowest tenth of what hangs over, as the builder holds it.
        const bool hem_free = m.held_bottom_refined > m.bottom + 0.1 * (m.support_top - m.bottom);
        if (drop >= 0.1 && hem_free && wants(wanted, cls))
            return take(cls, bed ? "blanket: lies on a low rigid top (a bed) and hangs over its edge"
                                 : "tablecloth: lies on a high rigid top (a table) and hangs over its edge",
                        {{"lying_share", m.support}, {"level_share", m.level_share}, {"upright_share", m.upright_share},
                         {"hangs_below_top", drop}, {"top_height", top_height}});
    }
    if (m.support >= 0.3) return {};  // lying on something without hanging over it: a folded blanket
    // Hanging cloth hangs from its hold: a piece held nearly all over (a mattress in its frame, a
    // patch nailed flat) is no prop's cloth.
    if (m.held_share > kMostHeld || p.points.size() - m.held < kFewestFree) return {};
    const double held_height = m.h > 0 ? (m.held_top - m.bottom) / m.h : 0;
    const double sloping = 1 - m.level_share - m.upright_share;  // neither level nor upright
    if (wants(wanted, "tent") && above_floor <= 0.05 && reach >= 0.5 && held_height >= 0.6 && m.depth >= 0.3 * m.w &&
        sloping >= 0.3)
        return take("tent", "tent: slopes from a high hold down to the model's floor, around a space",
                    {{"above_floor", above_floor}, {"reach", reach}, {"held_height", held_height},
                     {"depth", m.depth / m.w}, {"sloping_share", sloping}});
    // A relief or a box (a window frame on a wall) has far more surface than its outline: no sheet hangs so.
    if (m.folds > kMostFolds) return {};
    if (m.roof_share >= 0.3) {
        const double roof_above_floor = (m.roof_height - p.floor) / p.height, clear = m.clear_below / size;
        if (wants(wanted, "awning") && roof_above_floor >= 0.3 && clear >= 0.35 && m.clear_below >= 0.15 * p.height)
            return take("awning", "awning: a sloping or level sheet over open space, held by posts or a frame",
                        {{"sloping_share", m.roof_share}, {"above_floor", roof_above_floor}, {"clear_below", clear}});
        return {};
    }
    const double upright = 1 - m.level;
    const double held_span = m.h > 0 ? (m.held_top - m.held_bottom) / m.h : 0;
    // A sail is held along its head (a yard) and at its foot (a boom, a second yard or the mast's foot).
    const bool hangs_from_top = m.held_top >= m.top - 0.1 * m.h;
    if (wants(wanted, "sail") && upright >= 0.4 && m.h > 0 && hangs_from_top && m.held_head_across >= 0.4 &&
        m.held_bottom <= m.bottom + 0.25 * m.h)
        return take("sail", "sail: upright, held along its head and at its foot (yards, mast, boom)",
                    {{"upright", upright}, {"held_head_across", m.held_head_across},
                     {"held_foot_across", m.held_foot_across}, {"held_height", held_span}});
    if (wants(wanted, "flag") && upright >= 0.5 && held_span >= 0.5 && m.held_across <= 0.25)
        return take("flag", "flag: upright, held along one upright edge (a pole)",
                    {{"upright", upright}, {"held_height", held_span}, {"held_across", m.held_across}});
    if (upright >= 0.5 && m.h > 0 && hangs_from_top && m.held_bottom >= m.top - 0.25 * m.h && m.held_head_across >= 0.3) {
        const bool gathered = m.folds >= kGatheredFolds;
        const char* cls = gathered ? "curtain" : "banner";
        if (wants(wanted, cls))
            return take(cls, gathered ? "curtain: upright, hangs from its top, gathered in folds"
                                      : "banner: upright, hangs flat from its top",
                        {{"upright", upright}, {"held_below_top", (m.top - m.held_bottom) / m.h},
                         {"held_head_across", m.held_head_across}, {"folds", m.folds}});
    }
    return {};
}

}  // namespace weft::prop_detail
