#include "garment/geometry.h"

#include <algorithm>
#include <cmath>

#include "scene/bind_pose.h"
#include "scene/hierarchy.h"
#include "garment/classes.h"

namespace weft {

namespace {

/// How far down towards its hem a skirt's surface must still bridge the legs, as a share of the hem's
/// depth below the hip joints (docs/garments-by-geometry.md#the-rules): the skirts measured 0.80 (the
/// Witch) to 1.0 (the mannequin's, a knee-length dress), baggy knee breeches 0.62 (their two legs part
/// below the crotch).
constexpr double kSkirtBridgeReach = 0.7;

bool has_word(const std::vector<std::string>& words, std::string_view w) {
    return std::find(words.begin(), words.end(), w) != words.end();
}

/// The region a bone's own name says, or `other` when it says none.
BodyRegion region_of_name(const std::string& name) {
    const std::vector<std::string> w = split_words(name);
    if (has_word(w, "thigh") || has_word(w, "upleg") || has_word(w, "upperleg") || has_word(w, "leg") ||
        has_word(w, "legs") || has_word(w, "knee") || has_word(w, "calf") || has_word(w, "shin") ||
        has_word(w, "foot") || has_word(w, "toe"))
        return BodyRegion::legs;
    if (has_word(w, "hips") || has_word(w, "hip") || has_word(w, "pelvis")) return BodyRegion::hips;
    if (has_word(w, "head")) return BodyRegion::head;
    if (has_word(w, "neck")) return BodyRegion::neck;
    if (has_word(w, "shoulder") || has_word(w, "clavicle") || has_word(w, "arm") || has_word(w, "upperarm") ||
        has_word(w, "forearm") || has_word(w, "hand") || has_word(w, "elbow") || has_word(w, "wrist"))
        return BodyRegion::arms;
    if (has_word(w, "spine") || has_word(w, "chest") || has_word(w, "torso") || has_word(w, "abdomen") ||
        has_word(w, "stomach") || has_word(w, "belly"))
        return BodyRegion::torso;
    return BodyRegion::other;
}

Vec3 origin_of(const Scene& scene, int node) { return bind_world(scene, node).translation_part(); }

double distance_to_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
    const Vec3 ab = b - a;
    const double l2 = dot(ab, ab);
    const double t = l2 > 0 ? std::clamp(dot(p - a, ab) / l2, 0.0, 1.0) : 0.0;
    return distance(p, a + ab * t);
}

double round3(double v) { return std::round(v * 1000) / 1000; }

}  // namespace

const char* body_region_name(BodyRegion region) {
    switch (region) {
        case BodyRegion::hips: return "hips";
        case BodyRegion::legs: return "legs";
        case BodyRegion::torso: return "torso";
        case BodyRegion::arms: return "arms";
        case BodyRegion::neck: return "neck";
        case BodyRegion::head: return "head";
        case BodyRegion::other: break;
    }
    return "other";
}

const std::vector<std::string>& geometry_classes() {
    static const std::vector<std::string> classes{"skirt", "cape", "necktie", "hair"};
    return classes;
}

