#include "validate/clip_motion.h"

#include <algorithm>

#include "geom/slerp.h"

namespace weft {

namespace {

int index_of(const ClipMotion& clip, const std::string& node) {
    const auto it = std::find(clip.nodes.begin(), clip.nodes.end(), node);
    return it == clip.nodes.end() ? -1 : static_cast<int>(it - clip.nodes.begin());
}

Pose motion_of(const std::vector<Pose>& motion, int node) {
    return node >= 0 && static_cast<size_t>(node) < motion.size() ? motion[static_cast<size_t>(node)] : Pose{};
}

}  // namespace

Pose compose(const Pose& a, const Pose& b) { return {a.rotation.rotate(b.position) + a.position, a.rotation * b.rotation}; }

Pose inverse(const Pose& p) {
    const Quat r = p.rotation.conjugate();
    return {-1.0 * r.rotate(p.position), r};
}

ClipChoice ClipChoice::parse(std::string_view text) {
    const auto trim = [](std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
        return s;
    };
    text = trim(text);
    ClipChoice c;
    if (text.empty()) c.mode = defaults;
    else if (text == "all") c.mode = all;
    else if (text == "none") c.mode = none;
    else {
        c.mode = named;
        while (!text.empty()) {
            const size_t comma = text.find(',');
            const std::string_view name = trim(text.substr(0, comma));
            if (!name.empty() && std::find(c.names.begin(), c.names.end(), name) == c.names.end()) c.names.emplace_back(name);
            if (comma == std::string_view::npos) break;
            text.remove_prefix(comma + 1);
        }
        if (c.names.empty()) c.mode = none;
    }
    return c;
}

uint32_t clip_default_steps(const ClipMotion& clip) {
    const uint32_t moving = clip_blend_steps + static_cast<uint32_t>(clip.frames.size());
    return moving + std::max(moving / 2, clip_hold_min_steps);
}

std::vector<Pose> clip_step(const ClipMotion& clip, uint32_t step, bool* driven) {
    const size_t frames = clip.frames.size();
    if (driven) *driven = frames > 0 && step <= clip_blend_steps + frames;  // + the step that stops it
    if (frames == 0) return std::vector<Pose>(clip.nodes.size());
    if (step < clip_blend_steps) {
        const double u = static_cast<double>(step) / clip_blend_steps;
        std::vector<Pose> out(clip.nodes.size());
        for (size_t n = 0; n < out.size(); ++n) {
            const Pose& to = clip.frames[0][n];
            out[n] = {u * to.position, slerp(Quat{}, to.rotation, u)};
        }
        return out;
    }
    return clip.frames[std::min<size_t>(step - clip_blend_steps, frames - 1)];
}

ClipBinding bind_clip(const ClipMotion& clip, const ClothProxy& proxy, const BodyShapes* body) {
    ClipBinding b;
    b.frame = index_of(clip, proxy.frame.node);
    for (const Pin& pin : proxy.pins) b.pins.push_back(index_of(clip, pin.holder));
    if (body) {
        for (size_t i = 0; i < body->spheres.size(); ++i)
            b.spheres.push_back(i < body->sphere_bones.size() ? index_of(clip, body->sphere_bones[i]) : -1);
        for (size_t i = 0; i < body->capsules.size(); ++i)
            b.capsules.push_back(i < body->capsule_bones.size() ? index_of(clip, body->capsule_bones[i]) : -1);
    }
    return b;
}

void place_clip_step(const std::vector<Pose>& motion, const ClipBinding& binding, const Pose& rest_frame,
                     const BodyShapes* body, StepInput& in, StepInput& colliders) {
    in.frame = compose(motion_of(motion, binding.frame), rest_frame);
    // What rides node n, seen from the moving frame: frame⁻¹ ∘ motion(n) ∘ rest frame. At the bind
    // pose every one is the identity, where each hold began.
    const Pose from_frame = inverse(in.frame);
    const auto riding = [&](int node) { return compose(from_frame, compose(motion_of(motion, node), rest_frame)); };
    in.holders.resize(binding.pins.size());
    for (size_t i = 0; i < binding.pins.size(); ++i) in.holders[i] = riding(binding.pins[i]);
    if (!body) return;
    colliders.spheres.resize(body->spheres.size());
    colliders.capsules.resize(body->capsules.size());
    for (size_t i = 0; i < body->spheres.size(); ++i) {
        const Pose p = riding(i < binding.spheres.size() ? binding.spheres[i] : -1);
        colliders.spheres[i] = {p.apply(body->spheres[i].centre), body->spheres[i].radius};
    }
    for (size_t i = 0; i < body->capsules.size(); ++i) {
        const Pose p = riding(i < binding.capsules.size() ? binding.capsules[i] : -1);
        colliders.capsules[i] = {p.apply(body->capsules[i].a), p.apply(body->capsules[i].b), body->capsules[i].radius};
    }
}

}  // namespace weft
