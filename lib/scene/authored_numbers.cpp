// The numbers a model gives against its own size (scene/authored_numbers.h): one measure of the size
// that a stray vertex cannot move, and one check (io/number_range.h) for each number.
#include "scene/authored_numbers.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/format_text.h"
#include "io/number_range.h"

namespace weft::import_detail {
namespace {

std::string metres(double v) { return format_text("%g", v) + " m"; }

std::string point_text(const Vec3& p) {
    return "(" + format_text("%g", p.x) + ", " + format_text("%g", p.y) + ", " + format_text("%g", p.z) + ")";
}

/// The range a distance from the model may take: up to `factor` core sizes.
NumberRange within_sizes(double factor, const ModelCore& core, const std::string& above) {
    return {0, factor * core.size, false, "is negative", above};
}

/// One warning for the first of many like it, counting the rest: 50,000 nodes never make 50,000 lines.
struct FirstOfMany {
    std::string first, pointer;
    size_t count = 0;
    void add(std::string message, std::string at) {
        if (count++ == 0) first = std::move(message), pointer = std::move(at);
    }
    void report(Reporter& report, const IssueCode& code) const {
        if (count == 0) return;
        report.add(code, first + (count > 1 ? " (and " + std::to_string(count - 1) + " more like it)" : ""), pointer);
    }
};

}  // namespace

double distance_outside(const Bounds& b, const Vec3& p) {
    const Vec3 d = max(max(b.min - p, p - b.max), Vec3{0, 0, 0});
    return length(d);
}

ModelCore model_core(const Scene& scene) {
    size_t n = 0;
    for (const Mesh& mesh : scene.meshes) n += mesh.positions.size();
    ModelCore core;
    if (n < 8) return core;
    const size_t k = std::max<size_t>(1, n / 1000);  // left out on each side of each axis
    std::vector<double> axis(n);
    for (int a = 0; a < 3; ++a) {
        size_t i = 0;
        for (const Mesh& mesh : scene.meshes)
            for (const Vec3& p : mesh.positions) axis[i++] = a == 0 ? p.x : a == 1 ? p.y : p.z;
        std::nth_element(axis.begin(), axis.begin() + k, axis.end());
        const double low = axis[k];
        std::nth_element(axis.begin(), axis.begin() + (n - 1 - k), axis.end());
        const double high = axis[n - 1 - k];
        (a == 0 ? core.bounds.min.x : a == 1 ? core.bounds.min.y : core.bounds.min.z) = low;
        (a == 0 ? core.bounds.max.x : a == 1 ? core.bounds.max.y : core.bounds.max.z) = high;
    }
    core.size = core.bounds.diagonal();
    return core;
}

bool check_vertex_range(const Scene& scene, const ModelCore& core, Reporter& report) {
    if (!(core.size > 0)) return true;  // fewer than 8 vertices, or all of the core at one point: nothing to measure by
    const NumberRange near = within_sizes(kFarFromTheModel, core,
                                          "m outside the rest of the model, which is " + metres(core.size) + " across: more than " +
                                              format_text("%g", kFarFromTheModel) + " times its size, so the model's size (and every "
                                              "check made against it) would mean nothing; re-export the mesh");
    for (const Mesh& mesh : scene.meshes)
        for (size_t v = 0; v < mesh.positions.size(); ++v) {
            const double d = distance_outside(core.bounds, mesh.positions[v]);
            if (d <= near.high) continue;
            report.add(kVertexOutOfRange,
                       "mesh '" + mesh.name + "' (node '" + mesh.node_name + "'): vertex " + std::to_string(v) + " at " +
                           point_text(mesh.positions[v]) + ": " + number_out_of_range("it lies", d, near),
                       "/meshes/" + mesh.name + "/vertices/" + std::to_string(v));
            return false;
        }
    return true;
}

void check_node_range(const Scene& scene, const ModelCore& core, Reporter& report) {
    FirstOfMany collapsed, far;
    const NumberRange scale{1e-6, HUGE_VAL, false, "is zero (below 1e-6): what the node holds collapses onto a plane; kept", ""};
    const NumberRange near = within_sizes(kFarFromTheModel, core,
                                          "m outside the model, which is " + metres(core.size) + " across: more than " +
                                              format_text("%g", kFarFromTheModel) + " times its size; kept");
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& node = scene.nodes[i];
        const std::string label = "node '" + node.name + "'", pointer = "/nodes/" + node.name;
        Vec3 t, s;
        Quat r;
        node.local.decompose(t, r, s);
        for (const auto& [axis, value] : {std::pair{"x", s.x}, std::pair{"y", s.y}, std::pair{"z", s.z}})
            if (std::string why = number_out_of_range(std::string("scale ") + axis, std::abs(value), scale); !why.empty()) {
                collapsed.add(label + ": " + why, pointer);
                break;
            }
        if (!(core.size > 0)) continue;
        const double d = distance_outside(core.bounds, node.world.transform_point({0, 0, 0}));
        if (std::string why = number_out_of_range("its origin lies", d, near); !why.empty()) far.add(label + ": " + why, pointer);
    }
    collapsed.report(report, kTransformOutOfRange);
    far.report(report, kTransformOutOfRange);
}