HumanoidBones find_humanoid_bones(const Scene& scene) {
    HumanoidBones b;
    const size_t n = scene.nodes.size();
    b.region.assign(n, BodyRegion::other);
    std::vector<char> joint(n, 0);
    for (const Skin& skin : scene.skins)
        for (int j : skin.joints) joint[static_cast<size_t>(j)] = 1;
    // Regions top-down: a bone takes its own name's region, else its nearest named ancestor's.
    std::vector<char> named(n, 0);
    for (size_t i = 0; i < n; ++i) {
        BodyRegion r = region_of_name(scene.nodes[i].name);
        named[i] = r != BodyRegion::other;
        b.region[i] = r;
    }
    for (size_t i = 0; i < n; ++i) {
        if (named[i]) continue;
        for (int p : ancestors(scene, static_cast<int>(i)))
            if (named[static_cast<size_t>(p)]) {
                b.region[i] = b.region[static_cast<size_t>(p)];
                break;
            }
    }
    auto parent_region = [&](size_t i) {
        const int p = scene.nodes[i].parent;
        return p >= 0 ? b.region[static_cast<size_t>(p)] : BodyRegion::other;
    };
    // The topmost joint of each region: the one whose parent is of another region.
    int thighs = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!joint[i] || !named[i] || parent_region(i) == b.region[i]) continue;
        const int node = static_cast<int>(i);
        switch (b.region[i]) {
            case BodyRegion::hips: if (b.hips < 0) b.hips = node; break;
            case BodyRegion::head: if (b.head < 0) b.head = node; break;
            case BodyRegion::neck: if (b.neck < 0) b.neck = node; break;
            case BodyRegion::torso: if (b.chest < 0) b.chest = node; break;
            case BodyRegion::legs: if (thighs < 2) b.thigh[static_cast<size_t>(thighs++)] = node; break;
            default: break;
        }
    }
    // The chest: the deepest torso joint (the one the neck or the arms hang from).
    for (size_t i = 0; i < n; ++i)
        if (joint[i] && b.region[i] == BodyRegion::torso) {
            bool leaf = true;
            for (int c : scene.nodes[i].children)
                if (c >= 0 && static_cast<size_t>(c) < n && b.region[static_cast<size_t>(c)] == BodyRegion::torso) leaf = false;
            if (leaf) b.chest = static_cast<int>(i);
        }
    if (!b.humanoid()) return b;
    b.hips_at = origin_of(scene, b.hips);
    b.head_at = origin_of(scene, b.head);
    b.neck_at = b.neck >= 0 ? origin_of(scene, b.neck) : b.head_at;
    b.chest_at = b.chest >= 0 ? origin_of(scene, b.chest) : (b.hips_at + b.neck_at) * 0.5;
    double toe_z = 0;
    for (size_t s = 0; s < 2; ++s) {
        const int t = b.thigh[s];
        b.thigh_at[s] = origin_of(scene, t);
        const auto& kids = scene.nodes[static_cast<size_t>(t)].children;
        b.knee[s] = kids.empty() ? -1 : kids.front();
        b.knee_at[s] = b.knee[s] >= 0 ? origin_of(scene, b.knee[s]) : b.thigh_at[s] - Vec3{0, 0.4, 0};
        const auto& shin_kids = b.knee[s] >= 0 ? scene.nodes[static_cast<size_t>(b.knee[s])].children : std::vector<int>{};
        b.ankle_at[s] = shin_kids.empty() ? b.knee_at[s] + (b.knee_at[s] - b.thigh_at[s])
                                          : origin_of(scene, shin_kids.front());
        // The foot points forward: the ankle's descendants' reach in z says which way the model faces.
        if (!shin_kids.empty()) {
            int foot = shin_kids.front();
            for (int depth = 0; depth < 3 && !scene.nodes[static_cast<size_t>(foot)].children.empty(); ++depth)
                foot = scene.nodes[static_cast<size_t>(foot)].children.front();
            toe_z += origin_of(scene, foot).z - b.ankle_at[s].z;
        }
    }
    b.front = toe_z < -1e-4 ? -1 : 1;
    return b;
}

