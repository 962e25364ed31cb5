#include "garment/tail_body.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "geom/line_triangle.h"
#include "scene/bind_pose.h"
#include "scene/influences.h"

namespace weft {

namespace {

constexpr int kRays = 64;

using Triangle = std::array<Vec3, 3>;

/// The skinned meshes' triangles that reach the plane through `at` square to `along` (within a
/// micron): every ray of a section lies in that plane, so no other triangle can be one it meets,
/// and a section's 64 rays test a slice of the skin instead of all of it.
std::vector<Triangle> triangles_across(const Scene& scene, const Vec3& at, const Vec3& along) {
    constexpr double kSlack = 1e-6;
    std::vector<Triangle> across;
    for (const Mesh& mesh : scene.meshes) {
        if (!is_skinned(mesh)) continue;
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
            const Triangle tri{mesh.positions[mesh.indices[t]], mesh.positions[mesh.indices[t + 1]], mesh.positions[mesh.indices[t + 2]]};
            double low = INFINITY, high = -INFINITY;
            for (const Vec3& v : tri) {
                const double side = dot(v - at, along);
                low = std::min(low, side);
                high = std::max(high, side);
            }
            if (low <= kSlack && high >= -kSlack) across.push_back(tri);
        }
    }
    return across;
}

/// Distance along the unit direction `d` from `o` to the first of `triangles` it meets (either side
/// facing), or infinity.
double first_hit(const std::vector<Triangle>& triangles, const Vec3& o, const Vec3& d) {
    double best = INFINITY;
    for (const Triangle& tri : triangles) {
        const double hit = line_meets_triangle(o, d, tri[0], tri[1], tri[2]);
        if (hit > 0 && hit < best) best = hit;
    }
    return best;
}

/// The point at `share` of the chain's length along its joints (and on to its tip), and the unit
/// direction of the link it lies on.
bool point_along(const Scene& scene, const Chain& chain, double share, Vec3& at, Vec3& along) {
    std::vector<Vec3> points;
    for (int j : chain.joints) points.push_back(bind_world(scene, j).translation_part());
    if (chain.tip) points.push_back(*chain.tip);
    const double wanted = share * chain.length;
    double walked = 0;
    for (size_t i = 1; i < points.size(); ++i) {
        const Vec3 a = points[i - 1], b = points[i];
        const double link = distance(a, b);
        if (!(link > 0)) continue;
        if (walked + link >= wanted || i + 1 == points.size()) {
            along = (b - a) * (1 / link);
            at = a + along * std::clamp(wanted - walked, 0.0, link);
            return true;
        }
        walked += link;
    }
    return false;
}

/// Twice the median distance from `at` to the skin over rays square to `along`, or nullopt when
/// fewer than half of them meet skin.
std::optional<double> section_width(const Scene& scene, const Vec3& at, const Vec3& along) {
    const Vec3 other = std::fabs(along.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
    const Vec3 u = normalize(cross(along, other)), w = cross(along, u);
    const std::vector<Triangle> across = triangles_across(scene, at, along);
    std::vector<double> reach;
    for (int k = 0; k < kRays; ++k) {
        const double turn = 2 * M_PI * k / kRays;
        const double hit = first_hit(across, at, u * std::cos(turn) + w * std::sin(turn));
        if (std::isfinite(hit)) reach.push_back(hit);
    }
    if (reach.size() * 2 < static_cast<size_t>(kRays)) return std::nullopt;
    std::nth_element(reach.begin(), reach.begin() + static_cast<std::ptrdiff_t>(reach.size() / 2), reach.end());
    return 2 * reach[reach.size() / 2];
}

/// The chain's section at `share` of its length, or nullopt.
std::optional<double> width_along(const Scene& scene, const Chain& chain, double share) {
    Vec3 at, along;
    if (!point_along(scene, chain, share, at, along)) return std::nullopt;
    return section_width(scene, at, along);
}

/// The body's width where the chain leaves it: at the chain's parent joint, else at its root joint,
/// square to the chain's first link.
std::optional<double> hips_width(const Scene& scene, const Chain& chain) {
    const Vec3 root = bind_world(scene, chain.joints[0]).translation_part();
    const Vec3 link = bind_world(scene, chain.joints[1]).translation_part() - root;
    if (!(length(link) > 0)) return std::nullopt;
    const Vec3 along = normalize(link);
    if (chain.parent >= 0)
        if (std::optional<double> w = section_width(scene, bind_world(scene, chain.parent).translation_part(), along)) return w;
    return section_width(scene, root, along);
}

}  // namespace

std::optional<TailSection> measure_tail_section(const Scene& scene, const Chain& chain) {
    if (!(chain.length > 0) || chain.joints.size() < 2) return std::nullopt;
    const std::optional<double> width = width_along(scene, chain, kTailSectionAt);
    const std::optional<double> hips = hips_width(scene, chain);
    if (!width || !hips) return std::nullopt;
    TailSection section{*width, chain.length, *hips, 0, 0};
    for (double share : {0.375, 0.5, 0.625, 0.75, 0.875})  // short of the tip, where the section closes
        if (std::optional<double> w = width_along(scene, chain, share)) {
            section.widest_beyond = std::max(section.widest_beyond, *w);
            if (share == 0.625) section.width_on = *w;
        }
    return section;
}

std::string tail_is_body_reason(const Scene& scene, const Chain& chain) {
    const std::optional<TailSection> section = measure_tail_section(scene, chain);
    if (!section || !section->is_body()) return "";
    char text[400];
    std::snprintf(text, sizeof text,
                  "the body, not a tail that swings: a quarter of the way down its %.0f mm chain it is %.0f mm wide, %.2f "
                  "of the hips' %.0f mm, and only narrower beyond (%.2f of that width at 5/8; a tail that swings is under %.2f "
                  "of the hips there, or holds its width or widens again; docs/garments-by-geometry.md#tails-that-are-the-body)",
                  section->chain_length * 1000, section->width * 1000, section->girth_share(), section->hips_width * 1000,
                  section->width > 0 ? section->width_on / section->width : 0, kTailIsBody);
    return text;
}

}  // namespace weft