namespace {

/// The node's rest translation as its clip keys give one (a root's keys are under Scene::correction,
/// clip.h), and what turns a difference of them into scene metres.
void key_frame(const Scene& scene, const Node& node, Vec3& rest, Mat4& to_scene) {
    const Mat4 file_local = node.parent < 0 ? scene.correction.inverted() * node.local : node.local;
    Quat r;
    Vec3 s;
    file_local.decompose(rest, r, s);
    to_scene = node.parent < 0 ? scene.correction : scene.nodes[static_cast<size_t>(node.parent)].world;
}

}  // namespace

void check_clip_key_range(Scene& scene, const ModelCore& core, Reporter& report) {
    const size_t n = scene.nodes.size();
    for (Clip& clip : scene.clips) {
        size_t out_of_order = 0, not_unit_length = 0, thrown = 0;
        std::string thrown_example;
        for (ClipChannel& ch : clip.channels) {
            if (ch.node < 0 || static_cast<size_t>(ch.node) >= n) continue;  // check_clips names it
            const auto count_order = [&](const auto& keys) {
                for (size_t k = 1; k < keys.size(); ++k) out_of_order += keys[k].time < keys[k - 1].time;
            };
            count_order(ch.translation);
            count_order(ch.rotation);
            count_order(ch.scale);
            for (const QuatKey& k : ch.rotation) {
                const double len = std::sqrt(k.value.x * k.value.x + k.value.y * k.value.y + k.value.z * k.value.z + k.value.w * k.value.w);
                if (std::isfinite(len) && len > 1e-6 && !not_unit("length", len, kUnitQuaternionTolerance).empty()) ++not_unit_length;
            }
            if (!(core.size > 0)) continue;
            const Node& node = scene.nodes[static_cast<size_t>(ch.node)];
            Vec3 rest;
            Mat4 to_scene;
            key_frame(scene, node, rest, to_scene);
            const NumberRange near = within_sizes(kFarForAClip, core, "m from its rest, more than " + format_text("%g", kFarForAClip) +
                                                                          " times the model's size (" + metres(core.size) + ")");
            const size_t before = ch.translation.size();
            std::erase_if(ch.translation, [&](const Vec3Key& k) {
                if (!is_finite(k.value)) return false;  // check_clips names it
                const double d = length(to_scene.transform_vector(k.value - rest));
                const std::string why = number_out_of_range("by", d, near);
                if (!why.empty() && thrown_example.empty())
                    thrown_example = "a translation key at " + format_text("%g", k.time) + " s moves node '" + node.name + "' " + why;
                return !why.empty();
            });
            thrown += before - ch.translation.size();
        }
        std::vector<std::string> parts;
        if (out_of_order) parts.push_back(std::to_string(out_of_order) + " keys out of time order (sorted)");
        if (not_unit_length) parts.push_back(std::to_string(not_unit_length) + " rotation keys not of unit length (normalised)");
        if (thrown) parts.push_back(std::to_string(thrown) + " translation keys skipped: " + thrown_example);
        if (parts.empty()) continue;
        std::string message = "clip '" + clip.name + "': ";
        for (size_t p = 0; p < parts.size(); ++p) message += (p ? "; " : "") + parts[p];
        report.add(kClipKeyOutOfRange, message, "/animations/" + clip.name);
    }
}

}  // namespace weft::import_detail