PieceClass classify_piece(const HumanoidBones& b, const BodyPiece& piece, const std::vector<std::string>& wanted) {
    PieceClass out;
    const size_t n = piece.positions.size();
    if (!b.humanoid() || n == 0) return out;
    auto want = [&](std::string_view c) { return std::find(wanted.begin(), wanted.end(), c) != wanted.end(); };

    // Weight shares per region, and the piece's extent.
    std::array<double, 7> share{};
    double total = 0;
    for (const auto& ws : piece.weights)
        for (const auto& [node, w] : ws) {
            const BodyRegion r = node >= 0 && static_cast<size_t>(node) < b.region.size() ? b.region[static_cast<size_t>(node)]
                                                                                          : BodyRegion::other;
            share[static_cast<size_t>(r)] += w;
            total += w;
        }
    if (!(total > 0)) return out;
    for (double& s : share) s /= total;
    auto sh = [&](BodyRegion r) { return share[static_cast<size_t>(r)]; };
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY}, centre;
    for (const Vec3& p : piece.positions) {
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        centre += p;
    }
    centre = centre / double(n);

    const Vec3 mid = (b.thigh_at[0] + b.thigh_at[1]) * 0.5;
    const double half_gap = 0.5 * std::hypot(b.thigh_at[0].x - b.thigh_at[1].x, b.thigh_at[0].z - b.thigh_at[1].z);
    const double crotch = mid.y;
    const double leg = 0.5 * (distance(b.thigh_at[0], b.knee_at[0]) + distance(b.thigh_at[1], b.knee_at[1]));
    const double torso = std::max(b.neck_at.y - b.hips_at.y, 1e-3);

    if (want("skirt") && half_gap > 0 && leg > 0) {
        const double weight = sh(BodyRegion::hips) + sh(BodyRegion::legs);
        // Below the crotch (by a tenth of the thigh), vertices near the midline and farther from
        // every leg bone than the hip joints are from the midline: surface between the legs, not on them.
        // Feet reach forward past the shins; below the ankles nothing bridges.
        const double ankle = std::max(b.ankle_at[0].y, b.ankle_at[1].y);
        const double hem = std::max(lo.y, ankle);
        size_t below = 0, bridge = 0;
        double clearance = 0, bridge_low = INFINITY;
        for (const Vec3& p : piece.positions) {
            if (p.y > crotch - 0.1 * leg || p.y < ankle) continue;
            ++below;
            const double across = std::fabs((p.x - mid.x));
            if (across > 0.35 * half_gap) continue;
            double d = INFINITY;
            for (size_t s = 0; s < 2; ++s)
                d = std::min({d, distance_to_segment(p, b.thigh_at[s], b.knee_at[s]),
                              distance_to_segment(p, b.knee_at[s], b.ankle_at[s])});
            clearance = std::max(clearance, d / half_gap);
            if (d > 1.2 * half_gap) ++bridge, bridge_low = std::min(bridge_low, p.y);
        }
        const bool ok = weight >= 0.6 && hi.y >= crotch && hi.y <= b.chest_at.y + 0.1 * torso &&
                        lo.y <= crotch - 0.3 * leg && bridge >= 2 && crotch - bridge_low >= kSkirtBridgeReach * (crotch - hem);
        if (ok) {
            out.class_name = "skirt";
            out.rule = "skirt: hangs from the hips and bridges the legs below the crotch";
            out.measurements = {{"weight_hips_legs", round3(weight)},
                                {"top_above_hip_joints", round3(hi.y - crotch)},
                                {"hem_below_crotch", round3(crotch - lo.y)},
                                {"bridge_vertices", double(bridge)},
                                {"bridge_clearance", round3(clearance)},
                                {"bridge_depth", round3(bridge > 0 ? crotch - bridge_low : 0.0)}};
            return out;
        }
    }
    if (want("cape")) {
        const double weight = sh(BodyRegion::torso) + sh(BodyRegion::arms) + sh(BodyRegion::neck);
        size_t behind = 0;
        for (const Vec3& p : piece.positions)
            if ((p.z - b.chest_at.z) * b.front < -0.05 * torso) ++behind;
        const double behind_share = double(behind) / double(n);
        const bool ok = weight >= 0.6 && hi.y >= b.chest_at.y - 0.2 * torso && lo.y <= b.hips_at.y &&
                        behind_share >= 0.8 && (hi.x - lo.x) >= half_gap * 2 &&
                        lo.y <= b.hips_at.y - 0.25 * leg;
        if (ok) {
            out.class_name = "cape";
            out.rule = "cape: hangs from the chest or shoulders down the back, away from the body";
            out.measurements = {{"weight_torso_arms_neck", round3(weight)},
                                {"top_below_chest", round3(b.chest_at.y - hi.y)},
                                {"hem_below_hips", round3(b.hips_at.y - lo.y)},
                                {"share_behind_chest", round3(behind_share)}};
            return out;
        }
    }
    if (want("necktie")) {
        const double weight = sh(BodyRegion::neck) + sh(BodyRegion::torso);
        size_t front = 0;
        for (const Vec3& p : piece.positions)
            if ((p.z - b.chest_at.z) * b.front > 0) ++front;
        const double front_share = double(front) / double(n);
        const double width = hi.x - lo.x, length = hi.y - lo.y;
        const bool ok = weight >= 0.6 && hi.y >= b.chest_at.y + 0.5 * (b.neck_at.y - b.chest_at.y) &&
                        length >= 0.3 * torso && width <= 0.5 * length && front_share >= 0.9;
        if (ok) {
            out.class_name = "necktie";
            out.rule = "necktie: hangs from the neck down the front";
            out.measurements = {{"weight_neck_torso", round3(weight)},
                                {"length", round3(length)},
                                {"width", round3(width)},
                                {"share_in_front", round3(front_share)}};
            return out;
        }
    }
    if (want("hair")) {
        const double weight = sh(BodyRegion::head);
        const bool ok = weight >= 0.8 && lo.y < b.neck_at.y && (centre.z - b.head_at.z) * b.front < 0;
        if (ok) {
            out.class_name = "hair";
            out.rule = "hair: weighted to the head, hanging below the neck behind it";
            out.measurements = {{"weight_head", round3(weight)},
                                {"below_neck", round3(b.neck_at.y - lo.y)},
                                {"behind_head", round3((b.head_at.z - centre.z) * b.front)}};
            return out;
        }
    }
    return out;
}

}  // namespace weft
